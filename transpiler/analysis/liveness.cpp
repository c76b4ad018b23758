#include "transpiler/analysis/liveness.h"

#include <set>

#include "transpiler/analysis/activity.h"
#include "transpiler/analysis/analysis_cache.h"
#include "transpiler/analysis/cfg.h"
#include "transpiler/analysis/statements.h"

namespace agc::analysis {

using namespace ast;

class LivenessAnalyzer {
 public:
  LivenessAnalyzer(Liveness& out, const Activity& act, const Cfgs& cfgs) : out_(out), act_(act), cfgs_(cfgs) {}

  void function(const Node* fn, const std::set<const Node*>& external_fns) {
    const Cfg& g = *cfgs_.of(fn);
    // Reaching nested function definitions (pyct's reaching_fndefs): no kills.
    std::unordered_map<const CfgNode*, std::set<const Node*>> fn_in, fn_out;
    for (bool changed = true; changed;) {
      changed = false;
      for (const CfgNode& n : g.nodes) {
        std::set<const Node*> in = &n == g.entry ? external_fns : std::set<const Node*>{};
        for (const CfgNode* p : n.prev) in.insert(fn_out[p].begin(), fn_out[p].end());
        std::set<const Node*> out = in;
        if (n.ast->is<FunctionDef>()) out.insert(n.ast);
        if (out != fn_out[&n] || in != fn_in[&n]) changed = true;
        fn_in[&n] = std::move(in);
        fn_out[&n] = std::move(out);
      }
    }
    // Liveness, backward to a fixed point.
    std::unordered_map<const CfgNode*, QNSet> in, out;
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = g.nodes.rbegin(); it != g.nodes.rend(); ++it) {
        const CfgNode& n = *it;
        QNSet live_out;
        for (const CfgNode* s : n.next) live_out.insert(in[s].begin(), in[s].end());
        QNSet live_in;
        if (const Scope* sc = act_.scope(n.ast)) {
          live_in = sc->read;
          for (const auto& q : live_out) {
            if (!sc->modified.count(q) && !sc->deleted.count(q)) live_in.insert(q);
          }
          for (const Node* fd : fn_in[&n]) {
            const Scope* fs = act_.function_scope(fd);
            if (!fs) continue;
            for (const auto& q : fs->read) {
              if (!fs->bound.count(q)) live_in.insert(q);
            }
          }
        } else {
          live_in = live_out;
        }
        if (live_in != in[&n] || live_out != out[&n]) changed = true;
        in[&n] = std::move(live_in);
        out[&n] = std::move(live_out);
      }
    }
    // Annotate the statements of this function (not those of nested functions).
    for_each_statement(fn, [&](const Node* s) {
      auto stmt_out = [&](const Node* stmt) {
        QNSet o;
        auto itn = g.stmt_next.find(stmt);
        if (itn != g.stmt_next.end()) {
          for (const CfgNode* x : itn->second) o.insert(in[x].begin(), in[x].end());
        }
        out_.out_[stmt] = std::move(o);
      };
      auto stmt_in = [&](const Node* entry) {
        if (const CfgNode* c = g.find(entry)) out_.in_[s] = in[c];
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
          if (const CfgNode* c = g.find(s)) {
            out_.in_[s] = in[c];
            out_.out_[s] = out[c];
          }
          break;
      }
    }, [&](const Node* nested) { function(nested, fn_in[g.find(nested)]); });
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
