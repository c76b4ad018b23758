#include "transpiler/analysis/reaching_definitions.h"

#include <algorithm>

#include "transpiler/analysis/activity.h"
#include "transpiler/analysis/analysis_cache.h"
#include "transpiler/analysis/cfg.h"
#include "transpiler/analysis/dataflow.h"
#include "transpiler/analysis/statements.h"

namespace agc::analysis {

using namespace ast;

// A function's CFG with, per node, the names it defines (gen: every binding
// but del) and the ones it ends (kill: modifications and deletions). A name
// the function never mentions is defined wherever flow from its entry goes
// if it was defined where the function is (its parent's node) and the
// function does not assign it.
struct ReachingDefinitions::Flow {
  std::shared_ptr<const Cfgs> cfgs;  // keeps `g` alive
  const Cfg* g = nullptr;
  SymbolIndex symbols;  // the names the function mentions
  std::vector<std::vector<int>> gen, kill;  // by node id - 1
  std::vector<char> external;  // by symbol: defined on entry
  std::shared_ptr<const Flow> parent;
  int parent_node = 0;
  QNSet assigned;  // the names a nested function binds itself (its locals)
  std::vector<char> from_entry;  // by node id - 1: reached from the entry

  bool pure_kill(size_t k, int v) const {
    const auto& kl = kill[k];
    const auto& gl = gen[k];
    return std::find(kl.begin(), kl.end(), v) != kl.end() && std::find(gl.begin(), gl.end(), v) == gl.end();
  }

  /// Marks in `reached` the nodes at whose end a definition of symbol `v`
  /// may have arrived, forward from `seeds` (its definitions, and the entry
  /// if it is defined there), never through a `blocked` node (one ending it
  /// without defining it again), and only over nodes that can flow to an id
  /// at most `limit` (can_reach_up_to): the nodes asked about.
  void reach(int limit, const std::vector<int>& seeds, const NodeMarks& blocked, NodeMarks& reached,
             std::vector<int>& todo) const {
    for (int k : seeds) {
      if (can_reach_up_to(g->node(k), limit) && reached.mark(k)) todo.push_back(k);
    }
    while (!todo.empty()) {
      const CfgNode& a = g->node(todo.back());
      todo.pop_back();
      for (const CfgNode* b : a.next) {
        if (!blocked.marked(b->id) && can_reach_up_to(*b, limit) && reached.mark(b->id)) todo.push_back(b->id);
      }
    }
  }

  /// Whether a definition of `q` may reach the end of any of the nodes `at`:
  /// the search compute() makes for all names at once, for one.
  bool defined_at_any(const std::vector<int>& at, const QN& q) const {
    if (at.empty()) return false;
    int v = symbols.find(q);
    if (v < 0) {
      if (!parent || assigned.count(q)) return false;
      bool flows = std::any_of(at.begin(), at.end(), [&](int k) { return from_entry[static_cast<size_t>(k - 1)]; });
      return flows && parent->defined_at_any({parent_node}, q);
    }
    const size_t n = g->nodes.size();
    NodeMarks blocked(n), reached(n);
    std::vector<int> seeds, todo;
    for (size_t k = 0; k < n; ++k) {
      const auto& gl = gen[k];
      if (std::find(gl.begin(), gl.end(), v) != gl.end()) seeds.push_back(static_cast<int>(k) + 1);
      if (pure_kill(k, v)) blocked.mark(static_cast<int>(k) + 1);
    }
    if (external[static_cast<size_t>(v)] && !blocked.marked(g->entry->id)) seeds.push_back(g->entry->id);
    reach(*std::max_element(at.begin(), at.end()), seeds, blocked, reached, todo);
    return std::any_of(at.begin(), at.end(), [&](int k) { return reached.marked(k); });
  }
};

namespace {

std::vector<int> node_ids(const CfgNodeSet& s) {
  std::vector<int> out;
  out.reserve(s.size());
  for (const CfgNode* c : s) out.push_back(c->id);
  return out;
}

}  // namespace

bool ReachingDefinitions::defined_in(const Node* stmt, const QN& q) const {
  auto it = defined_in_.find(stmt);
  if (it == defined_in_.end()) return false;
  const Defined& d = it->second;
  int v = d.flow->symbols.find(q);
  if (v >= 0) {
    auto b = std::lower_bound(d.bound.begin(), d.bound.end(), std::make_pair(v, false));
    if (b != d.bound.end() && b->first == v) return b->second;
  }
  auto prev = d.flow->g->stmt_prev.find(stmt);
  return prev != d.flow->g->stmt_prev.end() && d.flow->defined_at_any(node_ids(prev->second), q);
}

class ReachingDefinitionsAnalyzer {
 public:
  ReachingDefinitionsAnalyzer(ReachingDefinitions& out, const Activity& act, std::shared_ptr<const Cfgs> cfgs)
      : out_(out), act_(act), cfgs_(std::move(cfgs)) {}

