// What a Keras Model keeps natively (the instance's NativeState): its
// functional graph and what compile() configured, which the training loop
// (training.cpp) reads. Subclasses made by a program keep it too: Model's
// __init__ attaches it to the instance.
#pragma once

#include <memory>

#include "runtime/keras/functional.h"
#include "runtime/value/object_model.h"

namespace ag::keras {

struct ModelState : NativeState {
  /// The functional graph (Model(inputs, outputs), a Sequential with a known input).
  std::shared_ptr<const FunctionalGraph> graph;
  /// A Sequential's Input (its own, or the one it was given).
  Value sequential_input;
  /// Whether that Input was inferred from the shape of a call (Keras's
  /// _build_graph_network_for_inferred_shape), which later calls may relax.
  bool inferred_input = false;
  /// compile()'s configuration: the optimizer, the loss container and the
  /// metrics, as objects of training.cpp.
  Value compiled;
  /// The tf.functions fit/evaluate/predict trace once per compile (Keras's
  /// make_train_function and friends).
  Value train_function, test_function, predict_function;
};

/// The model's state, attached on first use.
ModelState& model_state(const Value& model);

}  // namespace ag::keras
