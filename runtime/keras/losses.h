// tf.keras.losses: the loss classes (MeanSquaredError, ..., with reduction
// and from_logits), the functions (mean_squared_error, ...) and get(), as
// Keras 2.15 computes them (backend's epsilon clipping of probabilities, the
// from_logits paths through tf.nn's fused ops, the "sum_over_batch_size"
// reduction dividing by the number of elements).
#pragma once

#include <string>

#include "runtime/value/value.h"

namespace ag::keras {

/// keras.losses.get(identifier): a Loss object from a class or function name
/// ("mse", "binary_crossentropy", "MeanSquaredError", ...), a config dict, or
/// the object / callable itself. A plain function is wrapped so that calling
/// the result as loss(y_true, y_pred, sample_weight=None) gives the reduced
/// scalar, as Keras's LossFunctionWrapper does. ValueError "Unknown loss
/// function: 'x'. ..." otherwise.
Value get_loss(const Value& identifier);

/// tf.keras.losses.Loss (the class value) and isinstance(v, Loss).
const Value& loss_class();
bool is_loss(const Value& v);

// ---- What keras.metrics shares with the losses (Keras's losses_utils).

/// A loss function's per-sample values and the mask Keras attaches to them
/// as `_keras_mask` (sparse categorical crossentropy with ignore_class: false
/// where the label is ignored); None when there is none.
struct LossValues {
  Value values;
  Value mask;
};
/// fn(y_true, y_pred, **kwargs) for a loss or metric function `fn`; the
/// built-in ones (keras.losses.*) also give their mask.
LossValues call_loss_function(const Value& fn, const Value& y_true, const Value& y_pred, const Kwargs& kwargs);

/// losses_utils.squeeze_or_expand_dimensions on static ranks: y_true's or
/// y_pred's last dim squeezed when it is 1 and their ranks differ by one
/// (not when y_true holds sparse labels for y_pred's last dim), then
/// sample_weight's last dim squeezed or expanded when its rank differs by
/// one from y_pred's original rank. None arguments stay None; unknown ranks
/// leave things as they are (Keras's tf.cond path is not modelled).
struct SqueezedTensors {
  Value y_pred, y_true, sample_weight;
};
SqueezedTensors squeeze_or_expand_dimensions(const Value& y_pred, const Value& y_true, const Value& sample_weight);

/// losses_utils.apply_valid_mask: `mask` (None for none) folded into
/// `sample_weight`, rescaled by total/valid under the "auto" and
/// "sum_over_batch_size" reductions so the mean is over the valid entries.
Value apply_valid_mask(const Value& losses, const Value& sample_weight, const Value& mask, const std::string& reduction);

}  // namespace ag::keras
