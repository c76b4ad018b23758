// tf.keras.metrics' confusion-matrix metrics: Precision, Recall, the four
// counts and AUC, as Keras 2.15's confusion_metrics.py over
// metrics_utils.update_confusion_matrix_variables; see metric_support.h.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/keras/layer.h"
#include "runtime/keras/losses.h"
#include "runtime/keras/metric_support.h"
#include "runtime/keras/metrics.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/object_model.h"
#include "runtime/value/user_function.h"
#include "runtime/value/variable_value.h"

namespace ag::keras {
namespace {

// ---- The confusion-matrix metrics (metrics_utils.update_confusion_matrix_variables).

/// metrics_utils.is_evenly_distributed_thresholds: at least 3, allclose to
/// arange(n) / (n - 1) in float32 (NumPy's rtol 1e-5, atol epsilon).
bool metric_evenly_distributed(const std::vector<double>& t) {
  size_t n = t.size();
  if (n < 3) return false;
  for (size_t i = 0; i < n; ++i) {
    double even = static_cast<double>(static_cast<float>(i) / static_cast<float>(n - 1));
    if (std::abs(t[i] - even) > kMetricEpsilon + 1e-5 * std::abs(even)) return false;
  }
  return true;
}

/// metrics_utils.parse_init_thresholds (with assert_thresholds_range).
std::vector<double> metric_parse_thresholds(const Value& thresholds, double default_threshold) {
  if (thresholds.is_none()) return {default_threshold};
  std::vector<Value> items =
      thresholds.is_list() || thresholds.is_tuple() ? thresholds.items() : std::vector<Value>{thresholds};
  std::vector<Value> invalid;
  for (const Value& t : items) {
    if (t.is_none() || t.as_float() < 0.0 || t.as_float() > 1.0) invalid.push_back(t);
  }
  if (!invalid.empty()) throw ValueError("Threshold values must be in [0, 1]. Received: " + repr(Value::list(invalid)));
  std::vector<double> out;
  for (const Value& t : items) out.push_back(t.as_float());
  return out;
}

/// The confusion-matrix variables a metric updates (None where it keeps none).
struct MetricConfusionVars {
  Value tp, fp, tn, fn;
};

/// _filter_top_k: all but the top k predictions of the last axis set to NEG_INF.
Value metric_filter_top_k(const Value& x, const Value& k) {
  Value idx = getitem(tf::api::top_k({x, k}, {{"sorted", Value(false)}}), Value(1));
  Value depth = metric_shape(x).rank() > 0 && metric_shape(x).dim(metric_shape(x).rank() - 1) >= 0
                    ? Value(static_cast<long long>(metric_shape(x).dim(metric_shape(x).rank() - 1)))
                    : tf::gather(tf::shape(x), Value(-1));
  Value mask = tf::reduce_sum(tf::one_hot(idx, depth, Value(), Value(), -1), Value(-2));
  return x * mask + Value(kMetricNegInf) * (Value(1.0) - mask);
}

/// update_confusion_matrix_variables for single-label data.
Value metric_update_confusion(const MetricConfusionVars& vars, const Value& y_true_in, const Value& y_pred_in,
                              const std::vector<double>& thresholds, bool evenly, const Value& top_k,
                              const Value& class_id, const Value& sample_weight_in, const Value& label_weights) {
  Value y_true = metric_f32(y_true_in);
  Value y_pred = metric_f32(y_pred_in);
  Value sample_weight = sample_weight_in;
  if (sample_weight.is_none()) {
    SqueezedTensors s = squeeze_or_expand_dimensions(y_pred, y_true, Value());
    y_pred = s.y_pred;
    y_true = s.y_true;
  } else {
    SqueezedTensors s = squeeze_or_expand_dimensions(y_pred, y_true, metric_f32(sample_weight));
    y_pred = s.y_pred;
    y_true = s.y_true;
    sample_weight = s.sample_weight;
  }
  metric_check_compatible(y_pred, y_true);
  if (!top_k.is_none()) y_pred = metric_filter_top_k(y_pred, top_k);
  if (!class_id.is_none()) {
    // y[..., class_id, None]: the class's column, its axis kept.
    std::vector<IndexPart> parts{Value::ellipsis(), class_id, Value()};
    y_true = getitem(y_true, parts);
    y_pred = getitem(y_pred, parts);
  }
  auto add = [](const Value& var, const Value& x) {
    if (!var.is_none()) metric_add(var, x);
  };
  const int64_t num_thresholds = static_cast<int64_t>(thresholds.size());
  if (evenly) {
    // _update_confusion_matrix_variables_optimized: each prediction falls in
    // bucket ceil(p * (T - 1)) - 1, the counts at threshold i are those of
    // the buckets >= i (a reversed cumulative sum).
    bool with_epsilon = thresholds.front() < 0.0 || thresholds.back() > 1.0;
    Value weights = Value(1.0);
    Value sw = Value(1.0);
    if (!sample_weight.is_none())
      sw = tf::reshape(metric_broadcast_weights(metric_f32(sample_weight), y_pred), metric_last_axis());
    Value lw = Value(1.0);
    if (!label_weights.is_none()) {
      lw = tf::reshape(metric_broadcast_weights(tf::expand_dims(label_weights, Value(0)), y_pred), metric_last_axis());
    }
    weights = metric_f32(tf::multiply(sw, lw));
    y_pred = tf::api::clip_by_value({y_pred, Value(0.0), Value(1.0)}, {});
    y_true = metric_f32(tf::cast(y_true, DType::Bool));
    y_true = tf::reshape(y_true, metric_last_axis());
    y_pred = tf::reshape(y_pred, metric_last_axis());
    Value true_labels = tf::multiply(y_true, weights);
    Value false_labels = tf::multiply(Value(1.0) - y_true, weights);
    Value bucket = tf::ceil(y_pred * Value(static_cast<double>(num_thresholds - 1))) - Value(1.0);
    if (with_epsilon) bucket = tf::relu(bucket);
    bucket = tf::cast(bucket, DType::Int32);
    auto segment_sum = [&](const Value& data) {
      return tf::api::unsorted_segment_sum({data, bucket, Value(static_cast<long long>(num_thresholds))}, {});
    };
    Value tp = tf::cumsum(segment_sum(true_labels), Value(0), false, true);
    Value fp = tf::cumsum(segment_sum(false_labels), Value(0), false, true);
    add(vars.tp, tp);
    add(vars.fp, fp);
    if (!vars.tn.is_none()) add(vars.tn, tf::reduce_sum(false_labels) - fp);
    if (!vars.fn.is_none()) add(vars.fn, tf::reduce_sum(true_labels) - tp);
    return Value();
  }
  // Every prediction against every threshold: [T, 1] thresholds, [1, N] data.
  std::vector<Value> t;
  for (double x : thresholds) t.emplace_back(x);
  Value thresh =
      tf::reshape(tf::constant(Value::list(t), DType::Float32), Value::list({Value(num_thresholds), Value(1)}));
  Value preds = tf::reshape(y_pred, Value::list({Value(1), Value(-1)}));
  Value label_is_pos = tf::reshape(tf::cast(y_true, DType::Bool), Value::list({Value(1), Value(-1)}));
  Value pred_is_pos = tf::greater(preds, thresh);
  Value weights;
  if (!sample_weight.is_none()) {
    weights =
        tf::reshape(metric_broadcast_weights(metric_f32(sample_weight), y_pred), Value::list({Value(1), Value(-1)}));
  }
  if (!label_weights.is_none()) {
    Value lw = tf::reshape(metric_broadcast_weights(tf::expand_dims(label_weights, Value(0)), y_pred),
                           Value::list({Value(1), Value(-1)}));
    weights = weights.is_none() ? lw : tf::multiply(weights, lw);
  }
  auto weighted_add = [&](const Value& var, const Value& label, const Value& pred) {
    if (var.is_none()) return;
    Value label_and_pred = metric_f32(tf::logical_and(label, pred));
    if (!weights.is_none()) label_and_pred = label_and_pred * weights;
    metric_add(var, tf::reduce_sum(label_and_pred, Value(1)));
  };
  Value pred_is_neg = tf::logical_not(pred_is_pos);
  Value label_is_neg = tf::logical_not(label_is_pos);
  weighted_add(vars.tp, label_is_pos, pred_is_pos);
  weighted_add(vars.fn, label_is_pos, pred_is_neg);
  weighted_add(vars.fp, label_is_neg, pred_is_pos);
  weighted_add(vars.tn, label_is_neg, pred_is_neg);
  return Value();
}

std::vector<double> metric_thresholds_of(const Value& self) { return metric_doubles(self.getattr("_agc_thresholds")); }

/// A thresholded count: result[0] for one threshold, else the vector.
Value metric_one_or_all(const Value& result, size_t num_thresholds) {
  return num_thresholds == 1 ? getitem(result, Value(0)) : result;
}

/// Precision, Recall and the four condition counts share their thresholds.
void metric_init_thresholds(const Value& self, const Value& thresholds, double default_threshold) {
  std::vector<double> t = metric_parse_thresholds(thresholds, default_threshold);
  self.setattr("init_thresholds", thresholds);
  self.setattr("thresholds", metric_list(t));
  self.setattr("_agc_thresholds", metric_list(t));
  self.setattr("_thresholds_distributed_evenly", Value(metric_evenly_distributed(t)));
}

}  // namespace

/// Precision (true_positives, false_positives) or Recall (true_positives, false_negatives).
Value metric_make_precision_recall_class(bool precision) {
  std::string cls = precision ? "Precision" : "Recall";
  const char* other = precision ? "false_positives" : "false_negatives";
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method(cls + ".__init__", "__init__",
                                {{"self", std::nullopt},
                                 {"thresholds", Value()},
                                 {"top_k", Value()},
                                 {"class_id", Value()},
                                 {"name", Value()},
                                 {"dtype", Value()}},
                                [other](const std::vector<Value>& a) -> Value {
                                  const Value& self = a[0];
                                  metric_init_base(self, a[4], a[5]);
                                  self.setattr("top_k", a[2]);
                                  self.setattr("class_id", a[3]);
                                  metric_init_thresholds(self, a[1], a[2].is_none() ? 0.5 : kMetricNegInf);
                                  int64_t n = static_cast<int64_t>(metric_thresholds_of(self).size());
                                  self.setattr("true_positives", metric_add_weight(self, "true_positives", {n}));
                                  self.setattr(other, metric_add_weight(self, other, {n}));
                                  return Value();
                                }));
  attrs.push_back(native_method(
      cls + ".update_state", "update_state",
      {{"self", std::nullopt}, {"y_true", std::nullopt}, {"y_pred", std::nullopt}, {"sample_weight", Value()}},
      [precision](const std::vector<Value>& a) {
        const Value& self = a[0];
        MetricConfusionVars vars{self.getattr("true_positives"), Value(), Value(), Value()};
        (precision ? vars.fp : vars.fn) = self.getattr(precision ? "false_positives" : "false_negatives");
        return metric_update_confusion(vars, a[1], a[2], metric_thresholds_of(self),
                                       truthy(self.getattr("_thresholds_distributed_evenly")), self.getattr("top_k"),
                                       self.getattr("class_id"), a[3], Value());
      }));
  attrs.push_back(
      native_method(cls + ".result", "result", {{"self", std::nullopt}}, [other](const std::vector<Value>& a) {
        Value tp = metric_read(a[0].getattr("true_positives"));
        Value r = tf::api::divide_no_nan({tp, tf::add(tp, metric_read(a[0].getattr(other)))}, {});
        return metric_one_or_all(r, metric_thresholds_of(a[0]).size());
      }));
  attrs.push_back(
      native_method(cls + ".get_config", "get_config", {{"self", std::nullopt}}, [](const std::vector<Value>& a) {
        return metric_merge_config(metric_base_config(a[0]), {{"thresholds", a[0].getattr("init_thresholds")},
                                                              {"top_k", a[0].getattr("top_k")},
                                                              {"class_id", a[0].getattr("class_id")}});
      }));
  return make_class(cls, {metric_class()}, std::move(attrs));
}


