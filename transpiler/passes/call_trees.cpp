#include "transpiler/passes/call_trees.h"

#include "transpiler/analysis/qual_names.h"
#include "transpiler/ast/mutator.h"
#include "transpiler/passes/ag_calls.h"

namespace agc::passes {

using namespace ast;

namespace {

class CallTreeTransformer : public AstMutator {
 public:
  explicit CallTreeTransformer(PassContext& ctx) : AstMutator(kinds({NodeKind::Call})), ctx_(ctx) {}

 protected:
  Stmts visit_FunctionDef(const Ptr<FunctionDef>& n) override {
    // Decorators and argument defaults belong to the enclosing scope.
    Refs decorators = mutate_list(n->decorator_list);
    const auto& a = n->args->as<Arguments>();
    Refs defaults = mutate_list(a.defaults), kw_defaults = mutate_list(a.kw_defaults);
    contexts_.push_back(function_context_name(*n));
    Refs body = mutate_block(n->body);
    Ref returns = mutate(n->returns);
    contexts_.pop_back();
    if (decorators == n->decorator_list && defaults == a.defaults && kw_defaults == a.kw_defaults &&
        body == n->body && returns == n->returns) {
      return {n};
    }
    auto c = clone(*n);
    c->decorator_list = std::move(decorators);
    auto args = clone(a);
    args->defaults = std::move(defaults);
    args->kw_defaults = std::move(kw_defaults);
    c->args = args;
    c->body = std::move(body);
    c->returns = returns;
    return {c};
  }

  Stmts visit_With(const Ptr<With>& n) override {
    // Context manager calls are not converted.
    Refs body = mutate_block(n->body);
    if (body == n->body) return {n};
    auto c = clone(*n);
    c->body = std::move(body);
    return {c};
  }

  Ref visit_Call(const Ptr<Call>& n) override {
    std::string full_name;
    if (auto qn = analysis::qn_of(n->func)) full_name = qn->str();
    Ref rebuilt = rebuild(n);
    if (contexts_.empty() || contexts_.back().empty()) return rebuilt;
    const std::string& context = contexts_.back();
    if (full_name.rfind("ag__.", 0) == 0) return rebuilt;
    if (full_name.rfind(context + ".", 0) == 0) return rebuilt;
    if (full_name == "pdb.set_trace" || full_name == "ipdb.set_trace" || full_name == "breakpoint") return rebuilt;
    if (full_name == "print" && !ctx_.options.uses("BUILTIN_FUNCTIONS")) return rebuilt;
    const auto& c = rebuilt->as<Call>();
    // ag__.converted_call(func, args, kwargs, function_ctx)
    return ag_call("converted_call",
                   {c.func, args_tuple(c), kwargs_dict(c), name(context, ExprContext::Load, n->span)}, n->span);
  }

 private:
  /// Positional and *args arguments as one tuple: f(*a, b, *c) → a + (b,) + c,
  /// with each starred part as tuple(...).
  static Ref args_tuple(const Call& c) {
    Refs parts;
    Refs pending;
    auto flush = [&] {
      if (pending.empty()) return;
      auto t = make<Tuple>(pending.front()->span);
      t->elts = std::move(pending);
      parts.push_back(t);
      pending.clear();
    };
    for (const auto& a : c.args) {
      if (const auto* s = a->dyn<Starred>()) {
        flush();
        auto call = make<Call>(a->span);
        call->func = name("tuple", ExprContext::Load, a->span);
        call->args = {s->value};
        parts.push_back(call);
      } else {
        pending.push_back(a);
      }
    }
    flush();
    if (parts.empty()) return make<Tuple>(c.span);
    Ref result = parts[0];
    for (size_t i = 1; i < parts.size(); ++i) {
      auto b = make<BinOp>(c.span);
      b->left = result;
      b->op = BinOpKind::Add;
      b->right = parts[i];
      result = b;
    }
    return result;
  }

  /// Keyword and **kwargs arguments as dict(...), or None.
  static Ref kwargs_dict(const Call& c) {
    if (c.keywords.empty()) return constant(ConstantValue::none(), c.span);
    auto call = make<Call>(c.span);
    call->func = name("dict", ExprContext::Load, c.span);
    call->keywords = c.keywords;
    return call;
  }

  PassContext& ctx_;
  std::vector<std::string> contexts_;
};

}  // namespace

Ref convert_call_trees(const Ref& fn, PassContext& ctx) {
  CallTreeTransformer t(ctx);
  Refs out = t.mutate_stmt(fn);
  AGC_CHECK(out.size() == 1);
  return out[0];
}

}  // namespace agc::passes
