// tf.keras.metrics; see metrics.h. Keras 2.15's classes (tf_keras/metrics/
// base_metric.py, accuracy_metrics.py, confusion_metrics.py,
// regression_metrics.py, probabilistic_metrics.py over utils/metrics_utils.py)
// as classes of the object model under Layer. Every update is variable
// assign_adds of values computed by tf.* functions, so it runs eagerly and
// inside a traced tf.function alike; nothing reads a tensor's value on the host.
#include "runtime/keras/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/keras/layer.h"
#include "runtime/keras/losses.h"
#include "runtime/keras/metric_support.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/object_model.h"
#include "runtime/value/user_function.h"
#include "runtime/value/variable_value.h"

namespace ag::keras {
// ---- Shared with metrics_confusion.cpp (metric_support.h).

// ---- Small helpers.

Value metric_tensor(const Value& v) { return v.is_tensor() ? v : Value(to_tensor(v)); }
const Shape& metric_shape(const Value& t) { return t.as_tensor().shape(); }
Value metric_f32(const Value& v) { return tf::cast(v, DType::Float32); }
Value metric_read(const Value& var) { return Value(variable_value::read(var)); }
Value metric_add(const Value& var, const Value& x) {
  return variable_value::assign(var, x, variable_value::AssignOp::Add);
}
Value metric_last_axis() { return Value::list({Value(-1)}); }

/// A tensor's shape as a reshape argument: ints when static, else tf.shape(x).
static Value metric_shape_arg(const Value& x) {
  const Shape& s = metric_shape(x);
  if (!s.fully_defined()) return tf::shape(x);
  std::vector<Value> dims;
  for (int64_t d : s.dims()) dims.emplace_back(static_cast<long long>(d));
  return Value::list(std::move(dims));
}

/// TensorShape.assert_is_compatible_with's ValueError.
void metric_check_compatible(const Value& a, const Value& b) {
  if (!metric_shape(a).is_compatible_with(metric_shape(b))) {
    throw ValueError("Shapes " + metric_shape(a).str() + " and " + metric_shape(b).str() + " are incompatible");
  }
}

/// The values of a dims list as NumPy prints an int array: "[2 3]".
static std::string metric_dims_text(const Shape& s) {
  std::string out = "[";
  for (int i = 0; i < s.rank(); ++i) out += (i ? " " : "") + std::to_string(s.dim(i));
  return out + "]";
}

/// weights_broadcast_ops' static check (assert_broadcastable): "" when
/// `weights` broadcasts to `values` (a scalar, or each dim 1 or equal), else
/// TF's ValueError text. Unknown shapes pass, as TF's run-time assert would
/// be the judge.
static std::string metric_broadcast_error(const Value& weights, const Value& values) {
  const Shape& ws = metric_shape(weights);
  const Shape& vs = metric_shape(values);
  if (!ws.rank_known() || !vs.rank_known() || ws.rank() == 0) return "";
  if (ws.rank() != vs.rank()) {
    return "weights can not be broadcast to values. values.rank=" + std::to_string(vs.rank()) +
           ". weights.rank=" + std::to_string(ws.rank()) + ". values.shape=" + vs.str() +
           ". weights.shape=" + ws.str() + ".";
  }
  if (!ws.fully_defined() || !vs.fully_defined()) return "";
  for (int i = 0; i < vs.rank(); ++i) {
    if (ws.dim(i) != 1 && ws.dim(i) != vs.dim(i)) {
      return "weights can not be broadcast to values. Mismatch at dim " + std::to_string(i) +
             ". values.shape=" + metric_dims_text(vs) + ", weights.shape=" + metric_dims_text(ws) + ".";
    }
  }
  return "";
}

/// weights_broadcast_ops.broadcast_weights (weights already of values' dtype).
Value metric_broadcast_weights(const Value& weights, const Value& values) {
  const Shape& ws = metric_shape(weights);
  const Shape& vs = metric_shape(values);
  if (ws.fully_defined() && vs.fully_defined() && ws == vs) return weights;
  std::string error = metric_broadcast_error(weights, values);
  if (!error.empty()) throw ValueError(error);
  return tf::multiply(weights, tf::ones_like(values));
}

/// A list attribute's items as doubles (thresholds).
std::vector<double> metric_doubles(const Value& list) {
  std::vector<double> out;
  for (const Value& v : iterate(list)) out.push_back(v.as_float());
  return out;
}

Value metric_list(const std::vector<double>& xs) {
  std::vector<Value> out;
  for (double x : xs) out.emplace_back(x);
  return Value::list(std::move(out));
}


/// The class attribute `name` of `cls` or its bases and the class defining it.
std::optional<std::pair<Value, Value>> metric_class_attr(const Value& cls, std::string_view name) {
  for (const Value& c : mro(cls)) {
    for (const auto& [k, v] : c.as_object().attrs) {
      if (k == name) return std::make_pair(c, v);
    }
  }
  return std::nullopt;
}

std::vector<Value> metric_variables(const Value& self) { return layer_weights(self, WeightKind::All); }

/// Metric.add_weight: a non-trainable float32 variable (Keras's base layer
/// initializes a float weight with glorot_uniform when none is given).
Value metric_add_weight(const Value& self, const std::string& name, std::vector<int64_t> shape,
                        const Value& initializer) {
  return add_weight(
      self, WeightSpec{name, std::move(shape), initializer.is_none() ? Value("glorot_uniform") : initializer, Value(),
                       /*trainable=*/false});
}

void metric_zero(const Value& var) {
  const Variable& v = *var.as_variable();
  std::vector<Value> dims;
  for (int64_t d : v.shape().dims()) dims.emplace_back(static_cast<long long>(d));
  variable_value::assign(var, tf::zeros(Value::list(std::move(dims)), v.dtype()), variable_value::AssignOp::Assign);
}

/// Metric.__init__(name=None, dtype=None, **kwargs): Layer's, then stateful and built.
void metric_init_base(const Value& self, const Value& name, const Value& dtype, Value kwargs) {
  Value trainable(true);
  if (kwargs.is_dict()) {
    int64_t at = kwargs.as_dict().find(Value("trainable"));
    if (at >= 0) {
      trainable = kwargs.as_dict().entries[static_cast<size_t>(at)].second;
      kwargs.as_dict().erase(Value("trainable"));
    }
  }
  init_base(self, name, trainable, dtype, kwargs.is_none() ? Value::dict() : kwargs);
  self.setattr("stateful", Value(true));
  self.setattr("built", Value(true));
}

Value metric_base_config(const Value& self) {
  return Value::dict({{Value("name"), Value(layer_name(self))}, {Value("dtype"), Value("float32")}});
}

/// `base` with `extra`'s items after its own (Keras's dict(base + config)).
Value metric_merge_config(Value base, const std::vector<std::pair<std::string, Value>>& extra) {
  for (const auto& [k, v] : extra) base.as_dict().set(Value(k), v);
  return base;
}

namespace {


/// MeanMetricWrapper (defined below; its own get_config asks for it).
const Value& metric_wrapper_class_value();

// ---- The metric functions (accuracy_metrics.py and metrics_utils.py).

/// metrics_utils.binary_matches.
Value metric_binary_matches(const Value& y_true, const Value& y_pred_in, const Value& threshold) {
  Value y_pred = metric_tensor(y_pred_in);
  DType d = y_pred.as_tensor().dtype();
  y_pred = tf::cast(tf::greater(y_pred, tf::cast(threshold, d)), d);
  return metric_f32(tf::equal(y_true, y_pred));
}

/// metrics_utils.sparse_categorical_matches: argmax(y_pred) == y_true, with
/// a y_true of y_pred's rank squeezed first and the matches given its shape.
Value metric_sparse_categorical_matches(const Value& y_true_in, const Value& y_pred_in) {
  Value y_pred = metric_tensor(y_pred_in);
  Value y_true = metric_tensor(y_true_in);
  Value y_true_org_shape = metric_shape_arg(y_true);
  bool reshape_matches = false;
  int pred_rank = metric_shape(y_pred).rank();
  int true_rank = metric_shape(y_true).rank();
  if (true_rank >= 0 && pred_rank >= 0 && true_rank == pred_rank) {
    y_true = tf::squeeze(y_true, metric_last_axis());
    reshape_matches = true;
  }
  y_pred = tf::argmax(y_pred, Value(-1));
  if (y_pred.as_tensor().dtype() != y_true.as_tensor().dtype()) y_pred = tf::cast(y_pred, y_true.as_tensor().dtype());
  Value matches = metric_f32(tf::equal(y_true, y_pred));
  if (reshape_matches) matches = tf::reshape(matches, y_true_org_shape);
  return matches;
}

/// tf.math.in_top_k (TF's InTopKV2 kernel): the target's prediction has
/// fewer than k strictly greater ones in its row; false for a target out of
/// range or a row holding a non-finite prediction.
Value metric_in_top_k(const Value& predictions, const Value& targets, const Value& k) {
  const Shape& s = metric_shape(predictions);
  Value classes = s.rank() == 2 && s.dim(1) >= 0 ? Value(static_cast<long long>(s.dim(1)))
                                                 : tf::gather(tf::shape(predictions), Value(-1));
  Value one_hot = tf::one_hot(targets, classes, Value(), Value(), -1, predictions.as_tensor().dtype());
  Value target_prediction = tf::reduce_sum(predictions * one_hot, Value(-1), true);
  Value more = tf::reduce_sum(tf::cast(tf::greater(predictions, target_prediction), DType::Int32), Value(-1));
  Value in_range =
      tf::logical_and(tf::greater_equal(targets, Value(0)), tf::less(targets, tf::cast(classes, DType::Int32)));
  Value finite = tf::reduce_all(tf::is_finite(predictions), Value(-1));
  return tf::logical_and(tf::logical_and(in_range, finite), tf::less(more, tf::cast(k, DType::Int32)));
}

/// metrics_utils.sparse_top_k_categorical_matches.
Value metric_sparse_top_k_matches(const Value& y_true_in, const Value& y_pred_in, const Value& k) {
  Value y_true = metric_tensor(y_true_in);
  Value y_pred = metric_tensor(y_pred_in);
  int true_rank = metric_shape(y_true).rank();
  int pred_rank = metric_shape(y_pred).rank();
  Value y_true_org_shape = metric_shape_arg(y_true);
  bool reshape_matches = false;
  if (true_rank >= 0 && pred_rank >= 0) {
    if (pred_rank > 2) {
      int64_t last = metric_shape(y_pred).dim(pred_rank - 1);
      y_pred =
          tf::reshape(y_pred, Value::list({Value(-1), last >= 0 ? Value(static_cast<long long>(last)) : Value(-1)}));
    }
    if (true_rank > 1) {
      reshape_matches = true;
      y_true = tf::reshape(y_true, metric_last_axis());
    }
  }
  Value matches = metric_f32(metric_in_top_k(y_pred, tf::cast(y_true, DType::Int32), k));
  if (reshape_matches) return tf::reshape(matches, y_true_org_shape);
  return matches;
}

/// The accuracy function MeanMetricWrapper(Accuracy) wraps.
Value metric_accuracy(const Value& y_true_in, const Value& y_pred_in) {
  Value y_pred = metric_tensor(y_pred_in);
  Value y_true = metric_tensor(y_true_in);
  metric_check_compatible(y_true, y_pred);
  if (y_true.as_tensor().dtype() != y_pred.as_tensor().dtype()) y_pred = tf::cast(y_pred, y_true.as_tensor().dtype());
  return metric_f32(tf::equal(y_true, y_pred));
}

struct MetricFunctionDef {
  const char* name;
  std::vector<Param> params;  ///< after y_true, y_pred
  std::function<Value(const std::vector<Value>&)> body;
};

const std::vector<MetricFunctionDef>& metric_function_defs() {
  static const std::vector<MetricFunctionDef> defs = {
      {"accuracy", {}, [](const std::vector<Value>& a) { return metric_accuracy(a[0], a[1]); }},
      {"binary_accuracy",
       {{"threshold", Value(0.5)}},
       [](const std::vector<Value>& a) { return tf::reduce_mean(metric_binary_matches(a[0], a[1], a[2]), Value(-1)); }},
      {"categorical_accuracy",
       {},
       [](const std::vector<Value>& a) {
         return metric_sparse_categorical_matches(tf::argmax(a[0], Value(-1)), a[1]);
       }},
      {"sparse_categorical_accuracy",
       {},
       [](const std::vector<Value>& a) {
         Value matches = metric_sparse_categorical_matches(a[0], a[1]);
         const Shape& s = metric_shape(matches);
         if (s.rank() > 1 && s.dim(s.rank() - 1) == 1) matches = tf::squeeze(matches, metric_last_axis());
         return matches;
       }},
      {"top_k_categorical_accuracy",
       {{"k", Value(5)}},
       [](const std::vector<Value>& a) {
         return metric_sparse_top_k_matches(tf::argmax(a[0], Value(-1)), a[1], a[2]);
       }},
      {"sparse_top_k_categorical_accuracy",
       {{"k", Value(5)}},
       [](const std::vector<Value>& a) { return metric_sparse_top_k_matches(a[0], a[1], a[2]); }},
      // regression_metrics.cosine_similarity: the similarity itself (the loss negates it).
      {"cosine_similarity",
       {{"axis", Value(-1)}},
       [](const std::vector<Value>& a) {
         Value t = tf::api::l2_normalize({a[0]}, {{"axis", a[2]}});
         Value p = tf::api::l2_normalize({a[1]}, {{"axis", a[2]}});
         return tf::reduce_sum(t * p, a[2]);
       }},
      // What the accuracy classes wrap (metrics_utils, and Keras's lambdas).
      {"binary_matches",
       {{"threshold", Value(0.5)}},
       [](const std::vector<Value>& a) { return metric_binary_matches(a[0], a[1], a[2]); }},
      {"sparse_categorical_matches",
       {},
       [](const std::vector<Value>& a) { return metric_sparse_categorical_matches(a[0], a[1]); }},
      {"<lambda>",
       {},  // CategoricalAccuracy's
       [](const std::vector<Value>& a) {
         return metric_sparse_categorical_matches(tf::argmax(a[0], Value(-1)), a[1]);
       }},
      {"sparse_top_k_categorical_matches",
       {{"k", Value(5)}},
       [](const std::vector<Value>& a) { return metric_sparse_top_k_matches(a[0], a[1], a[2]); }},
  };
  return defs;
}

/// The function values, made once. "top_k_matches" is TopKCategoricalAccuracy's lambda.
const Value& metric_function(std::string_view name) {
  static const std::vector<std::pair<std::string, Value>> values = [] {
    std::vector<std::pair<std::string, Value>> out;
    for (const MetricFunctionDef& d : metric_function_defs()) {
      std::vector<Param> params{{"y_true", std::nullopt}, {"y_pred", std::nullopt}};
      for (const Param& p : d.params) params.push_back(p);
      std::string key = d.name == std::string_view("<lambda>") ? "categorical_matches" : d.name;
      out.emplace_back(key, make_function(d.name, params, d.body));
    }
    std::vector<Param> top_k{{"yt", std::nullopt}, {"yp", std::nullopt}, {"k", std::nullopt}};
    out.emplace_back("top_k_matches", make_function("<lambda>", top_k, [](const std::vector<Value>& a) {
                       return metric_sparse_top_k_matches(tf::argmax(a[0], Value(-1)), a[1], a[2]);
                     }));
    return out;
  }();
  for (const auto& [n, v] : values) {
    if (n == name) return v;
  }
  throw InternalError("no keras metric function " + std::string(name));
}

// ---- Metric: a Layer whose state is non-trainable variables.

Value metric_reset_state(const std::vector<Value>& a) {
  const Value& self = a[0];
  // A subclass that still implements the deprecated reset_states() gets it called.
  std::optional<std::pair<Value, Value>> found = metric_class_attr(self.as_object().cls, "reset_states");
  if (found && !found->first.is(metric_class())) return self.getattr("reset_states")({}, {});
  for (const Value& v : metric_variables(self)) metric_zero(v);
  return Value();
}

Value metric_str(const Value& self) {
  std::string args;
  Value config = self.getattr("get_config")({}, {});
  for (const auto& [k, v] : config.as_dict().entries) {
    args += (args.empty() ? "" : ",") + str(k) + "=" + str(v);
  }
  return Value(self.type_name() + "(" + args + ")");
}

/// from_config(cls, config): cls(**config).
Value metric_from_config() {
  return make_classmethod(make_function("from_config", {{"cls", std::nullopt}, {"config", std::nullopt}},
                                        [](const std::vector<Value>& a) -> Value {
                                          Kwargs kwargs;
                                          for (const auto& [k, v] : a[1].as_dict().entries)
                                            kwargs.emplace_back(k.as_str(), v);
                                          return a[0]({}, std::move(kwargs));
                                        }));
}

Value metric_make_base_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method(
      "Metric.__init__", "__init__",
      {{"self", std::nullopt}, {"name", Value()}, {"dtype", Value()}, {"kwargs", std::nullopt, ParamKind::VarKeyword}},
      [](const std::vector<Value>& a) -> Value {
        metric_init_base(a[0], a[1], a[2], a[3]);
        return Value();
      }));
  // Metric.__call__: update_state(*args, **kwargs), then result().
  attrs.push_back({"__call__", Value::callable("__call__", [](std::vector<Value> args, Kwargs kwargs) -> Value {
                     if (args.empty())
                       throw TypeError("Metric.__call__() missing 1 required positional argument: 'self'");
                     Value self = args[0];
                     args.erase(args.begin());
                     self.getattr("update_state")(std::move(args), std::move(kwargs));
                     return self.getattr("result")({}, {});
                   })});
  attrs.push_back(native_method("Metric.__str__", "__str__", {{"self", std::nullopt}},
                                [](const std::vector<Value>& a) { return metric_str(a[0]); }));
  attrs.push_back(native_method(
      "Metric.update_state", "update_state",
      {{"self", std::nullopt},
       {"args", std::nullopt, ParamKind::VarPositional},
       {"kwargs", std::nullopt, ParamKind::VarKeyword}},
      [](const std::vector<Value>&) -> Value { throw NotImplementedError("Must be implemented in subclasses."); }));
  attrs.push_back(native_method(
      "Metric.result", "result", {{"self", std::nullopt}},
      [](const std::vector<Value>&) -> Value { throw NotImplementedError("Must be implemented in subclasses."); }));
  attrs.push_back(native_method("Metric.reset_state", "reset_state", {{"self", std::nullopt}}, metric_reset_state));
  attrs.push_back(native_method("Metric.reset_states", "reset_states", {{"self", std::nullopt}},
                                [](const std::vector<Value>& a) { return a[0].getattr("reset_state")({}, {}); }));
  attrs.push_back(native_method("Metric.get_config", "get_config", {{"self", std::nullopt}},
                                [](const std::vector<Value>& a) { return metric_base_config(a[0]); }));
  attrs.push_back({"from_config", metric_from_config()});
  attrs.push_back(native_method(
      "Metric.add_weight", "add_weight",
      {{"self", std::nullopt},
       {"name", std::nullopt},
       {"shape", Value::tuple()},
       {"aggregation", Value()},
       {"synchronization", Value()},
       {"initializer", Value()},
       {"dtype", Value()}},
      [](const std::vector<Value>& a) -> Value {
        std::vector<int64_t> shape;
        for (const Value& d : iterate(a[2])) shape.push_back(d.as_int());
        WeightSpec spec{str(a[1]), std::move(shape), a[5].is_none() ? Value("glorot_uniform") : a[5], Value(), false};
        if (!a[6].is_none()) spec.dtype = require_dtype(a[6]);
        return add_weight(a[0], spec);
      }));
  attrs.push_back(native_method("Metric.merge_state", "merge_state",
                                {{"self", std::nullopt}, {"metrics", std::nullopt}},
                                [](const std::vector<Value>& a) -> Value {
                                  std::vector<Value> mine = metric_variables(a[0]);
                                  for (const Value& m : iterate(a[1])) {
                                    std::vector<Value> theirs = metric_variables(m);
                                    if (theirs.size() != mine.size()) {
                                      throw ValueError("Metric " + str(m) + " is not compatible with " + str(a[0]));
                                    }
                                    for (size_t i = 0; i < mine.size(); ++i)
                                      metric_add(mine[i], metric_read(theirs[i]));
                                  }
                                  return Value();
                                }));
  return make_class("Metric", {layer_class()}, std::move(attrs));
}

