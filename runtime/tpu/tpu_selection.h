// Which functions the converter places on the TPU (TPU_EMULATOR.md B3-B6)
// and the indirect-call restriction between them (B8).
#pragma once

#include <string>
#include <vector>

#include "runtime/core/proto/converter_options.pb.h"
#include "runtime/tpu/model_functions.h"

namespace ag::tpu {

/// One tpu_functions entry: the concrete functions it selects (an alias
/// names every trace of its tf.function) and its report row's name (the
/// alias when selected by alias, else the concrete or signature name).
struct TpuSelection {
  std::string report_name;
  std::vector<std::string> functions;
  bool signature = false;  // selected by signature_name: the whole signature function
};

/// The entries of `options.tpu_functions` in order. NotFoundError for an
/// alias, concrete name or signature the model lacks (B4); a function
/// selected twice is InvalidArgumentError (B5); jit_compile_functions
/// selects every jit-compiled function, none being no error (B6).
std::vector<TpuSelection> select_tpu_functions(const ConverterOptions& options, const ModelFunctions& model);

/// B8: for TPU functions F != G, a call path from F to G whose last call is
/// made by a function other than F is InvalidArgumentError "Unable to place
/// both "F" and "G" on the TPU because "F" indirectly calls "G". ...". The
/// first violation in tpu_functions order, then callee depth-first order.
void check_indirect_calls(const std::vector<TpuSelection>& selected, const ModelFunctions& model);

/// Every selected function, in selection order.
std::vector<std::string> tpu_function_names(const std::vector<TpuSelection>& selected);

}  // namespace ag::tpu
