// TF's dispatch of its API to types that register for it, as Keras does for
// its symbolic tensors: a tf.* function, or a tensor operator, given a
// KerasTensor outside the construction of a layer's call becomes a layer of
// the functional model (Keras's TFOpLambda), named after the function's
// canonical API symbol ("tf.math.multiply"). The lower layers (the tf.*
// table, the tensor operators, tensor subscripts) ask the hook; the Keras
// layer (runtime/keras/functional.cpp) installs it when it makes its first
// symbolic tensor, so programs without Keras pay one atomic load per call.
// A second hook gives such a tensor its text (str and repr: KerasTensor's).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/value/value.h"

namespace ag {

/// A dispatched function: the tf.* row or operator, called again by the
/// layer on each run with the same arguments, tensors substituted.
using DispatchedFn = Value (*)(std::vector<Value>, Kwargs);
/// The hook: a result when it took the call (some argument is its symbolic
/// tensor), nullopt to let the caller go on. `symbol` is the canonical API
/// name after "tf." ("math.multiply", "__operators__.getitem").
using SymbolicDispatch = std::optional<Value> (*)(std::string_view symbol, DispatchedFn fn,
                                                  const std::vector<Value>& args, const Kwargs& kwargs);

void set_symbolic_dispatch(SymbolicDispatch hook);

/// The hook's answer for a call of `fn` (nullopt without a hook).
std::optional<Value> symbolic_dispatch(std::string_view symbol, DispatchedFn fn, const std::vector<Value>& args,
                                       const Kwargs& kwargs);

/// The text of symbolic tensor `t` when the hook owns it: str() (as_repr
/// false) or repr(); nullopt for the graph's own text.
using SymbolicText = std::optional<std::string> (*)(const TensorHandle& t, bool as_repr);
void set_symbolic_text(SymbolicText hook);
std::optional<std::string> symbolic_text(const TensorHandle& t, bool as_repr);

}  // namespace ag
