// tf.keras.losses; see losses.h. Each function is Keras 2.15's
// (tf_keras/losses.py over backend.py, losses_utils.py), built from tf.*
// functions so a traced loss makes the ops TF's does; the classes are Keras's
// Loss -> LossFunctionWrapper -> MeanSquaredError, ... as classes of the
// object model, so a program can subclass Loss and override call().
#include "runtime/keras/losses.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/graph/graph.h"
#include "runtime/keras/layer.h"
#include "runtime/ops/op_def.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/user_function.h"

namespace ag::keras {
namespace {

/// backend.epsilon().
constexpr double kLossEpsilon = 1e-7;

// ---- Tensors.

/// tf.convert_to_tensor(v) (a variable is read).
Value loss_tensor(const Value& v) { return v.is_tensor() ? v : Value(to_tensor(v)); }
DType loss_dtype(const Value& t) { return t.as_tensor().dtype(); }
/// The static rank, -1 when unknown.
int loss_rank(const Value& t) { return t.as_tensor().shape().rank(); }
/// tf.is_tensor: what LossFunctionWrapper.call squeezes (not lists or NumPy arrays).
bool loss_is_tensor(const Value& v) { return v.is_tensor() || v.is_variable(); }
/// A float scalar of `dtype`: Keras's _constant_to_tensor(epsilon(), dtype).
Value loss_scalar(double x, DType dtype) { return tf::constant(Value(x), dtype); }

/// y_pred converted and y_true cast to its dtype: how every Keras loss starts.
std::pair<Value, Value> loss_true_pred(const Value& y_true, const Value& y_pred) {
  Value p = loss_tensor(y_pred);
  return {tf::cast(y_true, loss_dtype(p)), p};
}

Value loss_mean(const Value& x, const Value& axis = Value(-1)) { return tf::reduce_mean(x, axis); }

/// tf.clip_by_value(x, lo, hi).
Value loss_clip(const Value& x, const Value& lo, const Value& hi) { return tf::api::clip_by_value({x, lo, hi}, {}); }

/// Keras's backend._get_logits: while tracing, a y_pred that a Softmax
/// (Sigmoid) op made is replaced by that op's input, read as logits, so that
/// probabilities that collapsed to 0 or 1 still give a finite loss (Keras
/// does so even when from_logits is already set, warning that the output
/// was "produced by a Softmax activation"; agc prints no warning). An eager
/// tensor does not record its op (Keras reads the `_keras_logits` its
/// softmax activation attaches instead), so eagerly the probabilities are used.
std::optional<Value> loss_logits_of(const Value& output, OpType producer) {
  if (!output.is_tensor() || !output.as_tensor().symbolic()) return std::nullopt;
  const Node* n = output.as_tensor().output().node;
  if (n == nullptr || n->op == nullptr || n->op->name != producer.name() || n->inputs.size() != 1) return std::nullopt;
  return Value(n->inputs[0]);
}

/// A static label_smoothing of 0 needs no smoothing (Keras's smart_cond);
/// a symbolic one is applied, which gives y_true itself when it is 0.
bool loss_smooths(const Value& label_smoothing) {
  if (label_smoothing.is_number()) return label_smoothing.as_float() != 0.0;
  TensorHandle t = to_tensor(label_smoothing, DType::Float32);
  if (t.symbolic()) return true;
  return t.value().num_elements() != 1 || t.value().data<float>()[0] != 0.0f;
}

// ---- The loss functions (tf_keras/losses.py), each on one value per
// parameter: y_true, y_pred, then its own.

LossValues loss_mean_squared_error(const std::vector<Value>& a) {
  auto [t, p] = loss_true_pred(a[0], a[1]);
  return {loss_mean(tf::squared_difference(p, t)), Value()};
}

LossValues loss_mean_absolute_error(const std::vector<Value>& a) {
  auto [t, p] = loss_true_pred(a[0], a[1]);
  return {loss_mean(tf::abs(p - t)), Value()};
}

LossValues loss_mean_absolute_percentage_error(const std::vector<Value>& a) {
  auto [t, p] = loss_true_pred(a[0], a[1]);
  Value diff = tf::abs((t - p) / tf::maximum(tf::abs(t), Value(kLossEpsilon)));
  return {Value(100.0) * loss_mean(diff), Value()};
}

LossValues loss_mean_squared_logarithmic_error(const std::vector<Value>& a) {
  auto [t, p] = loss_true_pred(a[0], a[1]);
  Value first_log = tf::log(tf::maximum(p, Value(kLossEpsilon)) + Value(1.0));
  Value second_log = tf::log(tf::maximum(t, Value(kLossEpsilon)) + Value(1.0));
  return {loss_mean(tf::squared_difference(first_log, second_log)), Value()};
}

/// Keras's _maybe_convert_labels: 0/1 labels become -1/1 (a smart_cond:
/// decided now when the test is eager, a select while tracing).
Value loss_hinge_labels(const Value& y_true) {
  Value is_binary = tf::reduce_all(tf::logical_or(tf::equal(y_true, Value(0)), tf::equal(y_true, Value(1))));
  Value converted = Value(2.0) * y_true - Value(1.0);
  if (!is_binary.as_tensor().symbolic()) return is_binary.as_tensor().value().data<bool>()[0] ? converted : y_true;
  return tf::where(is_binary, converted, y_true);
}

LossValues loss_hinge(const std::vector<Value>& a) {
  auto [t, p] = loss_true_pred(a[0], a[1]);
  t = loss_hinge_labels(t);
  return {loss_mean(tf::maximum(Value(1.0) - t * p, Value(0.0))), Value()};
}

LossValues loss_squared_hinge(const std::vector<Value>& a) {
  auto [t, p] = loss_true_pred(a[0], a[1]);
  t = loss_hinge_labels(t);
  return {loss_mean(tf::square(tf::maximum(Value(1.0) - t * p, Value(0.0)))), Value()};
}

LossValues loss_categorical_hinge(const std::vector<Value>& a) {
  auto [t, p] = loss_true_pred(a[0], a[1]);
  Value pos = tf::reduce_sum(t * p, Value(-1));
  Value neg = tf::reduce_max((Value(1.0) - t) * p, Value(-1));
  return {tf::maximum(neg - pos + Value(1.0), loss_scalar(0.0, loss_dtype(p))), Value()};
}

LossValues loss_huber(const std::vector<Value>& a) {
  // Huber computes in floatx whatever the inputs' dtype.
  Value p = tf::cast(a[1], DType::Float32);
  Value t = tf::cast(a[0], DType::Float32);
  Value delta = tf::cast(a[2], DType::Float32);
  Value error = tf::subtract(p, t);
  Value abs_error = tf::abs(error);
  Value half = loss_scalar(0.5, DType::Float32);
  Value quadratic = half * tf::square(error);
  Value linear = delta * abs_error - half * tf::square(delta);
  return {loss_mean(tf::where(tf::less_equal(abs_error, delta), quadratic, linear)), Value()};
}

LossValues loss_log_cosh(const std::vector<Value>& a) {
  auto [t, p] = loss_true_pred(a[0], a[1]);
  Value x = p - t;
  // log(cosh(x)) = x + softplus(-2x) - log(2), tf.math.log(2.0) in float32.
  Value log2 = tf::cast(tf::log(Value(Tensor::scalar<float>(2.0f))), loss_dtype(p));
  return {loss_mean(x + tf::softplus(Value(-2.0) * x) - log2), Value()};
}

LossValues loss_kl_divergence(const std::vector<Value>& a) {
  auto [t, p] = loss_true_pred(a[0], a[1]);
  t = loss_clip(t, Value(kLossEpsilon), Value(1));
  p = loss_clip(p, Value(kLossEpsilon), Value(1));
  return {tf::reduce_sum(t * tf::log(t / p), Value(-1)), Value()};
}

LossValues loss_poisson(const std::vector<Value>& a) {
  auto [t, p] = loss_true_pred(a[0], a[1]);
  return {loss_mean(p - t * tf::log(p + Value(kLossEpsilon))), Value()};
}

LossValues loss_cosine_similarity(const std::vector<Value>& a) {
  Value t = tf::api::l2_normalize({a[0]}, {{"axis", a[2]}});
  Value p = tf::api::l2_normalize({a[1]}, {{"axis", a[2]}});
  return {-tf::reduce_sum(t * p, a[2]), Value()};
}

/// tf.nn.sigmoid_cross_entropy_with_logits composed as TF writes it
/// (max(x, 0) - x * z + log1p(exp(-|x|)), by selects, the last add named
/// after the "logistic_loss" scope), with its shape check. The tf.nn row
/// (runtime/api/tf_api_nn_impl.cpp) was not committed when this was written;
/// once it is, this can call tf::api::sigmoid_cross_entropy_with_logits.
Value loss_sigmoid_cross_entropy(const Value& labels, const Value& logits) {
  const Shape& ls = labels.as_tensor().shape();
  const Shape& xs = logits.as_tensor().shape();
  if (!ls.is_compatible_with(xs)) {
    throw ValueError("`logits` and `labels` must have the same shape, received (" + xs.str() + " vs " + ls.str() +
                     ").");
  }
  tf::common::NameScope scope("logistic_loss");
  Value zeros = tf::zeros_like(logits);
  Value cond = tf::greater_equal(logits, zeros);
  Value relu_logits = tf::where(cond, logits, zeros);
  Value neg_abs_logits = tf::where(cond, -logits, logits);
  return tf::add(relu_logits - logits * labels, tf::log1p(tf::exp(neg_abs_logits)), scope.self());
}

/// backend.binary_crossentropy: elementwise, not reduced.
Value loss_backend_binary_crossentropy(const Value& target, Value output, bool from_logits) {
  if (std::optional<Value> logits = loss_logits_of(output, op::Sigmoid)) {
    output = *logits;
    from_logits = true;
  }
  if (from_logits) return loss_sigmoid_cross_entropy(target, output);
  Value eps = loss_scalar(kLossEpsilon, loss_dtype(output));
  output = loss_clip(output, eps, Value(1.0) - eps);
  Value bce = target * tf::log(output + Value(kLossEpsilon));
  bce = bce + (Value(1) - target) * tf::log(Value(1) - output + Value(kLossEpsilon));
  return -bce;
}

/// The label smoothing factor as Keras makes it: a tensor of y_pred's dtype.
Value loss_smoothing(const Value& label_smoothing, DType dtype) { return Value(to_tensor(label_smoothing, dtype)); }

LossValues loss_binary_crossentropy(const std::vector<Value>& a) {
  auto [t, p] = loss_true_pred(a[0], a[1]);
  if (loss_smooths(a[3])) {
    Value ls = loss_smoothing(a[3], loss_dtype(p));
    t = t * (Value(1.0) - ls) + Value(0.5) * ls;
  }
  return {loss_mean(loss_backend_binary_crossentropy(t, p, truthy(a[2])), a[4]), Value()};
}

/// backend.categorical_crossentropy.
Value loss_backend_categorical_crossentropy(const Value& target, Value output, bool from_logits, const Value& axis) {
  const Shape& ts = target.as_tensor().shape();
  const Shape& os = output.as_tensor().shape();
  if (!ts.is_compatible_with(os)) throw ValueError("Shapes " + ts.str() + " and " + os.str() + " are incompatible");
  if (std::optional<Value> logits = loss_logits_of(output, op::Softmax)) {
    output = *logits;
    from_logits = true;
  }
  if (from_logits) {
    return tf::api::softmax_cross_entropy_with_logits({}, {{"labels", target}, {"logits", output}, {"axis", axis}});
  }
  // Rescaled so each row sums to 1, then clipped away from 0 and 1.
  output = output / tf::reduce_sum(output, axis, true);
  Value eps = loss_scalar(kLossEpsilon, loss_dtype(output));
  output = loss_clip(output, eps, Value(1.0) - eps);
  return -tf::reduce_sum(target * tf::log(output), axis);
}

LossValues loss_categorical_crossentropy(const std::vector<Value>& a) {
  auto [t, p] = loss_true_pred(a[0], a[1]);
  if (loss_smooths(a[3])) {
    Value ls = loss_smoothing(a[3], loss_dtype(p));
    const Shape& s = t.as_tensor().shape();
    int64_t axis = a[4].as_int();
    int64_t ax = axis < 0 && s.rank_known() ? axis + s.rank() : axis;
    Value num_classes;
    if (s.rank_known() && ax >= 0 && ax < s.rank() && s.dim(static_cast<int>(ax)) >= 0) {
      num_classes = loss_scalar(static_cast<double>(s.dim(static_cast<int>(ax))), loss_dtype(p));
    } else {
      num_classes = tf::cast(tf::gather(tf::shape(t), a[4]), loss_dtype(p));
    }
    t = t * (Value(1.0) - ls) + ls / num_classes;
  }
  return {loss_backend_categorical_crossentropy(t, p, truthy(a[2]), a[4]), Value()};
}

/// `dims` as a reshape argument: ints where static, else from tf.shape(x).
Value loss_shape_prefix(const Value& x, int count) {
  const Shape& s = x.as_tensor().shape();
  bool known = true;
  std::vector<Value> dims;
  for (int i = 0; i < count; ++i) {
    if (s.dim(i) < 0) known = false;
    dims.emplace_back(static_cast<long long>(s.dim(i)));
  }
  if (known) return Value::list(std::move(dims));
  return tf::api::slice({tf::shape(x), Value::list({Value(0)}), Value::list({Value(count)})}, {});
}

/// backend.sparse_categorical_crossentropy, with the mask of ignore_class.
LossValues loss_sparse_categorical_crossentropy(const std::vector<Value>& a) {
  // a: y_true, y_pred, from_logits, axis, ignore_class.
  Value target = tf::cast(a[0], DType::Int64);
  Value output = loss_tensor(a[1]);
  bool from_logits = truthy(a[2]);
  const Value& ignore_class = a[4];
  if (std::optional<Value> logits = loss_logits_of(output, op::Softmax)) {
    output = *logits;
    from_logits = true;
  }
  if (!from_logits) {
    Value eps = loss_scalar(kLossEpsilon, loss_dtype(output));
    output = tf::log(loss_clip(output, eps, Value(1) - eps));
  }
  // The class axis moved last.
  int output_rank = loss_rank(output);
  int64_t axis = a[3].as_int();
  if (output_rank > 0) {
    axis = ((axis % output_rank) + output_rank) % output_rank;
    if (axis != output_rank - 1) {
      std::vector<Value> perm;
      for (int i = 0; i < output_rank; ++i) {
        if (i != axis) perm.emplace_back(i);
      }
      perm.emplace_back(static_cast<long long>(axis));
      output = tf::transpose(output, Value::list(std::move(perm)));
    }
  } else if (output_rank < 0 && axis != -1) {
    throw ValueError("Cannot compute sparse categorical crossentropy with `axis=" + std::to_string(axis) +
                     "` on an output tensor with unknown rank");
  }
  int target_rank = loss_rank(target);
  // Labels of rank logits' - 1, else both flattened to [N] and [N, classes].
  Value leading = output_rank >= 1 ? loss_shape_prefix(output, output_rank - 1) : Value();
  bool update_shape = target_rank >= 0 && output_rank >= 0 && target_rank != output_rank - 1;
  if (update_shape) {
    target = tf::reshape(target, Value::list({Value(-1)}));
    int64_t classes = output.as_tensor().shape().dim(output_rank - 1);
    Value last =
        classes >= 0 ? Value(static_cast<long long>(classes)) : tf::gather(tf::shape(output), Value(output_rank - 1));
    output = tf::reshape(output, Value::list({Value(-1), last}));
  }
  Value valid_mask;
  if (!ignore_class.is_none()) {
    valid_mask = tf::not_equal(target, tf::cast(ignore_class, DType::Int64));
    target = tf::api::boolean_mask({target, valid_mask}, {});
    output = tf::api::boolean_mask({output, valid_mask}, {});
  }
  Value res = tf::api::sparse_softmax_cross_entropy_with_logits({}, {{"labels", target}, {"logits", output}});
  if (!ignore_class.is_none()) {
    Value res_shape = tf::cast(leading, DType::Int64);
    valid_mask = tf::reshape(valid_mask, res_shape);
    res = tf::api::scatter_nd({tf::where(valid_mask), res, res_shape}, {});
    return {res, valid_mask};
  }
  if (update_shape && output_rank >= 3) res = tf::reshape(res, leading);
  return {res, Value()};
}

// ---- The function values and Keras's losses_utils.

using LossBody = std::function<LossValues(const std::vector<Value>&)>;

struct LossFunctionDef {
  const char* name;
  std::vector<Param> params;  ///< after y_true, y_pred
  LossBody body;
};

const std::vector<LossFunctionDef>& loss_function_defs() {
  static const std::vector<LossFunctionDef> defs = {
      {"mean_squared_error", {}, loss_mean_squared_error},
      {"mean_absolute_error", {}, loss_mean_absolute_error},
      {"mean_absolute_percentage_error", {}, loss_mean_absolute_percentage_error},
      {"mean_squared_logarithmic_error", {}, loss_mean_squared_logarithmic_error},
      {"squared_hinge", {}, loss_squared_hinge},
      {"hinge", {}, loss_hinge},
      {"categorical_hinge", {}, loss_categorical_hinge},
      {"huber", {{"delta", Value(1.0)}}, loss_huber},
      {"log_cosh", {}, loss_log_cosh},
      {"categorical_crossentropy",
       {{"from_logits", Value(false)}, {"label_smoothing", Value(0.0)}, {"axis", Value(-1)}},
       loss_categorical_crossentropy},
      {"sparse_categorical_crossentropy",
       {{"from_logits", Value(false)}, {"axis", Value(-1)}, {"ignore_class", Value()}},
       loss_sparse_categorical_crossentropy},
      {"binary_crossentropy",
       {{"from_logits", Value(false)}, {"label_smoothing", Value(0.0)}, {"axis", Value(-1)}},
       loss_binary_crossentropy},
      {"kl_divergence", {}, loss_kl_divergence},
      {"poisson", {}, loss_poisson},
      {"cosine_similarity", {{"axis", Value(-1)}}, loss_cosine_similarity},
  };
  return defs;
}

std::vector<Param> loss_full_params(const LossFunctionDef& d) {
  std::vector<Param> params{{"y_true", std::nullopt}, {"y_pred", std::nullopt}};
  for (const Param& p : d.params) params.push_back(p);
  return params;
}

/// The functions as values, made once, in loss_function_defs()'s order.
const std::vector<Value>& loss_function_values() {
  static const std::vector<Value> values = [] {
    std::vector<Value> out;
    for (const LossFunctionDef& d : loss_function_defs()) {
      LossBody body = d.body;
      out.push_back(make_function(d.name, loss_full_params(d),
                                  [body](const std::vector<Value>& a) -> Value { return body(a).values; }));
    }
    return out;
  }();
  return values;
}

const Value& loss_function(std::string_view name) {
  const std::vector<LossFunctionDef>& defs = loss_function_defs();
  for (size_t i = 0; i < defs.size(); ++i) {
    if (defs[i].name == name) return loss_function_values()[i];
  }
  throw InternalError("no keras loss function " + std::string(name));
}

/// The Reduction keys.
const char* const kLossReductions[] = {"auto", "none", "sum", "sum_over_batch_size"};

void loss_validate_reduction(const Value& key) {
  if (key.is_str()) {
    for (const char* k : kLossReductions) {
      if (key.as_str() == k) return;
    }
  }
  throw ValueError("Invalid Reduction Key: " + str(key) +
                   ". Expected keys are \"('auto', 'none', 'sum', 'sum_over_batch_size')\"");
}

/// losses_utils.remove_squeezable_dimensions (static ranks, expected_rank_diff 0).
std::pair<Value, Value> loss_remove_squeezable(Value labels, Value predictions) {
  const Shape& ps = predictions.as_tensor().shape();
  const Shape& ls = labels.as_tensor().shape();
  if (!ps.rank_known() || !ls.rank_known()) return {labels, predictions};
  int rank_diff = ps.rank() - ls.rank();
  auto last_may_be_one = [](const Shape& s) {
    return s.rank() > 0 && (s.dim(s.rank() - 1) == 1 || s.dim(s.rank() - 1) < 0);
  };
  if (rank_diff == 1 && last_may_be_one(ps)) {
    predictions = tf::squeeze(predictions, Value::list({Value(-1)}));
  } else if (rank_diff == -1 && last_may_be_one(ls)) {
    labels = tf::squeeze(labels, Value::list({Value(-1)}));
  }
  return {labels, predictions};
}

/// losses_utils.reduce_weighted_loss.
Value loss_reduce_weighted(const Value& weighted, const std::string& reduction) {
  if (reduction == "none") return weighted;
  Value loss = tf::reduce_sum(weighted);
  if (reduction == "sum_over_batch_size") {
    tf::common::NameScope scope("num_elements");
    Value n = tf::cast(tf::size(weighted), loss_dtype(weighted));
    loss = tf::api::divide_no_nan({loss, n}, {{"name", Value("value")}});
  }
  return loss;
}

/// losses_utils.compute_weighted_loss.
Value loss_compute_weighted(Value losses, Value sample_weight, std::string reduction) {
  loss_validate_reduction(Value(reduction));
  if (reduction == "auto") reduction = "sum_over_batch_size";
  if (sample_weight.is_none()) sample_weight = Value(1.0);
  tf::common::NameScope scope("weighted_loss");
  losses = loss_tensor(losses);
  DType input_dtype = loss_dtype(losses);
  // Integer or bool losses are summed in float32 and cast back.
  bool casted = !is_floating(input_dtype);
  if (casted) losses = tf::cast(losses, DType::Float32);
  sample_weight = tf::cast(sample_weight, loss_dtype(losses));
  SqueezedTensors s = squeeze_or_expand_dimensions(losses, Value(), sample_weight);
  Value loss = loss_reduce_weighted(tf::multiply(s.y_pred, s.sample_weight), reduction);
  if (casted) loss = tf::cast(loss, input_dtype);
  return loss;
}

/// losses_utils.apply_mask.
Value loss_apply_mask(const Value& y_p, Value sw, Value mask) {
  if (mask.is_none()) return sw;
  mask = tf::cast(mask, loss_dtype(y_p));
  if (sw.is_none()) return mask;
  sw = tf::cast(sw, loss_dtype(mask));
  SqueezedTensors s = squeeze_or_expand_dimensions(mask, Value(), sw);
  return s.sample_weight * s.y_pred;
}

// ---- The classes.

/// The attribute `name` of `cls` or its bases, unbound (nullopt when none).
std::optional<Value> loss_class_attr(const Value& cls, std::string_view name) {
  for (const Value& c : mro(cls)) {
    for (const auto& [k, v] : c.as_object().attrs) {
      if (k == name) return v;
    }
  }
  return std::nullopt;
}

/// Loss._set_name_scope: the class's name, or the given name without its
/// leading and trailing underscores ("<lambda>" -> "lambda").
std::string loss_name_scope(const Value& self) {
  Value name = self.hasattr("name") ? self.getattr("name") : Value();
  std::string n = name.is_str() ? name.as_str() : self.type_name();
  if (n == "<lambda>") return "lambda";
  size_t b = n.find_first_not_of('_');
  if (b == std::string::npos) return "";
  return n.substr(b, n.find_last_not_of('_') - b + 1);
}

Kwargs loss_fn_kwargs(const Value& self) {
  Kwargs out;
  Value d = self.getattr("_fn_kwargs");
  if (d.is_dict()) {
    for (const auto& [k, v] : d.as_dict().entries) out.emplace_back(k.as_str(), v);
  }
  return out;
}

/// LossFunctionWrapper.call, keeping the function's mask.
LossValues loss_wrapper_values(const Value& self, Value y_true, Value y_pred) {
  if (loss_is_tensor(y_pred) && loss_is_tensor(y_true)) {
    SqueezedTensors s = squeeze_or_expand_dimensions(y_pred, y_true, Value());
    y_pred = s.y_pred;
    y_true = s.y_true;
  }
  return call_loss_function(self.getattr("fn"), y_true, y_pred, loss_fn_kwargs(self));
}

Value loss_wrapper_call_method(const std::vector<Value>& a) { return loss_wrapper_values(a[0], a[1], a[2]).values; }

/// LossFunctionWrapper.call as a value: Loss.__call__ recognises it to keep the mask.
const Value& loss_wrapper_call() {
  static const Value fn = native_method("LossFunctionWrapper.call", "call",
                                        {{"self", std::nullopt}, {"y_true", std::nullopt}, {"y_pred", std::nullopt}},
                                        loss_wrapper_call_method)
                              .second;
  return fn;
}

/// Loss.__call__(y_true, y_pred, sample_weight=None).
Value loss_call(const std::vector<Value>& a) {
  const Value& self = a[0];
  tf::common::NameScope scope(loss_name_scope(self));
  LossValues l;
  std::optional<Value> call = loss_class_attr(self.as_object().cls, "call");
  if (call && call->is(loss_wrapper_call())) {
    l = loss_wrapper_values(self, a[1], a[2]);
  } else {
    l.values = self.getattr("call")({a[1], a[2]}, {});
  }
  Value reduction = self.getattr("reduction");
  loss_validate_reduction(reduction);
  std::string r = reduction.as_str() == "auto" ? "sum_over_batch_size" : reduction.as_str();
  Value sw = apply_valid_mask(l.values, a[3], l.mask, r);
  return loss_compute_weighted(l.values, sw, r);
}

Value loss_base_config(const Value& self) {
  return Value::dict({{Value("reduction"), self.getattr("reduction")}, {Value("name"), self.getattr("name")}});
}

/// from_config(cls, config): cls(**config).
Value loss_from_config() {
  return make_classmethod(make_function("from_config", {{"cls", std::nullopt}, {"config", std::nullopt}},
                                        [](const std::vector<Value>& a) -> Value {
                                          Kwargs kwargs;
                                          for (const auto& [k, v] : a[1].as_dict().entries)
                                            kwargs.emplace_back(k.as_str(), v);
                                          return a[0]({}, std::move(kwargs));
                                        }));
}

Value loss_make_base_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method("Loss.__init__", "__init__",
                                {{"self", std::nullopt}, {"reduction", Value("auto")}, {"name", Value()}},
                                [](const std::vector<Value>& a) -> Value {
                                  loss_validate_reduction(a[1]);
                                  a[0].setattr("reduction", a[1]);
                                  a[0].setattr("name", a[2]);
                                  return Value();
                                }));
  attrs.push_back(native_method(
      "Loss.__call__", "__call__",
      {{"self", std::nullopt}, {"y_true", std::nullopt}, {"y_pred", std::nullopt}, {"sample_weight", Value()}},
      loss_call));
  attrs.push_back(native_method(
      "Loss.call", "call", {{"self", std::nullopt}, {"y_true", std::nullopt}, {"y_pred", std::nullopt}},
      [](const std::vector<Value>&) -> Value { throw NotImplementedError("Must be implemented in subclasses."); }));
  attrs.push_back(native_method("Loss.get_config", "get_config", {{"self", std::nullopt}},
                                [](const std::vector<Value>& a) { return loss_base_config(a[0]); }));
  attrs.push_back({"from_config", loss_from_config()});
  return make_class("Loss", {}, std::move(attrs));
}

