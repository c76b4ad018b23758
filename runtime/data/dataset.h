// tf.data's datasets as C++ values. A Dataset is immutable and describes a
// sequence of elements (each a flat vector of tensors, see element_spec.h);
// make_iterator() starts one pass over it, so two iterators of one dataset
// are independent, as TF's are. A transformation is a dataset holding its
// input (one file per kind: tensor_slice_dataset.cpp, batch_dataset.cpp, ...;
// their factories are in datasets.h).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/data/element_spec.h"
#include "runtime/ops/iterator_ops.h"

namespace ag::data {

/// TF's cardinality sentinels (tf.data.INFINITE_CARDINALITY, UNKNOWN_CARDINALITY).
inline constexpr int64_t kInfiniteCardinality = -1;
inline constexpr int64_t kUnknownCardinality = -2;

class DatasetIterator {
 public:
  virtual ~DatasetIterator() = default;
  /// The next element's components into `out` (replacing what it held), or
  /// false at the end of the sequence (and every call after).
  virtual bool next(std::vector<Tensor>& out) = 0;
  /// The next elements, up to `max` of them, stacked along a new first
  /// dimension into `out` (what batch() makes of them); how many (0 at the
  /// end). The elements and their order are those of next(); this default
  /// takes them one by one, and kinds that can do better override it (a
  /// block of rows, a gather, a function run once on the whole batch).
  /// InvalidArgumentError (TF's batch message) when their shapes differ.
  virtual int64_t next_rows(int64_t max, std::vector<Tensor>& out);
};

class Dataset {
 public:
  explicit Dataset(ElementSpec spec) : spec_(std::move(spec)) {}
  virtual ~Dataset() = default;
  Dataset(const Dataset&) = delete;
  Dataset& operator=(const Dataset&) = delete;

  const ElementSpec& element_spec() const { return spec_; }
  /// The Python class TF gives a dataset of this kind ("_TensorSliceDataset").
  virtual const char* class_name() const = 0;
  /// The number of elements, kInfiniteCardinality or kUnknownCardinality.
  virtual int64_t cardinality() const = 0;
  virtual std::unique_ptr<DatasetIterator> make_iterator() const = 0;

  /// Random access (TF's Dataset::Get): element i of a finite dataset
  /// without iterating to it, for kinds whose elements are a function of
  /// their index (a shuffle over such an input shuffles indices).
  virtual bool random_access() const { return false; }
  /// Element i (0 <= i < cardinality()); only when random_access().
  virtual void get(int64_t i, std::vector<Tensor>& out) const;
  /// The elements `rows` stacked as next_rows stacks them; only when random_access().
  virtual void gather(std::span<const int64_t> rows, std::vector<Tensor>& out) const;

 private:
  ElementSpec spec_;
};

using DatasetPtr = std::shared_ptr<const Dataset>;

/// `elements` (each one element's components, all alike in shape) stacked
/// along a new first dimension; TF's batch error when shapes differ.
void stack_elements(const std::vector<std::vector<Tensor>>& elements, std::vector<Tensor>& out);

/// `ds` as the iterator ops see it (a traced loop over it registers this).
std::shared_ptr<const IterableSource> iterable(DatasetPtr ds);

/// `<_TensorSliceDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>`.
std::string dataset_repr(const Dataset& ds);

}  // namespace ag::data