// ---- Reduce: Mean and Sum (base_metric.Reduce).

/// Reduce.update_state(values, sample_weight): total += sum(values * w);
/// count += sum(w) (or the number of values) unless the reduction is "sum".
Value metric_reduce_update(const Value& self, Value values, Value sample_weight) {
  bool sum_only = self.getattr("_agc_reduction").as_str() == "sum";
  values = metric_f32(values);
  if (!sample_weight.is_none()) {
    sample_weight = metric_f32(sample_weight);
    SqueezedTensors s = squeeze_or_expand_dimensions(values, Value(), sample_weight);
    values = s.y_pred;
    sample_weight = s.sample_weight;
    if (metric_broadcast_error(sample_weight, values).empty()) {
      sample_weight = metric_broadcast_weights(sample_weight, values);
    } else {
      // Values reduced to the weights' rank.
      int ndim = metric_shape(values).rank();
      int weight_ndim = metric_shape(sample_weight).rank();
      std::vector<Value> axes;
      for (int i = weight_ndim; i < ndim; ++i) axes.emplace_back(i);
      values = sum_only ? tf::reduce_sum(values, Value::list(axes)) : tf::reduce_mean(values, Value::list(axes));
    }
    values = tf::multiply(values, sample_weight);
  }
  Value update = metric_add(self.getattr("total"), tf::reduce_sum(values));
  if (sum_only) return update;
  Value num_values = sample_weight.is_none() ? metric_f32(tf::size(values)) : tf::reduce_sum(sample_weight);
  return metric_add(self.getattr("count"), num_values);
}