/// Sets what LossFunctionWrapper.__init__ sets: reduction, name, fn, _fn_kwargs.
void loss_init_wrapper(const Value& self, const Value& fn, const Value& reduction, const Value& name, Value fn_kwargs) {
  loss_validate_reduction(reduction);
  self.setattr("reduction", reduction);
  self.setattr("name", name);
  self.setattr("fn", fn);
  self.setattr("_fn_kwargs", std::move(fn_kwargs));
}

Value loss_make_wrapper_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method("LossFunctionWrapper.__init__", "__init__",
                                {{"self", std::nullopt},
                                 {"fn", std::nullopt},
                                 {"reduction", Value("auto")},
                                 {"name", Value()},
                                 {"kwargs", std::nullopt, ParamKind::VarKeyword}},
                                [](const std::vector<Value>& a) -> Value {
                                  loss_init_wrapper(a[0], a[1], a[2], a[3], a[4]);
                                  return Value();
                                }));
  attrs.push_back({"call", loss_wrapper_call()});
  attrs.push_back(native_method("LossFunctionWrapper.get_config", "get_config", {{"self", std::nullopt}},
                                [](const std::vector<Value>& a) -> Value {
                                  Value config = loss_base_config(a[0]);
                                  for (const auto& [k, v] : loss_fn_kwargs(a[0])) config.as_dict().set(Value(k), v);
                                  return config;
                                }));
  return make_class("LossFunctionWrapper", {loss_class()}, std::move(attrs));
}

