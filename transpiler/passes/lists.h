// Lists (agc's take on AutoGraph's converters/lists.py). Inside loops, list
// mutation becomes an assignment the loop can carry, so that when the loop runs
// as a graph loop the runtime can keep the list as a TensorArray:
//
//   for i in tf.range(n):           for i in tf.range(n):
//     out.append(f(i))                out = ag__.list_append(out, f(i))
//     last = out.pop()                out, out_1 = ag__.list_pop(out, None, opts=ag__.ListPopOpts(...))
//                                     last = out_1
//
// Unlike AutoGraph's LISTS feature (which rewrites every append, pop and list
// display when on), list displays and reads are left alone, so code that does
// not mutate lists in loops converts exactly as TensorFlow does; and a plain
// name is rewritten only when it is the function's own local (may_rebind):
// assigning a module-level list or an enclosing function's would make the name
// local, and the loop would raise UnboundLocalError. Off with --autograph-compat.
#pragma once

#include "transpiler/passes/pass.h"

namespace agc::passes {

ast::Ref convert_lists(const ast::Ref& fn, PassContext& ctx);

}  // namespace agc::passes
