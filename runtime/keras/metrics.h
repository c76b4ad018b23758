// tf.keras.metrics: Metric (a Layer holding its state in non-trainable
// variables) and its classes (Mean, Sum, Accuracy, BinaryAccuracy,
// CategoricalAccuracy, SparseCategoricalAccuracy, TopKCategoricalAccuracy,
// Precision, Recall, AUC, MeanSquaredError, MeanAbsoluteError,
// MeanMetricWrapper), each with update_state / result / reset_state and
// Keras 2.15's numerics.
#pragma once

#include <string>

#include "runtime/value/value.h"

namespace ag::keras {

/// tf.keras.metrics.Metric (the class value).
const Value& metric_class();
bool is_metric(const Value& v);

/// What compile(metrics=[...]) makes of one entry, given the shapes of the
/// targets and of the model's output at the first step (Keras's
/// compile_utils): "accuracy"/"acc" (and "crossentropy"/"ce") pick the
/// binary, sparse categorical or categorical variant from the shapes alone,
/// named with the string as given; other strings resolve through
/// keras.metrics.get (a function wrapped in MeanMetricWrapper named by the
/// string, a class instantiated); a Metric object is itself; a plain
/// function is wrapped and named by its __name__.
Value compile_metric(const Value& identifier, const Shape& y_true, const Shape& y_pred);

}  // namespace ag::keras