const Value& loss_wrapper_class() {
  static const Value cls = loss_make_wrapper_class();
  return cls;
}

/// A built-in loss class: LossFunctionWrapper over `fn`, its constructor
/// taking `params` (the function's keywords, in Keras's order), then
/// reduction and name.
struct LossClassDef {
  const char* name;          ///< "BinaryCrossentropy"
  const char* fn;            ///< "binary_crossentropy"
  const char* default_name;  ///< the instance's default name
  std::vector<Param> params;
};

const std::vector<LossClassDef>& loss_class_defs() {
  static const std::vector<LossClassDef> defs = {
      {"MeanSquaredError", "mean_squared_error", "mean_squared_error", {}},
      {"MeanAbsoluteError", "mean_absolute_error", "mean_absolute_error", {}},
      {"MeanAbsolutePercentageError", "mean_absolute_percentage_error", "mean_absolute_percentage_error", {}},
      {"MeanSquaredLogarithmicError", "mean_squared_logarithmic_error", "mean_squared_logarithmic_error", {}},
      {"BinaryCrossentropy",
       "binary_crossentropy",
       "binary_crossentropy",
       {{"from_logits", Value(false)}, {"label_smoothing", Value(0.0)}, {"axis", Value(-1)}}},
      {"CategoricalCrossentropy",
       "categorical_crossentropy",
       "categorical_crossentropy",
       {{"from_logits", Value(false)}, {"label_smoothing", Value(0.0)}, {"axis", Value(-1)}}},
      {"SparseCategoricalCrossentropy",
       "sparse_categorical_crossentropy",
       "sparse_categorical_crossentropy",
       {{"from_logits", Value(false)}, {"ignore_class", Value()}}},
      {"CosineSimilarity", "cosine_similarity", "cosine_similarity", {{"axis", Value(-1)}}},
      {"Hinge", "hinge", "hinge", {}},
      {"SquaredHinge", "squared_hinge", "squared_hinge", {}},
      {"CategoricalHinge", "categorical_hinge", "categorical_hinge", {}},
      {"Poisson", "poisson", "poisson", {}},
      {"LogCosh", "log_cosh", "log_cosh", {}},
      {"KLDivergence", "kl_divergence", "kl_divergence", {}},
      {"Huber", "huber", "huber_loss", {{"delta", Value(1.0)}}},
  };
  return defs;
}