  /// `external`: the names defined on entry, among those `fn` mentions.
  void function(const Node* fn, const QNSet& external, std::shared_ptr<const ReachingDefinitions::Flow> parent,
                int parent_node) {
    auto flow = std::make_shared<ReachingDefinitions::Flow>();
    ReachingDefinitions::Flow& f = *flow;
    f.cfgs = cfgs_;
    f.g = cfgs_->of(fn);
    f.parent = std::move(parent);
    f.parent_node = parent_node;
    if (f.parent) {
      if (const Scope* body = act_.body_scope(fn)) f.assigned = body->modified;
    }
    const Cfg& g = *f.g;
    const size_t n = g.nodes.size();
    auto id = [](const CfgNode* c) { return static_cast<size_t>(c->id - 1); };

    SymbolIndex& symbols = f.symbols;
    mentioned(g, symbols);
    f.external.assign(symbols.size(), 0);
    for (const auto& q : external) {
      if (int i = symbols.find(q); i >= 0) f.external[static_cast<size_t>(i)] = 1;
    }
    // Every binding (assignment, nonlocal, global, import, def) defines a name
    // except del; modifications and deletions kill earlier definitions.
    f.gen.resize(n);
    f.kill.resize(n);
    for (const CfgNode& c : g.nodes) {
      const Scope* sc = act_.scope(c.ast);
      if (!sc) continue;
      size_t k = id(&c);
      for (const auto* set : {&sc->bound, &sc->globals}) {
        for (const auto& q : *set) {
          if (!sc->deleted.count(q)) f.gen[k].push_back(symbols.find(q));
        }
      }
      for (const auto* set : {&sc->modified, &sc->deleted}) {
        for (const auto& q : *set) f.kill[k].push_back(symbols.find(q));
      }
    }
    f.from_entry.assign(n, 0);
    std::vector<int> todo;
    if (g.entry) {
      f.from_entry[id(g.entry)] = 1;
      todo.push_back(g.entry->id);
      while (!todo.empty()) {
        const CfgNode& a = g.node(todo.back());
        todo.pop_back();
        for (const CfgNode* b : a.next) {
          if (!f.from_entry[id(b)]) {
            f.from_entry[id(b)] = 1;
            todo.push_back(b->id);
          }
        }
      }
    }

    // The questions: for each compound statement, the names it binds on
    // entry to it (what control_flow asks); for each nested def, the names it
    // mentions where it is defined (its own external names).
    struct Question {
      const Node* stmt;
      std::vector<int> at;  // the nodes flowing into it
      std::vector<std::pair<int, bool>> bound;
    };
    std::vector<Question> questions;
    std::vector<const Node*> nested;
    for_each_statement(fn, [&](const Node* s) {
      const Scope* scopes[3] = {};
      switch (s->kind) {
        case NodeKind::If:
        case NodeKind::While:
          scopes[0] = act_.body_scope(s);
          scopes[1] = act_.orelse_scope(s);
          break;
        case NodeKind::For:
          scopes[0] = act_.body_scope(s);
          scopes[1] = act_.orelse_scope(s);
          scopes[2] = act_.iterate_scope(s);
          break;
        case NodeKind::ExceptHandler:
          scopes[0] = act_.body_scope(s);
          break;
        case NodeKind::Try:
          break;
        default:
          return;
      }
      Question& qn = questions.emplace_back();
      qn.stmt = s;
      if (auto it = g.stmt_prev.find(s); it != g.stmt_prev.end()) qn.at = node_ids(it->second);
      for (const Scope* sc : scopes) {
        if (!sc) continue;
        for (const auto& q : sc->bound) {
          if (int i = symbols.find(q); i >= 0) qn.bound.emplace_back(i, false);
        }
      }
      std::sort(qn.bound.begin(), qn.bound.end());
      qn.bound.erase(std::unique(qn.bound.begin(), qn.bound.end()), qn.bound.end());
    }, [&](const Node* d) { nested.push_back(d); });

    const size_t nv = symbols.size();
    std::vector<int> limit(nv, 0);
    std::vector<std::vector<std::pair<size_t, size_t>>> asked(nv);  // (question, index in its bound)
    for (size_t i = 0; i < questions.size(); ++i) {
      const Question& qn = questions[i];
      if (qn.at.empty()) continue;
      int last = *std::max_element(qn.at.begin(), qn.at.end());
      for (size_t j = 0; j < qn.bound.size(); ++j) {
        size_t v = static_cast<size_t>(qn.bound[j].first);
        asked[v].emplace_back(i, j);
        limit[v] = std::max(limit[v], last);
      }
    }
    std::vector<int> nested_node(nested.size());
    std::vector<std::vector<size_t>> asked_at_def(nv);  // nested defs whose names include the symbol
    std::vector<QNSet> nested_external(nested.size());
    std::vector<std::vector<QN>> nested_unknown(nested.size());  // mentioned there, not here
    for (size_t i = 0; i < nested.size(); ++i) {
      nested_node[i] = g.find(nested[i])->id;
      SymbolIndex inner;
      mentioned(*cfgs_->of(nested[i]), inner);
      for (size_t j = 0; j < inner.size(); ++j) {
        int v = symbols.find(inner.at(j));
        if (v < 0) {
          nested_unknown[i].push_back(inner.at(j));
          continue;
        }
        asked_at_def[static_cast<size_t>(v)].push_back(i);
        limit[static_cast<size_t>(v)] = std::max(limit[static_cast<size_t>(v)], nested_node[i]);
      }
    }

    // One name at a time (see dataflow.h): forward from its definitions, not
    // past a node that ends it, and only as far as the questions about it.
    std::vector<std::vector<int>> defs(nv), ends(nv);
    for (size_t k = 0; k < n; ++k) {
      for (int v : f.gen[k]) defs[static_cast<size_t>(v)].push_back(static_cast<int>(k) + 1);
      for (int v : f.kill[k]) {
        if (f.pure_kill(k, v)) ends[static_cast<size_t>(v)].push_back(static_cast<int>(k) + 1);
      }
    }
    NodeMarks reached(n), blocked(n);
    for (size_t v = 0; v < nv; ++v) {
      if (!limit[v]) continue;
      reached.clear();
      blocked.clear();
      for (int k : ends[v]) blocked.mark(k);
      std::vector<int>& seeds = defs[v];
      if (f.external[v] && g.entry && !blocked.marked(g.entry->id)) seeds.push_back(g.entry->id);
      f.reach(limit[v], seeds, blocked, reached, todo);
      for (const auto& [i, j] : asked[v]) {
        Question& qn = questions[i];
        qn.bound[j].second = std::any_of(qn.at.begin(), qn.at.end(), [&](int k) { return reached.marked(k); });
      }
      for (size_t i : asked_at_def[v]) {
        if (reached.marked(nested_node[i])) nested_external[i].insert(symbols.at(v));
      }
    }

    for (Question& qn : questions) out_.defined_in_[qn.stmt] = {flow, std::move(qn.bound)};
    // A nested function sees what reaches its definition, except the names
    // it assigns itself (those are its locals).
    for (size_t i = 0; i < nested.size(); ++i) {
      QNSet& ext = nested_external[i];
      for (const QN& q : nested_unknown[i]) {
        if (f.defined_at_any({nested_node[i]}, q)) ext.insert(q);
      }
      if (const Scope* body = act_.body_scope(nested[i])) {
        for (const auto& q : body->modified) ext.erase(q);
      }
      function(nested[i], ext, flow, nested_node[i]);
    }
  }

 private:
  /// The names a function's CFG mentions.
  void mentioned(const Cfg& g, SymbolIndex& symbols) const {
    for (const CfgNode& c : g.nodes) {
      if (const Scope* sc = act_.scope(c.ast)) {
        symbols.add_all(sc->bound);
        symbols.add_all(sc->globals);
        symbols.add_all(sc->modified);
        symbols.add_all(sc->deleted);
      }
    }
  }

  ReachingDefinitions& out_;
  const Activity& act_;
  std::shared_ptr<const Cfgs> cfgs_;
};

ReachingDefinitions ReachingDefinitions::compute(const ast::Ref& root, AnalysisCache& cache) {
  ReachingDefinitions out;
  if (!root || !root->is<FunctionDef>()) return out;
  ReachingDefinitionsAnalyzer a(out, cache.get<Activity>(root), cache.get_shared<Cfgs>(root));
  a.function(root.get(), {}, nullptr, 0);
  return out;
}

}  // namespace agc::analysis
