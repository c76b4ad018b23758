#include "transpiler/passes/return_statements.h"

#include <unordered_set>

#include "transpiler/analysis/activity.h"
#include "transpiler/ast/mutator.h"
#include "transpiler/frontend/quote.h"
#include "transpiler/passes/block_rewriter.h"

namespace agc::passes {

using namespace ast;
using namespace frontend;  // quote()

namespace {

/// Moves the statements after `if c: ...return` into the else branch (and vice
/// versa), so neither branch falls through into code meant for the other.
class ConditionalReturnRewriter : public AstMutator {
 public:
  ConditionalReturnRewriter() : AstMutator(kinds({NodeKind::Return})) {}

 protected:
  Stmts visit_Return(const Ptr<Return>& n) override {
    if (!blocks_.empty()) blocks_.back() = true;
    return {n};
  }

  Stmts visit_While(const Ptr<While>& n) override {
    Refs body = block(n->body).first, orelse = block(n->orelse).first;
    if (body == n->body && orelse == n->orelse) return {n};
    auto c = clone(*n);
    c->body = std::move(body);
    c->orelse = std::move(orelse);
    return {c};
  }

  Stmts visit_For(const Ptr<For>& n) override {
    Refs body = block(n->body).first, orelse = block(n->orelse).first;
    if (body == n->body && orelse == n->orelse) return {n};
    auto c = clone(*n);
    c->body = std::move(body);
    c->orelse = std::move(orelse);
    return {c};
  }

  Stmts visit_With(const Ptr<With>& n) override {
    auto [body, returns] = block(n->body);
    Ptr<With> out = n;
    if (body != n->body) {
      auto c = clone(*n);
      c->body = std::move(body);
      out = c;
    }
    if (returns) definitely_returning_.insert(out.get());
    return {out};
  }

  Stmts visit_Try(const Ptr<Try>& n) override {
    // Whether a try definitely returns is not decided: it may always raise.
    Refs body = block(n->body).first, orelse = block(n->orelse).first, finalbody = block(n->finalbody).first;
    Refs handlers = mutate_list(n->handlers);
    if (body == n->body && orelse == n->orelse && finalbody == n->finalbody && handlers == n->handlers) return {n};
    auto c = clone(*n);
    c->body = std::move(body);
    c->orelse = std::move(orelse);
    c->finalbody = std::move(finalbody);
    c->handlers = std::move(handlers);
    return {c};
  }

  Ref visit_ExceptHandler(const Ptr<ExceptHandler>& n) override {
    Refs body = block(n->body).first;
    if (body == n->body) return n;
    auto c = clone(*n);
    c->body = std::move(body);
    return c;
  }

  Stmts visit_If(const Ptr<If>& n) override {
    auto [body, body_returns] = block(n->body);
    auto [orelse, orelse_returns] = block(n->orelse);
    Ptr<If> out = n;
    if (body != n->body || orelse != n->orelse) {
      auto c = clone(*n);
      c->body = std::move(body);
      c->orelse = std::move(orelse);
      out = c;
    }
    if (body_returns) body_returns_.insert(out.get());
    if (orelse_returns) orelse_returns_.insert(out.get());
    if (body_returns && orelse_returns && !blocks_.empty()) blocks_.back() = true;
    return {out};
  }

  Stmts visit_FunctionDef(const Ptr<FunctionDef>& n) override {
    Refs body = block(n->body).first;
    if (body == n->body) return {n};
    auto c = clone(*n);
    c->body = std::move(body);
    return {c};
  }

