// Logical expressions (AutoGraph's converters/logical_expressions.py). `and`,
// `or` and `not` become runtime calls that evaluate lazily and work on tensors:
//
//   a and b or not c      ag__.or_(lambda: ag__.and_(lambda: a, lambda: b), lambda: ag__.not_(c))
//
// With the EQUALITY_OPERATORS feature, == and != become ag__.eq / ag__.not_eq
// (and chained comparisons a conjunction).
#pragma once

#include "transpiler/passes/pass.h"

namespace agc::passes {

ast::Ref convert_logical_expressions(const ast::Ref& fn, PassContext& ctx);

}  // namespace agc::passes
