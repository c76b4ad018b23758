// Running one op eagerly: check arity, apply the shape rule, prepare the CPU
// kernel and run it. The graph builder uses infer_outputs() the same way, so
// an op's errors read the same eagerly and while tracing.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "runtime/ops/registry.h"

namespace ag {

/// The output types of `op` on inputs of `inputs` types (values in `constants`
/// where known; the node's subgraphs, for ops that have them). Throws the
/// op's errors (InvalidArgumentError, ...).
std::vector<TensorSpec> infer_outputs(const OpDef& op, std::span<const TensorSpec> inputs, const Attrs& attrs,
                                      std::span<const Tensor* const> constants,
                                      std::span<const std::shared_ptr<Graph>> subgraphs = {});
/// The same for a context the caller built (a graph node's, which it reads
/// back after a failure: InferContext::requested).
std::vector<TensorSpec> infer_outputs(const OpDef& op, const InferContext& ctx);

/// Runs `op` on `inputs` now and returns its outputs.
std::vector<Tensor> run_op(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs = {});
std::vector<Tensor> run_op(OpType op, std::span<const Tensor> inputs, const Attrs& attrs = {});
/// run_op for an op with exactly one output.
Tensor run_op1(OpType op, std::span<const Tensor> inputs, const Attrs& attrs = {});

/// Forgets the eager kernels kept for seeded random ops (tf.random.set_seed
/// does this, as TF clears its eager caches: the sequences start over).
void clear_eager_kernel_cache();

}  // namespace ag
