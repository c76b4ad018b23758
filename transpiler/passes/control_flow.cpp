#include "transpiler/passes/control_flow.h"

#include <algorithm>

#include "transpiler/analysis/activity.h"
#include "transpiler/analysis/ag_operators.h"
#include "transpiler/analysis/liveness.h"
#include "transpiler/analysis/reaching_definitions.h"
#include "transpiler/ast/mutator.h"
#include "transpiler/frontend/quote.h"
#include "transpiler/ast/python_printer.h"

namespace agc::passes {

using namespace ast;
using namespace frontend;  // quote()
using analysis::QN;
using analysis::QNSet;

namespace {

struct BlockVars {
  std::vector<QN> vars;  // outputs first, then inputs only; lexicographic within
  std::vector<QN> undefined;
  int nouts = 0;
};

class ControlFlowTransformer : public AstMutator {
 public:
  ControlFlowTransformer(PassContext& ctx, const analysis::Activity& activity, const analysis::Liveness& liveness,
                         const analysis::ReachingDefinitions& defs)
      : AstMutator(kinds({NodeKind::If, NodeKind::While, NodeKind::For})),
        ctx_(ctx),
        act_(activity),
        live_(liveness),
        defs_(defs) {}

 protected:
  Stmts visit_FunctionDef(const Ptr<FunctionDef>& n) override {
    functions_.push_back(act_.body_scope(n.get()));
    Refs out = AstMutator::visit_FunctionDef(n);
    functions_.pop_back();
    return out;
  }

  Ref visit_Lambda(const Ptr<Lambda>& n) override {
    functions_.push_back(act_.scope(n.get()));
    Ref out = AstMutator::visit_Lambda(n);
    functions_.pop_back();
    return out;
  }

  // The statement's parts (body, test, iterate) move into the code that
  // replaces it uncopied (Unshared): each appears there once, and copying
  // every loop body was an eighth of a converted function's peak memory.
  Stmts visit_If(const Ptr<If>& orig) override {
    auto n = rebuild(orig);
    const analysis::Scope* body = act_.body_scope(orig.get());
    const analysis::Scope* orelse = act_.orelse_scope(orig.get());
    QNSet modified = body->bound;
    modified.insert_all(orelse->bound);
    BlockVars bv = block_vars(orig.get(), modified);
    if (ctx_.facts) {
      StagedStatement& f = record(NodeKind::If, *n, n->test, bv);
      for (const QN& v : bv.vars) {
        if (body->bound.count(v)) f.bound_in_body.push_back(v.str());
        if (orelse->bound.count(v)) f.bound_in_orelse.push_back(v.str());
      }
    }

    auto reserved = analysis::reserved_by({body, orelse});
    std::string getter = ctx_.namer.new_symbol("get_state", reserved);
    std::string setter = ctx_.namer.new_symbol("set_state", reserved);
    Refs nonlocals = nonlocal_declarations(bv.vars, n->span);
    Refs state = state_functions(bv.vars, nonlocals, getter, setter, n->span);
    Refs orelse_body = n->orelse;
    if (orelse_body.empty()) orelse_body.push_back(make<Pass>(n->span));
    std::string body_name = ctx_.namer.new_symbol("if_body", reserved);
    std::string orelse_name = ctx_.namer.new_symbol("else_body", reserved);

    Refs out = state;
    Refs rest = quote(R"(
      def body_name():
        nonlocal_declarations
        body
      def orelse_name():
        nonlocal_declarations
        orelse
      undefined_assigns
      ag__.if_stmt(test, body_name, orelse_name, state_getter_name, state_setter_name, (symbol_names,), nouts)
    )",
                      {{"body_name", body_name},
                       {"orelse_name", orelse_name},
                       {"nonlocal_declarations", nonlocals},
                       {"body", Unshared{n->body}},
                       {"orelse", Unshared{orelse_body}},
                       {"undefined_assigns", undefined_assigns(bv.undefined, n->span)},
                       {"test", Unshared{n->test}},
                       {"state_getter_name", getter},
                       {"state_setter_name", setter},
                       {"symbol_names", symbol_names(bv.vars, n->span)},
                       {"nouts", constant(ConstantValue::of_int(bv.nouts), n->span)}},
                      n->span);
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
  }

