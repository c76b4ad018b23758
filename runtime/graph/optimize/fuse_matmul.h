// The FusedMatMul rewrite (a pass of its own file: runtime/graph/optimize/
// optimize.h lists the others).
#pragma once

namespace ag {

class Graph;

/// Fuses a float32/float64 2-D product (an op of semantic MatMul) with what
/// consumes it alone into one FusedMatMul node (runtime/ops/linalg_ops.cpp),
/// which takes the last fused node's place and name: the sum with a second
/// such product (an Add), then the sum with a tensor of the result's shape,
/// then a bias vector (an Add of an [n] vector: BiasAdd once canonicalized),
/// then any unary elementwise op as the activation; at least one of them.
/// Shapes must be fully defined. Run it before fuse_elementwise (which would
/// take the Add or the activation).
/// Before: h = Tanh(AddV2(AddV2(MatMul(x, w), MatMul(h0, u)), b))
/// After:  h = FusedMatMul(x, w, h0, u, b){products 2, bias, activation Tanh}
void fuse_matmul(Graph& g);

}  // namespace ag
