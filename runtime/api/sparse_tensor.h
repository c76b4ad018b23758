// tf.SparseTensor and tf.SparseTensorSpec between their files: the composite
// (api/sparse_tensor.cpp) and its TypeSpec (api/sparse_tensor_spec.cpp).
#pragma once

#include "runtime/value/value.h"

namespace ag {

/// tf.SparseTensor(indices, values, dense_shape) with TF's shape checks;
/// `shape` is merged into its static shape (as SparseTensorSpec's
/// _from_components merges the spec's shape into _dense_shape_default).
Value make_sparse_tensor(TensorHandle indices, TensorHandle values, TensorHandle dense_shape,
                         const Shape& shape = Shape::unknown_rank());
/// tf.SparseTensorSpec(shape, dtype).
Value make_sparse_spec(const Shape& shape, DType dtype);

}  // namespace ag