/// Mean's and Sum's constructor work: the reduction and its variables.
void metric_init_reduce(const Value& self, const Value& name, const Value& dtype, const char* reduction) {
  metric_init_base(self, name, dtype);
  self.setattr("_agc_reduction", Value(reduction));
  self.setattr("total", metric_add_weight(self, "total", {}));
  if (std::string_view(reduction) != "sum") self.setattr("count", metric_add_weight(self, "count", {}));
}

Value metric_make_reduce_class(const char* name, const char* default_name, const char* reduction) {
  std::string cls = name;
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method(cls + ".__init__", "__init__",
                                {{"self", std::nullopt}, {"name", Value(default_name)}, {"dtype", Value()}},
                                [reduction](const std::vector<Value>& a) -> Value {
                                  metric_init_reduce(a[0], a[1], a[2], reduction);
                                  return Value();
                                }));
  attrs.push_back(native_method(cls + ".update_state", "update_state",
                                {{"self", std::nullopt}, {"values", std::nullopt}, {"sample_weight", Value()}},
                                [](const std::vector<Value>& a) { return metric_reduce_update(a[0], a[1], a[2]); }));
  attrs.push_back(
      native_method(cls + ".result", "result", {{"self", std::nullopt}}, [](const std::vector<Value>& a) -> Value {
        const Value& self = a[0];
        if (self.getattr("_agc_reduction").as_str() == "sum") return tf::identity(metric_read(self.getattr("total")));
        return tf::api::divide_no_nan({metric_read(self.getattr("total")), metric_read(self.getattr("count"))}, {});
      }));
  return make_class(name, {metric_class()}, std::move(attrs));
}

