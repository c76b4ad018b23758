// Reports, at the user's line, the constructs AutoGraph can never convert
// (pyct's unsupported_features_checker): for/else, while/else and mangled
// `obj.__name` attributes; plus what agc cannot lower: a class defined inside a
// function. Reports every occurrence; runs before any conversion. Like any
// conversion problem, each fails only its function, which TF (and agc) then
// run as written.
#pragma once

#include "transpiler/passes/pass.h"

namespace agc::passes {

/// What a `yield` in a converted function is reported as: AutoGraph never
/// converts a generator, or a function that defines one (TF runs them as
/// written, and so does agc, without a warning).
inline constexpr const char* kGeneratorNotConverted =
    "generators are not supported by AutoGraph: TensorFlow and agc run a generator as written, unconverted";

/// Reports problems to ctx.sink; returns `fn` unchanged.
ast::Ref check_unsupported_features(const ast::Ref& fn, PassContext& ctx);

}  // namespace agc::passes
