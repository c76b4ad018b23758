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
  /// `naming`: the original function's analysis, for fresh names; `scopes`:
  /// the pass input's, for which names are the functions' own locals.
  ListTransformer(PassContext& ctx, const analysis::Activity& naming, const analysis::Activity& scopes)
      : AstMutator(kinds({NodeKind::While, NodeKind::For, NodeKind::Call})),
        ctx_(ctx),
        activity_(naming),
        scopes_(scopes) {}

 protected:
  Stmts visit_While(const Ptr<While>& n) override { return in_loop([&] { return AstMutator::visit_While(n); }); }
  Stmts visit_For(const Ptr<For>& n) override { return in_loop([&] { return AstMutator::visit_For(n); }); }

  // A function defined in a loop runs when called, not as part of the loop.
  Stmts visit_FunctionDef(const Ptr<FunctionDef>& n) override {
    int saved = loop_depth_;
    loop_depth_ = 0;
    functions_.push_back(scopes_.function_scope(n.get()));
    Refs out = AstMutator::visit_FunctionDef(n);
    functions_.pop_back();
    loop_depth_ = saved;
    return out;
  }

  Stmts visit_Expr(const Ptr<Expr>& n) override {
    if (loop_depth_ > 0) {
      if (const auto* c = n->value->dyn<Call>(); c && c->args.size() == 1 && is_list_call(*c, "append")) {
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
    if (loop_depth_ == 0 || pops_ == nullptr || !is_list_call(*c, "pop")) return c;
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

  /// `l.append(x)` / `l.pop(i)` on a list the function may rebind.
  bool is_list_call(const Call& c, std::string_view method) const {
    return is_method_call(c, method, 1) && may_rebind(c.func->as<Attribute>().value, functions_.back());
  }

  PassContext& ctx_;
  const analysis::Activity& activity_;
  const analysis::Activity& scopes_;
  /// The scopes of the functions being visited, innermost last.
  std::vector<const analysis::Scope*> functions_;
  int loop_depth_ = 0;
  Refs* pops_ = nullptr;
};

}  // namespace

Ref convert_lists(const Ref& fn, PassContext& ctx) {
  ListTransformer t(ctx, ctx.naming(fn), ctx.analyses.get<analysis::Activity>(fn));
  Refs out = t.mutate_stmt(fn);
  AGC_CHECK(out.size() == 1);
  return out[0];
}

}  // namespace agc::passes
