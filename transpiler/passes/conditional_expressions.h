// Conditional expressions (AutoGraph's converters/conditional_expressions.py):
//
//   y = a if c else b      y = ag__.if_exp(c, lambda: a, lambda: b, 'c')
//
// The last argument is the test's source text, for error messages. Like
// AutoGraph, conditional expressions nested inside a converted one are left as
// they are.
#pragma once

#include "transpiler/passes/pass.h"

namespace agc::passes {

ast::Ref convert_conditional_expressions(const ast::Ref& fn, PassContext& ctx);

}  // namespace agc::passes
