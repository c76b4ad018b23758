// NumPy values as TF hands them to Python (EagerTensor.numpy(),
// Dataset.as_numpy_iterator()): an object of class "ndarray" holding an
// eager tensor's elements, printing as NumPy 1.x prints arrays and scalars
// (`[1 2]`, `array([1, 2], dtype=int32)`, `3`, `b'cat'`), and converting
// back to a tensor wherever a tensor argument is expected. NumPy's own
// arithmetic and methods are not provided: convert with tf.constant first.
#pragma once

#include <optional>

#include "runtime/core/tensor.h"
#include "runtime/value/value.h"

namespace ag {

/// The ndarray (or, for a 0-d tensor, NumPy scalar) of eager tensor `t`.
Value ndarray(Tensor t);
/// The elements an ndarray value holds, or nullopt for any other value.
std::optional<Tensor> ndarray_tensor(const Value& v);

}  // namespace ag
