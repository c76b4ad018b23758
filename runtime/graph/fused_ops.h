// FusedElementwise and FusedScalar: nodes that fusion (the last graph stage,
// after differentiation and device placement) makes of a run of ordinary
// elementwise nodes. A fused node holds that run as an ordinary subgraph
// (its body: one placeholder per input, copies of the nodes, the values used
// outside as outputs), so printing, verifying and compiling it need nothing
// but the ops' own definitions: its kernel (exec/fused_kernels.cpp) strings
// the body's ElementwiseDefs together.
//   FusedElementwise: one output; every value in the body has the output's
//     dtype and shape, or is a scalar input (broadcast); it runs the body over
//     the data in cache-sized blocks.
//   FusedScalar: scalars (rank 0) of the ScalarReg dtypes, any number of
//     outputs; it runs the body as one ScalarProgram.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "runtime/graph/graph.h"

namespace ag {

class OpRegistry;

inline constexpr int kFusedElementwiseMaxOps = 24;
inline constexpr int kFusedElementwiseMaxInputs = 8;
inline constexpr int kFusedScalarMaxOps = 64;
inline constexpr int kFusedScalarMaxInputs = 32;

/// A fused node's body: copies of `members` (nodes of `g` in order, each
/// reading only earlier members or other tensors of g) in a new graph nested
/// in g, whose placeholders stand for the other tensors (appended to
/// `inputs`, the fused node's inputs, in placeholder order) and whose outputs
/// are `results` (values of members).
std::shared_ptr<Graph> fusion_body(Graph& g, std::span<Node* const> members, std::span<const Output> results,
                                   std::vector<Output>& inputs);

/// Registers FusedElementwise and FusedScalar (their kernels: exec/).
void register_fused_ops(OpRegistry& reg);

}  // namespace ag
