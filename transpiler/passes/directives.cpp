#include "transpiler/passes/directives.h"

#include <fmt/format.h>

#include "transpiler/analysis/activity.h"
#include "transpiler/ast/mutator.h"

namespace agc::passes {

using namespace ast;

namespace {

constexpr const char* kSetLoopOptions = "tensorflow.autograph.experimental.set_loop_options";
// The directive's signature, in order; its arguments keep this order.
const char* const kLoopOptionNames[] = {"parallel_iterations", "swap_memory", "maximum_iterations",
                                        "shape_invariants"};

class DirectivesTransformer : public AstMutator {
 public:
  // Statements are counted inside loops, so every statement kind that counts is of interest.
  DirectivesTransformer(PassContext& ctx, const analysis::Scope* fn_scope)
      : AstMutator(kinds({NodeKind::While, NodeKind::For, NodeKind::Expr, NodeKind::Assign, NodeKind::AugAssign})),
        ctx_(ctx),
        fn_scope_(fn_scope) {}

 protected:
  Stmts visit_While(const Ptr<While>& n) override { return {loop(n)}; }
  Stmts visit_For(const Ptr<For>& n) override { return {loop(n)}; }

  Stmts visit_Assign(const Ptr<Assign>& n) override {
    count_statement();
    return AstMutator::visit_Assign(n);
  }
  Stmts visit_AugAssign(const Ptr<AugAssign>& n) override {
    count_statement();
    return AstMutator::visit_AugAssign(n);
  }

  Stmts visit_Expr(const Ptr<Expr>& n) override {
    count_statement();
    const auto* call = n->value->dyn<Call>();
    if (!call || !is_set_loop_options(call->func)) return {rebuild(n)};
    if (loops_.empty()) {
      ctx_.sink.error(n->span, "set_loop_options must be used inside a loop body");
      return {};
    }
    LoopState& loop = loops_.back();
    if (loop.statements > 1) {
      ctx_.sink.error(n->span, "set_loop_options must be the first statement in the loop block");
      return {};
    }
    std::map<std::string, Ref> given;
    if (call->args.size() > std::size(kLoopOptionNames)) {
      ctx_.sink.error(call->span, "set_loop_options takes at most 4 positional arguments");
    }
    for (size_t i = 0; i < call->args.size() && i < std::size(kLoopOptionNames); ++i) {
      if (call->args[i]->is<Starred>()) {
        ctx_.sink.error(call->args[i]->span, "set_loop_options arguments must be written out, not unpacked");
        continue;
      }
      given[kLoopOptionNames[i]] = call->args[i];
    }
    for (const auto& k : call->keywords) {
      const auto& kw = k->as<Keyword>();
      bool known = false;
      for (const char* name : kLoopOptionNames) known = known || kw.arg == name;
      if (!known) {
        ctx_.sink.error(k->span, kw.arg.empty() ? std::string("set_loop_options arguments must be written out, not unpacked")
                                                : fmt::format("set_loop_options got an unexpected keyword argument '{}'", kw.arg));
        continue;
      }
      if (given.count(kw.arg)) {
        ctx_.sink.error(k->span, fmt::format("set_loop_options got multiple values for argument '{}'", kw.arg));
        continue;
      }
      given[kw.arg] = kw.value;
    }
    loop.options.clear();
    for (const char* name : kLoopOptionNames) {
      auto it = given.find(name);
      if (it != given.end()) loop.options.push_back({name, it->second});
    }
    return {};
  }

 private:
  struct LoopState {
    int statements = 0;
    std::vector<LoopOption> options;
  };

  void count_statement() {
    if (!loops_.empty()) ++loops_.back().statements;
  }

  bool is_set_loop_options(const Ref& func) const {
    std::string path = resolve_import_path(func, ctx_.imports);
    if (path != kSetLoopOptions) return false;
    // A local variable of the same name shadows the import.
    const Ref* root = &func;
    while ((*root)->is<Attribute>()) root = &(*root)->as<Attribute>().value;
    return !(fn_scope_ && fn_scope_->bound.count(analysis::QN::symbol((*root)->as<Name>().id)));
  }

  template <class T>
  Ref loop(const Ptr<T>& n) {
    loops_.emplace_back();
    auto rebuilt = rebuild(n);
    LoopState state = std::move(loops_.back());
    loops_.pop_back();
    if (state.options.empty() && rebuilt == n) return n;
    auto c = clone(*rebuilt);
    if (!state.options.empty()) c->loop_opts = std::move(state.options);
    // A loop whose only statement was the directive keeps a body.
    if (c->body.empty()) c->body.push_back(make<Pass>(n->span));
    return c;
  }

  PassContext& ctx_;
  const analysis::Scope* fn_scope_;
  std::vector<LoopState> loops_;
};

}  // namespace

Ref convert_directives(const Ref& fn, PassContext& ctx) {
  // The names the function binds decide whether `tf` is the import.
  const Ref& original = ctx.original ? ctx.original : fn;
  DirectivesTransformer t(ctx, ctx.naming(fn).function_scope(original.get()));
  Refs out = t.mutate_stmt(fn);
  AGC_CHECK(out.size() == 1);
  return out[0];
}

}  // namespace agc::passes
