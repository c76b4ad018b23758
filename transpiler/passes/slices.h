// Slices (agc's take on AutoGraph's converters/slices.py). Inside loops, an item
// assignment becomes an assignment of the container, so a list written by index
// in a graph loop is carried by the loop (as a TensorArray at run time):
//
//   for i in tf.range(n):        for i in tf.range(n):
//     out[i] = f(i)                out = ag__.set_item(out, i, f(i))
//
// Slices and tuple indices are left alone, as in AutoGraph, and so is a name
// that is not the function's own local (see lists.h). Off with
// --autograph-compat.
#pragma once

#include "transpiler/passes/pass.h"

namespace agc::passes {

ast::Ref convert_slices(const ast::Ref& fn, PassContext& ctx);

}  // namespace agc::passes
