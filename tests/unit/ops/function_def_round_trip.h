// The op sweep's FunctionDef round trip: the first calls of each op the
// family tests run (run1/runv) are also written as one NodeDef of a
// FunctionDef (graph/function_def), checked against the op's declared TF
// arguments, read back and run, so every op with a sweep case is saved and
// loaded the way a SavedModel saves and loads it.
#pragma once

#include <vector>

#include "runtime/core/tensor.h"
#include "runtime/ops/op_def.h"

namespace ag::test {

/// After `op` ran eagerly on `inputs` with `attrs` and gave `outputs`: for
/// its first calls (a few per op) when it declares TF arguments, a graph of
/// Consts feeding one `op` node is written with export_function_def. CHECKs
/// that the NodeDef reads its Consts through TF's argument lists, carries
/// each type, number and type-list attr with the value its tensors give,
/// that the function's results name the node's output args
/// ("TopKV2:indices:0"), and that the graph read back with
/// FunctionDefReader computes what the written graph computes (for a
/// stateful op, whose effects are not repeated: the same output types).
void check_function_def_round_trip(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                                   const std::vector<Tensor>& outputs);

}  // namespace ag::test
