#include "transpiler/analysis/reaching_definitions.h"

#include "transpiler/analysis/activity.h"
#include "transpiler/analysis/analysis_cache.h"
#include "transpiler/analysis/cfg.h"
#include "transpiler/analysis/dataflow.h"
#include "transpiler/analysis/statements.h"

namespace agc::analysis {

using namespace ast;

class ReachingDefinitionsAnalyzer {
 public:
  ReachingDefinitionsAnalyzer(ReachingDefinitions& out, const Activity& act, const Cfgs& cfgs)
      : out_(out), act_(act), cfgs_(cfgs) {}

  void function(const Node* fn, const QNSet& external) {
    const Cfg& g = *cfgs_.of(fn);
    const size_t n = g.nodes.size();
    auto id = [](const CfgNode* c) { return static_cast<size_t>(c->id - 1); };

    auto index = std::make_shared<SymbolIndex>();
    SymbolIndex& symbols = *index;
    symbols.add_all(external);
    for (const CfgNode& c : g.nodes) {
      if (const Scope* sc = act_.scope(c.ast)) {
        symbols.add_all(sc->bound);
        symbols.add_all(sc->globals);
        symbols.add_all(sc->modified);
        symbols.add_all(sc->deleted);
      }
    }
    // Every binding (assignment, nonlocal, global, import, def) defines a name
    // except del; modifications and deletions kill earlier definitions.
    // gen and kill are a few names per node, so they are lists, not bit sets.
    std::vector<std::vector<int>> gen(n), kill(n);
    for (const CfgNode& c : g.nodes) {
      const Scope* sc = act_.scope(c.ast);
      if (!sc) continue;
      size_t k = id(&c);
      for (const auto* set : {&sc->bound, &sc->globals}) {
        for (const auto& q : *set) {
          if (!sc->deleted.count(q)) gen[k].push_back(symbols.find(q));
        }
      }
      for (const auto* set : {&sc->modified, &sc->deleted}) {
        for (const auto& q : *set) {
          if (int i = symbols.find(q); i >= 0) kill[k].push_back(i);
        }
      }
    }

    BitSet entry_defs = BitSet::of(external, symbols);
    std::vector<BitSet> out(n, BitSet(symbols.size()));
    for (bool changed = true; changed;) {
      changed = false;
      for (const CfgNode& c : g.nodes) {
        size_t k = id(&c);
        BitSet defs = &c == g.entry ? entry_defs : BitSet(symbols.size());
        for (const CfgNode* p : c.prev) defs.unite(out[id(p)]);
        for (int i : kill[k]) defs.reset(i);
        for (int i : gen[k]) defs.set(i);
        if (defs != out[k]) {
          changed = true;
          out[k] = std::move(defs);
        }
      }
    }

    for_each_statement(fn, [&](const Node* s) {
      switch (s->kind) {
        case NodeKind::If:
        case NodeKind::While:
        case NodeKind::For:
        case NodeKind::Try:
        case NodeKind::ExceptHandler: {
          BitSet d(symbols.size());
          auto it = g.stmt_prev.find(s);
          if (it != g.stmt_prev.end()) {
            for (const CfgNode* p : it->second) d.unite(out[id(p)]);
          }
          out_.defined_in_[s] = {index, std::move(d)};
          break;
        }
        default:
          break;
      }
    }, [&](const Node* nested) {
      // A nested function sees what reaches its definition, except the names
      // it assigns itself (those are its locals).
      QNSet ext = out[id(g.find(nested))].to_set(symbols);
      if (const Scope* body = act_.body_scope(nested)) {
        for (const auto& q : body->modified) ext.erase(q);
      }
      function(nested, ext);
    });
  }

 private:
  ReachingDefinitions& out_;
  const Activity& act_;
  const Cfgs& cfgs_;
};

ReachingDefinitions ReachingDefinitions::compute(const ast::Ref& root, AnalysisCache& cache) {
  ReachingDefinitions out;
  if (!root || !root->is<FunctionDef>()) return out;
  ReachingDefinitionsAnalyzer a(out, cache.get<Activity>(root), cache.get<Cfgs>(root));
  a.function(root.get(), {});
  return out;
}

}  // namespace agc::analysis