Value loss_make_class(const LossClassDef& d) {
  std::vector<Param> params{{"self", std::nullopt}};
  for (const Param& p : d.params) params.push_back(p);
  params.push_back({"reduction", Value("auto")});
  params.push_back({"name", Value(d.default_name)});
  std::vector<std::string> keys;
  for (const Param& p : d.params) keys.push_back(p.name);
  std::string fn = d.fn;
  bool keeps_from_logits = std::string(d.name) == "BinaryCrossentropy";
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method(std::string(d.name) + ".__init__", "__init__", params,
                                [keys, fn, keeps_from_logits](const std::vector<Value>& a) -> Value {
                                  std::vector<std::pair<Value, Value>> kwargs;
                                  for (size_t i = 0; i < keys.size(); ++i)
                                    kwargs.emplace_back(Value(keys[i]), a[i + 1]);
                                  size_t n = keys.size();
                                  loss_init_wrapper(a[0], loss_function(fn), a[n + 1], a[n + 2],
                                                    Value::dict(std::move(kwargs)));
                                  // BinaryCrossentropy keeps from_logits as an attribute too.
                                  if (keeps_from_logits) a[0].setattr("from_logits", a[1]);
                                  return Value();
                                }));
  return make_class(d.name, {loss_wrapper_class()}, std::move(attrs));
}