/// TruePositives, FalsePositives, TrueNegatives, FalseNegatives: one accumulator.
Value metric_make_count_class(const char* name, int which) {
  std::string cls = name;
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(
      native_method(cls + ".__init__", "__init__",
                    {{"self", std::nullopt}, {"thresholds", Value()}, {"name", Value()}, {"dtype", Value()}},
                    [](const std::vector<Value>& a) -> Value {
                      metric_init_base(a[0], a[2], a[3]);
                      metric_init_thresholds(a[0], a[1], 0.5);
                      int64_t n = static_cast<int64_t>(metric_thresholds_of(a[0]).size());
                      a[0].setattr("accumulator", metric_add_weight(a[0], "accumulator", {n}));
                      return Value();
                    }));
  attrs.push_back(native_method(
      cls + ".update_state", "update_state",
      {{"self", std::nullopt}, {"y_true", std::nullopt}, {"y_pred", std::nullopt}, {"sample_weight", Value()}},
      [which](const std::vector<Value>& a) {
        MetricConfusionVars vars;
        Value acc = a[0].getattr("accumulator");
        (which == 0 ? vars.tp : which == 1 ? vars.fp : which == 2 ? vars.tn : vars.fn) = acc;
        return metric_update_confusion(vars, a[1], a[2], metric_thresholds_of(a[0]),
                                       truthy(a[0].getattr("_thresholds_distributed_evenly")), Value(), Value(), a[3],
                                       Value());
      }));
  attrs.push_back(native_method(cls + ".result", "result", {{"self", std::nullopt}}, [](const std::vector<Value>& a) {
    return metric_one_or_all(metric_read(a[0].getattr("accumulator")), metric_thresholds_of(a[0]).size());
  }));
  attrs.push_back(
      native_method(cls + ".get_config", "get_config", {{"self", std::nullopt}}, [](const std::vector<Value>& a) {
        return metric_merge_config(metric_base_config(a[0]), {{"thresholds", a[0].getattr("init_thresholds")}});
      }));
  return make_class(name, {metric_class()}, std::move(attrs));
}

