// The converter (TPU_EMULATOR.md section 3; the seed's `docker run
// ${CONVERTER_IMAGE} --input_model_dir=... --output_model_dir=...
// --converter_options_string=...`): a SavedModel in, the same model with its
// TPU functions placed on the TPU out, and the conversion report.
#pragma once

#include <string>

namespace ag::tpu {

/// Converts the SavedModel in `input_dir` into `output_dir` and returns the
/// conversion report (section 7), after a "WARNING: ..." line per problem
/// that does not stop the conversion (B34's unknown filterlist names). The output is written to a fresh
/// directory beside it and renamed into place, so a failure leaves no
/// partial output; `output_dir` must not exist or be empty
/// (AlreadyExistsError otherwise). Errors are the options' (B1, B2, B7),
/// the selection's (B4-B6), the indirect-call check's (B8), the SavedModel
/// reader's (OSError) and the quantizer's (tpu/quantization.h). Warnings
/// also come from quantization (B43's sample count, B44's unreached ops).
std::string convert_saved_model(const std::string& input_dir, const std::string& output_dir,
                                const std::string& converter_options);

}  // namespace ag::tpu
