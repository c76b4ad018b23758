// tf.TensorArray as a Value, with TF 2's two implementations:
//  - eager (no graph being traced): TF's _EagerTensorArray, a Python list of
//    tensors that write() changes in place (and returns);
//  - graph (created while tracing): TF's _GraphTensorArrayV2, a TensorList
//    variant tensor (the `flow`); every write returns a new TensorArray with a
//    new flow, and a loop carries the flow as its loop variable (AutoGraph's
//    staging flattens a TensorArray to its flow and rebuilds it after).
// Errors and texts are TF's (tensor_array_ops.py, list_kernels).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "runtime/core/shape.h"
#include "runtime/core/tensor.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/value.h"

namespace ag {

struct TensorArrayObj {
  /// The element dtype. DType::Variant: not known yet (a Python list the
  /// autograph list ops turned into a TensorArray before its first append);
  /// the first write decides it.
  DType dtype = DType::Float32;
  /// What elements must be compatible with; writes refine it when infer_shape.
  Shape element_shape = Shape::unknown_rank();
  bool dynamic_size = false;
  bool infer_shape = true;

  // Graph implementation.
  std::optional<TensorHandle> flow;
  /// The size given at creation (a Python int or a tensor), as TF keeps `_size`.
  Value size;

  // Eager implementation.
  /// nullopt: not written (None). Handles, not tensors: a tape watching a
  /// written tensor must see it again when the array is stacked or read.
  std::vector<std::optional<TensorHandle>> items;
  bool clear_after_read = true;
  std::vector<int64_t> previously_read;

  bool graph() const { return flow.has_value(); }
};

namespace tensor_array {

/// tf.TensorArray(dtype, size, dynamic_size, clear_after_read, infer_shape,
/// element_shape): the graph implementation while a graph is traced, else eager.
/// `element_shape` is None, or dims (None for unknown ones).
Value create(DType dtype, const Value& size = Value(), bool dynamic_size = false,
             const Value& clear_after_read = Value(), bool infer_shape = true, const Value& element_shape = Value());
/// A graph TensorArray like `ta` over another flow (TF's build_ta_with_new_flow).
Value with_flow(const Value& ta, TensorHandle flow);

Value write(const Value& ta, const Value& index, const Value& value);
Value read(const Value& ta, const Value& index);
Value stack(const Value& ta);
Value gather(const Value& ta, const Value& indices);
Value unstack(const Value& ta, const Value& value);
/// The elements concatenated along their first axis (TensorListConcatV2).
Value concat(const Value& ta);
/// `value` split along its first axis into elements of `lengths` rows (TensorListSplit).
Value split(const Value& ta, const Value& value, const Value& lengths);
/// Row j of `value` written at indices[j] (TensorListScatterIntoExistingList).
Value scatter(const Value& ta, const Value& indices, const Value& value);
/// Eager: forgets every element; in a graph nothing to do (TF returns a NoOp). None.
Value close(const Value& ta);
/// An int32 scalar tensor.
Value size(const Value& ta);
Value identity(const Value& ta);
/// list.append for a TensorArray: write at size() (TensorListPushBack in graphs).
Value append(const Value& ta, const Value& value);
/// list.pop() for a TensorArray: (new array, last element).
std::pair<Value, Value> pop(const Value& ta);

/// The attribute `name` of a TensorArray value: its methods (write, read,
/// stack, ...) bound to it and its properties (dtype, element_shape,
/// dynamic_size, flow); AttributeError otherwise.
Value getattr(const Value& ta, std::string_view name);

}  // namespace tensor_array
}  // namespace ag
