// tf.Variable, tf.TensorArray, tf.TensorSpec and tf.Tensor as class values
// (their rows in tf_functions.def): calling one constructs through these
// (TF's constructor signatures), and isinstance() recognises them
// (builtins.cpp compares against the interned class values). tf.TensorShape
// is a class of the object model.
#include "runtime/api/binding.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/value/tensor_spec_value.h"
#include "runtime/value/convert.h"
#include "runtime/value/tensor_array.h"
#include "runtime/value/tensor_shape_value.h"

namespace ag::tf {
namespace impl {

Value construct_variable(const TfCall& c) {
  if (c["initial_value"].is_none()) throw ValueError("initial_value must be specified.");
  // trainable=None is True, as TF's default synchronization makes it.
  return tf::Variable(c["initial_value"], ag::api::opt_dtype(c["dtype"]), c["name"], c["shape"],
                      c["trainable"].is_none() || truthy(c["trainable"]));
}

Value construct_tensor_array(const TfCall& c) {
  if (!c["handle"].is_none() || !c["flow"].is_none()) {
    throw UnimplementedError("tf.TensorArray from a handle or flow is not supported");
  }
  return tensor_array::create(require_dtype(c["dtype"]), c["size"], truthy(c["dynamic_size"]), c["clear_after_read"],
                              truthy(c["infer_shape"]), c["element_shape"]);
}

Value construct_tensor_spec(const TfCall& c) {
  std::string name = c["name"].is_none() ? std::string() : ag::api::str_arg(c["name"], "name");
  return make_tensor_spec(shape_from_value(c["shape"]), require_dtype(c["dtype"]), name);
}

Value construct_tensor(const TfCall&) {
  throw TypeError("tf.Tensor objects are made by TF operations (tf.constant, ...), not by calling tf.Tensor");
}

}  // namespace impl

const Value& api::TensorShape() { return tensor_shape_class(); }

}  // namespace ag::tf
