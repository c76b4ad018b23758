// tf.Variable, tf.TensorArray, tf.TensorSpec and tf.Tensor as class values:
// calling one constructs (TF's constructor signatures), and isinstance()
// recognises them (builtins.cpp compares against these interned values).
#include "runtime/api/tf_bindings_common.h"
#include "runtime/function/tensor_spec.h"
#include "runtime/value/convert.h"
#include "runtime/value/tensor_array.h"
#include "runtime/value/tensor_shape_value.h"

namespace ag::tf::api {
namespace {

Value construct_variable(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("Variable", {"initial_value", Value()}, {"trainable", Value()}, {"validate_shape", Value(true)},
          {"caching_device", Value()}, {"name", Value()}, {"variable_def", Value()}, {"dtype", Value()},
          {"import_scope", Value()}, {"constraint", Value()}, {"synchronization", Value()},
          {"aggregation", Value()}, {"shape", Value()});
  if (a[0].is_none()) throw ValueError("initial_value must be specified.");
  return tf::Variable(a[0], ag::api::opt_dtype(a[6]), a[4], a[11]);
}

Value construct_tensor_array(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("TensorArray", {"dtype", std::nullopt}, {"size", Value()}, {"dynamic_size", Value()}, {"clear_after_read", Value()},
          {"tensor_array_name", Value()}, {"handle", Value()}, {"flow", Value()}, {"infer_shape", Value(true)},
          {"element_shape", Value()}, {"colocate_with_first_write_call", Value(true)}, {"name", Value()});
  if (!a[5].is_none() || !a[6].is_none()) throw UnimplementedError("tf.TensorArray from a handle or flow is not supported");
  return tensor_array::create(require_dtype(a[0]), a[1], truthy(a[2]), a[3], truthy(a[7]), a[8]);
}

Value construct_tensor_spec(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("TensorSpec", {"shape", std::nullopt}, {"dtype", dtype_value(DType::Float32)}, {"name", Value()});
  std::string name = a[2].is_none() ? std::string() : ag::api::str_arg(a[2], "name");
  return make_tensor_spec(shape_from_value(a[0]), require_dtype(a[1]), name);
}

Value construct_tensor(std::vector<Value>, Kwargs) {
  throw TypeError("tf.Tensor objects are made by TF operations (tf.constant, ...), not by calling tf.Tensor");
}

}  // namespace

const Value& Variable() {
  static const Value v = builtin_value("tf.Variable", construct_variable);
  return v;
}

const Value& TensorArray() {
  static const Value v = builtin_value("tf.TensorArray", construct_tensor_array);
  return v;
}

const Value& TensorSpec() {
  static const Value v = builtin_value("tf.TensorSpec", construct_tensor_spec);
  return v;
}

const Value& TensorShape() { return tensor_shape_class(); }

const Value& Tensor() {
  static const Value v = builtin_value("tf.Tensor", construct_tensor);
  return v;
}

}  // namespace ag::tf::api
