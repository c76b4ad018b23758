#include "transpiler/passes/logical_expressions.h"

#include "transpiler/ast/mutator.h"
#include "transpiler/frontend/quote.h"

namespace agc::passes {

using namespace ast;
using namespace frontend;  // quote()

namespace {

class LogicalExpressionTransformer : public AstMutator {
 public:
  explicit LogicalExpressionTransformer(bool equality)
      : AstMutator(kinds({NodeKind::BoolOp, NodeKind::UnaryOp, NodeKind::Compare})), equality_(equality) {}

 protected:
  Ref visit_BoolOp(const Ptr<BoolOp>& orig) override {
    auto n = rebuild(orig);
    // a and b and c → and_(lambda: a, lambda: and_(lambda: b, lambda: c)), built
    // from the right. The tail built so far goes into the next link uncopied, so
    // a chain of n operands costs O(n), not O(n²).
    Ref right = n->values.back();
    for (size_t i = n->values.size() - 1; i-- > 0;) {
      bool first = i + 2 == n->values.size();  // `right` is still the input's last operand: copy it
      right = binary(n->op, n->values[i], first ? Replacement(right) : Replacement(Unshared{right}), n->span);
    }
    return right;
  }

  Ref visit_UnaryOp(const Ptr<UnaryOp>& orig) override {
    auto n = rebuild(orig);
    if (n->op != UnaryOpKind::Not) return n;
    return quote_expr("ag__.not_(arg)", {{"arg", n->operand}}, n->span);
  }

  Ref visit_Compare(const Ptr<Compare>& orig) override {
    auto n = rebuild(orig);
    if (!equality_) return n;
    Ref tree;
    Ref left = n->left;
    for (size_t i = 0; i < n->ops.size(); ++i) {
      const Ref& right = n->comparators[i];
      Ref cmp;
      if (n->ops[i] == CmpOpKind::Eq || n->ops[i] == CmpOpKind::NotEq) {
        cmp = quote_expr(n->ops[i] == CmpOpKind::Eq ? "ag__.eq(a, b)" : "ag__.not_eq(a, b)",
                         {{"a", left}, {"b", right}}, n->span);
      } else {
        auto c = make<Compare>(n->span);
        c->left = left;
        c->ops = {n->ops[i]};
        c->comparators = {right};
        cmp = c;
      }
      // The conjunction so far goes in uncopied (linear in the chain); the
      // comparison is copied, since its operands are shared with its neighbours.
      tree = tree ? binary(BoolOpKind::And, i > 1 ? Replacement(Unshared{tree}) : Replacement(tree), cmp, n->span) : cmp;
      left = right;
    }
    return tree;
  }

 private:
  static Ref binary(BoolOpKind op, Replacement a, Replacement b, SourceSpan span) {
    return quote_expr(op == BoolOpKind::And ? "ag__.and_(lambda: a, lambda: b)" : "ag__.or_(lambda: a, lambda: b)",
                      {{"a", std::move(a)}, {"b", std::move(b)}}, span);
  }

  bool equality_;
};

}  // namespace

Ref convert_logical_expressions(const Ref& fn, PassContext& ctx) {
  LogicalExpressionTransformer t(ctx.options.uses("EQUALITY_OPERATORS"));
  Refs out = t.mutate_stmt(fn);
  AGC_CHECK(out.size() == 1);
  return out[0];
}

}  // namespace agc::passes
