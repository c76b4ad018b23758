// tf.Variable, tf.TensorArray, tf.TensorSpec and tf.Tensor as class values
// (their rows in tf_functions.def): calling one constructs through these
// (TF's constructor signatures), and isinstance() recognises them
// (builtins.cpp compares against the interned class values). tf.TensorShape
// is a class of the object model. tf.type_spec_from_value gives a tensor's
// TensorSpec or a composite's TypeSpec.
#include "runtime/api/binding.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/value/composite_tensor.h"
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

Value type_spec_from_value(const TfCall& c) {
  // TF's type_spec_from_value: a composite's own TypeSpec, a tensor's
  // TensorSpec, else the TensorSpec of the value converted to a tensor.
  const Value& v = c["value"];
  if (const CompositeState* composite = composite_state(v)) return composite->type_spec();
  if (v.is_tensor()) return make_tensor_spec(v.as_tensor().shape(), v.as_tensor().dtype());
  TensorHandle t = [&] {
    try {
      return to_tensor(v);
    } catch (const Error&) {
      throw TypeError("Could not build a TypeSpec for " + ag::str(v) + " of unsupported type <class '" + v.type_name() + "'>.");
    }
  }();
  return make_tensor_spec(t.shape(), t.dtype());
}

Value construct_tensor(const TfCall&) {
  throw TypeError("tf.Tensor objects are made by TF operations (tf.constant, ...), not by calling tf.Tensor");
}

}  // namespace impl

const Value& api::TensorShape() { return tensor_shape_class(); }

}  // namespace ag::tf
