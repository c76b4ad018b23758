// The backward walk over recorded ops (GRADIENTS.md 1.3; TF's
// tape.h ComputeGradient): from the targets, each recorded op whose outputs
// received gradients runs its GradFn once, in reverse recording order, and
// the gradients reaching one tensor are summed in a fixed order. GradFns
// build through apply_op, so the walk runs eagerly or adds nodes to the graph
// being traced, and a tape recording meanwhile records the gradient's ops
// (higher derivatives).
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "runtime/graph/tape.h"

namespace ag {

struct GradientSource {
  TensorKey key;
  /// Its static type, for unconnected_gradients='zero'.
  TensorSpec spec;
};

/// d(sum of targets · seeds)/d(source) for each source: nullopt where no
/// recorded path connects them (None). `seeds` holds one entry per target:
/// its upstream gradient, or nullopt for ones_like(target).
/// LookupError (TF's text) for an op on a path that has no gradient.
std::vector<std::optional<TensorHandle>> compute_gradient(std::span<const TapeEntry> entries,
                                                          std::span<const TensorHandle> targets,
                                                          std::span<const std::optional<TensorHandle>> seeds,
                                                          std::span<const GradientSource> sources);

/// The sum of `terms` (at least one), left to right.
TensorHandle add_all(std::span<const TensorHandle> terms);

}  // namespace ag
