// Symbolic gradients of the graph being built (tf.gradients, and TF1's
// optimizers' compute_gradients). Internal to runtime/api.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "runtime/graph/tracing.h"
#include "runtime/value/value.h"

namespace ag::tf {

/// d(sum of targets · seeds)/d(x) for each x of `xs` (tensors of `g`, or
/// variables read in it), built as nodes of `g`; nullopt where no node of
/// `g` connects them. `seeds`: one per target, nullopt for ones_like.
std::vector<std::optional<TensorHandle>> graph_gradients(Graph& g, std::span<const TensorHandle> targets,
                                                        std::span<const std::optional<TensorHandle>> seeds,
                                                        std::span<const Value> xs);

}  // namespace ag::tf
