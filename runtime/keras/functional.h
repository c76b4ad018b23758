// Keras's functional API: keras.Input, layers called on symbolic tensors,
// and the graph of layer calls a functional Model (or a Sequential) runs.
//
// A symbolic Keras tensor (Keras's KerasTensor) is a tensor of one
// process-wide graph, the Keras graph: keras.Input adds a placeholder to it,
// and a layer called on its tensors runs call() while that graph is being
// traced, so each output's dtype and shape come from the ops' own shape rules
// (nothing per layer to keep in step). The graph is never executed: what is
// kept is the record of each layer call (the layer, its arguments with their
// symbolic tensors, its outputs), keyed by the outputs' nodes (Keras's
// _keras_history). A functional model is the calls from its inputs to its
// outputs in topological order, replayed on real tensors at each call, as
// Keras's _run_internal_graph does.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/value/value.h"

namespace ag::keras {

/// Whether `inputs` (a tensor or a nesting of them) holds a symbolic Keras tensor.
bool is_symbolic(const Value& inputs);
/// Makes the Keras graph the one being traced while alive (a layer called on
/// symbolic tensors).
class SymbolicScope {
 public:
  SymbolicScope();
  ~SymbolicScope();
  SymbolicScope(const SymbolicScope&) = delete;
  SymbolicScope& operator=(const SymbolicScope&) = delete;

 private:
  struct State;
  std::unique_ptr<State> state_;
};
/// Records a layer call made on symbolic inputs; returns the outputs (an
/// output that is one of the inputs becomes an Identity of it, as Keras copies it).
Value record_call(const Value& layer, const Value& inputs, const std::vector<Value>& args, const Kwargs& kwargs,
                  const Value& outputs);

/// The symbolic output shapes of each call of `layer` recorded so far, in
/// order (a summary's Output Shape: Keras prints the one or "multiple").
std::vector<Value> recorded_output_shapes(const Value& layer);

/// The name of the layer whose call made symbolic tensor `t` ("" when none did).
std::string producing_layer(const Value& t);

/// keras.Input(shape=None, batch_size=None, name=None, dtype=None, ...):
/// a placeholder of the Keras graph made by a new InputLayer.
Value make_input(const Value& shape, const Value& batch_size, const Value& name, const Value& dtype);
/// tf.keras.layers.InputLayer (the class value).
const Value& input_layer_class();

/// The layer calls from `inputs` to `outputs` (nestings of symbolic tensors),
/// in topological order; ValueError "Graph disconnected: ..." when an output
/// needs a tensor that is not computed from `inputs`.
struct FunctionalGraph;
std::shared_ptr<const FunctionalGraph> trace_graph(const Value& inputs, const Value& outputs);
/// Runs the graph on `inputs` (their nesting as the graph's inputs').
Value run_graph(const FunctionalGraph& graph, const Value& inputs);
/// The layers of the graph in Keras's order (InputLayers first), each once.
std::vector<Value> graph_layers(const FunctionalGraph& graph);
/// The graph's inputs and outputs as the model was given them.
const Value& graph_inputs(const FunctionalGraph& graph);
const Value& graph_outputs(const FunctionalGraph& graph);
/// The names of the layers whose outputs feed `layer`'s first recorded call in
/// the graph (a functional summary's "Connected to" column: "dense[0][0]"):
/// its inputs, other positional arguments, then keyword ones by name, as
/// Keras flattens (args, kwargs).
std::vector<std::string> connected_to(const FunctionalGraph& graph, const Value& layer);

}  // namespace ag::keras
