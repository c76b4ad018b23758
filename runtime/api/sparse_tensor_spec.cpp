// tf.SparseTensorSpec (TF's sparse_tensor.py SparseTensorSpec): the TypeSpec
// of a SparseTensor, a class of the object model whose instances are
// TypeSpecState (value/composite_tensor.h). Its components are indices
// (int64 [None, rank]), values ([None]) and dense_shape (int64 [rank]), so
// tf.function feeds a SparseTensor through those placeholders and keys its
// traces by (shape, dtype).
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/sparse_tensor.h"
#include "runtime/value/composite_tensor.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/tensor_shape_value.h"

namespace ag {
namespace {

struct SparseSpecState : TypeSpecState {
  SparseSpecState(Shape s, DType d) : shape_(std::move(s)), dtype(d) {}

  std::string spec_name() const override { return "SparseTensorSpec"; }
  const Shape& shape() const override { return shape_; }
  std::string fields_repr() const override { return std::string("tf.") + dtype_name(dtype); }
  Value with_shape(const Shape& s) const override { return make_sparse_spec(s, dtype); }

  std::vector<TensorSpec> component_specs() const override {
    int64_t rank = shape_.rank_known() ? shape_.rank() : kUnknownDim;
    return {TensorSpec{DType::Int64, Shape{kUnknownDim, rank}}, TensorSpec{dtype, Shape{kUnknownDim}},
            TensorSpec{DType::Int64, Shape{rank}}};
  }

  Value from_components(std::vector<TensorHandle> c) const override {
    return make_sparse_tensor(std::move(c[0]), std::move(c[1]), std::move(c[2]), shape_);
  }

  Shape shape_;
  DType dtype;
};

const SparseSpecState& sparse_self_spec(const std::vector<Value>& a) {
  if (const auto* s = native_state<SparseSpecState>(a.at(0))) return *s;
  throw TypeError("descriptor requires a 'SparseTensorSpec' object");
}

bool spec_equal(const TypeSpecState& a, const Value& other) {
  const TypeSpecState* o = type_spec_state(other);
  return o != nullptr && same_spec_kind(a, *o) && o->shape() == a.shape();
}

}  // namespace

Value make_sparse_spec(const Shape& shape, DType dtype) {
  return native_object(tf::api::SparseTensorSpec(), std::make_shared<SparseSpecState>(shape, dtype));
}

const Value& tf::api::SparseTensorSpec() {
  static const Value* cls = new Value([] {  // never destroyed: no exit-order issues
    std::vector<std::pair<std::string, Value>> attrs;
    Param self{"self", std::nullopt};
    attrs.push_back(native_method("SparseTensorSpec.__init__", "__init__",
                                  {self, {"shape", Value()}, {"dtype", dtype_value(DType::Float32)}},
                                  [](const std::vector<Value>& a) {
                                    a[0].as_object().native =
                                        std::make_shared<SparseSpecState>(shape_from_value(a[1]), require_dtype(a[2]));
                                    return Value();
                                  }));
    auto property = [&](const char* name, std::function<Value(const SparseSpecState&)> get) {
      std::string qual = std::string("SparseTensorSpec.") + name;
      attrs.push_back({name, make_property(Value::callable(qual, [get](std::vector<Value> a, Kwargs) {
                         return get(sparse_self_spec(a));
                       }))});
    };
    property("shape", [](const SparseSpecState& s) { return tensor_shape(s.shape_); });
    property("dtype", [](const SparseSpecState& s) { return dtype_value(s.dtype); });
    property("value_type", [](const SparseSpecState&) { return tf::api::sparse_SparseTensor(); });
    attrs.push_back(native_method("SparseTensorSpec.__repr__", "__repr__", {self}, [](const std::vector<Value>& a) {
      return Value(type_spec_repr(sparse_self_spec(a)));
    }));
    // TypeSpec.__eq__: the same class and the same serialization.
    attrs.push_back(native_method("SparseTensorSpec.__eq__", "__eq__", {self, {"other"}},
                                  [](const std::vector<Value>& a) { return Value(spec_equal(sparse_self_spec(a), a[1])); }));
    attrs.push_back(native_method("SparseTensorSpec.__ne__", "__ne__", {self, {"other"}},
                                  [](const std::vector<Value>& a) { return Value(!spec_equal(sparse_self_spec(a), a[1])); }));
    return make_class("SparseTensorSpec", {}, std::move(attrs));
  }());
  return *cls;
}

}  // namespace ag
