// tf.* elementwise math bound to TF's Python signatures (math_ops.py, nn_ops.py).
#include "runtime/api/tf_bindings_common.h"

namespace ag::tf::api {

AG_TF_BINARY(add)
AG_TF_BINARY(subtract)
AG_TF_BINARY(multiply)
AG_TF_BINARY(divide)
AG_TF_BINARY(truediv)
AG_TF_BINARY(floordiv)
AG_TF_BINARY(floormod)
AG_TF_BINARY(pow)
AG_TF_BINARY(maximum)
AG_TF_BINARY(minimum)
AG_TF_BINARY(equal)
AG_TF_BINARY(not_equal)
AG_TF_BINARY(less)
AG_TF_BINARY(less_equal)
AG_TF_BINARY(greater)
AG_TF_BINARY(greater_equal)
AG_TF_BINARY(logical_and)
AG_TF_BINARY(logical_or)

AG_TF_UNARY(negative, "x")
AG_TF_UNARY(abs, "x")
AG_TF_UNARY(sign, "x")
AG_TF_UNARY(square, "x")
AG_TF_UNARY(sqrt, "x")
AG_TF_UNARY(rsqrt, "x")
AG_TF_UNARY(exp, "x")
AG_TF_UNARY(log, "x")
AG_TF_UNARY(log1p, "x")
AG_TF_UNARY(tanh, "x")
AG_TF_UNARY(sigmoid, "x")
AG_TF_UNARY(relu, "features")
AG_TF_UNARY(softplus, "features")
AG_TF_UNARY(sin, "x")
AG_TF_UNARY(cos, "x")
AG_TF_UNARY(round, "x")
AG_TF_UNARY(floor, "x")
AG_TF_UNARY(ceil, "x")
AG_TF_UNARY(logical_not, "x")

Value where(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("where", {"condition", std::nullopt}, {"x", Value()}, {"y", Value()}, {"name", Value()});
  return tf::where(a[0], a[1], a[2]);
}

}  // namespace ag::tf::api
