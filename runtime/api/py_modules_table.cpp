// The standard modules' functions and values as py_modules.def declares
// them: for every function row, the binding generated code calls
// (ag::pymod::api::<cpp_name>(args, kwargs)), its signature parsed once; the
// constants are defined here.
#include <cmath>
#include <numbers>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/api/tf_table_macros.h"

namespace ag::pymod::api {

#define AG_PY_FN(cpp_name, paths, signature, impl_fn, data)               \
  Value cpp_name(std::vector<Value> args, Kwargs kwargs) {                \
    static const tf::TfFunction row(signature, data, "");                 \
    return impl::impl_fn(row.bind(std::move(args), std::move(kwargs)));   \
  }
#include "runtime/api/py_modules.def"

const Value& math_pi() {
  static const Value v(std::numbers::pi);
  return v;
}
const Value& math_e() {
  static const Value v(std::numbers::e);
  return v;
}
const Value& math_tau() {
  static const Value v(2 * std::numbers::pi);
  return v;
}
const Value& math_inf() {
  static const Value v(HUGE_VAL);
  return v;
}
const Value& math_nan() {
  static const Value v(std::nan(""));
  return v;
}

}  // namespace ag::pymod::api
