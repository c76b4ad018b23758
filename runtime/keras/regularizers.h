// tf.keras.regularizers: L1, L2, L1L2 (and the names "l1", "l2", "l1_l2"),
// each a callable giving its penalty for a weight: l1 * sum(|w|) +
// l2 * sum(w^2), Keras 2's defaults 0.01.
#pragma once

#include <string>

#include "runtime/value/value.h"

namespace ag::keras {

/// keras.regularizers.get(identifier): None, a name, a config dict, or the
/// regularizer / callable itself; ValueError otherwise.
Value get_regularizer(const Value& identifier);
/// The class of keras.regularizers.<name> ("L1", "L2", "L1L2").
const Value& regularizer_class(const std::string& name);

}  // namespace ag::keras