namespace {

// ---- AUC.

/// AUCCurve.from_str / AUCSummationMethod.from_str.
std::string metric_auc_curve(const Value& key) {
  std::string k = str(key);
  if (k == "pr" || k == "PR") return "PR";
  if (k == "roc" || k == "ROC") return "ROC";
  if (k == "pr_gain" || k == "prgain" || k == "PR_GAIN" || k == "PRGAIN") return "PR_GAIN";
  throw ValueError("Invalid AUC curve value: \"" + k + "\". Expected values are [\"PR\", \"ROC\", \"PR_GAIN\"]");
}

std::string metric_auc_summation(const Value& key) {
  std::string k = str(key);
  if (k == "interpolation" || k == "Interpolation") return "interpolation";
  if (k == "majoring" || k == "Majoring") return "majoring";
  if (k == "minoring" || k == "Minoring") return "minoring";
  throw ValueError("Invalid AUC summation method value: \"" + k +
                   "\". Expected values are [\"interpolation\", \"majoring\", \"minoring\"]");
}

/// x[:n - 1] and x[1:].
Value metric_head(const Value& x, int64_t n) {
  return getslice(x, SliceSpec{Value(), Value(static_cast<long long>(n - 1)), Value()});
}
Value metric_tail(const Value& x) { return getslice(x, SliceSpec{Value(1), Value(), Value()}); }

/// AUC.interpolate_pr_auc (Davis & Goadrich's interpolation of the PR curve).
Value metric_interpolate_pr_auc(const Value& self, int64_t n) {
  Value tp = metric_read(self.getattr("true_positives"));
  Value fp = metric_read(self.getattr("false_positives"));
  Value fn = metric_read(self.getattr("false_negatives"));
  Value dtp = metric_head(tp, n) - metric_tail(tp);
  Value p = tf::add(tp, fp);
  Value dp = metric_head(p, n) - metric_tail(p);
  Value prec_slope = tf::api::divide_no_nan({dtp, tf::maximum(dp, Value(0))}, {{"name", Value("prec_slope")}});
  Value intercept = metric_tail(tp) - tf::multiply(prec_slope, metric_tail(p));
  Value safe_p_ratio =
      tf::where(tf::logical_and(tf::greater(metric_head(p, n), Value(0)), tf::greater(metric_tail(p), Value(0))),
                tf::api::divide_no_nan({metric_head(p, n), tf::maximum(metric_tail(p), Value(0))},
                                       {{"name", Value("recall_relative_ratio")}}),
                tf::ones_like(metric_tail(p)));
  Value pr_auc_increment = tf::api::divide_no_nan({prec_slope * (dtp + intercept * tf::log(safe_p_ratio)),
                                                   tf::maximum(metric_tail(tp) + metric_tail(fn), Value(0))},
                                                  {{"name", Value("pr_auc_increment")}});
  return tf::reduce_sum(pr_auc_increment, Value(), false, "interpolate_pr_auc");
}

Value metric_auc_result(const Value& self) {
  int64_t n = self.getattr("num_thresholds").as_int();
  std::string curve = self.getattr("_agc_curve").as_str();
  std::string summation = self.getattr("_agc_summation").as_str();
  if (curve == "PR" && summation == "interpolation") return metric_interpolate_pr_auc(self, n);
  Value tp = metric_read(self.getattr("true_positives"));
  Value fp = metric_read(self.getattr("false_positives"));
  Value tn = metric_read(self.getattr("true_negatives"));
  Value fn = metric_read(self.getattr("false_negatives"));
  Value recall = tf::api::divide_no_nan({tp, tf::add(tp, fn)}, {});
  Value x, y;
  if (curve == "ROC") {
    x = tf::api::divide_no_nan({fp, tf::add(fp, tn)}, {});
    y = recall;
  } else if (curve == "PR") {
    x = recall;
    y = tf::api::divide_no_nan({tp, tf::add(tp, fp)}, {});
  } else {
    // PR_GAIN, with Keras's fixes for no true positives and negative gains.
    Value scaling = tf::api::divide_no_nan({tf::add(tp, fn), tf::add(fp, tn)}, {});
    Value recall_gain = Value(1.0) - scaling * tf::api::divide_no_nan({fn, tp}, {});
    Value precision_gain = Value(1.0) - scaling * tf::api::divide_no_nan({fp, tp}, {});
    Value no_tp = tf::equal(tp, Value(0.0));
    recall_gain = tf::where(no_tp, tf::zeros_like(recall_gain), recall_gain);
    precision_gain = tf::where(no_tp, tf::ones_like(precision_gain), precision_gain);
    recall_gain = tf::maximum(recall_gain, tf::zeros_like(recall_gain));
    x = recall_gain;
    y = precision_gain;
  }
  Value heights;
  if (summation == "interpolation") {
    heights = (metric_head(y, n) + metric_tail(y)) / Value(2.0);
  } else if (summation == "minoring") {
    heights = tf::minimum(metric_head(y, n), metric_tail(y));
  } else {
    heights = tf::maximum(metric_head(y, n), metric_tail(y));
  }
  return tf::reduce_sum(tf::multiply(metric_head(x, n) - metric_tail(x), heights), Value(), false, layer_name(self));
}

Value metric_auc_init(const std::vector<Value>& a) {
  // a: self, num_thresholds, curve, summation_method, name, dtype, thresholds,
  //    multi_label, num_labels, label_weights, from_logits.
  const Value& self = a[0];
  std::vector<double> thresholds;
  bool evenly = true;
  int64_t num_thresholds;
  bool from_thresholds = !a[6].is_none();
  if (from_thresholds) {
    for (const Value& t : iterate(a[6])) thresholds.push_back(t.as_float());
    std::sort(thresholds.begin(), thresholds.end());
    num_thresholds = static_cast<int64_t>(thresholds.size()) + 2;
    std::vector<double> with_ends{0.0};
    with_ends.insert(with_ends.end(), thresholds.begin(), thresholds.end());
    with_ends.push_back(1.0);
    evenly = metric_evenly_distributed(with_ends);
  } else {
    num_thresholds = a[1].as_int();
    if (num_thresholds <= 1) {
      throw ValueError("Argument `num_thresholds` must be an integer > 1. Received: num_thresholds=" + str(a[1]));
    }
    for (int64_t i = 0; i < num_thresholds - 2; ++i) {
      thresholds.push_back(static_cast<double>(i + 1) * 1.0 / static_cast<double>(num_thresholds - 1));
    }
  }
  // End points just below 0 and above 1, for predictions of exactly 0 or 1.
  std::vector<double> all{0.0 - kMetricEpsilon};
  all.insert(all.end(), thresholds.begin(), thresholds.end());
  all.push_back(1.0 + kMetricEpsilon);
  std::string curve = metric_auc_curve(a[2]);
  std::string summation = metric_auc_summation(a[3]);
  metric_init_base(self, a[4], a[5]);
  if (truthy(a[7])) {
    throw UnimplementedError("agc: tf.keras.metrics.AUC(multi_label=True) is not supported; AUC flattens its data");
  }
  if (!a[8].is_none() && truthy(a[8])) throw ValueError("`num_labels` is needed only when `multi_label` is True.");
  self.setattr("_init_from_thresholds", Value(from_thresholds));
  self.setattr("num_thresholds", Value(static_cast<long long>(num_thresholds)));
  self.setattr("_agc_thresholds", metric_list(all));
  self.setattr("_thresholds_distributed_evenly", Value(evenly));
  self.setattr("_agc_curve", Value(curve));
  self.setattr("_agc_summation", Value(summation));
  self.setattr("multi_label", a[7]);
  self.setattr("num_labels", a[8]);
  self.setattr("label_weights", a[9].is_none() ? Value() : tf::constant(a[9], DType::Float32));
  self.setattr("_from_logits", a[10]);
  for (const char* v : {"true_positives", "true_negatives", "false_positives", "false_negatives"}) {
    self.setattr(v, metric_add_weight(self, v, {num_thresholds}));
  }
  return Value();
}

}  // namespace

