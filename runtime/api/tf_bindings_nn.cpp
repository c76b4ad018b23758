// The hand-written parts of tf.matmul, tf.tensordot, tf.einsum and the tf.nn.*
// rows of tf_functions.def (softmax's and pooling's are in tf_api_nn.cpp), and
// Python's `@` operator.
#include "runtime/api/binding.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/value/ndarray_math.h"

namespace ag::tf::impl {

using ag::api::int_arg;
using common::apply;
using ag::api::str_arg;

Value matmul(const TfCall& c) {
  if (!c["output_type"].is_none()) throw UnimplementedError("tf.matmul with output_type is not supported");
  // Real tensors only: the adjoint is the transpose.
  return tf::matmul(c["a"], c["b"], truthy(c["transpose_a"]) || truthy(c["adjoint_a"]),
                    truthy(c["transpose_b"]) || truthy(c["adjoint_b"]), c.node_name());
}

Value tensordot(const TfCall& c) { return tf::tensordot(c["a"], c["b"], c["axes"]); }

Value einsum(const TfCall& c) {
  for (const auto& [k, v] : c["kwargs"].as_dict().entries) {
    const std::string& key = k.as_str();
    if (key != "name" && key != "optimize") throw TypeError("Invalid keyword arguments for this function: " + key + ".");
  }
  return tf::einsum(str_arg(c["equation"], "equation"), c["inputs"].items());
}

Value conv2d(const TfCall& c) {
  return tf::conv2d(c["input"], c["filters"], c["strides"], c["padding"], str_arg(c["data_format"], "data_format"),
                    c["dilations"], c.node_name());
}

/// tf.nn.conv3d: strides and dilations of 5 ints (batch and channels 1).
Value conv3d(const TfCall& c) {
  auto five = [](const Value& v, const char* name) {
    std::vector<int64_t> out;
    for (const Value& x : iterate(v)) out.push_back(int_arg(x, name));
    if (out.size() != 5) throw ValueError(std::string(name) + " should be of length 5 but was " + std::to_string(out.size()));
    return out;
  };
  TensorHandle x = to_tensor(c["input"]);
  Attrs attrs{{"strides", AttrValue(five(c["strides"], "strides"))},
              {"padding", AttrValue(str_arg(c["padding"], "padding"))},
              {"data_format", AttrValue(str_arg(c["data_format"], "data_format"))},
              {"dilations", AttrValue(c["dilations"].is_none() ? std::vector<int64_t>{1, 1, 1, 1, 1}
                                                               : five(c["dilations"], "dilations"))}};
  return Value(apply(op::Conv3D, {x, to_tensor(c["filters"], x.dtype())}, c.node_name(), attrs));
}

Value depthwise_conv2d(const TfCall& c) {
  const Value& format = c["data_format"];
  return tf::depthwise_conv2d(c["input"], c["filter"], c["strides"], c["padding"],
                              format.is_none() ? std::string("NHWC") : str_arg(format, "data_format"), c["dilations"],
                              c.node_name());
}

/// tf.quantization.fake_quant_with_min_max_args / _vars: the range as attrs
/// (floats, ints accepted) or as scalar tensors; num_bits, narrow_range attrs.
Value fake_quant_with_min_max_args(const TfCall& c) {
  auto number = [](const Value& v, const char* name) {
    if (!v.is_number()) throw TypeError(std::string("Expected float for argument '") + name + "' not " + repr(v) + ".");
    return v.as_float();
  };
  return Value(apply(c.op(), {to_tensor(c["inputs"], DType::Float32)}, c.node_name(),
                     Attrs{{"min", AttrValue(number(c["min"], "min"))},
                           {"max", AttrValue(number(c["max"], "max"))},
                           {"num_bits", AttrValue(int_arg(c["num_bits"], "num_bits"))},
                           {"narrow_range", AttrValue(truthy(c["narrow_range"]))}}));
}

Value fake_quant_with_min_max_vars(const TfCall& c) {
  return Value(apply(c.op(),
                     {to_tensor(c["inputs"], DType::Float32), to_tensor(c["min"], DType::Float32),
                      to_tensor(c["max"], DType::Float32)},
                     c.node_name(),
                     Attrs{{"num_bits", AttrValue(int_arg(c["num_bits"], "num_bits"))},
                           {"narrow_range", AttrValue(truthy(c["narrow_range"]))}}));
}

Value bias_add(const TfCall& c) {
  const Value& format = c["data_format"];
  return tf::bias_add(c["value"], c["bias"], format.is_none() ? std::string("NHWC") : str_arg(format, "data_format"),
                      c.node_name());
}

}  // namespace ag::tf::impl

namespace ag {

Value matmul_operator(const Value& a, const Value& b) {
  // Tensor.__matmul__ wins over NumPy's (TF's __array_priority__).
  bool tensors = a.is_tensor() || a.is_variable() || b.is_tensor() || b.is_variable();
  if (!tensors && (a.is_ndarray() || b.is_ndarray())) return ndarray::matmul(a, b);
  return tf::api::matmul({a, b}, {});
}

}  // namespace ag