const Value& metric_mean_class() {
  static const Value cls = metric_make_reduce_class("Mean", "mean", "weighted_mean");
  return cls;
}

const Value& metric_sum_class() {
  static const Value cls = metric_make_reduce_class("Sum", "sum", "sum");
  return cls;
}

// ---- MeanMetricWrapper and the classes made of it.

Kwargs metric_fn_kwargs(const Value& self) {
  Kwargs out;
  Value d = self.getattr("_fn_kwargs");
  if (d.is_dict()) {
    for (const auto& [k, v] : d.as_dict().entries) out.emplace_back(k.as_str(), v);
  }
  return out;
}

/// MeanMetricWrapper.update_state: fn's per-sample values averaged.
Value metric_wrapper_update(const Value& self, const Value& y_true, const Value& y_pred, const Value& sample_weight) {
  SqueezedTensors s = squeeze_or_expand_dimensions(metric_f32(y_pred), metric_f32(y_true), Value());
  LossValues matches = call_loss_function(self.getattr("_fn"), s.y_true, s.y_pred, metric_fn_kwargs(self));
  Value sw = apply_valid_mask(matches.values, sample_weight, matches.mask, "weighted_mean");
  return metric_reduce_update(self, matches.values, sw);
}

void metric_init_wrapper(const Value& self, const Value& fn, const Value& name, const Value& dtype, Value fn_kwargs) {
  metric_init_reduce(self, name, dtype, "weighted_mean");
  self.setattr("_fn", fn);
  self.setattr("_fn_kwargs", std::move(fn_kwargs));
}

