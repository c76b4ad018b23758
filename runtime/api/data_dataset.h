// tf.data.Dataset as Python sees it (TF 2.11-2.13's dataset_ops.py): a class
// DatasetV2 whose instances hold a data::Dataset, one subclass per kind named
// as TF names it (_TensorSliceDataset, _BatchDataset, ...), so print() and
// type() read as TF's; the transformations as methods, iteration through an
// OwnedIterator, as_numpy_iterator, reduce, len(). Internal to runtime/api
// and the layers above it (AutoGraph's for_stmt iterates datasets).
#pragma once

#include "runtime/data/dataset.h"
#include "runtime/value/value.h"

namespace ag::api {

/// The Python value of dataset `ds`.
Value dataset_value(data::DatasetPtr ds);
/// The dataset `v` holds, or null when it is not a tf.data.Dataset.
data::DatasetPtr dataset_of(const Value& v);
/// The dataset's elements as Python values, one at a time (an eager pass).
class ElementIterator {
 public:
  explicit ElementIterator(data::DatasetPtr ds);
  /// The next element, packed into its structure; false at the end.
  bool next(Value& element);

 private:
  data::DatasetPtr ds_;
  std::unique_ptr<data::DatasetIterator> it_;
  std::vector<Tensor> components_;
};

}  // namespace ag::api
