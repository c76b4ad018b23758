// Graph builders for the ops rewrites create: a pass asks for "the select
// of c, a, b" and never names an op type (graph/optimize/ passes read traits
// and build through these; the op types live here, as checked constants).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "runtime/graph/graph.h"

namespace ag::build {

/// where(c, a, b) with broadcasting (SelectV2).
Output select(Graph& g, Output c, Output a, Output b, std::string_view name = "Select");
/// `x` reshaped to `shape` (Reshape of an int64 Const).
Output reshape(Graph& g, Output x, const Shape& shape, std::string_view name = "Reshape");
/// op(a)·op(b) of 2-D a, b (MatMul).
Output matmul(Graph& g, Output a, Output b, bool transpose_a, bool transpose_b, std::string_view name = "MatMul");

/// Turns node `at` into a FusedMatMul of `inputs` (linalg_ops.cpp lists its
/// attributes); its outputs must keep their types.
void fused_matmul(Node& at, std::vector<Output> inputs, Attrs attrs);
/// Turns node `at` into a FusedElementwise running `body` (fused_ops.h) on `inputs`.
void fused_elementwise(Node& at, std::shared_ptr<Graph> body, std::vector<Output> inputs);
/// A new FusedScalar node running `body` on `inputs`, appended to `g`.
Node* fused_scalar(Graph& g, std::shared_ptr<Graph> body, std::vector<Output> inputs, std::string_view name);

}  // namespace ag::build