Value metric_make_wrapper_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method("MeanMetricWrapper.__init__", "__init__",
                                {{"self", std::nullopt},
                                 {"fn", std::nullopt},
                                 {"name", Value()},
                                 {"dtype", Value()},
                                 {"kwargs", std::nullopt, ParamKind::VarKeyword}},
                                [](const std::vector<Value>& a) -> Value {
                                  metric_init_wrapper(a[0], a[1], a[2], a[3], a[4]);
                                  return Value();
                                }));
  attrs.push_back(native_method(
      "MeanMetricWrapper.update_state", "update_state",
      {{"self", std::nullopt}, {"y_true", std::nullopt}, {"y_pred", std::nullopt}, {"sample_weight", Value()}},
      [](const std::vector<Value>& a) { return metric_wrapper_update(a[0], a[1], a[2], a[3]); }));
  attrs.push_back(native_method("MeanMetricWrapper.get_config", "get_config", {{"self", std::nullopt}},
                                [](const std::vector<Value>& a) -> Value {
                                  std::vector<std::pair<std::string, Value>> extra;
                                  for (auto& [k, v] : metric_fn_kwargs(a[0])) extra.emplace_back(k, v);
                                  // Only MeanMetricWrapper itself names its function (not its subclasses).
                                  if (a[0].as_object().cls.is(metric_wrapper_class_value()))
                                    extra.emplace_back("fn", a[0].getattr("_fn"));
                                  return metric_merge_config(metric_base_config(a[0]), extra);
                                }));
  return make_class("MeanMetricWrapper", {metric_mean_class()}, std::move(attrs));
}

const Value& metric_wrapper_class_value() {
  static const Value cls = metric_make_wrapper_class();
  return cls;
}

/// A built-in MeanMetricWrapper class: its constructor's parameters after
/// self in Keras's order ("name" and "dtype" among them), the others passed
/// to `fn` as keywords.
struct MetricWrapperDef {
  const char* name;
  const char* fn;  ///< a metric_function key or a keras.losses function
  std::vector<Param> params;
};

Value metric_named_fn(const std::string& fn) {
  static const char* const own[] = {"accuracy",
                                    "binary_matches",
                                    "categorical_matches",
                                    "sparse_categorical_matches",
                                    "top_k_matches",
                                    "sparse_top_k_categorical_matches",
                                    "cosine_similarity"};
  for (const char* o : own) {
    if (fn == o) return metric_function(fn);
  }
  return tf::api::keras_losses_get()({Value(fn)}, {});
}

std::vector<Param> metric_named(const char* default_name, std::vector<Param> after = {}) {
  std::vector<Param> params{{"name", Value(default_name)}, {"dtype", Value()}};
  for (Param& p : after) params.push_back(std::move(p));
  return params;
}

