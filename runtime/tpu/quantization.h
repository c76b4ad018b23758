// Post-training quantization in the converter (TPU_EMULATOR.md section 6,
// B37-B44): the model's float32 MatMuls, BatchMatMuls, convolutions and
// Gathers whose weights the conversion knows (tpu/quantization_targets)
// take TF's XLA op-set quantized form (tpu/quantized_form): int8 weights,
// int8 activations with static (calibrated) or dynamic ranges, int32 sums.
//
// Calibration runs the float model on the representative dataset's samples
// (TFRecord files of RepresentativeDataSample) with each product's input and
// output threaded through a CustomAggregator, whose values the calibrators
// of tpu/calibration collect.
#pragma once

#include <string>
#include <vector>

#include "runtime/core/proto/converter_options.pb.h"

namespace tensorflow {
class MetaGraphDef;
}

namespace ag::tpu {

/// B37: tags {serve}, signature_keys [serving_default], op_set XLA, method
/// STATIC_RANGE, calibration MIN_MAX, min_num_elements_for_weights 1024 for
/// the dynamic-range and weight-only methods, where unset.
QuantizationOptions quantization_defaults(QuantizationOptions options);

/// Quantizes `meta` (whose variables are those of the SavedModel in
/// `input_dir`) as `options` say, defaults filled. Returns the warnings:
/// fewer than 200 representative samples (B43), ops no sample reached
/// (B44: they stay float), quantizable ops left float and why (B39). ValueError with TF's texts for B38/B40's option
/// checks and B43's dataset checks; NotFoundError for an unknown signature
/// key; the TFRecord reader's errors for a bad dataset file.
std::vector<std::string> quantize_model(tensorflow::MetaGraphDef& meta, const QuantizationOptions& options,
                                        const std::string& input_dir);

}  // namespace ag::tpu
