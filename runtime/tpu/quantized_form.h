// The form a quantized target takes in the model (TPU_EMULATOR.md B38-B41),
// TF's XLA op-set form in ops TensorFlow runs too:
//   - static range: the activation quantized with its calibrated range; an
//     XlaDotV2 or XlaConvV2 of int8 operands summed in int32 (a convolution's
//     input padded first with its zero point, so every window sums the
//     same zero-point share); that share and a fused bias (int32, scale
//     s_in·s_w) applied in int32; the sum requantized to the output's
//     calibrated range, clamped as a fused Relu/Relu6 clamps, and
//     dequantized for the float consumers that follow (B41);
//   - dynamic range: the activation's range taken from each call's values;
//     the int32 sum scaled straight back to float;
//   - weight only: int8 weights dequantized before the float op;
//   - a Gather (any method): rows gathered from an int8 table, dequantized.
// Weights are frozen into int8 constants (B40). The quantize and requantize
// steps run in float64, out of the bfloat16 optimization's reach, so the
// rounding is B41's whatever the placement.
#pragma once

#include <vector>

#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/core/tensor.h"
#include "runtime/tpu/quantization_params.h"
#include "runtime/tpu/quantization_targets.h"

namespace ag::tpu {

/// A target's int8 weights and their parameters: one, or one per output
/// channel (the last dim).
struct QuantizedWeight {
  Tensor values;
  std::vector<QuantParams> params;
  float scale(int64_t channel) const;
};

/// B40: per-tensor symmetric, or per channel when asked (never for a Gather's table).
QuantizedWeight quantize_weight(const Target& t, bool per_channel);

/// The target's product rewritten; the float result is read where
/// `t.output` was. Its nodes are left for the caller to remove.
void emit_static(tensorflow::FunctionDef& f, const Target& t, const QuantizedWeight& w, QuantParams in,
                 QuantParams out);
void emit_dynamic(tensorflow::FunctionDef& f, const Target& t, const QuantizedWeight& w);
/// The target reads its weights dequantized; what fed them goes.
void emit_weight_only(tensorflow::FunctionDef& f, const Target& t, const QuantizedWeight& w);
/// The Gather reads the int8 table and its rows are dequantized; the float table's source goes.
void emit_gather(tensorflow::FunctionDef& f, const Target& t, const QuantizedWeight& w);

}  // namespace ag::tpu
