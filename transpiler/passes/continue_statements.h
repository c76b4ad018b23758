// Continue statements (AutoGraph's converters/continue_statements.py). Lowers
// `continue` to a control variable that guards the rest of the loop body:
//
//   for c in items:             for c in items:
//     if c % 2 > 0:               continue_ = False
//       continue                  if c % 2 > 0:
//     s += c                        continue_ = True
//                                 if not continue_:
//                                   s += c
//
// Runs after break_statements (which leaves `continue` behind) and before the
// loops are converted.
#pragma once

#include "transpiler/passes/pass.h"

namespace agc::passes {

ast::Ref convert_continue_statements(const ast::Ref& fn, PassContext& ctx);

}  // namespace agc::passes
