// Reports, at the user's line, the constructs AutoGraph can never convert
// (pyct's unsupported_features_checker): for/else, while/else and mangled
// `obj.__name` attributes; plus what agc cannot lower: a class defined inside a
// function. Reports every occurrence; runs before any conversion. Like any
// conversion problem, each fails only its function, which TF (and agc) then
// run as written.
#pragma once

#include "transpiler/passes/pass.h"

namespace agc::passes {

/// Reports problems to ctx.sink; returns `fn` unchanged.
ast::Ref check_unsupported_features(const ast::Ref& fn, PassContext& ctx);

}  // namespace agc::passes
