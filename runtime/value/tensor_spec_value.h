// tf.TensorSpec as a Python value: an object of class "TensorSpec" with
// attributes shape, dtype and name, as input_signature and
// get_concrete_function receive it.
#pragma once

#include <optional>
#include <string>

#include "runtime/ops/op_def.h"
#include "runtime/value/value.h"

namespace ag {

/// tf.TensorSpec(shape, dtype, name): a Value. `name` empty means None.
Value make_tensor_spec(const Shape& shape, DType dtype, const std::string& name = "");

/// The spec a TensorSpec value describes, or nullopt for any other value.
std::optional<TensorSpec> tensor_spec_of(const Value& v);
/// Its name attribute ("" when None).
std::string tensor_spec_name(const Value& v);

/// "TensorSpec(shape=(None,), dtype=tf.int32, name=None)"; `name` empty prints None.
std::string tensor_spec_repr(const TensorSpec& spec, const std::string& name);

}  // namespace ag
