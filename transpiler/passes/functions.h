// Function scopes (AutoGraph's converters/functions.py). Wraps every function
// body in the context that tracks its conversion options and return value:
//
//   def f(x):                 def f(x):
//     return x                  with ag__.FunctionScope('f', 'fscope', ag__.ConversionOptions(...)) as fscope:
//                                   return x
//
// The converted entity loses its decorators; nested functions get
// @ag__.autograph_artifact and the options of a recursive call; nested lambdas
// become ag__.autograph_artifact(lambda ...). A docstring stays first.
// Must run first: later passes find the context name in the `with`.
#pragma once

#include "transpiler/passes/pass.h"

namespace agc::passes {

ast::Ref convert_functions(const ast::Ref& fn, PassContext& ctx);

/// `ag__.ConversionOptions(...)` as AutoGraph prints it for a top-level
/// (user-requested) or nested function.
ast::Ref conversion_options_ast(const ConversionOptions& options, bool user_requested, SourceSpan span);

}  // namespace agc::passes
