// Placing the selected functions on the TPU (TPU_EMULATOR.md B9): every call
// of a TPU function made by CPU code (the GraphDef, and every function no
// TPU function reaches) becomes a TPUPartitionedCall of it, fed the core a
// TPUOrdinalSelector picks; calls made inside TPU functions stay, compiled
// into their caller's program. A function selected by signature_name gets a
// CPU stub (TF's call stub) that the signature then runs.
#pragma once

#include <vector>

#include "runtime/tpu/model_functions.h"
#include "runtime/tpu/tpu_selection.h"

namespace tensorflow {
class MetaGraphDef;
}  // namespace tensorflow

namespace ag::tpu {

/// How the placed calls run, recorded on them for the emulator
/// (underscore attrs, which TensorFlow ignores).
struct PlacementOptions {
  bool io_shape_optimization = true;
  bool bfloat16_optimization = true;
  /// xla_sharding_options' cores the program is split over (section 8).
  int num_cores_per_replica = 1;
};

/// Rewrites `meta` in place. `model` describes `meta` before the rewrite.
void place_on_tpu(tensorflow::MetaGraphDef& meta, const std::vector<TpuSelection>& selected, const ModelFunctions& model,
                  const PlacementOptions& options);

}  // namespace ag::tpu