const Value& loss_builtin_class(std::string_view name) {
  static const std::vector<Value> classes = [] {
    std::vector<Value> out;
    for (const LossClassDef& d : loss_class_defs()) out.push_back(loss_make_class(d));
    return out;
  }();
  const std::vector<LossClassDef>& defs = loss_class_defs();
  for (size_t i = 0; i < defs.size(); ++i) {
    if (defs[i].name == name) return classes[i];
  }
  throw InternalError("no keras loss class " + std::string(name));
}

/// keras.losses.Reduction (Keras's ReductionV2): the four keys as class attributes.
Value loss_make_reduction_class() {
  std::vector<std::pair<std::string, Value>> attrs{{"AUTO", Value("auto")},
                                                   {"NONE", Value("none")},
                                                   {"SUM", Value("sum")},
                                                   {"SUM_OVER_BATCH_SIZE", Value("sum_over_batch_size")}};
  attrs.push_back({"all", make_classmethod(make_function("all", {{"cls", std::nullopt}}, [](const std::vector<Value>&) {
                     std::vector<Value> keys;
                     for (const char* k : kLossReductions) keys.emplace_back(k);
                     return Value::tuple(std::move(keys));
                   }))});
  attrs.push_back(
      {"validate", make_classmethod(make_function("validate", {{"cls", std::nullopt}, {"key", std::nullopt}},
                                                  [](const std::vector<Value>& a) {
                                                    loss_validate_reduction(a[1]);
                                                    return Value();
                                                  }))});
  return make_class("ReductionV2", {}, std::move(attrs));
}

