// Keras 2's compile_utils: what compile() makes of its loss and metrics,
// model.compiled_loss (LossesContainer) and model.compiled_metrics
// (MetricsContainer), which the default train/test steps and a train_step
// written as TF 2.15's "Customizing what happens in fit()" guide call.
#pragma once

#include <optional>
#include <vector>

#include "runtime/value/value.h"

namespace ag::keras {

/// A LossesContainer for one output: called as (y_true, y_pred,
/// sample_weight=None, regularization_losses=None), it adds the
/// regularization losses to `fn`'s loss (None: no compiled loss;
/// `identifier` is what compile() was given, for errors), tracks the total
/// in `tracker` (the "loss" Mean) weighted by the batch size, and returns it.
Value losses_container(const Value& fn, const Value& identifier, const Value& tracker);

/// A MetricsContainer of metric identifiers: `update_state(y_true, y_pred,
/// sample_weight=None)` makes the metrics at its first call (y's and
/// y_pred's shapes pick accuracy's kind), then updates them all; `metrics`
/// lists them.
Value metrics_container(const Value& identifiers);
/// The container's metrics once made (nullopt before its first update).
std::optional<std::vector<Value>> built_metrics(const Value& container);

}  // namespace ag::keras
