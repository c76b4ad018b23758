// tf.nn.* functions TF writes in Python over other ops, as it writes them:
// leaky_relu (nn_ops.py) and, from nn_impl.py, sigmoid_cross_entropy_with_logits,
// batch_normalization and weighted_moments, each under TF's name scope so a
// traced graph holds TF's node names ("logistic_loss/Log1p", "batchnorm/Rsqrt").
#include "runtime/api/binding.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/value/convert.h"

namespace ag::tf::impl {

using namespace common;

/// tf.nn.leaky_relu(features, alpha=0.2): integer features as float32 (a
/// Cast under the "LeakyRelu" scope), then the LeakyRelu op named after the
/// scope; alpha is the op's float attr, so a tensor is TF's TypeError.
Value leaky_relu(const TfCall& c) {
  NameScope scope(c.node_name());
  TensorHandle x = to_tensor(c["features"]);
  if (is_integer(x.dtype())) x = tf::cast(Value(x), DType::Float32).as_tensor();
  const Value& alpha = c["alpha"];
  if (!alpha.is_number() || alpha.is_bool()) {
    throw TypeError("Expected float for argument 'alpha' not " + repr(alpha) + ".");
  }
  return Value(apply(c.op(), {x}, scope.self(), Attrs{{"alpha", alpha.as_float()}}));
}

/// tf.nn.sigmoid_cross_entropy_with_logits(labels, logits): for x = logits,
/// z = labels, max(x, 0) - x·z + log(1 + exp(-|x|)), which never overflows,
/// written as TF does with selects on x >= 0 (so the gradient at 0 is
/// defined) under the "logistic_loss" scope; the final add takes the scope's
/// name. The labels keep their own dtype, as TF converts them.
Value sigmoid_cross_entropy_with_logits(const TfCall& c) {
  const Value& labels_v = c["labels"];
  const Value& logits_v = c["logits"];
  if (labels_v.is_none() || logits_v.is_none()) {
    throw ValueError("Both `labels` and `logits` must be provided for sigmoid_cross_entropy_with_logitsReceived: labels=" +
                     str(labels_v) + " and logits=" + str(logits_v));
  }
  NameScope scope(c.node_name());
  Value logits = tensor_arg(logits_v);
  Value labels = tensor_arg(labels_v);
  const Shape& xs = logits.as_tensor().shape();
  const Shape& zs = labels.as_tensor().shape();
  if (!zs.is_compatible_with(xs)) {
    throw ValueError("`logits` and `labels` must have the same shape, received (" + xs.str() + " vs " + zs.str() + ").");
  }
  Value zeros = tf::zeros_like(logits);
  Value cond = logits >= zeros;
  Value relu_logits = tf::where(cond, logits, zeros);
  Value neg_abs_logits = tf::where(cond, -logits, logits);
  // Python evaluates add's arguments left to right: the nodes in TF's order.
  Value linear = relu_logits - logits * labels;
  Value softplus = tf::log1p(tf::exp(neg_abs_logits));
  return tf::add(linear, softplus, scope.self());
}

/// tf.nn.batch_normalization: inv = rsqrt(variance + epsilon) (times scale),
/// then x·inv + (offset - mean·inv), both terms cast to x's dtype, under the
/// "batchnorm" scope. The arguments combine by Python's operators, as in
/// TF, so a Python number works where TF takes one.
Value batch_normalization(const TfCall& c) {
  NameScope scope(c.node_name());
  Value x = tensor_arg(c["x"]);
  const Value& mean = c["mean"];
  const Value& scale = c["scale"];
  const Value& offset = c["offset"];
  Value inv = tf::rsqrt(c["variance"] + c["variance_epsilon"]);
  if (!scale.is_none()) inv = inv * scale;
  const DType dt = x.as_tensor().dtype();
  Value scaled = x * tf::cast(inv, dt);
  Value shift = offset.is_none() ? -mean * inv : offset - mean * inv;
  return scaled + tf::cast(shift, dt);
}

/// tf.nn.weighted_moments(x, axes, frequency_weights, keepdims): the
/// frequency-weighted mean and variance over `axes` in two passes, each sum
/// divided by the weights' sum with div_no_nan (zero weights give 0, not
/// NaN), under the "weighted_moments" scope.
Value weighted_moments(const TfCall& c) {
  NameScope scope(c.node_name());
  Value x = tensor_arg(c["x"]);
  Value weights = tensor_arg(c["frequency_weights"]);
  const DType dt = x.as_tensor().dtype();
  if (weights.as_tensor().dtype() != dt) weights = tf::cast(weights, dt);
  const Value& axes = c["axes"];
  Value weighted_input_sum = tf::reduce_sum(weights * x, axes, true, "weighted_input_sum");
  // The weights broadcast to x's shape, so their sum counts every item.
  Value broadcast_weights = weights + tf::zeros_like(x);
  Value sum_of_weights = tf::reduce_sum(broadcast_weights, axes, true, "sum_of_weights");
  Value mean = tf::api::divide_no_nan({weighted_input_sum, sum_of_weights}, {});
  Value weighted_distsq = tf::reduce_sum(weights * tf::squared_difference(x, mean), axes, true, "weighted_distsq");
  Value variance = tf::api::divide_no_nan({weighted_distsq, sum_of_weights}, {});
  if (!truthy(c["keepdims"])) {
    mean = tf::squeeze(mean, axes);
    variance = tf::squeeze(variance, axes);
  }
  return Value::tuple({mean, variance});
}

}  // namespace ag::tf::impl