 private:
  std::pair<Refs, bool> block(const Refs& stmts) {
    blocks_.push_back(false);
    Refs out = visit_block(stmts, [this](const Ref& s) { return mutate_stmt(s); },
                           [this](Stmts nodes) -> Placement {
                             Placement p{std::move(nodes)};
                             if (p.nodes.size() != 1) return p;
                             const Node* s = p.nodes[0].get();
                             if (definitely_returning_.count(s)) blocks_.back() = true;
                             if (body_returns_.count(s)) {
                               p.into = s;
                               p.into_orelse = true;
                             } else if (orelse_returns_.count(s)) {
                               p.into = s;
                               p.into_orelse = false;
                             }
                             return p;
                           });
    bool returns = blocks_.back();
    blocks_.pop_back();
    return {std::move(out), returns};
  }

  std::vector<bool> blocks_;  // per open block: does it definitely return?
  std::unordered_set<const Node*> body_returns_, orelse_returns_, definitely_returning_;
};

/// Replaces returns by the do_return/retval_ protocol.
class ReturnStatementsTransformer : public AstMutator {
 public:
  // Every function allocates do_return/retval_ names, so functions are of interest.
  ReturnStatementsTransformer(PassContext& ctx, const analysis::Activity& activity)
      : AstMutator(kinds({NodeKind::Return, NodeKind::FunctionDef})), ctx_(ctx), activity_(activity) {}

 protected:
  Stmts visit_Return(const Ptr<Return>& n) override {
    for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it) {
      it->return_used = true;
      it->create_guard_next = true;
      if (it->is_function) break;
    }
    Ref value = n->value ? n->value : constant(ConstantValue::none(), n->span);
    const Function& f = functions_.back();
    return quote(R"(
      try:
        do_return_var_name = True
        retval_var_name = retval
      except:
        do_return_var_name = False
        raise
    )",
                 {{"do_return_var_name", f.do_return}, {"retval_var_name", f.retval}, {"retval", value}}, n->span);
  }

  Stmts visit_While(const Ptr<While>& n) override {
    Refs body = block(n->body, false);
    Ref test = n->test;
    if (!blocks_.empty() && blocks_.back().return_used) {
      test = quote_expr("not control_var and test", {{"control_var", functions_.back().do_return}, {"test", test}},
                        n->test->span);
    }
    Refs orelse = block(n->orelse, false);
    if (test == n->test && body == n->body && orelse == n->orelse) return {n};
    auto c = clone(*n);
    c->test = test;
    c->body = std::move(body);
    c->orelse = std::move(orelse);
    return {c};
  }

  Stmts visit_For(const Ptr<For>& n) override {
    Refs body = block(n->body, false);
    Ref extra = n->extra_test;
    if (!blocks_.empty() && blocks_.back().return_used) {
      const std::string& var = functions_.back().do_return;
      extra = extra ? quote_expr("not control_var and extra_test", {{"control_var", var}, {"extra_test", extra}},
                                 n->span)
                    : quote_expr("not control_var", {{"control_var", var}}, n->span);
    }
    Refs orelse = block(n->orelse, false);
    if (extra == n->extra_test && body == n->body && orelse == n->orelse) return {n};
    auto c = clone(*n);
    c->extra_test = extra;
    c->body = std::move(body);
    c->orelse = std::move(orelse);
    return {c};
  }

  Stmts visit_With(const Ptr<With>& n) override {
    Refs body = block(n->body, false);
    if (body == n->body) return {n};
    auto c = clone(*n);
    c->body = std::move(body);
    return {c};
  }

  Stmts visit_Try(const Ptr<Try>& n) override {
    Refs body = block(n->body, false), orelse = block(n->orelse, false), finalbody = block(n->finalbody, false);
    Refs handlers = mutate_list(n->handlers);
    if (body == n->body && orelse == n->orelse && finalbody == n->finalbody && handlers == n->handlers) return {n};
    auto c = clone(*n);
    c->body = std::move(body);
    c->orelse = std::move(orelse);
    c->finalbody = std::move(finalbody);
    c->handlers = std::move(handlers);
    return {c};
  }

  Ref visit_ExceptHandler(const Ptr<ExceptHandler>& n) override {
    Refs body = block(n->body, false);
    if (body == n->body) return n;
    auto c = clone(*n);
    c->body = std::move(body);
    return c;
  }