// ---- keras.losses.get.

/// The names losses.py's module defines that get() resolves: functions
/// (aliases included) and classes.
std::optional<Value> loss_module_object(const std::string& name) {
  static const std::vector<std::pair<std::string, std::string>> aliases = {
      {"mse", "mean_squared_error"},
      {"MSE", "mean_squared_error"},
      {"mae", "mean_absolute_error"},
      {"MAE", "mean_absolute_error"},
      {"mape", "mean_absolute_percentage_error"},
      {"MAPE", "mean_absolute_percentage_error"},
      {"msle", "mean_squared_logarithmic_error"},
      {"MSLE", "mean_squared_logarithmic_error"},
      {"bce", "binary_crossentropy"},
      {"BCE", "binary_crossentropy"},
      {"kld", "kl_divergence"},
      {"KLD", "kl_divergence"},
      {"kullback_leibler_divergence", "kl_divergence"},
      {"logcosh", "log_cosh"},
      {"huber_loss", "huber"},
  };
  for (const LossFunctionDef& d : loss_function_defs()) {
    if (name == d.name) return loss_function(name);
  }
  for (const auto& [alias, fn] : aliases) {
    if (name == alias) return loss_function(fn);
  }
  for (const LossClassDef& d : loss_class_defs()) {
    if (name == d.name) return loss_builtin_class(name);
  }
  if (name == "Loss") return loss_class();
  if (name == "LossFunctionWrapper") return loss_wrapper_class();
  return std::nullopt;
}

