#include "transpiler/analysis/liveness.h"

#include <set>

#include "transpiler/analysis/activity.h"
#include "transpiler/analysis/analysis_cache.h"
#include "transpiler/analysis/cfg.h"
#include "transpiler/analysis/dataflow.h"
#include "transpiler/analysis/statements.h"

namespace agc::analysis {

using namespace ast;

class LivenessAnalyzer {
 public:
  LivenessAnalyzer(Liveness& out, const Activity& act, const Cfgs& cfgs) : out_(out), act_(act), cfgs_(cfgs) {}

  void function(const Node* fn, const std::set<const Node*>& external_fns) {
    const Cfg& g = *cfgs_.of(fn);
    const size_t n = g.nodes.size();
    auto id = [](const CfgNode* c) { return static_cast<size_t>(c->id - 1); };

    // Reaching nested function definitions (pyct's reaching_fndefs): no kills.
    std::vector<std::set<const Node*>> fn_in(n), fn_out(n);
    for (bool changed = true; changed;) {
      changed = false;
      for (const CfgNode& c : g.nodes) {
        std::set<const Node*> in = &c == g.entry ? external_fns : std::set<const Node*>{};
        for (const CfgNode* p : c.prev) in.insert(fn_out[id(p)].begin(), fn_out[id(p)].end());
        std::set<const Node*> out = in;
        if (c.ast->is<FunctionDef>()) out.insert(c.ast);
        if (out != fn_out[id(&c)]) changed = true;
        fn_in[id(&c)] = std::move(in);
        fn_out[id(&c)] = std::move(out);
      }
    }

    // gen/kill per node. A nested function's free variables count as read
    // wherever its definition reaches.
    SymbolIndex symbols;
    for (const CfgNode& c : g.nodes) {
      if (const Scope* sc = act_.scope(c.ast)) {
        symbols.add_all(sc->read);
        symbols.add_all(sc->modified);
        symbols.add_all(sc->deleted);
      }
      for (const Node* fd : fn_in[id(&c)]) {
        if (const Scope* fs = act_.function_scope(fd)) symbols.add_all(fs->read);
      }
    }
    // gen and kill are a few names per node, so they are lists, not bit sets.
    std::vector<std::vector<int>> gen(n), kill(n);
    for (const CfgNode& c : g.nodes) {
      const Scope* sc = act_.scope(c.ast);
      if (!sc) continue;
      std::vector<int>& gn = gen[id(&c)];
      for (const auto& q : sc->read) gn.push_back(symbols.find(q));
      for (const Node* fd : fn_in[id(&c)]) {
        const Scope* fs = act_.function_scope(fd);
        if (!fs) continue;
        for (const auto& q : fs->read) {
          if (!fs->bound.count(q)) gn.push_back(symbols.find(q));
        }
      }
      for (const auto* set : {&sc->modified, &sc->deleted}) {
        for (const auto& q : *set) kill[id(&c)].push_back(symbols.find(q));
      }
    }

    // Only these nodes' sets are read: the test or iterate of each If/While/For
    // (live_in) and the nodes each compound statement flows to (live_out).
    std::vector<int> slot(n + 1, -1);
    std::vector<std::vector<int>> live;  // by slot: the symbols live on entry, ascending
    auto want = [&](const CfgNode* c) {
      if (c && slot[static_cast<size_t>(c->id)] < 0) {
        slot[static_cast<size_t>(c->id)] = static_cast<int>(live.size());
        live.emplace_back();
      }
    };
    for_each_statement(fn, [&](const Node* s) {
      switch (s->kind) {
        case NodeKind::If: want(g.find(s->as<If>().test.get())); break;
        case NodeKind::While: want(g.find(s->as<While>().test.get())); break;
        case NodeKind::For: want(g.find(s->as<For>().iter.get())); break;
        default: break;
      }
      if (auto it = g.stmt_next.find(s); it != g.stmt_next.end()) {
        for (const CfgNode* x : it->second) want(x);
      }
    }, [](const Node*) {});

    // One name at a time (see dataflow.h): backward from the nodes reading
    // it, not past a node that overwrites it without reading it.
    std::vector<std::vector<int>> reads(symbols.size()), writes(symbols.size());
    for (size_t k = 0; k < n; ++k) {
      for (int v : gen[k]) reads[static_cast<size_t>(v)].push_back(static_cast<int>(k) + 1);
      for (int v : kill[k]) writes[static_cast<size_t>(v)].push_back(static_cast<int>(k) + 1);
    }
    NodeMarks live_at(n), written(n);
    std::vector<int> todo;
    for (size_t v = 0; v < symbols.size(); ++v) {
      live_at.clear();
      written.clear();
      for (int k : writes[v]) written.mark(k);
      for (int k : reads[v]) {
        if (live_at.mark(k)) todo.push_back(k);
      }
      while (!todo.empty()) {
        const CfgNode& c = g.node(todo.back());
        todo.pop_back();
        if (int sl = slot[static_cast<size_t>(c.id)]; sl >= 0) live[static_cast<size_t>(sl)].push_back(static_cast<int>(v));
        for (const CfgNode* p : c.prev) {
          if (!written.marked(p->id) && live_at.mark(p->id)) todo.push_back(p->id);
        }
      }
    }

    // Annotate the statements of this function (not those of nested functions).
    auto to_set = [&](const std::vector<int>& ids) {
      std::vector<QN> members;
      members.reserve(ids.size());
      for (int v : ids) members.push_back(symbols.at(static_cast<size_t>(v)));
      QNSet out;
      out.insert(members.begin(), members.end());
      return out;
    };
    auto live_in_of = [&](const CfgNode* c) { return to_set(live[static_cast<size_t>(slot[static_cast<size_t>(c->id)])]); };
    for_each_statement(fn, [&](const Node* s) {
      auto stmt_out = [&](const Node* stmt) {
        std::vector<int> o;
        auto itn = g.stmt_next.find(stmt);
        if (itn != g.stmt_next.end()) {
          for (const CfgNode* x : itn->second) {
            const auto& l = live[static_cast<size_t>(slot[static_cast<size_t>(x->id)])];
            o.insert(o.end(), l.begin(), l.end());
          }
        }
        out_.out_[stmt] = to_set(o);
      };
      auto stmt_in = [&](const Node* entry) {
        if (const CfgNode* c = g.find(entry)) out_.in_[s] = live_in_of(c);
        else out_.in_[s] = out_.live_in(entry);
      };
      switch (s->kind) {
        case NodeKind::If:
          stmt_out(s);
          stmt_in(s->as<If>().test.get());
          break;
        case NodeKind::While:
          stmt_out(s);
          stmt_in(s->as<While>().test.get());
          break;
        case NodeKind::For:
          stmt_out(s);
          stmt_in(s->as<For>().iter.get());
          break;
        case NodeKind::Try:
        case NodeKind::ExceptHandler:
          stmt_out(s);
          break;
        default:
          break;
      }
    }, [&](const Node* nested) { function(nested, fn_in[id(g.find(nested))]); });
  }

 private:
  Liveness& out_;
  const Activity& act_;
  const Cfgs& cfgs_;
};

Liveness Liveness::compute(const ast::Ref& root, AnalysisCache& cache) {
  Liveness out;
  if (!root || !root->is<FunctionDef>()) return out;
  LivenessAnalyzer a(out, cache.get<Activity>(root), cache.get<Cfgs>(root));
  a.function(root.get(), {});
  return out;
}

}  // namespace agc::analysis
