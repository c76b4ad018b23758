// Break statements (AutoGraph's converters/break_statements.py). Lowers `break`
// to a control variable tested by the loop:
//
//   while x > 0:                 break_ = False
//     if x == 3:                 while not break_ and x > 0:
//       break                      if x == 3:
//     x -= 1                         break_ = True
//                                    continue
//                                  x -= 1
//
// (logical_expressions later makes the test `ag__.and_(lambda: ag__.not_(break_),
// lambda: x > 0)`, so the loop's own test is not evaluated after a break.)
// A for loop instead gets the test `ag__.not_(break_)` as its extra loop test and
// a `(break_,)` marker statement, as AutoGraph emits. The `continue` it leaves
// behind is lowered by continue_statements, which must run after this pass.
#pragma once

#include "transpiler/passes/pass.h"

namespace agc::passes {

ast::Ref convert_break_statements(const ast::Ref& fn, PassContext& ctx);

}  // namespace agc::passes
