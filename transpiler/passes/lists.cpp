#include "transpiler/passes/lists.h"

#include "transpiler/analysis/activity.h"
#include "transpiler/analysis/qual_names.h"
#include "transpiler/ast/mutator.h"
#include "transpiler/frontend/quote.h"

namespace agc::passes {

using namespace ast;
using namespace frontend;  // quote()

namespace {

bool is_method_call(const Call& c, std::string_view method, size_t max_args) {
  const auto* a = c.func->dyn<Attribute>();
  if (!a || a->attr != method || c.args.size() > max_args || !c.keywords.empty()) return false;
  for (const auto& arg : c.args) {
    if (arg->is<Starred>()) return false;
  }
  // Only a named list can be reassigned in place of the call.
  return analysis::qn_of(a->value).has_value();
}

class ListTransformer : public AstMutator {
 public:
  ListTransformer(PassContext& ctx, const analysis::Activity& activity)
      : AstMutator(kinds({NodeKind::While, NodeKind::For, NodeKind::Call})), ctx_(ctx), activity_(activity) {}

 protected:
  Stmts visit_While(const Ptr<While>& n) override { return in_loop([&] { return AstMutator::visit_While(n); }); }
  Stmts visit_For(const Ptr<For>& n) override { return in_loop([&] { return AstMutator::visit_For(n); }); }

  // A function defined in a loop runs when called, not as part of the loop.
  Stmts visit_FunctionDef(const Ptr<FunctionDef>& n) override {
    int saved = loop_depth_;
    loop_depth_ = 0;
    Refs out = AstMutator::visit_FunctionDef(n);
    loop_depth_ = saved;
    return out;
  }

  Stmts visit_Expr(const Ptr<Expr>& n) override {
    if (loop_depth_ > 0) {
      if (const auto* c = n->value->dyn<Call>(); c && c->args.size() == 1 && is_method_call(*c, "append", 1)) {
        const auto& target = c->func->as<Attribute>().value;
        return quote("target = ag__.list_append(target, element)",
                     {{"target", mutate(target)}, {"element", mutate(c->args[0])}}, n->span);
      }
    }
    return with_pops([&] { return AstMutator::visit_Expr(n); });
  }

  // Every other simple statement may contain pop() calls, hoisted before it.
  Stmts visit_Assign(const Ptr<Assign>& n) override {
    return with_pops([&] { return AstMutator::visit_Assign(n); });
  }
  Stmts visit_AugAssign(const Ptr<AugAssign>& n) override {
    return with_pops([&] { return AstMutator::visit_AugAssign(n); });
  }
  Stmts visit_AnnAssign(const Ptr<AnnAssign>& n) override {
    return with_pops([&] { return AstMutator::visit_AnnAssign(n); });
  }
  Stmts visit_Return(const Ptr<Return>& n) override {
    return with_pops([&] { return AstMutator::visit_Return(n); });
  }

  Ref visit_Call(const Ptr<Call>& n) override {
    auto c = rebuild(n);
    if (loop_depth_ == 0 || pops_ == nullptr || !is_method_call(*c, "pop", 1)) return c;
    const auto& target = c->func->as<Attribute>().value;
    auto qn = analysis::qn_of(target);
    const analysis::Scope* args = activity_.original_args_scope(n.get());
    std::string var = ctx_.namer.new_symbol(qn->ssf(), analysis::reserved_by({args}));
    Ref element = c->args.empty() ? constant(ConstantValue::none(), n->span) : c->args[0];
    Refs pop = quote(R"(
      target, pop_var_name = ag__.list_pop(target, element, opts=ag__.ListPopOpts(element_dtype=None, element_shape=None))
    )",
                     {{"target", target}, {"pop_var_name", var}, {"element", element}}, n->span);
    pops_->insert(pops_->end(), pop.begin(), pop.end());
    return name(var, ExprContext::Load, n->span);
  }

 private:
  template <class F>
  Refs in_loop(F&& f) {
    ++loop_depth_;
    Refs out = f();
    --loop_depth_;
    return out;
  }

  template <class F>
  Refs with_pops(F&& f) {
    Refs pops;
    Refs* saved = pops_;
    pops_ = &pops;
    Refs out = f();
    pops_ = saved;
    pops.insert(pops.end(), out.begin(), out.end());
    return pops;
  }

  PassContext& ctx_;
  const analysis::Activity& activity_;
  int loop_depth_ = 0;
  Refs* pops_ = nullptr;
};

}  // namespace

Ref convert_lists(const Ref& fn, PassContext& ctx) {
  ListTransformer t(ctx, ctx.naming(fn));
  Refs out = t.mutate_stmt(fn);
  AGC_CHECK(out.size() == 1);
  return out[0];
}

}  // namespace agc::passes
