// Section 6's formulas (B40, B41) and TF's option checks (quantize_model.py).
#include "runtime/tpu/quantization_params.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "runtime/core/error.h"

namespace ag::tpu {
namespace {

void require_dtype(const Tensor& t, DType want, const char* what) {
  if (t.dtype() != want) {
    throw InvalidArgumentError(std::string(what) + " must be " + dtype_name(want) + ", got " + dtype_name(t.dtype()));
  }
}

/// The axis a per-channel call names, as a non-negative index.
int normalize_axis(const Tensor& t, int axis) {
  const int rank = t.rank();
  if (axis < -rank || axis >= rank) {
    throw InvalidArgumentError("per-channel axis " + std::to_string(axis) + " is out of range for rank " +
                               std::to_string(rank));
  }
  return axis < 0 ? axis + rank : axis;
}

/// Row-major layout seen from one axis: element e lies in channel
/// (e / inner) % channels.
struct AxisLayout {
  int64_t channels = 1, inner = 1;
  int64_t channel_of(int64_t e) const { return (e / inner) % channels; }
};

AxisLayout layout_along(const Tensor& t, int axis) {
  AxisLayout l;
  l.channels = t.shape().dim(axis);
  for (int i = axis + 1; i < t.rank(); ++i) l.inner *= t.shape().dim(i);
  return l;
}

void check_params_count(const std::vector<QuantParams>& params, const AxisLayout& l) {
  if (static_cast<int64_t>(params.size()) != l.channels) {
    throw InvalidArgumentError("expected " + std::to_string(l.channels) + " per-channel parameters, got " +
                               std::to_string(params.size()));
  }
}

}  // namespace

QuantParams weight_params(float min, float max) {
  // Symmetric and narrow (S16's quantization_utils): the range holds 0, the
  // larger side maps to ±127, zero point 0.
  min = std::min(min, 0.0f);
  max = std::max(max, 0.0f);
  const float bound = std::max(std::fabs(min), std::fabs(max));
  if (bound == 0.0f) return {1.0f, 0};
  return {bound / 127.0f, 0};
}

QuantParams weight_params(const Tensor& weights) {
  require_dtype(weights, DType::Float32, "weights");
  const float* w = weights.data<float>();
  const int64_t n = weights.num_elements();
  if (n == 0) return {1.0f, 0};
  const auto [lo, hi] = std::minmax_element(w, w + n);
  return weight_params(*lo, *hi);
}

std::vector<QuantParams> per_channel_weight_params(const Tensor& weights, int axis) {
  require_dtype(weights, DType::Float32, "weights");
  const AxisLayout l = layout_along(weights, normalize_axis(weights, axis));
  std::vector<float> lo(static_cast<size_t>(l.channels), std::numeric_limits<float>::infinity());
  std::vector<float> hi(static_cast<size_t>(l.channels), -std::numeric_limits<float>::infinity());
  const float* w = weights.data<float>();
  for (int64_t e = 0; e < weights.num_elements(); ++e) {
    const int64_t c = l.channel_of(e);
    lo[c] = std::min(lo[c], w[e]);
    hi[c] = std::max(hi[c], w[e]);
  }
  std::vector<QuantParams> params;
  params.reserve(lo.size());
  for (size_t c = 0; c < lo.size(); ++c) {
    params.push_back(lo[c] > hi[c] ? QuantParams{} : weight_params(lo[c], hi[c]));  // empty channel
  }
  return params;
}

QuantParams activation_params(float min, float max) {
  min = std::min(min, 0.0f);
  max = std::max(max, 0.0f);
  if (max == min) return {1.0f, 0};  // both 0: any scale represents it [E]
  const float scale = (max - min) / 255.0f;
  // The zero point is the int8 code of real 0: min maps to −128.
  const float zp = std::round(-128.0f - min / scale);
  return {scale, static_cast<int32_t>(std::clamp(zp, -128.0f, 127.0f))};
}

int8_t quantize_value(float x, QuantParams p, int32_t qmin, int32_t qmax) {
  // In double, as the quantized model's graph divides (tpu/quantization):
  // its float64 steps are out of the bfloat16 optimization's reach.
  const double q = std::round(static_cast<double>(x) / static_cast<double>(p.scale));  // half away from zero
  if (std::isnan(q)) return static_cast<int8_t>(std::clamp(p.zero_point, qmin, qmax));
  // Clamp before converting: x / scale may be far outside int32.
  const double shifted = std::clamp(q + static_cast<double>(p.zero_point), static_cast<double>(qmin),
                                    static_cast<double>(qmax));
  return static_cast<int8_t>(shifted);
}

float dequantize_value(int8_t q, QuantParams p) {
  return static_cast<float>(static_cast<int32_t>(q) - p.zero_point) * p.scale;
}

Tensor quantize(const Tensor& x, QuantParams p, int32_t qmin, int32_t qmax) {
  require_dtype(x, DType::Float32, "the tensor to quantize");
  Tensor q(DType::Int8, x.shape());
  const float* in = x.data<float>();
  int8_t* out = q.data<int8_t>();
  for (int64_t e = 0; e < x.num_elements(); ++e) out[e] = quantize_value(in[e], p, qmin, qmax);
  return q;
}

Tensor quantize_per_channel(const Tensor& weights, const std::vector<QuantParams>& params, int axis) {
  require_dtype(weights, DType::Float32, "weights");
  const AxisLayout l = layout_along(weights, normalize_axis(weights, axis));
  check_params_count(params, l);
  Tensor q(DType::Int8, weights.shape());
  const float* in = weights.data<float>();
  int8_t* out = q.data<int8_t>();
  for (int64_t e = 0; e < weights.num_elements(); ++e) {
    out[e] = quantize_value(in[e], params[l.channel_of(e)], kWeightQMin, kWeightQMax);
  }
  return q;
}

Tensor dequantize(const Tensor& q, QuantParams p) {
  require_dtype(q, DType::Int8, "the tensor to dequantize");
  Tensor x(DType::Float32, q.shape());
  const int8_t* in = q.data<int8_t>();
  float* out = x.data<float>();
  for (int64_t e = 0; e < q.num_elements(); ++e) out[e] = dequantize_value(in[e], p);
  return x;
}

Tensor dequantize_per_channel(const Tensor& q, const std::vector<QuantParams>& params, int axis) {
  require_dtype(q, DType::Int8, "the tensor to dequantize");
  const AxisLayout l = layout_along(q, normalize_axis(q, axis));
  check_params_count(params, l);
  Tensor x(DType::Float32, q.shape());
  const int8_t* in = q.data<int8_t>();
  float* out = x.data<float>();
  for (int64_t e = 0; e < q.num_elements(); ++e) out[e] = dequantize_value(in[e], params[l.channel_of(e)]);
  return x;
}

void check_component_dtype(QuantizationComponent component, DType dtype) {
  switch (component) {
    case QuantizationComponent::Activation:
    case QuantizationComponent::Weight:
      if (dtype != DType::Int8) throw ValueError("Only int8 precision is supported for input operands.");
      return;
    case QuantizationComponent::Bias:
      if (dtype != DType::Int32) throw ValueError("Only int32 precision is supported for bias.");
      return;
  }
}

void check_per_channel_quantization(bool enable_per_channel, QuantizationOptions::OpSet op_set,
                                    QuantizationOptions::Method method) {
  if (enable_per_channel && op_set != QuantizationOptions::UNIFORM_QUANTIZED &&
      method != QuantizationOptions::WEIGHT_ONLY) {
    throw ValueError("Currently, per-channel quantization is supported for Uniform Quantized opset and Weight-only.");
  }
}

}  // namespace ag::tpu
