// tf.RaggedTensorSpec (TF's ragged_tensor.py RaggedTensorSpec): the TypeSpec
// of a RaggedTensor, a class of the object model whose instances are
// TypeSpecState (value/composite_tensor.h). Its components are the flat
// values (shape [None] + the dims below the ragged ones) and one row_splits
// vector per ragged dimension (the outermost [nrows + 1], the others [None]),
// so tf.function feeds a RaggedTensor through those placeholders and keys its
// traces by (shape, dtype, ragged_rank, row_splits_dtype).
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/ragged_tensor.h"
#include "runtime/value/composite_tensor.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/tensor_shape_value.h"

namespace ag {
namespace {

struct RaggedSpecState : TypeSpecState {
  RaggedSpecState(Shape s, DType d, int rr, DType sd) : shape_(std::move(s)), dtype(d), ragged_rank(rr), splits_dtype(sd) {}

  std::string spec_name() const override { return "RaggedTensorSpec"; }
  const Shape& shape() const override { return shape_; }
  std::string fields_repr() const override {
    return std::string("tf.") + dtype_name(dtype) + ", " + std::to_string(ragged_rank) + ", tf." + dtype_name(splits_dtype);
  }
  Value with_shape(const Shape& s) const override { return make_ragged_spec(s, dtype, ragged_rank, splits_dtype); }

  std::vector<TensorSpec> component_specs() const override {
    if (ragged_rank == 0) return {TensorSpec{dtype, shape_}};
    // flat_values: [None] + shape[ragged_rank + 1:].
    Shape flat;
    if (shape_.rank_known()) {
      flat.push_back(kUnknownDim);
      for (int d = ragged_rank + 1; d < shape_.rank(); ++d) flat.push_back(shape_.dim(d));
    } else {
      flat = Shape::unknown_rank();
    }
    int64_t outer = shape_.rank_known() ? shape_.dim(0) : kUnknownDim;
    std::vector<TensorSpec> specs{TensorSpec{dtype, flat}, TensorSpec{splits_dtype, Shape{outer < 0 ? kUnknownDim : outer + 1}}};
    for (int i = 1; i < ragged_rank; ++i) specs.push_back(TensorSpec{splits_dtype, Shape{kUnknownDim}});
    return specs;
  }

  Value from_components(std::vector<TensorHandle> components) const override {
    if (ragged_rank == 0) return Value(std::move(components[0]));
    RaggedParts parts{std::move(components[0]), {}};
    for (size_t i = 1; i < components.size(); ++i) parts.splits.push_back(std::move(components[i]));
    return make_ragged(std::move(parts));
  }

  Shape shape_;
  DType dtype;
  int ragged_rank;
  DType splits_dtype;
};

const RaggedSpecState& ragged_self_spec(const std::vector<Value>& a) {
  if (const auto* s = native_state<RaggedSpecState>(a.at(0))) return *s;
  throw TypeError("descriptor requires a 'RaggedTensorSpec' object");
}

/// RaggedTensorSpec.__init__'s checks, in TF's order and words.
std::shared_ptr<RaggedSpecState> construct(const Value& shape, const Value& dtype, const Value& ragged_rank,
                                           const Value& row_splits_dtype, const Value& flat_values_spec) {
  Shape s = shape_from_value(shape);
  DType splits = require_dtype(row_splits_dtype);
  if (!flat_values_spec.is_none()) {
    throw UnimplementedError("agc's tf.RaggedTensorSpec takes no flat_values_spec (its flat values are tensors)");
  }
  if (dtype.is_none()) throw ValueError("At least one of dtype or flat_values_spec must be provided");
  DType d = require_dtype(dtype);
  int64_t rr = 0;
  if (ragged_rank.is_none()) {
    if (!s.rank_known()) throw ValueError("Must specify ragged_rank or a shape with a known rank.");
    rr = s.rank() - 1;
  } else {
    if (!ragged_rank.is_int() && !ragged_rank.is_bool()) {
      throw TypeError("Argument `ragged_rank` must be an int. Received " + str(ragged_rank) + ".");
    }
    rr = ragged_rank.as_int();
  }
  if (s.rank_known() && rr >= s.rank()) {
    throw ValueError("Argument `ragged_rank` (" + std::to_string(rr) + ") must be less than rank (" +
                     std::to_string(s.rank()) + ").");
  }
  return std::make_shared<RaggedSpecState>(std::move(s), d, static_cast<int>(rr), splits);
}

}  // namespace

Value make_ragged_spec(const Shape& shape, DType dtype, int ragged_rank, DType row_splits_dtype) {
  return native_object(tf::api::RaggedTensorSpec(),
                       std::make_shared<RaggedSpecState>(shape, dtype, ragged_rank, row_splits_dtype));
}

const Value& tf::api::RaggedTensorSpec() {
  static const Value* cls = new Value([] {  // never destroyed: no exit-order issues
    std::vector<std::pair<std::string, Value>> attrs;
    Param self{"self", std::nullopt};
    attrs.push_back(native_method("RaggedTensorSpec.__init__", "__init__",
                                  {self,
                                   {"shape", Value()},
                                   {"dtype", dtype_value(DType::Float32)},
                                   {"ragged_rank", Value()},
                                   {"row_splits_dtype", dtype_value(DType::Int64)},
                                   {"flat_values_spec", Value()}},
                                  [](const std::vector<Value>& a) {
                                    a[0].as_object().native = construct(a[1], a[2], a[3], a[4], a[5]);
                                    return Value();
                                  }));
    auto property = [&](const char* name, std::function<Value(const RaggedSpecState&)> get) {
      std::string qual = std::string("RaggedTensorSpec.") + name;
      attrs.push_back({name, make_property(Value::callable(qual, [get](std::vector<Value> a, Kwargs) {
                         return get(ragged_self_spec(a));
                       }))});
    };
    property("shape", [](const RaggedSpecState& s) { return tensor_shape(s.shape_); });
    property("dtype", [](const RaggedSpecState& s) { return dtype_value(s.dtype); });
    property("ragged_rank", [](const RaggedSpecState& s) { return Value(s.ragged_rank); });
    property("row_splits_dtype", [](const RaggedSpecState& s) { return dtype_value(s.splits_dtype); });
    property("flat_values_spec", [](const RaggedSpecState&) { return Value(); });
    property("value_type", [](const RaggedSpecState& s) {
      return s.ragged_rank > 0 ? ragged_tensor_class() : tf::api::Tensor();
    });
    attrs.push_back(native_method("RaggedTensorSpec.__repr__", "__repr__", {self}, [](const std::vector<Value>& a) {
      return Value(type_spec_repr(ragged_self_spec(a)));
    }));
    // TypeSpec.__eq__: the same class and the same serialization.
    attrs.push_back(native_method("RaggedTensorSpec.__eq__", "__eq__", {self, {"other"}}, [](const std::vector<Value>& a) {
      const TypeSpecState* o = type_spec_state(a[1]);
      return Value(o != nullptr && same_spec_kind(ragged_self_spec(a), *o) && o->shape() == ragged_self_spec(a).shape());
    }));
    attrs.push_back(native_method("RaggedTensorSpec.__ne__", "__ne__", {self, {"other"}}, [](const std::vector<Value>& a) {
      const TypeSpecState* o = type_spec_state(a[1]);
      return Value(!(o != nullptr && same_spec_kind(ragged_self_spec(a), *o) && o->shape() == ragged_self_spec(a).shape()));
    }));
    return make_class("RaggedTensorSpec", {}, std::move(attrs));
  }());
  return *cls;
}

}  // namespace ag
