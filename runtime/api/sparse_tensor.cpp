// tf.SparseTensor (TF's sparse_tensor.py) and the tf.sparse functions over
// it. A SparseTensor is an object of the native class SparseTensor holding
// its three component tensors: indices (int64 [N, rank]), values ([N]) and
// dense_shape (int64 [rank]). Eagerly they are values; made inside a
// tf.function from traced tensors, its components are graph tensors and the
// sparse ops (ops/sparse_ops.cpp) become nodes, as TF's do. It is a
// composite tensor (value/composite_tensor.h): tf.function passes and returns
// it through its three components and its tf.SparseTensorSpec.
#include "runtime/api/sparse_tensor.h"

#include <optional>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/value/composite_tensor.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/object_model.h"
#include "runtime/value/tensor_shape_value.h"
#include "runtime/value/convert.h"

namespace ag::tf {
namespace {

using namespace common;

struct SparseState;
Shape sparse_static_shape(const SparseState& s);

struct SparseState : CompositeState {
  SparseState(TensorHandle i, TensorHandle v, TensorHandle s, Shape hint)
      : indices(std::move(i)), values(std::move(v)), dense_shape(std::move(s)), shape_hint(std::move(hint)) {}
  std::vector<const TensorHandle*> components() const override { return {&indices, &values, &dense_shape}; }
  /// SparseTensorSpec.from_value: the static shape and the values' dtype.
  Value type_spec() const override { return make_sparse_spec(sparse_static_shape(*this), values.dtype()); }
  TensorHandle indices, values, dense_shape;
  /// The static shape known beyond dense_shape's (a traced SparseTensorSpec's).
  Shape shape_hint;
};

SparseState* sparse_of(const Value& v) { return native_state<SparseState>(v); }

SparseState& require_sparse(const Value& v, const char* what) {
  SparseState* s = sparse_of(v);
  if (s == nullptr) {
    throw TypeError(std::string("Input must be a SparseTensor; ") + what + " got " + ag::repr(v));
  }
  return *s;
}

TensorHandle sparse_tensor_arg(const Value& v, std::optional<DType> dtype = std::nullopt) {
  if (v.is_tensor()) return v.as_tensor();
  return dtype ? to_tensor(v, *dtype) : to_tensor(v);
}

/// TensorShape.with_rank's error.
void sparse_with_rank(const Shape& s, int rank) {
  if (s.rank_known() && s.rank() != rank) {
    throw ValueError("Shape " + s.str() + " must have rank " + std::to_string(rank));
  }
}

/// Dimension.assert_is_compatible_with's error.
void sparse_compatible(int64_t a, int64_t b) {
  if (a >= 0 && b >= 0 && a != b) {
    throw ValueError("Dimensions " + std::to_string(a) + " and " + std::to_string(b) + " are not compatible");
  }
}

Value make_sparse(TensorHandle indices, TensorHandle values, TensorHandle dense_shape,
                  const Shape& hint = Shape::unknown_rank()) {
  sparse_with_rank(indices.shape(), 2);
  sparse_with_rank(values.shape(), 1);
  sparse_with_rank(dense_shape.shape(), 1);
  sparse_compatible(indices.shape().dim(0), values.shape().dim(0));
  sparse_compatible(indices.shape().dim(1), dense_shape.shape().dim(0));
  auto s = std::make_shared<SparseState>(std::move(indices), std::move(values), std::move(dense_shape), hint);
  return native_object(api::sparse_SparseTensor(), s);
}

/// The static shape: dense_shape's values when known (constant_value_as_shape).
Shape sparse_static_shape(const SparseState& s) {
  if (!s.dense_shape.symbolic()) {
    const Tensor& t = s.dense_shape.value();
    std::vector<int64_t> d(static_cast<size_t>(t.num_elements()));
    for (size_t i = 0; i < d.size(); ++i) d[i] = t.data<int64_t>()[i];
    return Shape{std::span<const int64_t>(d)};
  }
  int64_t r = s.dense_shape.shape().rank_known() ? s.dense_shape.shape().dim(0) : -1;
  Shape shape = r >= 0 ? Shape::unknown_dims(static_cast<int>(r)) : Shape::unknown_rank();
  // TensorShape.merge_with: the hint's known dims fill the unknown ones.
  if (!s.shape_hint.rank_known()) return shape;
  if (!shape.rank_known()) return s.shape_hint;
  for (int d = 0; d < shape.rank() && d < s.shape_hint.rank(); ++d) {
    if (shape.dim(d) < 0) shape.set_dim(d, s.shape_hint.dim(d));
  }
  return shape;
}

std::string sparse_text(const Value& self) {
  SparseState& s = require_sparse(self, "");
  return "SparseTensor(indices=" + ag::str(Value(s.indices)) + ", values=" + ag::str(Value(s.values)) +
         ", dense_shape=" + ag::str(Value(s.dense_shape)) + ")";
}

}  // namespace
}  // namespace ag::tf

