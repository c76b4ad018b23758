// A tf.function called eagerly while a GradientTape records (GRADIENTS.md
// 1.5). TF records the call as one op whose backward differentiates the
// function's graph. agc runs such a call's graph op by op instead, through
// apply_op, so the tape records each op: the gradient is exact, higher
// derivatives work, and nothing runs twice (no forward is recomputed for
// the backward). The compiled plan serves every call no tape watches.
//
// A graph holding If or While nodes cannot run op by op yet: it runs its
// plan, and the call is recorded with a backward that raises
// UnimplementedError when a gradient actually flows through it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/graph/tracing.h"

namespace ag {

class Graph;

/// The outputs of `graph` (a traced function) on `inputs` (one per input
/// placeholder), run op by op so that recording tapes see every op; nullopt
/// when the graph has nodes that cannot run that way (control flow).
std::optional<std::vector<TensorHandle>> run_graph_taped(const Graph& graph, std::span<const TensorHandle> inputs);

/// Records a call that ran its plan (run_graph_taped declined) with a
/// backward that says why its gradient is not available.
void record_untaped_call(const Graph& graph, const std::string& function_name, std::span<const TensorHandle> inputs,
                         std::span<const TensorHandle> outputs);

}  // namespace ag
