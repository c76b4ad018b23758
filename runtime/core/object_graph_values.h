// The variable values of an object-based checkpoint (a tf.train.Checkpoint
// or a SavedModel's variables/) by node id of the TrackableObjectGraph it
// records: what tf.saved_model.load binds to its variables and what the
// converter freezes into constants when it quantizes.
#pragma once

#include <map>
#include <string>

#include "runtime/core/tensor.h"

namespace ag {

/// The bundle key of a checkpoint's serialized TrackableObjectGraph.
inline constexpr const char* kObjectGraphKey = "_CHECKPOINTABLE_OBJECT_GRAPH";
/// The attribute name a variable's value is saved under.
inline constexpr const char* kVariableValue = "VARIABLE_VALUE";

/// The variable values of the checkpoint at `prefix`, by node id of its
/// object graph (DataLossError for a checkpoint without a readable one,
/// NotFoundError for a variable whose key is missing).
std::map<int, Tensor> read_object_graph_values(const std::string& prefix);

}  // namespace ag