  Stmts visit_While(const Ptr<While>& orig) override {
    auto n = rebuild(orig);
    const analysis::Scope* body = act_.body_scope(orig.get());
    BlockVars bv = block_vars(orig.get(), body->bound);
    if (ctx_.facts) record(NodeKind::While, *n, n->test, bv).lists = analysis::list_mutation_targets(n->body);
    auto reserved = analysis::reserved_by({body});
    std::string getter = ctx_.namer.new_symbol("get_state", reserved);
    std::string setter = ctx_.namer.new_symbol("set_state", reserved);
    Refs nonlocals = nonlocal_declarations(bv.vars, n->span);
    Refs out = state_functions(bv.vars, nonlocals, getter, setter, n->span);
    std::string body_name = ctx_.namer.new_symbol("loop_body", reserved);
    std::string test_name = ctx_.namer.new_symbol("loop_test", reserved);
    Refs rest = quote(R"(
      def body_name():
        nonlocal_declarations
        body
      def test_name():
        return test
      undefined_assigns
      ag__.while_stmt(test_name, body_name, state_getter_name, state_setter_name, (symbol_names,), opts)
    )",
                      {{"body_name", body_name},
                       {"test_name", test_name},
                       {"nonlocal_declarations", nonlocals},
                       {"body", Unshared{n->body}},
                       {"test", Unshared{n->test}},
                       {"undefined_assigns", undefined_assigns(bv.undefined, n->span)},
                       {"state_getter_name", getter},
                       {"state_setter_name", setter},
                       {"symbol_names", symbol_names(bv.vars, n->span)},
                       {"opts", loop_options(n->loop_opts, {}, n->span)}},
                      n->span);
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
  }

