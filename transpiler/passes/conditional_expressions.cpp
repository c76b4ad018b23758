#include "transpiler/passes/conditional_expressions.h"

#include "transpiler/ast/mutator.h"
#include "transpiler/frontend/quote.h"
#include "transpiler/ast/python_printer.h"

namespace agc::passes {

using namespace ast;
using namespace frontend;  // quote()

namespace {

class ConditionalExpressionTransformer : public AstMutator {
 public:
  ConditionalExpressionTransformer() : AstMutator(kinds({NodeKind::IfExp})) {}

 protected:
  Ref visit_IfExp(const Ptr<IfExp>& n) override {
    return quote_expr("ag__.if_exp(test, lambda: true_expr, lambda: false_expr, expr_repr)",
                      {{"test", n->test},
                       {"true_expr", n->body},
                       {"false_expr", n->orelse},
                       {"expr_repr", str_constant(ast::to_source(n->test), n->span)}},
                      n->span);
  }
};

}  // namespace

Ref convert_conditional_expressions(const Ref& fn, PassContext&) {
  ConditionalExpressionTransformer t;
  Refs out = t.mutate_stmt(fn);
  AGC_CHECK(out.size() == 1);
  return out[0];
}

}  // namespace agc::passes
