// tf.TensorShape: what `tensor.shape`, `variable.shape`, `spec.shape` and
// `TensorArray.element_shape` are. A class of the object model
// (runtime/value/object_model.h) whose instances hold a Shape: str "(2, 3)" /
// "(None, 3)" / "<unknown>", repr "TensorShape([2, 3])"; len, indexing (an int
// dim or None; a slice is a TensorShape), iteration and == (against another
// TensorShape, a list or a tuple) as TF 2's; rank, ndims, dims; as_list(),
// is_fully_defined(), num_elements(), concatenate(), is_compatible_with(),
// merge_with(). Converting one to a tensor (tf.reshape(t, x.shape)) gives an
// int32 vector, as TF's registered conversion does.
#pragma once

#include <optional>

#include "runtime/core/shape.h"
#include "runtime/value/value.h"

namespace ag {

/// A new TensorShape holding `s` (unknown rank: TensorShape(None)).
Value tensor_shape(const Shape& s);

/// The Shape a TensorShape value holds, or nullopt for any other value.
std::optional<Shape> tensor_shape_of(const Value& v);

/// `s`'s dims as a list of ints, as TF converts a TensorShape to a tensor:
/// ValueError "Cannot convert a partially known TensorShape (None, 3) to a
/// Tensor." unless it is fully defined.
Value tensor_shape_dims_for_conversion(const Shape& s);

/// The class itself (tf.TensorShape): calling it with None, a list or tuple of
/// dims (None for an unknown one) or a TensorShape makes one.
const Value& tensor_shape_class();

}  // namespace ag
