#include "transpiler/passes/continue_statements.h"

#include "transpiler/analysis/activity.h"
#include "transpiler/ast/mutator.h"
#include "transpiler/ast/quote.h"
#include "transpiler/passes/block_rewriter.h"

namespace agc::passes {

using namespace ast;

namespace {

class ContinueTransformer : public AstMutator {
 public:
  ContinueTransformer(PassContext& ctx, const analysis::Activity& activity) : ctx_(ctx), activity_(activity) {}

 protected:
  Refs visit_Continue(const Ptr<Continue>& n) override {
    if (loops_.empty()) return {n};
    loops_.back().used = true;
    return quote("var_name = True", {{"var_name", loops_.back().var}}, n->span);
  }

  Refs visit_FunctionDef(const Ptr<FunctionDef>& n) override {
    auto saved = std::move(loops_);
    loops_.clear();
    Refs out = AstMutator::visit_FunctionDef(n);
    loops_ = std::move(saved);
    return out;
  }

  Refs visit_While(const Ptr<While>& n) override {
    Ref test = mutate(n->test);
    Refs body = loop_body(n.get(), n->body);
    Refs orelse = mutate_block(n->orelse);
    if (test == n->test && body == n->body && orelse == n->orelse) return {n};
    auto c = clone(*n);
    c->test = test;
    c->body = body;
    c->orelse = orelse;
    return {c};
  }

  Refs visit_For(const Ptr<For>& n) override {
    Ref target = mutate(n->target);
    Ref iter = mutate(n->iter);
    Refs body = loop_body(n.get(), n->body);
    Refs orelse = mutate_block(n->orelse);
    if (target == n->target && iter == n->iter && body == n->body && orelse == n->orelse) return {n};
    auto c = clone(*n);
    c->target = target;
    c->iter = iter;
    c->body = body;
    c->orelse = orelse;
    return {c};
  }

 private:
  struct Loop {
    std::string var;
    bool used = false;
    bool create_guard = false;
    bool guard_created = false;
  };

  Refs loop_body(const Node* loop, const Refs& body) {
    const analysis::Scope* scope = activity_.body_scope(loop);
    std::string var = ctx_.namer.new_symbol("continue_", scope ? scope->reserved() : std::set<std::string>{});
    loops_.push_back({var});
    // Once a statement may have continued, every later statement of the body
    // goes under `if not continue_:` (one guard, holding the rest of the block).
    Refs out = visit_block(body, [this](const Ref& s) { return mutate_stmt(s); },
                           [this](Refs nodes) -> Placement {
                             Loop& l = loops_.back();
                             if (!l.used || l.guard_created) return {std::move(nodes)};
                             if (!l.create_guard) {
                               l.create_guard = true;
                               return {std::move(nodes)};
                             }
                             l.guard_created = true;
                             Refs guard = quote(R"(
                               if not var_name:
                                 original_node
                             )",
                                                {{"var_name", l.var}, {"original_node", nodes}},
                                                nodes.front()->span);
                             const Node* into = guard[0].get();
                             return {std::move(guard), into, false};
                           });
    Loop done = loops_.back();
    loops_.pop_back();
    if (done.used) {
      Refs init = quote("var_name = False", {{"var_name", var}}, loop->span);
      out.insert(out.begin(), init.begin(), init.end());
    }
    return out;
  }

  PassContext& ctx_;
  const analysis::Activity& activity_;
  std::vector<Loop> loops_;
};

}  // namespace

Ref convert_continue_statements(const Ref& fn, PassContext& ctx) {
  ContinueTransformer t(ctx, ctx.analyses.get<analysis::Activity>(fn));
  Refs out = t.mutate_stmt(fn);
  AGC_CHECK(out.size() == 1);
  return out[0];
}

}  // namespace agc::passes
