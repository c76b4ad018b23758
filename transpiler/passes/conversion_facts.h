// What the conversion of one function decided, recorded by the passes that
// decide it, for `agc explain` (report/conversion_report.h): each statement
// control_flow turned into an ag__ call with the state it computed, and the
// control variables the break/continue/return lowerings introduced. Recorded
// only when asked (PassContext::facts), so plain conversion pays nothing.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "transpiler/ast/ast.h"
#include "transpiler/base/source.h"

namespace agc::passes {

/// One if/while/for as control_flow saw it (after break, continue and return
/// lowering), which became ag__.if_stmt, while_stmt or for_stmt.
struct StagedStatement {
  ast::NodeKind kind;  // If, While or For
  /// The statement's span, which rewrites keep; a guard the lowerings made
  /// (`if not do_return:`) has the span of the first statement it guards.
  SourceSpan span;
  /// The If/While test, or the For iterate, as control_flow received them.
  ast::Ref test;
  /// The For's hidden extra test (break and return lowering), or null.
  ast::Ref extra_test;
  /// get_state/set_state's symbols in their order: the first `nouts` are the
  /// statement's outputs (used after it); the rest are only read in it
  /// before it sets them. For a loop, every one is loop-carried.
  std::vector<std::string> symbols;
  size_t nouts = 0;
  /// The symbols (and locals) first bound inside: `x = ag__.Undefined('x')`
  /// before the call.
  std::vector<std::string> undefined;
  /// If: which symbols each branch binds.
  std::vector<std::string> bound_in_body, bound_in_orelse;
  /// Loops: the lists the body appends to or pops from (ag__.list_append,
  /// ag__.list_pop), which a staged loop carries as TensorArrays.
  std::set<std::string> lists;
};

/// A variable the lowering of break, continue or return introduced.
struct ControlVariable {
  enum class Role { Break, Continue, Return, ReturnValue };
  Role role;
  /// The loop (or, for Return/ReturnValue, the function) it belongs to.
  SourceSpan span;
};

struct ConversionFacts {
  std::vector<StagedStatement> statements;
  /// By name (the namer makes each one unique in its function).
  std::map<std::string, ControlVariable> control_variables;

  /// The control variable named `name`, or null (a user's own name).
  const ControlVariable* control_variable(const std::string& name) const {
    auto it = control_variables.find(name);
    return it == control_variables.end() ? nullptr : &it->second;
  }
};

}  // namespace agc::passes
