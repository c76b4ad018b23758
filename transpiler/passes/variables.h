// Variables (AutoGraph's converters/variables.py). Every read of a user
// variable goes through ag__.ld, which turns reading a variable that is
// undefined on some path into a clear error; `del x` becomes
// `x = ag__.Undefined('x')`; `x += y` first re-reads x:
//
//   y = x + 1        y = (ag__.ld(x) + 1)
//   s += c           s = ag__.ld(s)
//                    s += c
//
// Only names the user wrote are wrapped, never names the conversion made.
// Runs last.
#pragma once

#include "transpiler/passes/pass.h"

namespace agc::passes {

ast::Ref convert_variables(const ast::Ref& fn, PassContext& ctx);

}  // namespace agc::passes
