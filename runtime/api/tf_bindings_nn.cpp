// tf.matmul, tensordot, einsum and tf.nn.* bound to TF's Python signatures.
#include "runtime/api/tf_bindings_common.h"

namespace ag::tf::api {

using ag::api::str_arg;

Value matmul(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("matmul", {"a", std::nullopt}, {"b", std::nullopt}, {"transpose_a", Value(false)}, {"transpose_b", Value(false)},
          {"adjoint_a", Value(false)}, {"adjoint_b", Value(false)}, {"a_is_sparse", Value(false)},
          {"b_is_sparse", Value(false)}, {"output_type", Value()}, {"name", Value()});
  if (!a[8].is_none()) throw UnimplementedError("tf.matmul with output_type is not supported");
  // Real tensors only: the adjoint is the transpose.
  return tf::matmul(a[0], a[1], truthy(a[2]) || truthy(a[4]), truthy(a[3]) || truthy(a[5]));
}

Value tensordot(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("tensordot", {"a", std::nullopt}, {"b", std::nullopt}, {"axes", std::nullopt}, {"name", Value()});
  return tf::tensordot(a[0], a[1], a[2]);
}

Value einsum(std::vector<Value> args, Kwargs kwargs) {
  for (const auto& [k, v] : kwargs) {
    if (k != "name" && k != "optimize") throw TypeError("Invalid keyword arguments for this function: " + k + ".");
  }
  if (args.empty()) throw TypeError("einsum() missing 1 required positional argument: 'equation'");
  std::string equation = str_arg(args[0], "equation");
  args.erase(args.begin());
  return tf::einsum(equation, args);
}

Value softmax(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("softmax", {"logits", std::nullopt}, {"axis", Value()}, {"name", Value()});
  return tf::softmax(a[0], a[1]);
}

Value log_softmax(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("log_softmax", {"logits", std::nullopt}, {"axis", Value()}, {"name", Value()});
  return tf::log_softmax(a[0], a[1]);
}

Value conv2d(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("conv2d", {"input", std::nullopt}, {"filters", std::nullopt}, {"strides", std::nullopt}, {"padding", std::nullopt}, {"data_format", Value("NHWC")},
          {"dilations", Value()}, {"name", Value()});
  return tf::conv2d(a[0], a[1], a[2], a[3], str_arg(a[4], "data_format"), a[5]);
}

Value bias_add(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("bias_add", {"value", std::nullopt}, {"bias", std::nullopt}, {"data_format", Value()}, {"name", Value()});
  return tf::bias_add(a[0], a[1], a[2].is_none() ? std::string("NHWC") : str_arg(a[2], "data_format"));
}

Value max_pool2d(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("max_pool2d", {"input", std::nullopt}, {"ksize", std::nullopt}, {"strides", std::nullopt}, {"padding", std::nullopt}, {"data_format", Value("NHWC")},
          {"name", Value()});
  return tf::max_pool2d(a[0], a[1], a[2], str_arg(a[3], "padding"), str_arg(a[4], "data_format"));
}

Value avg_pool2d(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("avg_pool2d", {"input", std::nullopt}, {"ksize", std::nullopt}, {"strides", std::nullopt}, {"padding", std::nullopt}, {"data_format", Value("NHWC")},
          {"name", Value()});
  return tf::avg_pool2d(a[0], a[1], a[2], str_arg(a[3], "padding"), str_arg(a[4], "data_format"));
}

}  // namespace ag::tf::api
