// The bfloat16 optimization's conversion-time checks (TPU_EMULATOR.md B34,
// B35): the safety check refuses a scope that holds bfloat16 ops already,
// and filterlist names that match no op in the scope are reported. The
// rounding itself happens where the TPU programs run (exec/tpu_emulator).
#pragma once

#include <string>
#include <vector>

#include "runtime/core/proto/converter_options.pb.h"
#include "runtime/tpu/model_functions.h"

namespace tensorflow {
class MetaGraphDef;
}  // namespace tensorflow

namespace ag::tpu {

/// The functions the optimization covers: what the TPU functions reach
/// (scope DEFAULT or TPU), or every function (scope ALL).
std::vector<std::string> bfloat16_scope(const ConverterOptions& options, const ModelFunctions& model,
                                        const std::vector<std::string>& tpu_functions,
                                        const tensorflow::MetaGraphDef& meta);

/// B35: FailedPreconditionError "bfloat16 optimization: the model already
/// contains bfloat16 ops (OPS); set skip_safety_checks to proceed" when a
/// node of the scope has a bfloat16 type attr, unless skip_safety_checks.
/// B34: returns a warning per filterlist name no op of the scope has.
std::vector<std::string> check_bfloat16(const ConverterOptions& options, const ModelFunctions& model,
                                        const std::vector<std::string>& scope);

}  // namespace ag::tpu
