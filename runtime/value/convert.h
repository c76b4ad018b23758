// Python values to tensors, as tf.convert_to_tensor / tf.constant do: nested
// lists and tuples of numbers, bools or strs become one tensor; dtype
// inference as TF's (ints -> int32, or int64 when one does not fit; floats ->
// float32; bools -> bool; strs -> string); ragged nesting is a ValueError.
#pragma once

#include <optional>
#include <string_view>

#include "runtime/value/value.h"

namespace ag {

/// The eager tensor of a Python literal (or nested list/tuple of them).
/// With `dtype`, each element must convert exactly (ints to floats are fine,
/// floats to ints are not), else TypeError in TF's words: eagerly
/// "Cannot convert 1.5 to EagerTensor of dtype int32", while tracing
/// "Expected int32, but got 1.5 of type 'float'.". A tensor inside a list is
/// not handled here (see to_tensor()).
Tensor literal_to_tensor(const Value& v, std::optional<DType> dtype = std::nullopt);

/// The dtype literal_to_tensor(v) would infer.
DType infer_literal_dtype(const Value& v);

/// `v` as a tensor handle: a tensor as it is (TF's "Tensor conversion
/// requested dtype int32 for Tensor with dtype float32: ..." ValueError when
/// `dtype` differs), a literal converted with `dtype`; a list holding tensors
/// is packed (Pack op, as TF auto-packs: `[1, n, 2]` with n a scalar
/// tensor) as the first tensor's dtype, or as `dtype` (its tensors cast).
TensorHandle to_tensor(const Value& v, std::optional<DType> dtype = std::nullopt);

/// A list or tuple holding a tensor at some depth: to_tensor packs it.
bool holds_tensor(const Value& v);

/// TF's auto-packing of such a list (_autopacking_conversion_function): its
/// items stacked by Pack ops named `name` (nested lists first), as the first
/// tensor's dtype or as `dtype`, to which tensors of another dtype are cast;
/// without `dtype` a tensor of another dtype is TF's TypeError ("Cannot
/// convert a list containing a tensor of dtype ...").
TensorHandle autopack(const Value& list, std::optional<DType> dtype, std::string_view name = "packed");

/// convert_to_tensor with dtype_hint: the hinted dtype when the literal
/// converts to it exactly, else the inferred one.
TensorHandle to_tensor_hint(const Value& v, DType hint);

/// Op-argument conversion (gen_*_ops / op_def_library): `v` converted to
/// `dtype`; a failure reads as TF's for parameter `param` of op `op`.
TensorHandle to_tensor_for_op(const Value& v, DType dtype, std::string_view op, std::string_view param);

/// A shape argument as Python code gives it: None (unknown rank), a
/// TensorShape, or a sequence of dims, None for an unknown one (element_shape=,
/// shape=). (The other way: tensor_shape() in runtime/value/tensor_shape_value.h.)
Shape shape_from_value(const Value& v);

/// TF's dtype.name for messages ("float32", "int32", ...) and repr ("tf.float32").
std::string dtype_repr(DType t);

}  // namespace ag