const std::vector<MetricWrapperDef>& metric_wrapper_defs() {
  static const std::vector<MetricWrapperDef> defs = {
      {"Accuracy", "accuracy", metric_named("accuracy")},
      {"BinaryAccuracy", "binary_matches", metric_named("binary_accuracy", {{"threshold", Value(0.5)}})},
      {"CategoricalAccuracy", "categorical_matches", metric_named("categorical_accuracy")},
      {"SparseCategoricalAccuracy", "sparse_categorical_matches", metric_named("sparse_categorical_accuracy")},
      {"TopKCategoricalAccuracy",
       "top_k_matches",
       {{"k", Value(5)}, {"name", Value("top_k_categorical_accuracy")}, {"dtype", Value()}}},
      {"SparseTopKCategoricalAccuracy",
       "sparse_top_k_categorical_matches",
       {{"k", Value(5)}, {"name", Value("sparse_top_k_categorical_accuracy")}, {"dtype", Value()}}},
      {"MeanSquaredError", "mean_squared_error", metric_named("mean_squared_error")},
      {"MeanAbsoluteError", "mean_absolute_error", metric_named("mean_absolute_error")},
      {"MeanAbsolutePercentageError", "mean_absolute_percentage_error", metric_named("mean_absolute_percentage_error")},
      {"MeanSquaredLogarithmicError", "mean_squared_logarithmic_error", metric_named("mean_squared_logarithmic_error")},
      {"LogCoshError", "log_cosh", metric_named("logcosh")},
      {"CosineSimilarity", "cosine_similarity", metric_named("cosine_similarity", {{"axis", Value(-1)}})},
      {"KLDivergence", "kl_divergence", metric_named("kullback_leibler_divergence")},
      {"Poisson", "poisson", metric_named("poisson")},
      {"Hinge", "hinge", metric_named("hinge")},
      {"SquaredHinge", "squared_hinge", metric_named("squared_hinge")},
      {"CategoricalHinge", "categorical_hinge", metric_named("categorical_hinge")},
      {"BinaryCrossentropy", "binary_crossentropy",
       metric_named("binary_crossentropy", {{"from_logits", Value(false)}, {"label_smoothing", Value(0)}})},
      {"CategoricalCrossentropy", "categorical_crossentropy",
       metric_named("categorical_crossentropy",
                    {{"from_logits", Value(false)}, {"label_smoothing", Value(0)}, {"axis", Value(-1)}})},
      {"SparseCategoricalCrossentropy", "sparse_categorical_crossentropy",
       metric_named("sparse_categorical_crossentropy",
                    {{"from_logits", Value(false)}, {"ignore_class", Value()}, {"axis", Value(-1)}})},
  };
  return defs;
}

Value metric_make_wrapper_subclass(const MetricWrapperDef& d) {
  std::vector<Param> params{{"self", std::nullopt}};
  for (const Param& p : d.params) params.push_back(p);
  std::vector<Param> own = d.params;
  std::string fn = d.fn;
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method(
      std::string(d.name) + ".__init__", "__init__", params, [own, fn](const std::vector<Value>& a) -> Value {
        Value name, dtype;
        std::vector<std::pair<Value, Value>> kwargs;
        for (size_t i = 0; i < own.size(); ++i) {
          if (own[i].name == "name") {
            name = a[i + 1];
          } else if (own[i].name == "dtype") {
            dtype = a[i + 1];
          } else {
            kwargs.emplace_back(Value(own[i].name), a[i + 1]);
          }
        }
        metric_init_wrapper(a[0], metric_named_fn(fn), name, dtype, Value::dict(std::move(kwargs)));
        return Value();
      }));
  return make_class(d.name, {metric_wrapper_class_value()}, std::move(attrs));
}

/// RootMeanSquaredError (a Mean of squared errors, its result the root).
Value metric_make_rmse_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(
      native_method("RootMeanSquaredError.__init__", "__init__",
                    {{"self", std::nullopt}, {"name", Value("root_mean_squared_error")}, {"dtype", Value()}},
                    [](const std::vector<Value>& a) -> Value {
                      metric_init_reduce(a[0], a[1], a[2], "weighted_mean");
                      return Value();
                    }));
  attrs.push_back(native_method(
      "RootMeanSquaredError.update_state", "update_state",
      {{"self", std::nullopt}, {"y_true", std::nullopt}, {"y_pred", std::nullopt}, {"sample_weight", Value()}},
      [](const std::vector<Value>& a) {
        SqueezedTensors s = squeeze_or_expand_dimensions(metric_f32(a[2]), metric_f32(a[1]), Value());
        return metric_reduce_update(a[0], tf::squared_difference(s.y_pred, s.y_true), a[3]);
      }));
  attrs.push_back(
      native_method("RootMeanSquaredError.result", "result", {{"self", std::nullopt}}, [](const std::vector<Value>& a) {
        return tf::sqrt(
            tf::api::divide_no_nan({metric_read(a[0].getattr("total")), metric_read(a[0].getattr("count"))}, {}));
      }));
  return make_class("RootMeanSquaredError", {metric_mean_class()}, std::move(attrs));
}

// ---- The classes by name, and keras.metrics.get.

const std::vector<std::pair<std::string, Value>>& metric_classes() {
  static const std::vector<std::pair<std::string, Value>> classes = [] {
    std::vector<std::pair<std::string, Value>> out;
    out.emplace_back("Metric", metric_class());
    out.emplace_back("Mean", metric_mean_class());
    out.emplace_back("Sum", metric_sum_class());
    out.emplace_back("MeanMetricWrapper", metric_wrapper_class_value());
    for (const MetricWrapperDef& d : metric_wrapper_defs()) out.emplace_back(d.name, metric_make_wrapper_subclass(d));
    out.emplace_back("RootMeanSquaredError", metric_make_rmse_class());
    out.emplace_back("Precision", metric_make_precision_recall_class(true));
    out.emplace_back("Recall", metric_make_precision_recall_class(false));
    out.emplace_back("TruePositives", metric_make_count_class("TruePositives", 0));
    out.emplace_back("FalsePositives", metric_make_count_class("FalsePositives", 1));
    out.emplace_back("TrueNegatives", metric_make_count_class("TrueNegatives", 2));
    out.emplace_back("FalseNegatives", metric_make_count_class("FalseNegatives", 3));
    out.emplace_back("AUC", metric_make_auc_class());
    return out;
  }();
  return classes;
}

