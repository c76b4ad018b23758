// The np.* functions and values as np_functions.def declares them: for every
// function row, the binding generated code calls (ag::np::api::<cpp_name>(args,
// kwargs)), its signature parsed once; the values are defined here.
#include <cmath>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/api/tf_table_macros.h"
#include "runtime/value/numpy_types.h"

namespace ag::np::api {

#define AG_NP_FN(cpp_name, paths, signature, impl_fn, data)                \
  Value cpp_name(std::vector<Value> args, Kwargs kwargs) {                 \
    static const tf::TfFunction row(signature, data, "");                  \
    return impl::impl_fn(row.bind(std::move(args), std::move(kwargs)));    \
  }
#include "runtime/api/np_functions.def"

// The values: NumPy's types (runtime/value/numpy_types.h) and constants.
const Value& ndarray() { return numpy::ndarray_type(); }
const Value& float32() { return numpy::scalar_type(DType::Float32); }
const Value& float64() { return numpy::scalar_type(DType::Float64); }
const Value& int8() { return numpy::scalar_type(DType::Int8); }
const Value& uint8() { return numpy::scalar_type(DType::UInt8); }
const Value& int32() { return numpy::scalar_type(DType::Int32); }
const Value& int64() { return numpy::scalar_type(DType::Int64); }
const Value& bool_() { return numpy::scalar_type(DType::Bool); }
const Value& generic() { return numpy::abstract_type("generic"); }
const Value& number() { return numpy::abstract_type("number"); }
const Value& integer() { return numpy::abstract_type("integer"); }
const Value& signedinteger() { return numpy::abstract_type("signedinteger"); }
const Value& unsignedinteger() { return numpy::abstract_type("unsignedinteger"); }
const Value& inexact() { return numpy::abstract_type("inexact"); }
const Value& floating() { return numpy::abstract_type("floating"); }

const Value& pi() {
  static const Value v(M_PI);
  return v;
}
const Value& e() {
  static const Value v(M_E);
  return v;
}
const Value& inf() {
  static const Value v(HUGE_VAL);
  return v;
}
const Value& nan() {
  static const Value v(std::nan(""));
  return v;
}
const Value& newaxis() {
  static const Value v;
  return v;
}

}  // namespace ag::np::api