[[noreturn]] void loss_unknown(const std::string& name) {
  throw ValueError("Unknown loss function: '" + name +
                   "'. Please ensure you are using a `keras.utils.custom_object_scope` and that this object is "
                   "included in the scope. See https://www.tensorflow.org/guide/keras/save_and_serialize"
                   "#registering_the_custom_object for details.");
}

/// keras.losses.get(identifier): Keras's own (a function name gives the function).
Value loss_get(const Value& identifier) {
  if (identifier.is_none()) return identifier;
  if (identifier.is_str()) {
    std::optional<Value> obj = loss_module_object(identifier.as_str());
    if (!obj) loss_unknown(identifier.as_str());
    // Classes passed by name are instantiated with no arguments.
    return is_class(*obj) ? (*obj)({}, {}) : *obj;
  }
  if (identifier.is_dict()) {
    Value class_name, config = Value::dict();
    for (const auto& [k, v] : identifier.as_dict().entries) {
      if (k.is_str() && k.as_str() == "class_name") class_name = v;
      if (k.is_str() && k.as_str() == "config" && v.is_dict()) config = v;
    }
    if (!class_name.is_str()) throw ValueError("Unknown `config` as a `dict`, config=" + str(identifier));
    std::optional<Value> obj = loss_module_object(class_name.as_str());
    if (!obj) loss_unknown(class_name.as_str());
    if (!is_class(*obj)) return *obj;
    return obj->getattr("from_config")({config}, {});
  }
  if (truthy(py::callable({identifier}, {}))) return identifier;
  throw ValueError("Could not interpret loss function identifier: " + str(identifier));
}

}  // namespace

// ---- losses.h.

const Value& loss_class() {
  static const Value cls = loss_make_base_class();
  return cls;
}

bool is_loss(const Value& v) { return v.is_object() && !is_class(v) && is_instance(v, loss_class()); }

Value get_loss(const Value& identifier) {
  Value loss = loss_get(identifier);
  if (loss.is_none() || is_loss(loss)) return loss;
  // compile_utils.get_custom_object_name, then a LossFunctionWrapper.
  Value name;
  if (loss.is_object() && loss.hasattr("name")) {
    name = loss.getattr("name");
  } else if (loss.is_callable() || loss.hasattr("__name__")) {
    name = loss.getattr("__name__");
  } else {
    name = Value(snake_case(loss.type_name()));
  }
  return loss_wrapper_class()({loss}, {{"name", name}});
}

LossValues call_loss_function(const Value& fn, const Value& y_true, const Value& y_pred, const Kwargs& kwargs) {
  const std::vector<LossFunctionDef>& defs = loss_function_defs();
  const std::vector<Value>& values = loss_function_values();
  for (size_t i = 0; i < defs.size(); ++i) {
    if (fn.is(values[i]))
      return defs[i].body(bind_arguments(defs[i].name, loss_full_params(defs[i]), {y_true, y_pred}, kwargs));
  }
  return {fn({y_true, y_pred}, kwargs), Value()};
}

/// The weights' adjustment below when a rank is known only at run time
/// (Keras's tf.cond on the ranks): the last dim squeezed when the weights
/// have one dim more than the predictions, a dim of 1 added when they have
/// one fewer; scalar weights left as they are.
Value adjust_weights_at_run_time(const Value& sample_weight, const Value& y_pred) {
  Value rank = tf::rank(sample_weight);
  Value diff = rank - tf::rank(y_pred);
  Value zero(0);
  Value change = tf::where(diff == Value(1), Value(-1), tf::where(diff == Value(-1), Value(1), zero));
  Value kept = rank + tf::where(rank == zero, zero, change);
  Value dims = tf::concat(Value::list({tf::shape(sample_weight), Value::list({Value(1)})}), zero);
  return tf::reshape(sample_weight, getitem(dims, std::vector<IndexPart>{SliceSpec{Value(), kept, Value()}}));
}

