// What the iterator ops (iterator_ops.cpp) iterate: element sources that the
// data layer (runtime/data) registers, named in a graph by id (attr
// "dataset"), as variables are by attr "var". A traced function that loops
// over a dataset (AutoGraph's dataset for loop) runs
//   it = AnonymousIteratorV3()                      // a new pass each call
//   has_value, components... = IteratorGetNextAsOptional(it)
//   ... While(has_value): body; IteratorGetNextAsOptional(it) ...
//   DeleteIterator(it)
// with the iterator named by an int64 scalar where TF passes a resource. A
// call that fails inside the loop leaves its iterator in the table (TF's
// resource would be freed with the function's); the sources stay registered
// for the process, one per traced loop.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/core/tensor.h"
#include "runtime/ops/op_def.h"

namespace ag {

/// One pass over a sequence of elements (flat tensors).
class ElementSource {
 public:
  virtual ~ElementSource() = default;
  /// The next element into `out`, or false at the end.
  virtual bool next(std::vector<Tensor>& out) = 0;
};

/// A sequence that can be passed over any number of times.
class IterableSource {
 public:
  virtual ~IterableSource() = default;
  /// The components' types, in flat order.
  virtual std::vector<TensorSpec> element_specs() const = 0;
  virtual std::unique_ptr<ElementSource> start() const = 0;
};

/// Registers `source` for the ops' "dataset" attr; kept for the process (a
/// traced function may run it at any later call).
int64_t register_iterable(std::shared_ptr<const IterableSource> source);

}  // namespace ag