  Stmts visit_If(const Ptr<If>& n) override {
    Refs body = block(n->body, false), orelse = block(n->orelse, false);
    if (body == n->body && orelse == n->orelse) return {n};
    auto c = clone(*n);
    c->body = std::move(body);
    c->orelse = std::move(orelse);
    return {c};
  }

  Stmts visit_FunctionDef(const Ptr<FunctionDef>& n) override {
    const analysis::Scope* scope = activity_.original_body_scope(n.get());
    auto reserved = analysis::reserved_by({scope});
    Function f;
    f.do_return = ctx_.namer.new_symbol("do_return", reserved);
    f.retval = ctx_.namer.new_symbol("retval_", reserved);
    functions_.push_back(f);
    bool used = false;
    Refs body = block(n->body, true, &used);
    functions_.pop_back();
    if (!used) {
      if (body == n->body) return {n};
      auto c = clone(*n);
      c->body = std::move(body);
      return {c};
    }
    if (ctx_.facts) {
      ctx_.facts->control_variables.emplace(f.do_return, ControlVariable{ControlVariable::Role::Return, n->span});
      ctx_.facts->control_variables.emplace(f.retval, ControlVariable{ControlVariable::Role::ReturnValue, n->span});
    }
    auto c = clone(*n);
    c->body = std::move(body);
    // The body is the functions pass's `with ag__.FunctionScope(...)`, possibly
    // after a docstring.
    std::string context = function_context_name(*c);
    AGC_CHECK(!context.empty()) << "return_statements needs the functions pass first";
    auto with = clone(c->body.back()->as<With>());
    with->body = quote(R"(
      do_return_var_name = False
      retval_var_name = ag__.UndefinedReturnValue()
      body
      return function_context.ret(retval_var_name, do_return_var_name)
    )",
                       {{"do_return_var_name", f.do_return},
                        {"retval_var_name", f.retval},
                        {"function_context", context},
                        {"body", with->body}},
                       n->span);
    c->body.back() = with;
    return {c};
  }

 private:
  struct Block {
    bool is_function = false;
    bool return_used = false;
    bool create_guard_next = false;
    bool create_guard_now = false;
  };
  struct Function {
    std::string do_return, retval;
  };

  Refs block(const Refs& stmts, bool is_function, bool* used = nullptr) {
    blocks_.push_back({is_function});
    Refs out = visit_block(stmts, [this](const Ref& s) { return mutate_stmt(s); },
                           [this](Stmts nodes) -> Placement {
                             Block& b = blocks_.back();
                             if (!b.return_used) return {std::move(nodes)};
                             Placement p{std::move(nodes)};
                             if (b.create_guard_now) {
                               // Whatever follows a possible return runs only if it did not.
                               p.nodes = quote(R"(
                                 if not do_return_var_name:
                                   original_node
                               )",
                                               {{"do_return_var_name", functions_.back().do_return},
                                                {"original_node", Refs(p.nodes)}},
                                               p.nodes.front()->span);
                               p.into = p.nodes[0].get();
                             }
                             b.create_guard_now = b.create_guard_next;
                             b.create_guard_next = false;
                             return p;
                           });
    if (used) *used = blocks_.back().return_used;
    blocks_.pop_back();
    return out;
  }

  PassContext& ctx_;
  const analysis::Activity& activity_;
  std::vector<Block> blocks_;
  std::vector<Function> functions_;
};

}  // namespace

Ref convert_return_statements(const Ref& fn, PassContext& ctx) {
  ConditionalReturnRewriter rewriter;
  Refs r = rewriter.mutate_stmt(fn);
  AGC_CHECK(r.size() == 1);
  ReturnStatementsTransformer t(ctx, ctx.naming(r[0]));
  Refs out = t.mutate_stmt(r[0]);
  AGC_CHECK(out.size() == 1);
  return out[0];
}

}  // namespace agc::passes