const Value& metric_class_named(std::string_view name) {
  for (const auto& [n, cls] : metric_classes()) {
    if (n == name) return cls;
  }
  throw InternalError("no keras metric class " + std::string(name));
}

/// The names tf_keras/metrics/__init__.py defines that get() resolves.
std::optional<Value> metric_module_object(const std::string& name) {
  for (const auto& [n, cls] : metric_classes()) {
    if (n == name) return cls;
  }
  static const char* const own[] = {"accuracy",
                                    "binary_accuracy",
                                    "categorical_accuracy",
                                    "sparse_categorical_accuracy",
                                    "top_k_categorical_accuracy",
                                    "sparse_top_k_categorical_accuracy",
                                    "cosine_similarity"};
  for (const char* o : own) {
    if (name == o) return metric_function(name);
  }
  if (name == "acc" || name == "ACC") return metric_function("accuracy");
  if (name == "cosine_proximity") return metric_function("cosine_similarity");
  static const std::vector<std::pair<std::string, std::string>> losses = {
      {"binary_crossentropy", "binary_crossentropy"},
      {"bce", "binary_crossentropy"},
      {"BCE", "binary_crossentropy"},
      {"categorical_crossentropy", "categorical_crossentropy"},
      {"sparse_categorical_crossentropy", "sparse_categorical_crossentropy"},
      {"poisson", "poisson"},
      {"kullback_leibler_divergence", "kl_divergence"},
      {"logcosh", "log_cosh"},
      {"log_cosh", "log_cosh"},
      {"mean_absolute_error", "mean_absolute_error"},
      {"mae", "mean_absolute_error"},
      {"MAE", "mean_absolute_error"},
      {"mean_absolute_percentage_error", "mean_absolute_percentage_error"},
      {"mape", "mean_absolute_percentage_error"},
      {"MAPE", "mean_absolute_percentage_error"},
      {"mean_squared_error", "mean_squared_error"},
      {"mse", "mean_squared_error"},
      {"MSE", "mean_squared_error"},
      {"mean_squared_logarithmic_error", "mean_squared_logarithmic_error"},
      {"msle", "mean_squared_logarithmic_error"},
      {"MSLE", "mean_squared_logarithmic_error"},
      {"hinge", "hinge"},
      {"squared_hinge", "squared_hinge"},
      {"categorical_hinge", "categorical_hinge"},
  };
  for (const auto& [n, fn] : losses) {
    if (name == n) return tf::api::keras_losses_get()({Value(fn)}, {});
  }
  return std::nullopt;
}

/// keras.metrics.get: a function or a Metric from a name or config dict; a
/// callable as it is. A name Keras 2.15 does not know comes back unchanged
/// (its serialization_lib returns it as "already deserialized").
Value metric_get(const Value& identifier) {
  if (identifier.is_dict()) {
    Value class_name, config = Value::dict();
    for (const auto& [k, v] : identifier.as_dict().entries) {
      if (k.is_str() && k.as_str() == "class_name") class_name = v;
      if (k.is_str() && k.as_str() == "config" && v.is_dict()) config = v;
    }
    if (!class_name.is_str()) throw ValueError("Unknown `config` as a `dict`, config=" + str(identifier));
    std::optional<Value> obj = metric_module_object(class_name.as_str());
    if (!obj) return class_name;
    if (!is_class(*obj)) return *obj;
    return obj->getattr("from_config")({config}, {});
  }
  if (identifier.is_str()) {
    std::optional<Value> obj = metric_module_object(identifier.as_str());
    if (!obj) return identifier;
    return is_class(*obj) ? (*obj)({}, {}) : *obj;
  }
  if (truthy(py::callable({identifier}, {}))) return identifier;
  throw ValueError("Could not interpret metric identifier: " + str(identifier));
}

}  // namespace

// ---- metrics.h.

const Value& metric_class() {
  static const Value cls = metric_make_base_class();
  return cls;
}

bool is_metric(const Value& v) { return v.is_object() && !is_class(v) && is_instance(v, metric_class()); }

