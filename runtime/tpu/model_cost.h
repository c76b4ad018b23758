// The conversion report's costs (TPU_EMULATOR.md section 7, [E]): each op
// node of the functions the signatures reach, each FunctionDef once, costs
// 1 + floor(W / 1000), W being 2·b·M·K·N for a contraction, the element
// count of its largest operand or result otherwise, and 0 for arguments,
// constants, identities, casts and the free ops (reshapes, shapes, control
// flow, whose functions are costed on their own); unknown dims count as 1.
// A function is charged to the first TPU selection that is it or reaches
// it, else to the CPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/tpu/conversion_report.h"
#include "runtime/tpu/model_functions.h"
#include "runtime/tpu/tpu_selection.h"

namespace ag::tpu {

struct ModelCost {
  int64_t cpu = 0;
  std::vector<ReportRow> tpu;  // one per selection, in order
};

/// The costs of `meta`'s served functions, read as agc graphs (shapes
/// inferred through the functions from the signatures' inputs and the
/// variables' saved shapes); a function agc cannot read (an op it lacks)
/// costs 1 per non-free node.
ModelCost model_cost(const tensorflow::MetaGraphDef& meta, const ModelFunctions& model,
                     const std::vector<TpuSelection>& selected);

}  // namespace ag::tpu
