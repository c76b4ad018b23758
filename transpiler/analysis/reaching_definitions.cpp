#include "transpiler/analysis/reaching_definitions.h"

#include "transpiler/analysis/activity.h"
#include "transpiler/analysis/analysis_cache.h"
#include "transpiler/analysis/cfg.h"
#include "transpiler/analysis/statements.h"

namespace agc::analysis {

using namespace ast;

class ReachingDefinitionsAnalyzer {
 public:
  ReachingDefinitionsAnalyzer(ReachingDefinitions& out, const Activity& act, const Cfgs& cfgs)
      : out_(out), act_(act), cfgs_(cfgs) {}

  void function(const Node* fn, const QNSet& external) {
    const Cfg& g = *cfgs_.of(fn);
    std::unordered_map<const CfgNode*, QNSet> in, out;
    for (bool changed = true; changed;) {
      changed = false;
      for (const CfgNode& n : g.nodes) {
        QNSet defs_in = &n == g.entry ? external : QNSet{};
        for (const CfgNode* p : n.prev) defs_in.insert(out[p].begin(), out[p].end());
        QNSet defs_out;
        if (const Scope* sc = act_.scope(n.ast)) {
          // Every binding (assignment, nonlocal, global, import, def) defines a
          // name except del; modifications and deletions kill earlier ones.
          for (const auto& q : defs_in) {
            if (!sc->modified.count(q) && !sc->deleted.count(q)) defs_out.insert(q);
          }
          for (const auto& q : sc->bound) {
            if (!sc->deleted.count(q)) defs_out.insert(q);
          }
          for (const auto& q : sc->globals) {
            if (!sc->deleted.count(q)) defs_out.insert(q);
          }
        } else {
          defs_out = defs_in;
        }
        if (defs_out != out[&n] || defs_in != in[&n]) changed = true;
        in[&n] = std::move(defs_in);
        out[&n] = std::move(defs_out);
      }
    }
    for_each_statement(fn, [&](const Node* s) {
      switch (s->kind) {
        case NodeKind::If:
        case NodeKind::While:
        case NodeKind::For:
        case NodeKind::Try:
        case NodeKind::ExceptHandler: {
          QNSet d;
          auto it = g.stmt_prev.find(s);
          if (it != g.stmt_prev.end()) {
            for (const CfgNode* p : it->second) d.insert(out[p].begin(), out[p].end());
          }
          out_.defined_in_[s] = std::move(d);
          break;
        }
        default:
          break;
      }
    }, [&](const Node* nested) {
      // A nested function sees what reaches its definition, except the names
      // it assigns itself (those are its locals).
      QNSet ext = out[g.find(nested)];
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
