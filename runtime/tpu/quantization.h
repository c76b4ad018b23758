// Post-training quantization in the converter (TPU_EMULATOR.md section 6,
// B37-B44): the model's float32 MatMuls whose right operand is a constant or
// a saved variable become int8 products, as TF's quantizer makes them for
// the XLA op set, in ops TensorFlow runs too:
//   - static range: the activation quantized with its calibrated range, an
//     XlaDotV2 of int8 operands summed in int32, the zero point's share of
//     the sum and a fused AddV2 bias (int32, scale s_in·s_w) applied in
//     int32, the sum requantized to the output's calibrated range and
//     dequantized for the float consumers that follow (B41);
//   - dynamic range: the activation's range taken from each call's values;
//     the int32 sum scaled straight back to float;
//   - weight only: int8 weights dequantized before a float MatMul.
// Weights are frozen into int8 constants (B40). The quantize and requantize
// steps run in float64, out of the bfloat16 optimization's reach, so the
// rounding is B41's whatever the placement.
//
// Calibration runs the float model on the representative dataset's samples
// (TFRecord files of RepresentativeDataSample) with each quantizable op's
// input and output threaded through a CustomAggregator, whose values the
// calibrators of tpu/calibration collect.
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
/// (B44: they stay float). ValueError with TF's texts for B38/B40's option
/// checks and B43's dataset checks; NotFoundError for an unknown signature
/// key; the TFRecord reader's errors for a bad dataset file.
std::vector<std::string> quantize_model(tensorflow::MetaGraphDef& meta, const QuantizationOptions& options,
                                        const std::string& input_dir);

}  // namespace ag::tpu
