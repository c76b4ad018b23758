// tf.keras.activations: the functions (relu, softmax, ...) as callable values
// with Keras 2's signatures, and get(): what a layer's `activation=` names.
#pragma once

#include <string>

#include "runtime/value/value.h"

namespace ag::keras {

/// keras.activations.get(identifier): None -> linear, a name -> the function,
/// a callable -> itself; ValueError "Unknown activation function: 'x'..." otherwise.
Value get_activation(const Value& identifier);
/// keras.activations.<name> (None when Keras has no such activation).
const Value& activation_function(const std::string& name);
/// The name get_config reports for an activation ("linear" for None).
std::string activation_name(const Value& activation);

}  // namespace ag::keras
