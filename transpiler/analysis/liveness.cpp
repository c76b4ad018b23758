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

    // Backward to a fixed point.
    std::vector<BitSet> in(n, BitSet(symbols.size())), out(n, BitSet(symbols.size()));
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = g.nodes.rbegin(); it != g.nodes.rend(); ++it) {
        size_t k = id(&*it);
        BitSet live_out(symbols.size());
        for (const CfgNode* s : it->next) live_out.unite(in[id(s)]);
        BitSet live_in = live_out;
        for (int i : kill[k]) live_in.reset(i);
        for (int i : gen[k]) live_in.set(i);
        if (live_in != in[k]) changed = true;
        in[k] = std::move(live_in);
        out[k] = std::move(live_out);
      }
    }

    // Annotate the statements of this function (not those of nested functions).
    auto live_in_of = [&](const CfgNode* c) { return in[id(c)].to_set(symbols); };
    for_each_statement(fn, [&](const Node* s) {
      auto stmt_out = [&](const Node* stmt) {
        BitSet o(symbols.size());
        auto itn = g.stmt_next.find(stmt);
        if (itn != g.stmt_next.end()) {
          for (const CfgNode* x : itn->second) o.unite(in[id(x)]);
        }
        out_.out_[stmt] = o.to_set(symbols);
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