Value compile_metric(const Value& identifier, const Shape& y_true, const Shape& y_pred) {
  if (identifier.is_none()) return identifier;
  Value metric;
  std::string lower;
  if (identifier.is_str()) {
    for (char c : identifier.as_str()) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  bool accuracy = lower == "accuracy" || lower == "acc";
  if (accuracy || lower == "crossentropy" || lower == "ce") {
    // compile_utils: the variant from the shapes alone.
    auto last = [](const Shape& s) { return s.rank_known() && s.rank() > 0 ? s.dim(s.rank() - 1) : int64_t{-1}; };
    int y_t_rank = y_true.rank_known() ? y_true.rank() : 0;
    int y_p_rank = y_pred.rank_known() ? y_pred.rank() : 0;
    bool is_binary = last(y_pred) == 1;
    bool is_sparse_categorical = y_t_rank < y_p_rank || (last(y_true) == 1 && last(y_pred) > 1);
    if (accuracy) {
      metric = metric_function(is_binary               ? "binary_accuracy"
                               : is_sparse_categorical ? "sparse_categorical_accuracy"
                                                       : "categorical_accuracy");
    } else {
      metric = tf::api::keras_losses_get()({Value(is_binary               ? "binary_crossentropy"
                                                  : is_sparse_categorical ? "sparse_categorical_crossentropy"
                                                                          : "categorical_crossentropy")},
                                           {});
    }
  } else {
    metric = metric_get(identifier);
    if (metric.is_str()) {
      // Keras 2.15 would wrap the unknown name and fail at the first update.
      throw ValueError("Unknown metric function: '" + metric.as_str() +
                       "'. Please ensure you are using a `keras.utils.custom_object_scope` and that this object is "
                       "included in the scope. See https://www.tensorflow.org/guide/keras/save_and_serialize"
                       "#registering_the_custom_object for details.");
    }
  }
  if (is_metric(metric)) return metric;
  Value name;
  if (identifier.is_str()) {
    name = identifier;
  } else if (metric.is_object() && metric.hasattr("name")) {
    name = metric.getattr("name");
  } else if (metric.is_callable() || metric.hasattr("__name__")) {
    name = metric.getattr("__name__");
  } else {
    name = Value(snake_case(metric.type_name()));
  }
  return metric_wrapper_class_value()({metric}, {{"name", name}});
}

}  // namespace ag::keras

namespace ag::tf::api {

// The table rows (tf_functions.def) of the classes and functions above.
const Value& keras_metrics_Metric() { return keras::metric_class(); }
const Value& keras_metrics_Mean() { return keras::metric_class_named("Mean"); }
const Value& keras_metrics_Sum() { return keras::metric_class_named("Sum"); }
const Value& keras_metrics_MeanMetricWrapper() { return keras::metric_class_named("MeanMetricWrapper"); }
const Value& keras_metrics_Accuracy() { return keras::metric_class_named("Accuracy"); }
const Value& keras_metrics_BinaryAccuracy() { return keras::metric_class_named("BinaryAccuracy"); }
const Value& keras_metrics_CategoricalAccuracy() { return keras::metric_class_named("CategoricalAccuracy"); }
const Value& keras_metrics_SparseCategoricalAccuracy() {
  return keras::metric_class_named("SparseCategoricalAccuracy");
}
const Value& keras_metrics_TopKCategoricalAccuracy() { return keras::metric_class_named("TopKCategoricalAccuracy"); }
const Value& keras_metrics_SparseTopKCategoricalAccuracy() {
  return keras::metric_class_named("SparseTopKCategoricalAccuracy");
}
const Value& keras_metrics_MeanSquaredError() { return keras::metric_class_named("MeanSquaredError"); }
const Value& keras_metrics_MeanAbsoluteError() { return keras::metric_class_named("MeanAbsoluteError"); }
const Value& keras_metrics_MeanAbsolutePercentageError() {
  return keras::metric_class_named("MeanAbsolutePercentageError");
}
const Value& keras_metrics_MeanSquaredLogarithmicError() {
  return keras::metric_class_named("MeanSquaredLogarithmicError");
}
const Value& keras_metrics_RootMeanSquaredError() { return keras::metric_class_named("RootMeanSquaredError"); }
const Value& keras_metrics_LogCoshError() { return keras::metric_class_named("LogCoshError"); }
const Value& keras_metrics_CosineSimilarity() { return keras::metric_class_named("CosineSimilarity"); }
const Value& keras_metrics_KLDivergence() { return keras::metric_class_named("KLDivergence"); }
const Value& keras_metrics_Poisson() { return keras::metric_class_named("Poisson"); }
const Value& keras_metrics_Hinge() { return keras::metric_class_named("Hinge"); }
const Value& keras_metrics_SquaredHinge() { return keras::metric_class_named("SquaredHinge"); }
const Value& keras_metrics_CategoricalHinge() { return keras::metric_class_named("CategoricalHinge"); }
const Value& keras_metrics_BinaryCrossentropy() { return keras::metric_class_named("BinaryCrossentropy"); }
const Value& keras_metrics_CategoricalCrossentropy() { return keras::metric_class_named("CategoricalCrossentropy"); }
const Value& keras_metrics_SparseCategoricalCrossentropy() {
  return keras::metric_class_named("SparseCategoricalCrossentropy");
}
const Value& keras_metrics_Precision() { return keras::metric_class_named("Precision"); }
const Value& keras_metrics_Recall() { return keras::metric_class_named("Recall"); }
const Value& keras_metrics_TruePositives() { return keras::metric_class_named("TruePositives"); }
const Value& keras_metrics_FalsePositives() { return keras::metric_class_named("FalsePositives"); }
const Value& keras_metrics_TrueNegatives() { return keras::metric_class_named("TrueNegatives"); }
const Value& keras_metrics_FalseNegatives() { return keras::metric_class_named("FalseNegatives"); }
const Value& keras_metrics_AUC() { return keras::metric_class_named("AUC"); }
const Value& keras_metrics_binary_accuracy() { return keras::metric_function("binary_accuracy"); }
const Value& keras_metrics_categorical_accuracy() { return keras::metric_function("categorical_accuracy"); }
const Value& keras_metrics_sparse_categorical_accuracy() {
  return keras::metric_function("sparse_categorical_accuracy");
}
const Value& keras_metrics_top_k_categorical_accuracy() { return keras::metric_function("top_k_categorical_accuracy"); }
const Value& keras_metrics_sparse_top_k_categorical_accuracy() {
  return keras::metric_function("sparse_top_k_categorical_accuracy");
}
const Value& keras_metrics_get() {
  static const Value fn = make_function("get", {{"identifier", std::nullopt}},
                                        [](const std::vector<Value>& a) { return keras::metric_get(a[0]); });
  return fn;
}

}  // namespace ag::tf::api