Value metric_make_auc_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method("AUC.__init__", "__init__",
                                {{"self", std::nullopt},
                                 {"num_thresholds", Value(200)},
                                 {"curve", Value("ROC")},
                                 {"summation_method", Value("interpolation")},
                                 {"name", Value()},
                                 {"dtype", Value()},
                                 {"thresholds", Value()},
                                 {"multi_label", Value(false)},
                                 {"num_labels", Value()},
                                 {"label_weights", Value()},
                                 {"from_logits", Value(false)}},
                                metric_auc_init));
  attrs.push_back(native_method(
      "AUC.update_state", "update_state",
      {{"self", std::nullopt}, {"y_true", std::nullopt}, {"y_pred", std::nullopt}, {"sample_weight", Value()}},
      [](const std::vector<Value>& a) {
        const Value& self = a[0];
        Value y_pred = a[2];
        if (truthy(self.getattr("_from_logits"))) y_pred = tf::sigmoid(metric_f32(y_pred));
        MetricConfusionVars vars{self.getattr("true_positives"), self.getattr("false_positives"),
                                 self.getattr("true_negatives"), self.getattr("false_negatives")};
        return metric_update_confusion(vars, a[1], y_pred, metric_thresholds_of(self),
                                       truthy(self.getattr("_thresholds_distributed_evenly")), Value(), Value(), a[3],
                                       self.getattr("label_weights"));
      }));
  attrs.push_back(native_method("AUC.result", "result", {{"self", std::nullopt}},
                                [](const std::vector<Value>& a) { return metric_auc_result(a[0]); }));
  attrs.push_back({"thresholds", make_property(Value::callable("thresholds", [](std::vector<Value> args, Kwargs) {
                     return Value::list(args.at(0).getattr("_agc_thresholds").items());
                   }))});
  attrs.push_back(
      native_method("AUC.get_config", "get_config", {{"self", std::nullopt}}, [](const std::vector<Value>& a) {
        const Value& self = a[0];
        Value lw = self.getattr("label_weights");
        std::vector<std::pair<std::string, Value>> extra{
            {"num_thresholds", self.getattr("num_thresholds")},
            {"curve", self.getattr("_agc_curve")},
            {"summation_method", self.getattr("_agc_summation")},
            {"multi_label", self.getattr("multi_label")},
            {"num_labels", self.getattr("num_labels")},
            {"label_weights", lw.is_none() ? lw : lw.getattr("numpy")({}, {})},
            {"from_logits", self.getattr("_from_logits")}};
        if (truthy(self.getattr("_init_from_thresholds"))) {
          std::vector<Value> t = self.getattr("_agc_thresholds").items();
          extra.emplace_back("thresholds", Value::list(std::vector<Value>(t.begin() + 1, t.end() - 1)));
        }
        return metric_merge_config(metric_base_config(self), extra);
      }));
  return make_class("AUC", {metric_class()}, std::move(attrs));
}

}  // namespace ag::keras