  Stmts visit_For(const Ptr<For>& orig) override {
    auto n = rebuild(orig);
    const analysis::Scope* body = act_.body_scope(orig.get());
    const analysis::Scope* iterate = act_.iterate_scope(orig.get());
    QNSet modified = body->bound;
    modified.insert_all(iterate->bound);
    BlockVars bv = block_vars(orig.get(), modified);
    if (ctx_.facts) {
      StagedStatement& f = record(NodeKind::For, *n, n->iter, bv);
      f.extra_test = n->extra_test;
      f.lists = analysis::list_mutation_targets(n->body);
    }
    auto reserved = analysis::reserved_by({body, iterate});
    std::string getter = ctx_.namer.new_symbol("get_state", reserved);
    std::string setter = ctx_.namer.new_symbol("set_state", reserved);
    Refs nonlocals = nonlocal_declarations(bv.vars, n->span);
    Refs out = state_functions(bv.vars, nonlocals, getter, setter, n->span);
    Ref opts = loop_options(n->loop_opts, str_constant(ast::to_source(n->target), n->span), n->span);

    Refs extra_test_function;
    Ref extra_test_name;
    if (n->extra_test) {
      std::string name = ctx_.namer.new_symbol("extra_test", reserved);
      extra_test_function = quote(R"(
        def extra_test_name():
          nonlocal_declarations
          return extra_test_expr
      )",
                                  {{"extra_test_name", name},
                                   {"nonlocal_declarations", nonlocals},
                                   {"extra_test_expr", Unshared{n->extra_test}}},
                                  n->span);
      extra_test_name = ast::name(name, ExprContext::Load, n->span);
    } else {
      extra_test_name = constant(ConstantValue::none(), n->span);
    }
    std::string itr = ctx_.namer.new_symbol("itr", reserved);
    Refs expansion = quote("iterates = iterate_arg_name", {{"iterates", n->target}, {"iterate_arg_name", itr}},
                           n->span);
    std::string body_name = ctx_.namer.new_symbol("loop_body", reserved);
    Refs rest = quote(R"(
      def body_name(iterate_arg_name):
        nonlocal_declarations
        iterate_expansion
        body
      extra_test_function
      undefined_assigns
      ag__.for_stmt(iterated, extra_test_name, body_name, state_getter_name, state_setter_name, (symbol_names,), opts)
    )",
                      {{"body_name", body_name},
                       {"iterate_arg_name", itr},
                       {"nonlocal_declarations", nonlocals},
                       {"iterate_expansion", Unshared{expansion}},
                       {"body", Unshared{n->body}},
                       {"extra_test_function", Unshared{extra_test_function}},
                       {"undefined_assigns", undefined_assigns(bv.undefined, n->span)},
                       {"iterated", Unshared{n->iter}},
                       {"extra_test_name", extra_test_name},
                       {"state_getter_name", getter},
                       {"state_setter_name", setter},
                       {"symbol_names", symbol_names(bv.vars, n->span)},
                       {"opts", opts}},
                      n->span);
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
  }

 private:
  const analysis::Scope& function_scope() const {
    static const analysis::Scope empty;
    return functions_.empty() || !functions_.back() ? empty : *functions_.back();
  }

  BlockVars block_vars(const Node* stmt, const QNSet& modified) const {
    const QNSet& live_in = live_.live_in(stmt);
    const QNSet& live_out = live_.live_out(stmt);
    const analysis::Scope& fn = function_scope();
    QNSet basic, composite;
    for (const auto& s : modified) {
      if (!s.is_composite()) {
        // Variables neither live into nor out of the block are local to it.
        if (live_in.count(s) || live_out.count(s) || fn.nonlocals.count(s)) basic.insert(s);
        continue;
      }
      // A mutation of an object created inside the block is not state: the
      // composite's symbols must be live into it.
      bool all_live = true;
      for (const auto& sym : s.support_set()) {
        if (sym.is_symbol() && !live_in.count(sym)) all_live = false;
      }
      if (all_live) composite.insert(s);
    }
    BlockVars bv;
    std::vector<QN> outputs, inputs;
    for (const auto& s : basic) {
      bool input_only = live_in.count(s) && !live_out.count(s);
      (input_only ? inputs : outputs).push_back(s);
    }
    outputs.insert(outputs.end(), composite.begin(), composite.end());
    // Outputs first, then inputs only; lexicographic within each (AutoGraph's order).
    std::sort(outputs.begin(), outputs.end(), QN::ByName());
    std::sort(inputs.begin(), inputs.end(), QN::ByName());
    bv.nouts = static_cast<int>(outputs.size());
    bv.vars = outputs;
    bv.vars.insert(bv.vars.end(), inputs.begin(), inputs.end());
    for (const auto& s : modified) {
      if (s.is_composite() || defs_.defined_in(stmt, s) || fn.globals.count(s) || fn.nonlocals.count(s)) continue;
      bv.undefined.push_back(s);
    }
    return bv;
  }

  /// The facts of a statement for `agc explain` (ctx_.facts is set).
  StagedStatement& record(NodeKind kind, const Node& n, const Ref& test, const BlockVars& bv) {
    StagedStatement f{kind, n.span, test, nullptr, {}, static_cast<size_t>(bv.nouts), {}, {}, {}, {}};
    for (const QN& v : bv.vars) f.symbols.push_back(v.str());
    for (const QN& v : bv.undefined) f.undefined.push_back(v.str());
    std::sort(f.undefined.begin(), f.undefined.end());
    ctx_.facts->statements.push_back(std::move(f));
    return ctx_.facts->statements.back();
  }

  Refs nonlocal_declarations(const std::vector<QN>& vars, SourceSpan span) const {
    const analysis::Scope& fn = function_scope();
    std::vector<std::string> globals, nonlocals;
    for (const auto& v : vars) {
      if (fn.globals.count(v)) globals.push_back(v.str());
      else if (!v.is_composite()) nonlocals.push_back(v.str());
    }
    std::sort(globals.begin(), globals.end());
    std::sort(nonlocals.begin(), nonlocals.end());
    Refs out;
    if (!globals.empty()) {
      auto g = make<Global>(span);
      g->names = globals;
      out.push_back(g);
    }
    if (!nonlocals.empty()) {
      auto nl = make<Nonlocal>(span);
      nl->names = nonlocals;
      out.push_back(nl);
    }
    return out;
  }

  Refs state_functions(const std::vector<QN>& vars, const Refs& nonlocals, const std::string& getter,
                       const std::string& setter, SourceSpan span) const {
    if (vars.empty()) {
      return quote(R"(
        def getter_name():
          return ()
        def setter_name(block_vars):
          pass
      )",
                   {{"getter_name", getter}, {"setter_name", setter}}, span);
    }
    Refs guarded, targets;
    for (const auto& v : vars) {
      targets.push_back(v.ast(ExprContext::Store, span));
      if (v.is_simple()) {
        guarded.push_back(v.ast(ExprContext::Load, span));
      } else {
        // A composite may not exist yet; ldu reads it or yields Undefined.
        guarded.push_back(quote_expr("ag__.ldu(lambda: var_, name)",
                                     {{"var_", v.ast(ExprContext::Load, span)}, {"name", str_constant(v.str(), span)}},
                                     span));
      }
    }
    return quote(R"(
      def getter_name():
        return guarded_state_vars,
      def setter_name(vars_):
        nonlocal_declarations
        state_vars, = vars_
    )",
                 {{"getter_name", getter},
                  {"setter_name", setter},
                  {"guarded_state_vars", guarded},
                  {"nonlocal_declarations", nonlocals},
                  {"state_vars", targets}},
                 span);
  }

  static Refs undefined_assigns(std::vector<QN> undefined, SourceSpan span) {
    std::sort(undefined.begin(), undefined.end(), QN::ByName());
    Refs out;
    for (const auto& s : undefined) {
      Refs a = quote("var = ag__.Undefined(symbol_name)",
                     {{"var", s.ast(ExprContext::Store, span)}, {"symbol_name", str_constant(s.ssf(), span)}}, span);
      out.insert(out.end(), a.begin(), a.end());
    }
    return out;
  }

  static Refs symbol_names(const std::vector<QN>& vars, SourceSpan span) {
    Refs out;
    for (const auto& v : vars) out.push_back(str_constant(v.str(), span));
    return out;
  }

  /// The loop's options dict: its set_loop_options directives, then (for loops
  /// over iterables) 'iterate_names'.
  static Ref loop_options(const std::vector<LoopOption>& options, const Ref& iterate_names, SourceSpan span) {
    auto d = make<Dict>(span);
    for (const auto& o : options) {
      d->keys.push_back(str_constant(o.key, span));
      d->values.push_back(o.value);
    }
    if (iterate_names) {
      d->keys.push_back(str_constant("iterate_names", span));
      d->values.push_back(iterate_names);
    }
    return d;
  }

  PassContext& ctx_;
  const analysis::Activity& act_;
  const analysis::Liveness& live_;
  const analysis::ReachingDefinitions& defs_;
  std::vector<const analysis::Scope*> functions_;
};

}  // namespace

Ref convert_control_flow(const Ref& fn, PassContext& ctx) {
  ControlFlowTransformer t(ctx, ctx.analyses.get<analysis::Activity>(fn), ctx.analyses.get<analysis::Liveness>(fn),
                           ctx.analyses.get<analysis::ReachingDefinitions>(fn));
  Refs out = t.mutate_stmt(fn);
  AGC_CHECK(out.size() == 1);
  return out[0];
}

}  // namespace agc::passes