namespace ag {

Value make_sparse_tensor(TensorHandle indices, TensorHandle values, TensorHandle dense_shape, const Shape& shape) {
  return tf::make_sparse(std::move(indices), std::move(values), std::move(dense_shape), shape);
}

}  // namespace ag

namespace ag::tf {

const Value& api::sparse_SparseTensor() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    Param self{"self", std::nullopt};
    attrs.push_back(native_method(
        "SparseTensor.__init__", "__init__",
        {self, {"indices", std::nullopt}, {"values", std::nullopt}, {"dense_shape", std::nullopt}},
        [](const std::vector<Value>& a) {
          Value made = make_sparse(sparse_tensor_arg(a[1], DType::Int64), sparse_tensor_arg(a[2]), sparse_tensor_arg(a[3], DType::Int64));
          a[0].as_object().native = made.as_object().native;
          return Value();
        }));
    auto property = [&](const char* name, std::function<Value(SparseState&)> get) {
      std::string qual = std::string("SparseTensor.") + name;
      attrs.push_back({name, make_property(Value::callable(qual, [get](std::vector<Value> a, Kwargs) {
                         return get(require_sparse(a.at(0), ""));
                       }))});
    };
    property("indices", [](SparseState& s) { return Value(s.indices); });
    property("values", [](SparseState& s) { return Value(s.values); });
    property("dense_shape", [](SparseState& s) { return Value(s.dense_shape); });
    property("dtype", [](SparseState& s) { return dtype_value(s.values.dtype()); });
    property("shape", [](SparseState& s) { return tensor_shape(sparse_static_shape(s)); });
    attrs.push_back(native_method("SparseTensor.get_shape", "get_shape", {self}, [](const std::vector<Value>& a) {
      return tensor_shape(sparse_static_shape(require_sparse(a[0], "")));
    }));
    attrs.push_back(native_method("SparseTensor.__repr__", "__repr__", {self},
                                  [](const std::vector<Value>& a) { return Value(sparse_text(a[0])); }));
    attrs.push_back(native_method("SparseTensor.__str__", "__str__", {self},
                                  [](const std::vector<Value>& a) { return Value(sparse_text(a[0])); }));
    return make_class("SparseTensor", {}, std::move(attrs));
  }();
  return cls;
}

