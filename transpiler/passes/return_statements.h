// Return statements (AutoGraph's converters/return_statements.py). Gives every
// function a single exit: each `return v` becomes
//
//   try:
//     do_return = True
//     retval_ = v
//   except:
//     do_return = False
//     raise
//
// statements that may run after a return are guarded by `if not do_return:`,
// loops also test `not do_return`, and the function scope ends with
// `return fscope.ret(retval_, do_return)`. First, when one branch of an if
// returns, the statements after the if move into the other branch, so that both
// branches end the same way. Needs the functions pass (for the scope name).
#pragma once

#include "transpiler/passes/pass.h"

namespace agc::passes {

ast::Ref convert_return_statements(const ast::Ref& fn, PassContext& ctx);

}  // namespace agc::passes
