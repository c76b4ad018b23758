// Control flow (AutoGraph's converters/control_flow.py). Turns if, while and
// for statements into calls of the runtime's functional forms, with nested
// functions for the branches and loop bodies and state functions over exactly
// the variables that cross the statement boundary:
//
//   if x > 0:                     def get_state():
//     x = x - 1                       return (x,)
//                                 def set_state(vars_):
//                                     nonlocal x
//                                     (x,) = vars_
//                                 def if_body():
//                                     nonlocal x
//                                     x = x - 1
//                                 def else_body():
//                                     nonlocal x
//                                     pass
//                                 ag__.if_stmt(x > 0, if_body, else_body, get_state, set_state, ('x',), 1)
//
// Which variables: those the statement modifies that are live into or out of it
// (liveness), outputs first and then lexicographic; the ones not defined before
// it start as ag__.Undefined. At trace time the runtime decides whether the
// statement becomes graph control flow or runs as plain Python. Inner
// statements are converted first and keep the bare names (if_body, then
// if_body_1 for the enclosing one).
#pragma once

#include "transpiler/passes/pass.h"

namespace agc::passes {

ast::Ref convert_control_flow(const ast::Ref& fn, PassContext& ctx);

}  // namespace agc::passes
