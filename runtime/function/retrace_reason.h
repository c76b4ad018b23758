// Why a tf.function traced again (agc's explained retraces, issue 17): the
// call's TraceTypes against the closest cached trace, leaf by leaf, with the
// cache's own subtype rule, so the explanation names exactly what made the
// lookup miss: `x: float32[3] -> float32[4]`, `n: 3 -> 4`, `cfg['lr']: 0.1
// -> 0.2`, `model: a new Model object`, `kwargs: a new keyword 'z'`.
#pragma once

#include <string>
#include <vector>

#include "runtime/function/trace_type.h"
#include "runtime/value/user_function.h"

namespace ag {

/// One leaf (or container shape) where a call's type is not a subtype of a
/// cached trace's: `path` from the parameter name (`args[1][0]`,
/// `cfg['lr']`), `change` what became what.
struct TypeDifference {
  std::string path;
  std::string change;
};

/// Where `call` is not a subtype of `cached` (empty when it is). `relaxed`:
/// the type traced instead of `call` (reduce_retracing), or null; a leaf it
/// relaxed says so ("(traced as float32[None])"). `param_kind` words the
/// differences of *args and **kwargs as argument counts and keywords.
std::vector<TypeDifference> type_differences(const TraceType& call, const TraceType& cached, const TraceType* relaxed,
                                             const std::string& path, ParamKind param_kind = ParamKind::PositionalOrKeyword);

/// Why `call` (one type per parameter) missed a cache holding `cached`: its
/// differences from the closest trace (fewest differences; the latest of
/// equals), "; "-separated. `traced`: the types traced for it (differing
/// from `call` only under reduce_retracing). Empty when `cached` is.
std::string explain_retrace(const std::vector<Param>& params, const std::vector<TraceType>& call,
                            const std::vector<TraceType>& traced, const std::vector<const std::vector<TraceType>*>& cached);

/// A type as the explanations print it: `float32[3]`, `float32[None, 2]`,
/// `3`, `'sgd'`, `a Model object`, `a list of 2 items`, a TypeSpec's repr.
std::string describe_trace_type(const TraceType& t);

}  // namespace ag
