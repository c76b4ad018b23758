// The hand-written parts of the shape and array rows of tf_functions.def:
// Python arguments to the typed functions (array_ops.py's conversions). The
// reductions' are in tf_api_array.cpp, beside the logic they share.
#include <functional>

#include "runtime/api/binding.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/value/convert.h"

namespace ag::tf::impl {
namespace {

using ag::api::int_arg;
using common::apply;
using common::index_tensor;
using ag::api::opt_dtype;

DType dtype_or(const Value& v, DType fallback) { return v.is_none() ? fallback : require_dtype(v); }

// ones_like/zeros_like(input, dtype): a cast of the result when dtype is given.
Value with_dtype(const Value& r, const Value& dtype) { return dtype.is_none() ? r : tf::cast(r, require_dtype(dtype)); }

}  // namespace

Value reshape(const TfCall& c) { return tf::reshape(c["tensor"], c["shape"], c.node_name()); }
Value transpose(const TfCall& c) { return tf::transpose(c["a"], c["perm"], c.node_name()); }
Value expand_dims(const TfCall& c) { return tf::expand_dims(c["input"], c["axis"], c.node_name()); }
Value squeeze(const TfCall& c) { return tf::squeeze(c["input"], c["axis"], c.node_name()); }
Value concat(const TfCall& c) { return tf::concat(c["values"], c["axis"], c.node_name()); }
Value add_n(const TfCall& c) { return tf::add_n(c["inputs"], c.node_name()); }
Value stack(const TfCall& c) { return tf::stack(c["values"], Value(int_arg(c["axis"], "axis")), c.node_name()); }

Value unstack(const TfCall& c) {
  return tf::unstack(c["value"], c["num"], int_arg(c["axis"], "axis"), c.node_name());
}

Value split(const TfCall& c) {
  return tf::split(c["value"], c["num_or_size_splits"], c["axis"], c["num"], c.node_name());
}

Value tile(const TfCall& c) { return tf::tile(c["input"], c["multiples"], c.node_name()); }

Value pad(const TfCall& c) {
  return tf::pad(c["tensor"], c["paddings"], ag::api::str_arg(c["mode"], "mode"), c["constant_values"], c.node_name());
}

Value gather(const TfCall& c) {
  return tf::gather(c["params"], c["indices"], c["axis"], int_arg(c["batch_dims"], "batch_dims"), c.node_name());
}

Value gather_nd(const TfCall& c) {
  if (int_arg(c["batch_dims"], "batch_dims") != 0) throw UnimplementedError("tf.gather_nd with batch_dims is not supported");
  return tf::gather_nd(c["params"], c["indices"], c.node_name());
}

Value one_hot(const TfCall& c) {
  const Value& axis = c["axis"];
  return tf::one_hot(c["indices"], c["depth"], c["on_value"], c["off_value"], axis.is_none() ? -1 : int_arg(axis, "axis"),
                     opt_dtype(c["dtype"]), c.node_name());
}

Value roll(const TfCall& c) {
  return Value(apply(c.op(), {to_tensor(c["input"]), index_tensor(c["shift"]), index_tensor(c["axis"])}, c.node_name()));
}

Value reverse(const TfCall& c) {
  return Value(apply(c.op(), {to_tensor(c["tensor"]), index_tensor(c["axis"])}, c.node_name()));
}

Value broadcast_to(const TfCall& c) { return tf::broadcast_to(c["input"], c["shape"], c.node_name()); }

// tf.scatter_nd: the shape converted to the indices' dtype (one type attr).
Value scatter_nd(const TfCall& c) {
  TensorHandle indices = index_tensor(c["indices"]);
  TensorHandle shape = c["shape"].is_tensor() ? c["shape"].as_tensor() : to_tensor(c["shape"], indices.dtype());
  return Value(apply(c.op(), {indices, to_tensor(c["updates"]), shape}, c.node_name()));
}

// tf.tensor_scatter_nd_update/add/sub: the row's op; updates take the tensor's dtype.
Value tensor_scatter(const TfCall& c) {
  TensorHandle t = to_tensor(c["tensor"]);
  return Value(apply(c.op(), {t, index_tensor(c["indices"]), to_tensor(c["updates"], t.dtype())}, c.node_name()));
}

// tf.is_tensor: a tensor, eager or symbolic, or a variable (TF's variables are tensor-like).
Value is_tensor(const TfCall& c) { return Value(c["x"].is_tensor() || c["x"].is_variable()); }

// tf.group: eagerly None whatever the arguments, as in TF. In a trace TF
// checks its arguments and returns a NoOp the inputs feed by control edges;
// agc's stateful ops already run in program order, so there is nothing to
// group and the result is None as well.
Value group(const TfCall& c) {
  if (current_graph() == nullptr) return Value();
  for (const auto& [k, v] : c["kwargs"].as_dict().entries) {
    if (k.as_str() != "name") throw ValueError("Unknown keyword arguments: " + k.as_str());
  }
  std::function<void(const Value&)> check = [&](const Value& v) {
    if (v.is_list() || v.is_tuple()) {
      for (const Value& item : v.items()) check(item);
    } else if (!v.is_tensor() && !v.is_variable()) {
      throw TypeError("'inputs' should be zero or more (nested) Tensors. Received '" + str(v) + "' with type '<class '" +
                      v.type_name() + "'>'.");
    }
  };
  check(c["inputs"]);
  return Value();
}

Value shape(const TfCall& c) { return tf::shape(c["input"], dtype_or(c["out_type"], DType::Int32), c.node_name()); }
Value size(const TfCall& c) { return tf::size(c["input"], dtype_or(c["out_type"], DType::Int32), c.node_name()); }
Value rank(const TfCall& c) { return tf::rank(c["input"], c.node_name()); }

Value range(const TfCall& c) {
  return tf::range(c["start"], c["limit"], c["delta"], opt_dtype(c["dtype"]), c.node_name());
}

Value ones(const TfCall& c) { return tf::ones(c["shape"], dtype_or(c["dtype"], DType::Float32), c.node_name()); }
Value zeros(const TfCall& c) { return tf::zeros(c["shape"], dtype_or(c["dtype"], DType::Float32), c.node_name()); }
Value fill(const TfCall& c) { return tf::fill(c["dims"], c["value"], c.node_name()); }
Value ones_like(const TfCall& c) { return with_dtype(tf::ones_like(c["input"], c.node_name()), c["dtype"]); }
Value zeros_like(const TfCall& c) { return with_dtype(tf::zeros_like(c["input"], c.node_name()), c["dtype"]); }

Value cumsum(const TfCall& c) {
  return tf::cumsum(c["x"], c["axis"], truthy(c["exclusive"]), truthy(c["reverse"]), c.node_name());
}

Value cumprod(const TfCall& c) {
  return tf::cumprod(c["x"], c["axis"], truthy(c["exclusive"]), truthy(c["reverse"]), c.node_name());
}

}  // namespace ag::tf::impl
