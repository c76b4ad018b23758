// Helpers the tf_api_*.cpp files share (not part of the API generated code
// calls): an op applied eagerly or traced, and Python shape/axis arguments as
// tensors. One definition each, so the files also build as one unity TU.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/graph/tracing.h"
#include "runtime/value/convert.h"
#include "runtime/value/value.h"

namespace ag::tf::common {

/// Op `op` on `in` with node name hint `name`: eager or traced, one output.
inline TensorHandle apply(OpType op, std::vector<TensorHandle> in, std::string_view name, const Attrs& attrs = {}) {
  return apply_op1(op, in, attrs, name);
}

/// TF's `with ops.name_scope(name, default) as scope:` around a tf.*
/// function TF writes in Python (clip_by_value, moments, ...): while tracing,
/// the nodes made during its lifetime are named "<scope>/<hint>", the scope
/// being the graph's unique name for `name` ("clip_by_value", then
/// "clip_by_value_1"); `self()` names the node TF names after the scope
/// itself (`name=scope`). Eagerly names are unused and it does nothing.
class NameScope {
 public:
  explicit NameScope(std::string_view name) : graph_(current_graph()) {
    if (graph_ == nullptr) return;
    saved_ = graph_->scope().name;
    scope_ = graph_->unique_name(saved_ + std::string(name)) + "/";
    graph_->scope().name = scope_;
  }
  ~NameScope() {
    if (graph_ != nullptr) graph_->scope().name = saved_;
  }
  NameScope(const NameScope&) = delete;
  NameScope& operator=(const NameScope&) = delete;

  /// "clip_by_value/": a name ending in "/", which a node takes as it is
  /// (Graph::add_node); "" eagerly.
  std::string_view self() const { return scope_; }

 private:
  Graph* graph_;
  std::string saved_;
  std::string scope_;
};

/// An int32 vector constant of `v`'s elements.
inline TensorHandle int32_vector(const std::vector<int64_t>& v) {
  std::vector<int32_t> w(v.begin(), v.end());
  return TensorHandle(Tensor::from_vector<int32_t>({static_cast<int64_t>(w.size())}, w));
}

/// A function's tensor argument converted as TF's Python converts one
/// (ops.convert_to_tensor: a tensor as it is, a literal by its inferred dtype).
inline Value tensor_arg(const Value& v) { return Value(to_tensor(v)); }

/// A shape, axis or index argument: a tensor as it is, else ints as an int32 tensor.
inline TensorHandle index_tensor(const Value& v) {
  if (v.is_tensor()) return v.as_tensor();
  return to_tensor(v, DType::Int32);
}

}  // namespace ag::tf::common
