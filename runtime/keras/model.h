// tf.keras.Model and tf.keras.Sequential: a Model is a Layer that holds
// layers (as attributes when subclassed, as a graph of layer calls when
// functional: Model(inputs, outputs), runtime/keras/functional.h) and that
// trains (compile/fit/evaluate/predict, runtime/keras/training.cpp).
// Sequential is a functional model grown one layer at a time: once its input
// shape is known (an Input, a first layer's input_shape=, or the first call)
// it holds the graph of its layers called on an Input of that shape, which
// is what summary() prints.
#pragma once

#include <memory>
#include <vector>

#include "runtime/value/value.h"

namespace ag::keras {

struct FunctionalGraph;

/// tf.keras.Model and tf.keras.Sequential (the class values).
const Value& model_class();
const Value& sequential_class();
bool is_model(const Value& v);

/// The model's functional graph, or nullptr (a subclassed model, or a
/// Sequential whose input shape is not known yet).
std::shared_ptr<const FunctionalGraph> model_graph(const Value& model);
/// model.layers: the graph's layers (InputLayers first) for a functional
/// model, the added ones for a Sequential, the attributes' for a subclass.
std::vector<Value> model_layers(const Value& model);

/// Methods the training loop file adds to Model's class (compile, fit, ...).
std::vector<std::pair<std::string, Value>> training_methods();
/// Model.summary(...) (runtime/keras/summary.cpp).
Value summary_method();

}  // namespace ag::keras
