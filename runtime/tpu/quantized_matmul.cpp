// The integer pipeline of a quantized MatMul, B41's order: int32 product,
// int32 bias added, one requantization.
#include "runtime/tpu/quantized_matmul.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "runtime/core/error.h"
#include "runtime/ops/kernels/int8_gemm.h"

namespace ag::tpu {

int32_t quantize_bias(float bias, float input_scale, float weight_scale) {
  const double scale = static_cast<double>(input_scale) * static_cast<double>(weight_scale);
  const double q = std::round(static_cast<double>(bias) / scale);
  if (std::isnan(q)) return 0;
  return static_cast<int32_t>(std::clamp(q, static_cast<double>(std::numeric_limits<int32_t>::min()),
                                         static_cast<double>(std::numeric_limits<int32_t>::max())));
}

int8_t requantize(int32_t acc, double acc_scale, QuantParams out) {
  const double q = std::round(static_cast<double>(acc) * (acc_scale / static_cast<double>(out.scale)));
  return static_cast<int8_t>(std::clamp(q + out.zero_point, static_cast<double>(kActivationQMin),
                                        static_cast<double>(kActivationQMax)));
}

Tensor quantized_matmul(const Tensor& x, QuantParams input, const Tensor& w, const std::vector<QuantParams>& weight,
                        const Tensor& bias, QuantParams output) {
  if (x.dtype() != DType::Int8 || w.dtype() != DType::Int8) {
    throw InvalidArgumentError("quantized_matmul needs int8 operands");
  }
  if (x.rank() != 2 || w.rank() != 2 || x.shape().dim(1) != w.shape().dim(0)) {
    throw InvalidArgumentError("Matrix size-incompatible: In[0]: " + x.shape().debug_string() +
                               ", In[1]: " + w.shape().debug_string());
  }
  const int64_t m = x.shape().dim(0), k = x.shape().dim(1), n = w.shape().dim(1);
  if (weight.size() != 1 && static_cast<int64_t>(weight.size()) != n) {
    throw InvalidArgumentError("expected 1 or " + std::to_string(n) + " weight parameters, got " +
                               std::to_string(weight.size()));
  }
  const bool has_bias = bias.defined();
  if (has_bias && (bias.dtype() != DType::Float32 || bias.rank() != 1 || bias.shape().dim(0) != n)) {
    throw InvalidArgumentError("bias must be float32 [" + std::to_string(n) + "], got " +
                               std::string(dtype_name(bias.dtype())) + " " + bias.shape().debug_string());
  }
  std::vector<int32_t> acc(static_cast<size_t>(m * n));
  kernels::int8_gemm(x.data<int8_t>(), w.data<int8_t>(), acc.data(), m, n, k, k, n, n, input.zero_point);
  // Each output column j has the scale s_in · s_w[j] (s_w per tensor or per channel).
  std::vector<double> acc_scale(static_cast<size_t>(n));
  std::vector<int32_t> bias_q(static_cast<size_t>(n), 0);
  for (int64_t j = 0; j < n; ++j) {
    const float sw = weight[weight.size() == 1 ? 0 : static_cast<size_t>(j)].scale;
    acc_scale[j] = static_cast<double>(input.scale) * static_cast<double>(sw);
    if (has_bias) bias_q[j] = quantize_bias(bias.data<float>()[j], input.scale, sw);
  }
  Tensor y(DType::Int8, Shape{m, n});
  int8_t* out = y.data<int8_t>();
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      // The bias joins the int32 sum, wrapping as TF's int32 add would.
      const int32_t sum =
          static_cast<int32_t>(static_cast<uint32_t>(acc[i * n + j]) + static_cast<uint32_t>(bias_q[j]));
      out[i * n + j] = requantize(sum, acc_scale[j], output);
    }
  }
  return y;
}

}  // namespace ag::tpu