namespace impl {

Value sparse_to_dense(const TfCall& c) {
  SparseState& s = require_sparse(c["sp_input"], "");
  const Value& dv = c["default_value"];
  TensorHandle d = dv.is_none() ? to_tensor(Value(0), s.values.dtype()) : sparse_tensor_arg(dv, s.values.dtype());
  bool validate = truthy(c["validate_indices"]);
  return Value(apply(op::SparseToDense, {s.indices, s.dense_shape, s.values, d}, "SparseToDense",
                     Attrs{{"validate_indices", validate}}));
}

Value sparse_from_dense(const TfCall& c) {
  NameScope scope("dense_to_sparse");
  TensorHandle t = sparse_tensor_arg(c["tensor"]);
  TensorHandle zero = apply(op::ZerosLike, {t}, "zeros_like");
  TensorHandle mask = apply(op::NotEqual, {t, zero}, "NotEqual");
  TensorHandle indices = apply(op::Where, {mask}, "Where");
  TensorHandle values = apply(op::GatherNd, {t, indices}, "GatherNd");
  TensorHandle shape = apply(op::Shape, {t}, "Shape", Attrs{{"out_type", DType::Int64}});
  return make_sparse(indices, values, shape);
}

Value sparse_dense_matmul(const TfCall& c) {
  SparseState& s = require_sparse(c["sp_a"], "");
  TensorHandle b = sparse_tensor_arg(c["b"], s.values.dtype());
  return Value(apply(op::SparseTensorDenseMatMul, {s.indices, s.values, s.dense_shape, b}, "SparseTensorDenseMatMul",
                     Attrs{{"adjoint_a", truthy(c["adjoint_a"])}, {"adjoint_b", truthy(c["adjoint_b"])}}));
}

Value sparse_reorder(const TfCall& c) {
  SparseState& s = require_sparse(c["sp_input"], "");
  std::vector<TensorHandle> in{s.indices, s.values, s.dense_shape};
  std::vector<TensorHandle> out = apply_op(op::SparseReorder, in, {}, "SparseReorder");
  return make_sparse(out[0], out[1], s.dense_shape);
}

Value sparse_add(const TfCall& c) {
  const Value& a = c["a"];
  const Value& b = c["b"];
  SparseState* sa = sparse_of(a);
  SparseState* sb = sparse_of(b);
  if (sa == nullptr && sb == nullptr) {
    throw TypeError("At least one input should be SparseTensor; do you mean to use tf.add()?");
  }
  if (sa != nullptr && sb != nullptr) {
    TensorHandle thresh = sparse_tensor_arg(c["threshold"], sa->values.dtype());
    std::vector<TensorHandle> in{sa->indices, sa->values, sa->dense_shape, sb->indices, sb->values, sb->dense_shape,
                                 thresh};
    std::vector<TensorHandle> out = apply_op(op::SparseAdd, in, {}, "SparseAdd");
    return make_sparse(out[0], out[1], out[2]);
  }
  SparseState& sp = sa != nullptr ? *sa : *sb;
  TensorHandle dense = sparse_tensor_arg(sa != nullptr ? b : a, sp.values.dtype());
  return Value(apply(op::SparseTensorDenseAdd, {sp.indices, sp.values, sp.dense_shape, dense}, "SparseTensorDenseAdd"));
}

Value sparse_reduce_sum(const TfCall& c) {
  SparseState& s = require_sparse(c["sp_input"], "");
  if (truthy(c["output_is_sparse"])) {
    throw UnimplementedError("tf.sparse.reduce_sum(output_is_sparse=True) is not supported by agc");
  }
  std::optional<TensorHandle> axes;
  if (c["axis"].is_none()) {
    Shape st = sparse_static_shape(s);
    if (!st.rank_known()) throw NotImplementedError("tf.sparse.reduce_sum over all axes needs a known rank");
    std::vector<Value> all;
    for (int i = 0; i < st.rank(); ++i) all.push_back(Value(i));
    axes = to_tensor(Value::list(std::move(all)), DType::Int32);
  } else {
    axes = sparse_tensor_arg(c["axis"], DType::Int32);
  }
  bool keep = truthy(c["keepdims"]);
  return Value(apply(op::SparseReduceSum, {s.indices, s.values, s.dense_shape, *axes}, "SparseReduceSum",
                     Attrs{{"keep_dims", keep}}));
}

}  // namespace impl
}  // namespace ag::tf
