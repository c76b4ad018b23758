// Directives (AutoGraph's converters/directives.py). Removes
// `tf.autograph.experimental.set_loop_options(...)` calls from the top of loop
// bodies and attaches their arguments to the loop, where control_flow turns
// them into the loop's options dict:
//
//   while x < n:                                 while x < n:      # opts: parallel_iterations=10
//     tf.autograph.experimental.set_loop_options(  x += 1
//         parallel_iterations=10)
//     x += 1
//
// The directive must be the first statement of a loop body.
#pragma once

#include "transpiler/passes/pass.h"

namespace agc::passes {

ast::Ref convert_directives(const ast::Ref& fn, PassContext& ctx);

}  // namespace agc::passes
