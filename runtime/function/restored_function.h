// A concrete function rebuilt from a saved graph (tf.saved_model.load):
// the graph read from a SavedModel's FunctionDef, its parameters and the
// structures of its arguments and result as the SavedModel records them
// (TensorSpec values where tensors go). The result is an ordinary
// ConcreteFunction: called with tensors that fit its specs, it runs the graph.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/function/concrete_function.h"

namespace ag {

/// `graph`'s inputs are the tensors of `arg_specs` (one structure per
/// parameter, flattened in order), its outputs the tensors of `output_specs`.
/// InvalidArgumentError when the counts or dtypes disagree (a corrupt or
/// foreign SavedModel).
std::shared_ptr<ConcreteFunction> restore_concrete_function(const std::string& name, const std::string& inference_name,
                                                            std::vector<Param> params, const std::vector<Value>& arg_specs,
                                                            std::shared_ptr<Graph> graph, const Value& output_specs);

}  // namespace ag
