// The cache key of tf.function arguments (TF's TraceType): a tensor by dtype
// and shape, a Python literal by value (1, 1.0 and True are equal, as in
// Python), lists, tuples and dicts by their elements, any other object by
// identity, a composite tensor (tf.RaggedTensor, tf.SparseTensor) by its
// TypeSpec. Types are ordered by subtyping: a shape with unknown dims is a
// supertype of the shapes it covers, so a trace for (None,) serves (3,), and
// RaggedTensorSpec(TensorShape([None, None]), ...) serves [2, None].
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/ops/op_def.h"
#include "runtime/value/value.h"

namespace ag {

class TraceType {
 public:
  enum class Kind { Tensor, Literal, List, Tuple, Dict, Identity, Composite };

  /// The type of `v`: TensorSpec objects describe tensors, TypeSpec objects
  /// (value/composite_tensor.h) the composites they describe.
  static TraceType of(const Value& v);
  static TraceType tensor(const TensorSpec& spec);
  /// The type of composites of the TypeSpec object `type_spec`.
  static TraceType composite(const Value& type_spec);

  Kind kind() const { return kind_; }
  const TensorSpec& spec() const { return spec_; }
  const Value& literal() const { return literal_; }
  /// Composite: the TypeSpec object.
  const Value& type_spec() const { return literal_; }
  const std::vector<TraceType>& children() const { return children_; }
  /// Dict: the keys, in sorted order (children() holds their values' types).
  const std::vector<Value>& keys() const { return keys_; }
  /// Dict: the type of the value under `key` (one of keys()).
  const TraceType& child(const Value& key) const;

  /// Every value of this type is also of `super`.
  bool is_subtype_of(const TraceType& super) const;
  /// The most specific type both are subtypes of, if any (tensors of one dtype
  /// and rank relax differing dims; literals must be equal).
  std::optional<TraceType> common_supertype(const TraceType& o) const;

  size_t hash() const { return hash_; }
  friend bool operator==(const TraceType& a, const TraceType& b);

 private:
  void finish_hash();

  Kind kind_ = Kind::Literal;
  TensorSpec spec_;
  Value literal_;                // Literal: the value; Identity: the object; Composite: the TypeSpec
  std::vector<TraceType> children_;
  std::vector<Value> keys_;      // Dict: the keys, sorted
  size_t hash_ = 0;
};

struct TraceTypeHash {
  size_t operator()(const TraceType& t) const { return t.hash(); }
};

}  // namespace ag
