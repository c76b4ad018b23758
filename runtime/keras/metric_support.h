// What tf.keras.metrics' files share (metrics.cpp, metrics_confusion.cpp):
// the small tensor helpers and the Metric base's pieces, Keras 2.15's
// base_metric.py and metrics_utils.py. Internal to runtime/keras.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/core/shape.h"
#include "runtime/value/value.h"

namespace ag::keras {

/// metrics_utils.NEG_INF: what top_k filtering gives the other predictions.
inline constexpr double kMetricNegInf = -1e10;
/// backend.epsilon().
inline constexpr double kMetricEpsilon = 1e-7;

Value metric_tensor(const Value& v);
const Shape& metric_shape(const Value& t);
Value metric_f32(const Value& v);
/// A variable's value, and assign_add to it.
Value metric_read(const Value& var);
Value metric_add(const Value& var, const Value& x);
/// [-1], the axis list metric functions reduce over.
Value metric_last_axis();
/// ValueError unless the shapes of `a` and `b` are compatible.
void metric_check_compatible(const Value& a, const Value& b);
/// Sample weights broadcast to `values` (Keras's broadcast_weights and its error).
Value metric_broadcast_weights(const Value& weights, const Value& values);
/// A list attribute's items as doubles (thresholds), and back.
std::vector<double> metric_doubles(const Value& list);
Value metric_list(const std::vector<double>& xs);

/// The class attribute `name` of `cls` or its bases and the class defining it.
std::optional<std::pair<Value, Value>> metric_class_attr(const Value& cls, std::string_view name);
std::vector<Value> metric_variables(const Value& self);
/// Metric.add_weight: a non-trainable float32 variable.
Value metric_add_weight(const Value& self, const std::string& name, std::vector<int64_t> shape,
                        const Value& initializer = Value("zeros"));
void metric_zero(const Value& var);
/// Metric.__init__(name=None, dtype=None, **kwargs): Layer's, then stateful and built.
void metric_init_base(const Value& self, const Value& name, const Value& dtype, Value kwargs = Value());
Value metric_base_config(const Value& self);
/// `base` with `extra`'s items after its own (Keras's dict(base + config)).
Value metric_merge_config(Value base, const std::vector<std::pair<std::string, Value>>& extra);

/// The confusion-matrix metric classes (metrics_confusion.cpp): Precision
/// (true) or Recall, the count metrics (0 TruePositives, 1 FalsePositives,
/// 2 TrueNegatives, 3 FalseNegatives), and AUC.
Value metric_make_precision_recall_class(bool precision);
Value metric_make_count_class(const char* name, int which);
Value metric_make_auc_class();

}  // namespace ag::keras
