#include "transpiler/passes/slices.h"

#include "transpiler/analysis/activity.h"
#include "transpiler/analysis/qual_names.h"
#include "transpiler/ast/mutator.h"
#include "transpiler/frontend/quote.h"

namespace agc::passes {

using namespace ast;
using namespace frontend;  // quote()

namespace {

class SliceTransformer : public AstMutator {
 public:
  explicit SliceTransformer(const analysis::Activity& scopes)
      : AstMutator(kinds({NodeKind::While, NodeKind::For, NodeKind::Assign})), scopes_(scopes) {}

 protected:
  Stmts visit_While(const Ptr<While>& n) override {
    ++loop_depth_;
    Refs out = AstMutator::visit_While(n);
    --loop_depth_;
    return out;
  }
  Stmts visit_For(const Ptr<For>& n) override {
    ++loop_depth_;
    Refs out = AstMutator::visit_For(n);
    --loop_depth_;
    return out;
  }
  Stmts visit_FunctionDef(const Ptr<FunctionDef>& n) override {
    int saved = loop_depth_;
    loop_depth_ = 0;
    functions_.push_back(scopes_.function_scope(n.get()));
    Refs out = AstMutator::visit_FunctionDef(n);
    functions_.pop_back();
    loop_depth_ = saved;
    return out;
  }

  Stmts visit_Assign(const Ptr<Assign>& n) override {
    auto a = rebuild(n);
    if (loop_depth_ == 0 || a->targets.size() != 1) return {a};
    const auto* s = a->targets[0]->dyn<Subscript>();
    if (!s || s->slice->is<Tuple>() || s->slice->is<Slice>()) return {a};
    if (!analysis::qn_of(s->value) || !may_rebind(s->value, functions_.back())) return {a};
    return quote("target = ag__.set_item(target, key, item)",
                 {{"target", s->value}, {"key", s->slice}, {"item", a->value}}, n->span);
  }

 private:
  const analysis::Activity& scopes_;
  /// The scopes of the functions being visited, innermost last.
  std::vector<const analysis::Scope*> functions_;
  int loop_depth_ = 0;
};

}  // namespace

Ref convert_slices(const Ref& fn, PassContext& ctx) {
  SliceTransformer t(ctx.analyses.get<analysis::Activity>(fn));
  Refs out = t.mutate_stmt(fn);
  AGC_CHECK(out.size() == 1);
  return out[0];
}

}  // namespace agc::passes
