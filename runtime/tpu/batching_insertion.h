// The converter's batching (TPU_EMULATOR.md B13-B15; the seed's
// batch_options): calls wrapped in a BatchFunction whose options are the
// entry's, so concurrent requests share one run of the function.
//   - no experimental component: every TPU call site (a TPUPartitionedCall
//     placement made) is wrapped: the BatchFunction's function holds the
//     TPU call; resources pass as captured tensors;
//   - experimental.function_alias / concrete_function_name: the CPU call
//     sites of that function are wrapped;
//   - experimental.signature_name: the whole signature (its GraphDef call);
//   - disable_default_optimizations with a model that has BatchFunctions
//     already: their attrs are overwritten and nothing is added (B15).
// Each batched input must have rank >= 1 and an unknown dim 0 (B14), and a
// batched function must run on the CPU.
#pragma once

#include <vector>

#include "runtime/core/proto/converter_options.pb.h"
#include "runtime/tpu/model_functions.h"
#include "runtime/tpu/tpu_selection.h"

namespace tensorflow {
class MetaGraphDef;
}  // namespace tensorflow

namespace ag::tpu {

/// Rewrites `meta` (already placed) for `options.batch_options(0)`; `model`
/// describes `meta` before placement. InvalidArgumentError for B14.
void insert_batching(tensorflow::MetaGraphDef& meta, const ConverterOptions& options,
                     const std::vector<TpuSelection>& selected, const ModelFunctions& model);

}  // namespace ag::tpu
