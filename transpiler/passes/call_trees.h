// Call trees (AutoGraph's converters/call_trees.py). Routes every call through
// the runtime, which converts user functions recursively and runs TensorFlow
// and builtins as they are:
//
//   y = tf.tanh(x)        y = ag__.converted_call(tf.tanh, (x,), None, fscope)
//   f(a, *b, k=1)         ag__.converted_call(f, (a,) + tuple(b), dict(k=1), fscope)
//
// Left alone: calls into ag__ and the function scope, print (unless the
// BUILTIN_FUNCTIONS feature is on), pdb.set_trace/breakpoint, and the context
// managers of `with` statements. Needs the functions pass (for the scope name).
#pragma once

#include "transpiler/passes/pass.h"

namespace agc::passes {

ast::Ref convert_call_trees(const ast::Ref& fn, PassContext& ctx);

}  // namespace agc::passes
