#include "transpiler/passes/functions.h"

#include "transpiler/analysis/activity.h"
#include "transpiler/ast/mutator.h"
#include "transpiler/frontend/quote.h"

namespace agc::passes {

using namespace ast;
using namespace frontend;  // quote()

Ref conversion_options_ast(const ConversionOptions& options, bool user_requested, SourceSpan span) {
  // AutoGraph formats the features as '({})'.format(', '.join(...)), so a single
  // feature prints without a tuple: optional_features=ag__.Feature.LISTS.
  Refs features;
  for (const auto& f : options.optional_features) {
    auto feature = make<Attribute>(span);
    feature->value = quote_expr("ag__.Feature", {}, span);
    feature->attr = f;
    features.push_back(feature);
  }
  Ref features_ast;
  if (features.size() == 1) {
    features_ast = features[0];
  } else {
    auto t = make<Tuple>(span);
    t->elts = std::move(features);
    features_ast = t;
  }
  return quote_expr(
      "ag__.ConversionOptions(recursive=True, user_requested=user_requested, optional_features=features, "
      "internal_convert_user_code=True)",
      {{"user_requested", constant(ConstantValue::of_bool(user_requested), span)}, {"features", features_ast}}, span);
}

namespace {

class FunctionTransformer : public AstMutator {
 public:
  FunctionTransformer(PassContext& ctx, const analysis::Activity& activity)
      : AstMutator(kinds({NodeKind::FunctionDef, NodeKind::Lambda})), ctx_(ctx), activity_(activity) {}

 protected:
  Stmts visit_FunctionDef(const Ptr<FunctionDef>& n) override {
    const analysis::Scope* scope = activity_.original_body_scope(n.get());
    std::string context_name = ctx_.namer.new_symbol("fscope", analysis::reserved_by({scope}));
    ++depth_;
    auto f = clone(*rebuild(n));
    --depth_;
    bool top_level = depth_ == 0;
    if (top_level) {
      // The entity is converted after its decorators already applied.
      f->decorator_list.clear();
    } else {
      f->decorator_list.push_back(quote_expr("ag__.autograph_artifact", {}, n->span));
    }
    Refs body = f->body;
    Ref docstring;
    if (!body.empty()) {
      if (const auto* e = body[0]->dyn<Expr>(); e && e->value->is<Constant>()) {
        docstring = body[0];
        body.erase(body.begin());
      }
    }
    Refs wrapped = quote(R"(
      with ag__.FunctionScope(function_name, context_name, options) as function_context:
        body
    )",
                         {{"function_name", str_constant(n->name, n->span)},
                          {"context_name", str_constant(context_name, n->span)},
                          {"options", conversion_options_ast(ctx_.options, top_level, n->span)},
                          {"function_context", context_name},
                          {"body", body}},
                         n->span);
    if (docstring) wrapped.insert(wrapped.begin(), docstring);
    f->body = std::move(wrapped);
    return {f};
  }

  Ref visit_Lambda(const Ptr<Lambda>& n) override {
    Ref l = rebuild(n);
    // Lambdas inside a converted function are marked as already converted.
    if (depth_ > 0) return quote_expr("ag__.autograph_artifact(l)", {{"l", l}}, n->span);
    return l;
  }

 private:
  PassContext& ctx_;
  const analysis::Activity& activity_;
  int depth_ = 0;
};

}  // namespace

Ref convert_functions(const Ref& fn, PassContext& ctx) {
  FunctionTransformer t(ctx, ctx.naming(fn));
  Refs out = t.mutate_stmt(fn);
  AGC_CHECK(out.size() == 1);
  return out[0];
}

}  // namespace agc::passes
