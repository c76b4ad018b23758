#include "transpiler/passes/variables.h"

#include "transpiler/ast/mutator.h"
#include "transpiler/frontend/quote.h"
#include "transpiler/passes/ag_calls.h"

namespace agc::passes {

using namespace ast;
using namespace frontend;  // quote()

namespace {

class VariableAccessTransformer : public AstMutator {
 public:
  VariableAccessTransformer() : AstMutator(kinds({NodeKind::Name, NodeKind::Delete, NodeKind::AugAssign})) {}

 protected:
  Ref visit_Name(const Ptr<Name>& n) override {
    if (!n->from_source || n->ctx != ExprContext::Load) return n;
    return ag_call("ld", {n}, n->span);  // ag__.ld(var_)
  }

  // Decorators of nested functions are outside AutoGraph's per-function analysis
  // and keep plain reads.
  Stmts visit_FunctionDef(const Ptr<FunctionDef>& n) override {
    Ref args = mutate(n->args), returns = mutate(n->returns);
    Refs body = mutate_block(n->body);
    if (args == n->args && returns == n->returns && body == n->body) return {n};
    auto c = clone(*n);
    c->args = args;
    c->body = std::move(body);
    c->returns = returns;
    return {c};
  }

  Stmts visit_Delete(const Ptr<Delete>& orig) override {
    auto n = rebuild(orig);
    Refs out;
    Refs remaining;
    for (const auto& t : n->targets) {
      if (const auto* nm = t->dyn<Name>()) {
        Refs a = quote("var_ = ag__.Undefined(var_name)",
                       {{"var_", with_context(t, ExprContext::Store)}, {"var_name", str_constant(nm->id, t->span)}},
                       t->span);
        out.insert(out.end(), a.begin(), a.end());
      } else {
        remaining.push_back(t);
      }
    }
    if (out.empty()) return {n};
    if (!remaining.empty()) {
      auto d = make<Delete>(n->span);
      d->targets = remaining;
      out.push_back(d);
    }
    return out;
  }

  Stmts visit_AugAssign(const Ptr<AugAssign>& n) override {
    if (!n->target->is<Name>()) return {rebuild(n)};
    // Like AutoGraph, the statement itself is kept as written.
    return quote(R"(
      var_ = ag__.ld(var_)
      original
    )",
                 {{"var_", n->target}, {"original", Ref(n)}}, n->span);
  }
};

}  // namespace

Ref convert_variables(const Ref& fn, PassContext&) {
  VariableAccessTransformer t;
  Refs out = t.mutate_stmt(fn);
  AGC_CHECK(out.size() == 1);
  return out[0];
}

}  // namespace agc::passes
