// tf.RaggedTensor (api/, not value/: it is TF's Python class, composed of
// tf.* ops under TF's name scopes): a class of the object model (runtime/value/object_model.h)
// whose instances hold TF's composite: the flat values and one row_splits
// vector per ragged dimension (outermost first). Eager or symbolic alike:
// while tracing its components are graph tensors, as TF's composite tensors
// are. Printing is TF's: eagerly `<tf.RaggedTensor [[b'a', b'b'], [b'c']]>`
// (NumPy's array2string of .numpy() with TF's _formatter), while tracing
// `tf.RaggedTensor(values=Tensor(...), row_splits=Tensor(...))`. It is a
// composite tensor (value/composite_tensor.h): tf.function passes and
// returns it through its components and its tf.RaggedTensorSpec.
#pragma once

#include <vector>

#include "runtime/value/value.h"

namespace ag {

/// The components of a RaggedTensor value.
struct RaggedParts {
  TensorHandle flat_values;
  std::vector<TensorHandle> splits;  // outermost first; int64
};

/// A RaggedTensor of `parts` (at least one row_splits).
Value make_ragged(RaggedParts parts);
/// The parts of a RaggedTensor value, or nullptr for any other value.
const RaggedParts* ragged_parts(const Value& v);
/// The class itself (tf.RaggedTensor), with its from_* class methods.
const Value& ragged_tensor_class();
/// tf.RaggedTensorSpec(shape, dtype, ragged_rank, row_splits_dtype) (api/ragged_tensor_spec.cpp).
Value make_ragged_spec(const Shape& shape, DType dtype, int ragged_rank, DType row_splits_dtype);

/// RaggedTensor.from_row_splits(values, row_splits): `values` a tensor or a RaggedTensor.
Value ragged_from_row_splits(const Value& values, const Value& row_splits);
/// RaggedTensor.from_row_lengths(values, row_lengths).
Value ragged_from_row_lengths(const Value& values, const Value& row_lengths);
/// RaggedTensor.from_value_rowids(values, value_rowids, nrows=None).
Value ragged_from_value_rowids(const Value& values, const Value& value_rowids, const Value& nrows);
/// rt.row_lengths(): row_splits[1:] - row_splits[:-1] (TF's scope "RaggedRowLengths").
Value ragged_row_lengths(const RaggedParts& p);
/// The row of each value of rows of `lengths`: repeat(range(n), lengths), TF's
/// segment_id_ops.row_splits_to_segment_ids (rt.value_rowids()).
Value ragged_row_ids(const Value& lengths);
/// tf.ragged.constant(pylist, dtype=None, ragged_rank=None).
Value ragged_constant(const Value& pylist, const Value& dtype, const Value& ragged_rank);

}  // namespace ag
