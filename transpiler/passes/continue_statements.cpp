#include "transpiler/passes/continue_statements.h"

#include "transpiler/analysis/activity.h"
#include "transpiler/ast/mutator.h"
#include "transpiler/frontend/quote.h"
#include "transpiler/passes/block_rewriter.h"

namespace agc::passes {

using namespace ast;
using namespace frontend;  // quote()

namespace {

// AutoGraph's current algorithm: a `continue` asks every enclosing block, up to
// its loop body, to guard the statement that follows the one containing it.
// The statement holding the continue itself is never guarded (its own
// condition already decides), so consecutive `if c: continue` statements each
// stay unguarded and the first statement after them gets `if not continue_:`.
class ContinueTransformer : public AstMutator {
 public:
  // Every loop allocates a continue_ name; blocks matter only when they hold a continue.
  ContinueTransformer(PassContext& ctx, const analysis::Activity& activity)
      : AstMutator(kinds({NodeKind::Continue, NodeKind::While, NodeKind::For})), ctx_(ctx), activity_(activity) {}

 protected:
  Stmts visit_Continue(const Ptr<Continue>& n) override {
    if (loops_.empty()) return {n};
    loops_.back().used = true;
    for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it) {
      it->guard_current = false;
      it->guard_next = true;
      if (it->is_loop) break;
    }
    return quote("var_name = True", {{"var_name", loops_.back().var}}, n->span);
  }

  // A nested function's statements are not part of the enclosing loop.
  Stmts visit_FunctionDef(const Ptr<FunctionDef>& n) override {
    auto saved_loops = std::move(loops_);
    auto saved_blocks = std::move(blocks_);
    loops_.clear();
    blocks_.clear();
    Refs out = AstMutator::visit_FunctionDef(n);
    loops_ = std::move(saved_loops);
    blocks_ = std::move(saved_blocks);
    return out;
  }

  Stmts visit_While(const Ptr<While>& n) override {
    Ref test = mutate(n->test);
    Refs body = loop_body(n.get(), n->body);
    // A continue in the else clause applies to the enclosing loop.
    Refs orelse = block(n->orelse, false);
    if (test == n->test && body == n->body && orelse == n->orelse) return {n};
    auto c = clone(*n);
    c->test = test;
    c->body = std::move(body);
    c->orelse = std::move(orelse);
    return {c};
  }

  Stmts visit_For(const Ptr<For>& n) override {
    Ref target = mutate(n->target);
    Ref iter = mutate(n->iter);
    Refs body = loop_body(n.get(), n->body);
    Refs orelse = block(n->orelse, false);
    if (target == n->target && iter == n->iter && body == n->body && orelse == n->orelse) return {n};
    auto c = clone(*n);
    c->target = target;
    c->iter = iter;
    c->body = std::move(body);
    c->orelse = std::move(orelse);
    return {c};
  }

  Stmts visit_If(const Ptr<If>& n) override {
    Ref test = mutate(n->test);
    Refs body = block(n->body, false), orelse = block(n->orelse, false);
    if (test == n->test && body == n->body && orelse == n->orelse) return {n};
    auto c = clone(*n);
    c->test = test;
    c->body = std::move(body);
    c->orelse = std::move(orelse);
    return {c};
  }

  Stmts visit_With(const Ptr<With>& n) override {
    Refs items = mutate_list(n->items);
    Refs body = block(n->body, false);
    if (items == n->items && body == n->body) return {n};
    auto c = clone(*n);
    c->items = std::move(items);
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
    Ref type = mutate(n->type);
    Refs body = block(n->body, false);
    if (type == n->type && body == n->body) return n;
    auto c = clone(*n);
    c->type = type;
    c->body = std::move(body);
    return c;
  }

 private:
  struct Loop {
    std::string var;
    bool used = false;
  };
  struct Block {
    bool is_loop = false;
    bool guard_current = false;  // guard the statement being finished
    bool guard_next = false;     // guard the one after it
  };

  Refs loop_body(const Node* loop, const Refs& body) {
    const analysis::Scope* scope = activity_.original_body_scope(loop);
    std::string var = ctx_.namer.new_symbol("continue_", analysis::reserved_by({scope}));
    loops_.push_back({var});
    Refs out = block(body, true);
    Loop done = loops_.back();
    loops_.pop_back();
    if (done.used) {
      if (ctx_.facts) {
        ctx_.facts->control_variables.emplace(var, ControlVariable{ControlVariable::Role::Continue, loop->span});
      }
      Refs init = quote("var_name = False", {{"var_name", var}}, loop->span);
      out.insert(out.begin(), init.begin(), init.end());
    }
    return out;
  }

  Refs block(const Refs& stmts, bool is_loop) {
    blocks_.push_back({is_loop});
    Refs out = visit_block(stmts, [this](const Ref& s) { return mutate_stmt(s); },
                           [this](Stmts nodes) -> Placement {
                             if (loops_.empty() || !loops_.back().used) return {std::move(nodes)};
                             Block& b = blocks_.back();
                             bool wrap = b.guard_current;
                             b.guard_current = b.guard_next;
                             b.guard_next = false;
                             if (!wrap) return {std::move(nodes)};
                             // This statement, and everything after it in the block,
                             // runs only if the iteration did not continue.
                             Refs guard = quote(R"(
                               if not var_name:
                                 original_node
                             )",
                                                {{"var_name", loops_.back().var}, {"original_node", Refs(nodes)}},
                                                nodes.front()->span);
                             const Node* into = guard[0].get();
                             return {Stmts(std::move(guard)), into, false};
                           });
    blocks_.pop_back();
    return out;
  }

  PassContext& ctx_;
  const analysis::Activity& activity_;
  std::vector<Loop> loops_;
  std::vector<Block> blocks_;
};

}  // namespace

Ref convert_continue_statements(const Ref& fn, PassContext& ctx) {
  ContinueTransformer t(ctx, ctx.naming(fn));
  Refs out = t.mutate_stmt(fn);
  AGC_CHECK(out.size() == 1);
  return out[0];
}

}  // namespace agc::passes
