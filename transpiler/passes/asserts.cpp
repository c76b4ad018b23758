#include "transpiler/passes/asserts.h"

#include "transpiler/ast/mutator.h"
#include "transpiler/frontend/quote.h"

namespace agc::passes {

using namespace ast;
using namespace frontend;  // quote()

namespace {

class AssertTransformer : public AstMutator {
 public:
  explicit AssertTransformer(DiagnosticSink& sink) : AstMutator(kinds({NodeKind::Assert})), sink_(sink) {}

 protected:
  Stmts visit_Assert(const Ptr<Assert>& orig) override {
    auto n = rebuild(orig);
    Ref msg = n->msg;
    if (!msg) {
      msg = str_constant("Assertion error", n->span);
    } else if (!msg->is<Constant>()) {
      sink_.error(msg->span, "a converted assert needs a constant string message");
      return {n};
    }
    return quote("ag__.assert_stmt(test, lambda: msg)", {{"test", n->test}, {"msg", msg}}, n->span);
  }

 private:
  DiagnosticSink& sink_;
};

}  // namespace

Ref convert_asserts(const Ref& fn, PassContext& ctx) {
  AssertTransformer t(ctx.sink);
  Refs out = t.mutate_stmt(fn);
  AGC_CHECK(out.size() == 1);
  return out[0];
}

}  // namespace agc::passes
