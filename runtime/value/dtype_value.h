// TF's DType objects as Python values: tf.float32 and friends, tensor.dtype,
// variable.dtype, TensorSpec.dtype. One interned value per dtype, so `==` and
// `is` (identity, as for any object) and dict keys work as in TF; str and repr
// print `<dtype: 'float32'>`; `.name` is 'float32'.
#pragma once

#include <optional>

#include "runtime/value/value.h"

namespace ag {

/// The interned DType value of `t` (tf.float32 for DType::Float32).
Value dtype_value(DType t);
/// tf.float16: a DType value agc has no tensors of (dtype_of() gives nullopt,
/// require_dtype() an UnimplementedError).
const Value& float16_dtype_value();

/// The dtype a Python value names, as TF's tf.as_dtype reads it: a DType value,
/// or a name ("float32", "float", "double", "int32", ...). nullopt otherwise.
std::optional<DType> dtype_of(const Value& v);
/// dtype_of(v), or TypeError "Cannot convert value 3 to a TensorFlow DType."
/// (UnimplementedError for tf.float16).
DType require_dtype(const Value& v);

/// The name ("float32") when `v` is a DType value, else nullptr: the hook
/// str()/repr() print DType values with.
const char* dtype_value_name(const Value& v);

}  // namespace ag
