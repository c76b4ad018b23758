// A static-range quantized MatMul (TPU_EMULATOR.md B41): int8 input × int8
// weights summed in int32 (kernels::int8_gemm), the bias quantized at scale
// s_in·s_w, and the sum requantized to the output's calibrated int8 range.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/core/tensor.h"
#include "runtime/tpu/quantization_params.h"

namespace ag::tpu {

/// A bias value as int32 at scale input_scale · weight_scale, zero point 0:
/// round(bias / (s_in · s_w)) half away from zero, clamped to int32.
int32_t quantize_bias(float bias, float input_scale, float weight_scale);

/// An int32 sum at scale `acc_scale` (s_in · s_w) as an int8 of `out`:
/// clamp(round(acc · acc_scale / out.scale) + out.zero_point, −128, 127), the
/// ratio taken in double [E].
int8_t requantize(int32_t acc, double acc_scale, QuantParams out);

/// y = x · w + bias, quantized: x int8 [M, K] with `input`, w int8 [K, N]
/// with one QuantParams (per tensor) or N (per output channel), bias float32
/// [N] or undefined, the result int8 [M, N] with `output`.
/// InvalidArgumentError for mismatched dtypes or shapes.
Tensor quantized_matmul(const Tensor& x, QuantParams input, const Tensor& w, const std::vector<QuantParams>& weight,
                        const Tensor& bias, QuantParams output);

}  // namespace ag::tpu
