// tf.float32 and the other dtypes as values (dtype_value.h), tf.newaxis,
// tf.as_dtype.
#include <array>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/value/dtype_value.h"

namespace ag::tf::api {
namespace {

const Value& interned(DType t) {
  // One static per dtype: the references stay valid for the program's life.
  static const std::array<Value, kNumDTypes> all = [] {
    std::array<Value, kNumDTypes> a;
    for (int i = 0; i < kNumDTypes; ++i) a[static_cast<size_t>(i)] = dtype_value(static_cast<DType>(i));
    return a;
  }();
  return all[static_cast<size_t>(t)];
}

}  // namespace

const Value& float16() { return float16_dtype_value(); }
const Value& float32() { return interned(DType::Float32); }
const Value& float64() { return interned(DType::Float64); }
const Value& bfloat16() { return interned(DType::BFloat16); }
const Value& int8() { return interned(DType::Int8); }
const Value& uint8() { return interned(DType::UInt8); }
const Value& int32() { return interned(DType::Int32); }
const Value& int64() { return interned(DType::Int64); }
const Value& bool_() { return interned(DType::Bool); }
const Value& string() { return interned(DType::String); }

const Value& newaxis() {
  static const Value none;
  return none;
}

}  // namespace ag::tf::api

namespace ag::tf::impl {

Value as_dtype(const TfCall& c) {
  const Value& v = c["type_value"];
  if (v.is(float16_dtype_value())) return v;
  // Python's builtin types as TF maps them (dtypes._PYTHON_TO_TF).
  if (v.is(builtin_value("float", py::float_))) return api::float32();
  if (v.is(builtin_value("bool", py::bool_))) return api::bool_();
  if (v.is(builtin_value("int", py::int_))) return api::int64();
  if (v.is(builtin_value("str", py::str))) return api::string();
  if (std::optional<DType> t = dtype_of(v)) return dtype_value(*t);
  throw TypeError("Cannot convert the argument `type_value`: " + ag::repr(v) + " to a TensorFlow DType.");
}

}  // namespace ag::tf::impl
