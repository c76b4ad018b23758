// Post-training int8 quantization's arithmetic (TPU_EMULATOR.md section 6):
// the scale and zero point of weights (B40: symmetric, narrow range, per
// tensor or per channel) and of activations (B41: asymmetric), quantizing and
// dequantizing float32 tensors with them, and the option checks of B38/B40
// with TF's ValueError texts (quantize_model.py).
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/core/dtype.h"
#include "runtime/core/proto/converter_options.pb.h"
#include "runtime/core/tensor.h"

namespace ag::tpu {

/// real = scale · (q − zero_point).
struct QuantParams {
  float scale = 1.0f;
  int32_t zero_point = 0;
  friend bool operator==(const QuantParams&, const QuantParams&) = default;
};

/// The int8 range of weights (narrow: −128 unused, so −w quantizes to −q).
inline constexpr int32_t kWeightQMin = -127, kWeightQMax = 127;
/// The int8 range of activations.
inline constexpr int32_t kActivationQMin = -128, kActivationQMax = 127;

/// B40: a weight range [min, max] first widened to include 0, then scale =
/// max(|min|, |max|) / 127, zero point 0. An all-zero range gives scale 1 [E]
/// (every weight quantizes to 0 whatever the scale).
QuantParams weight_params(float min, float max);

/// weight_params over every element of `weights` (float32).
QuantParams weight_params(const Tensor& weights);

/// B40 per channel: weight_params over each index of `axis` (negative counts
/// from the end; the output-channel axis, the last for MatMul's [K, N] and
/// Conv2D's [H, W, Cin, Cout]).
std::vector<QuantParams> per_channel_weight_params(const Tensor& weights, int axis);

/// B41: an activation range [min, max] widened to include 0; scale =
/// (max − min) / 255, zero_point = clamp(round(−128 − min / scale), −128, 127),
/// computed in float32 as the tensors hold them; an all-zero range gives
/// scale 1, zero point 0 [E].
QuantParams activation_params(float min, float max);

/// clamp(round(x / scale) + zero_point, qmin, qmax), x / scale in double,
/// rounding half away from zero [E]. NaN quantizes to the zero point [E].
int8_t quantize_value(float x, QuantParams p, int32_t qmin = kActivationQMin, int32_t qmax = kActivationQMax);

/// (q − zero_point) · scale.
float dequantize_value(int8_t q, QuantParams p);

/// A float32 tensor as int8 with `p`, clamped to [qmin, qmax].
Tensor quantize(const Tensor& x, QuantParams p, int32_t qmin = kActivationQMin, int32_t qmax = kActivationQMax);

/// Weights quantized per channel along `axis`, to [−127, 127].
Tensor quantize_per_channel(const Tensor& weights, const std::vector<QuantParams>& params, int axis);

/// An int8 tensor back to float32.
Tensor dequantize(const Tensor& q, QuantParams p);

/// An int8 tensor quantized per channel along `axis` back to float32.
Tensor dequantize_per_channel(const Tensor& q, const std::vector<QuantParams>& params, int axis);

/// What a quantization component spec describes.
enum class QuantizationComponent { Activation, Weight, Bias };

/// B38: weights and activations must be int8 ("Only int8 precision is
/// supported for input operands."), bias int32 ("Only int32 precision is
/// supported for bias."); ValueError otherwise.
void check_component_dtype(QuantizationComponent component, DType dtype);

/// B40: per-channel quantization needs the UNIFORM_QUANTIZED op set or the
/// weight-only method, else ValueError "Currently, per-channel quantization
/// is supported for Uniform Quantized opset and Weight-only.".
void check_per_channel_quantization(bool enable_per_channel, QuantizationOptions::OpSet op_set,
                                    QuantizationOptions::Method method);

}  // namespace ag::tpu