SqueezedTensors squeeze_or_expand_dimensions(const Value& y_pred_in, const Value& y_true_in,
                                             const Value& sample_weight) {
  SqueezedTensors out{loss_tensor(y_pred_in), y_true_in.is_none() ? Value() : loss_tensor(y_true_in), sample_weight};
  const Shape y_pred_shape = out.y_pred.as_tensor().shape();
  int y_pred_rank = y_pred_shape.rank();
  if (!out.y_true.is_none()) {
    int y_true_rank = loss_rank(out.y_true);
    // Sparse labels ([N] for [N, C] predictions) keep their shape.
    if (y_true_rank >= 0 && y_pred_rank >= 0 &&
        (y_pred_rank - y_true_rank != 1 || (y_pred_rank > 0 && y_pred_shape.dim(y_pred_rank - 1) == 1))) {
      std::tie(out.y_true, out.y_pred) = loss_remove_squeezable(out.y_true, out.y_pred);
    }
  }
  if (sample_weight.is_none()) return out;
  out.sample_weight = loss_tensor(sample_weight);
  int weights_rank = loss_rank(out.sample_weight);
  if (weights_rank == 0) return out;
  if (weights_rank < 0 || y_pred_rank < 0) {
    out.sample_weight = adjust_weights_at_run_time(out.sample_weight, out.y_pred);
    return out;
  }
  if (weights_rank - y_pred_rank == 1) {
    out.sample_weight = tf::squeeze(out.sample_weight, Value::list({Value(-1)}));
  } else if (y_pred_rank - weights_rank == 1) {
    out.sample_weight = tf::expand_dims(out.sample_weight, Value(-1));
  }
  return out;
}

Value apply_valid_mask(const Value& losses, const Value& sample_weight, const Value& mask,
                       const std::string& reduction) {
  Value m = mask;
  if (!m.is_none()) {
    m = tf::cast(m, loss_dtype(losses));
    if (reduction == "auto" || reduction == "sum_over_batch_size") {
      // Valid entries weigh total/valid, so the mean is over the valid ones.
      Value total = tf::cast(tf::size(m), loss_dtype(losses));
      Value valid = tf::reduce_sum(m);
      m = m * (total / valid);
    }
  }
  return loss_apply_mask(losses, sample_weight, m);
}

}  // namespace ag::keras

namespace ag::tf::api {

// The table rows (tf_functions.def) of the classes and functions above.
const Value& keras_losses_Loss() { return keras::loss_class(); }
const Value& keras_losses_Reduction() {
  static const Value cls = keras::loss_make_reduction_class();
  return cls;
}
const Value& keras_losses_MeanSquaredError() { return keras::loss_builtin_class("MeanSquaredError"); }
const Value& keras_losses_MeanAbsoluteError() { return keras::loss_builtin_class("MeanAbsoluteError"); }
const Value& keras_losses_MeanAbsolutePercentageError() {
  return keras::loss_builtin_class("MeanAbsolutePercentageError");
}
const Value& keras_losses_MeanSquaredLogarithmicError() {
  return keras::loss_builtin_class("MeanSquaredLogarithmicError");
}
const Value& keras_losses_BinaryCrossentropy() { return keras::loss_builtin_class("BinaryCrossentropy"); }
const Value& keras_losses_CategoricalCrossentropy() { return keras::loss_builtin_class("CategoricalCrossentropy"); }
const Value& keras_losses_SparseCategoricalCrossentropy() {
  return keras::loss_builtin_class("SparseCategoricalCrossentropy");
}
const Value& keras_losses_CosineSimilarity() { return keras::loss_builtin_class("CosineSimilarity"); }
const Value& keras_losses_Hinge() { return keras::loss_builtin_class("Hinge"); }
const Value& keras_losses_SquaredHinge() { return keras::loss_builtin_class("SquaredHinge"); }
const Value& keras_losses_CategoricalHinge() { return keras::loss_builtin_class("CategoricalHinge"); }
const Value& keras_losses_Poisson() { return keras::loss_builtin_class("Poisson"); }
const Value& keras_losses_LogCosh() { return keras::loss_builtin_class("LogCosh"); }
const Value& keras_losses_KLDivergence() { return keras::loss_builtin_class("KLDivergence"); }
const Value& keras_losses_Huber() { return keras::loss_builtin_class("Huber"); }
const Value& keras_losses_mean_squared_error() { return keras::loss_function("mean_squared_error"); }
const Value& keras_losses_mean_absolute_error() { return keras::loss_function("mean_absolute_error"); }
const Value& keras_losses_mean_absolute_percentage_error() {
  return keras::loss_function("mean_absolute_percentage_error");
}
const Value& keras_losses_mean_squared_logarithmic_error() {
  return keras::loss_function("mean_squared_logarithmic_error");
}
const Value& keras_losses_squared_hinge() { return keras::loss_function("squared_hinge"); }
const Value& keras_losses_hinge() { return keras::loss_function("hinge"); }
const Value& keras_losses_categorical_hinge() { return keras::loss_function("categorical_hinge"); }
const Value& keras_losses_huber() { return keras::loss_function("huber"); }
const Value& keras_losses_log_cosh() { return keras::loss_function("log_cosh"); }
const Value& keras_losses_categorical_crossentropy() { return keras::loss_function("categorical_crossentropy"); }
const Value& keras_losses_sparse_categorical_crossentropy() {
  return keras::loss_function("sparse_categorical_crossentropy");
}
const Value& keras_losses_binary_crossentropy() { return keras::loss_function("binary_crossentropy"); }
const Value& keras_losses_kl_divergence() { return keras::loss_function("kl_divergence"); }
const Value& keras_losses_poisson() { return keras::loss_function("poisson"); }
const Value& keras_losses_cosine_similarity() { return keras::loss_function("cosine_similarity"); }
const Value& keras_losses_get() {
  static const Value fn = make_function("get", {{"identifier", std::nullopt}},
                                        [](const std::vector<Value>& a) { return keras::loss_get(a[0]); });
  return fn;
}

}  // namespace ag::tf::api
