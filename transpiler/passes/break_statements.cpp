#include "transpiler/passes/break_statements.h"

#include "transpiler/analysis/activity.h"
#include "transpiler/ast/mutator.h"
#include "transpiler/frontend/quote.h"

namespace agc::passes {

using namespace ast;
using namespace frontend;  // quote()

namespace {

class BreakTransformer : public AstMutator {
 public:
  // Every loop allocates a break_ name (as in AutoGraph), so loops are of interest.
  BreakTransformer(PassContext& ctx, const analysis::Activity& activity)
      : AstMutator(kinds({NodeKind::Break, NodeKind::While, NodeKind::For})), ctx_(ctx), activity_(activity) {}

 protected:
  Stmts visit_Break(const Ptr<Break>& n) override {
    if (loops_.empty()) return {n};
    loops_.back().used = true;
    return quote(R"(
      var_name = True
      continue
    )",
                 {{"var_name", loops_.back().var}}, n->span);
  }

  // A function's body is not part of the loop around its definition.
  Stmts visit_FunctionDef(const Ptr<FunctionDef>& n) override {
    auto saved = std::move(loops_);
    loops_.clear();
    Refs out = AstMutator::visit_FunctionDef(n);
    loops_ = std::move(saved);
    return out;
  }

  Stmts visit_While(const Ptr<While>& n) override {
    std::string var = new_var(n.get());
    Ref test = mutate(n->test);
    auto [body, used] = process_body(n->body, var, n->span);
    Refs orelse = mutate_block(n->orelse);
    if (!used) {
      if (test == n->test && body == n->body && orelse == n->orelse) return {n};
      auto c = clone(*n);
      c->test = test;
      c->body = body;
      c->orelse = orelse;
      return {c};
    }
    // The break flag is tested first, so once a break set it the loop's own
    // test is not evaluated again (it may have side effects). This is
    // AutoGraph's current template; logical_expressions lowers the `and` and
    // `not` later, as it does for any user expression.
    Refs out = quote(R"(
      var_name = False
      while not var_name and test:
        body
    )",
                     {{"var_name", var}, {"test", test}, {"body", body}}, n->span);
    auto loop = clone(out[1]->as<While>());
    loop->loop_opts = n->loop_opts;
    loop->orelse = guard(orelse, var, n->span);
    out[1] = loop;
    return out;
  }

  Stmts visit_For(const Ptr<For>& n) override {
    std::string var = new_var(n.get());
    Ref target = mutate(n->target);
    Ref iter = mutate(n->iter);
    auto [body, used] = process_body(n->body, var, n->span);
    Refs orelse = mutate_block(n->orelse);
    if (!used) {
      if (target == n->target && iter == n->iter && body == n->body && orelse == n->orelse) return {n};
      auto c = clone(*n);
      c->target = target;
      c->iter = iter;
      c->body = body;
      c->orelse = orelse;
      return {c};
    }
    // The extra test is hidden from the AST; the `(break_,)` statement keeps the
    // control variable visibly used for the analyses.
    Refs out = quote(R"(
      var_name = False
      for target in iter_:
        (var_name,)
        body
    )",
                     {{"var_name", var}, {"target", target}, {"iter_", iter}, {"body", body}}, n->span);
    auto loop = clone(out[1]->as<For>());
    loop->loop_opts = n->loop_opts;
    loop->extra_test = quote_expr("ag__.not_(var_name)", {{"var_name", var}}, n->span);
    loop->orelse = guard(orelse, var, n->span);
    out[1] = loop;
    return out;
  }

 private:
  struct Loop {
    std::string var;
    bool used = false;
  };

  std::string new_var(const Node* loop) {
    const analysis::Scope* scope = activity_.original_body_scope(loop);
    return ctx_.namer.new_symbol("break_", analysis::reserved_by({scope}));
  }

  std::pair<Refs, bool> process_body(const Refs& body, const std::string& var, SourceSpan loop) {
    loops_.push_back({var, false});
    Refs out = mutate_block(body);
    bool used = loops_.back().used;
    loops_.pop_back();
    if (used && ctx_.facts) {
      ctx_.facts->control_variables.emplace(var, ControlVariable{ControlVariable::Role::Break, loop});
    }
    return {std::move(out), used};
  }

  /// Python runs a loop's else only when no break happened.
  Refs guard(const Refs& block, const std::string& var, SourceSpan span) {
    if (block.empty()) return block;
    return quote(R"(
      if ag__.not_(var_name):
        block
    )",
                 {{"var_name", var}, {"block", block}}, span);
  }

  PassContext& ctx_;
  const analysis::Activity& activity_;
  std::vector<Loop> loops_;
};

}  // namespace

Ref convert_break_statements(const Ref& fn, PassContext& ctx) {
  BreakTransformer t(ctx, ctx.naming(fn));
  Refs out = t.mutate_stmt(fn);
  AGC_CHECK(out.size() == 1);
  return out[0];
}

}  // namespace agc::passes
