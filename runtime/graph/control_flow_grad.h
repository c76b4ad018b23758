// The gradients of If, While and function calls (GRADIENTS.md section 2),
// built on the graph as traced. A call's gradient is a call of a graph that
// differentiates the function's; the forward call exports what it reads as
// extra outputs. An If's gradient is an If on the same predicate whose branches
// differentiate the forward branches; the forward If exports what they read
// as extra outputs (the untaken branch fills them with zeros). A While's
// gradient is a While that runs as many iterations as the forward one did,
// in reverse; the forward loop gains an iteration counter and, per tensor of
// its body that the gradient reads, a TensorList accumulator of that
// tensor's value at every iteration. Both rewrites happen when the gradient
// is built, only for what it reads, as TF's cond_v2 and while_v2 do.
#pragma once

#include <string>
#include <vector>

#include "runtime/graph/graph.h"
#include "runtime/ops/grad_context.h"

namespace ag {

std::vector<GradTensor> if_gradient(GradContext& c);
std::vector<GradTensor> while_gradient(GradContext& c);
std::vector<GradTensor> call_gradient(GradContext& c);

/// A body tensor a While saves at every iteration for its gradient.
struct SavedPerIteration {
  std::string tensor;  ///< its name in the body ("add_1:0")
  TensorSpec spec;     ///< one iteration's value
};

/// What `while_node`'s gradients made it save, in the order they asked
/// (empty when nothing differentiated it): the forward loop's memory cost
/// grows by these values times its iteration count.
std::vector<SavedPerIteration> while_saved_tensors(const Node& while_node);

}  // namespace ag
