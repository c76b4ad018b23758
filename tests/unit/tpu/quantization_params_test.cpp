// TPU_EMULATOR.md B38, B40, B41: quantization parameters, quantize and
// dequantize, and the option checks' ValueError texts. Vectors use scales
// that are powers of two so float32 holds every step exactly.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/tpu/quantization_params.h"

using namespace ag;
using namespace ag::tpu;

namespace {

template <class Fn>
std::string value_error_text(Fn fn) {
  try {
    fn();
  } catch (const ValueError& e) {
    return e.what();
  }
  return "<no ValueError>";
}

}  // namespace

TEST_CASE("B40: weight ranges widen to include 0 and map the larger side to 127") {
  CHECK(weight_params(-127.0f, 63.5f) == QuantParams{1.0f, 0});
  CHECK(weight_params(-100.0f, 254.0f) == QuantParams{2.0f, 0});
  // All positive: min widens to 0, the scale comes from max alone.
  CHECK(weight_params(20.0f, 63.5f) == QuantParams{0.5f, 0});
  // All negative: max widens to 0.
  CHECK(weight_params(-254.0f, -3.0f) == QuantParams{2.0f, 0});
  // All zero [E]: scale 1.
  CHECK(weight_params(0.0f, 0.0f) == QuantParams{1.0f, 0});
}

TEST_CASE("B40: weights quantize symmetrically into [-127, 127], never -128") {
  const QuantParams p{2.0f, 0};
  CHECK(quantize_value(254.0f, p, kWeightQMin, kWeightQMax) == 127);
  CHECK(quantize_value(-254.0f, p, kWeightQMin, kWeightQMax) == -127);
  CHECK(quantize_value(-1000.0f, p, kWeightQMin, kWeightQMax) == -127);
  CHECK(quantize_value(3.0f, p, kWeightQMin, kWeightQMax) == 2);   // 1.5 rounds away from zero
  CHECK(quantize_value(-3.0f, p, kWeightQMin, kWeightQMax) == -2);
  CHECK(quantize_value(0.0f, p, kWeightQMin, kWeightQMax) == 0);
}

TEST_CASE("B40: a whole weight tensor per tensor and per channel") {
  const Tensor w = Tensor::from_vector<float>(Shape{2, 3}, {127.0f, -254.0f, 0.0f,  //
                                                            -63.5f, 100.0f, 0.0f});
  CHECK(weight_params(w) == QuantParams{2.0f, 0});
  const std::vector<QuantParams> per_channel = per_channel_weight_params(w, -1);
  REQUIRE(per_channel.size() == 3);
  CHECK(per_channel[0] == QuantParams{1.0f, 0});
  CHECK(per_channel[1] == QuantParams{2.0f, 0});
  CHECK(per_channel[2] == QuantParams{1.0f, 0});  // an all-zero channel
  const Tensor q = quantize_per_channel(w, per_channel, 1);
  const int8_t* d = q.data<int8_t>();
  CHECK(std::vector<int>(d, d + 6) == std::vector<int>{127, -127, 0, -64, 50, 0});
  const Tensor back = dequantize_per_channel(q, per_channel, -1);
  const float* b = back.data<float>();
  CHECK(std::vector<float>(b, b + 6) == std::vector<float>{127, -254, 0, -64, 100, 0});
  // Along axis 0: rows {127, -254, 0} -> 2, {-63.5, 100, 0} -> 100/127.
  const std::vector<QuantParams> rows = per_channel_weight_params(w, 0);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].scale == 2.0f);
  CHECK(rows[1].scale == 100.0f / 127.0f);
  CHECK_THROWS_AS(per_channel_weight_params(w, 2), InvalidArgumentError);
  CHECK_THROWS_AS(quantize_per_channel(w, rows, 1), InvalidArgumentError);
}

TEST_CASE("B41: activation scale (max - min) / 255 and zero point round(-128 - min / scale)") {
  CHECK(activation_params(-1.0f, 254.0f) == QuantParams{1.0f, -127});
  CHECK(activation_params(-10.0f, 117.5f) == QuantParams{0.5f, -108});
  // -128 + 1.5 = -126.5 rounds away from zero to -127 (ties-to-even: -126).
  CHECK(activation_params(-1.5f, 253.5f) == QuantParams{1.0f, -127});
  // Ranges widen to include 0.
  CHECK(activation_params(2.0f, 255.0f) == QuantParams{1.0f, -128});
  CHECK(activation_params(-255.0f, -3.0f) == QuantParams{1.0f, 127});
  // All zero [E].
  CHECK(activation_params(0.0f, 0.0f) == QuantParams{1.0f, 0});
}

TEST_CASE("B41: quantize rounds half away from zero and clamps to [-128, 127]; dequantize inverts") {
  const QuantParams p{1.0f, -127};
  CHECK(quantize_value(0.0f, p) == -127);
  CHECK(quantize_value(2.5f, p) == -124);
  CHECK(quantize_value(-0.5f, p) == -128);
  CHECK(quantize_value(-2.5f, p) == -128);  // -3 - 127 = -130, clamped
  CHECK(quantize_value(254.0f, p) == 127);
  CHECK(quantize_value(1e30f, p) == 127);
  CHECK(quantize_value(std::nanf(""), p) == -127);
  CHECK(dequantize_value(-124, p) == 3.0f);
  CHECK(dequantize_value(-128, p) == -1.0f);
  CHECK(dequantize_value(127, QuantParams{0.5f, -108}) == 117.5f);
}

TEST_CASE("a quantize/dequantize round trip is off by at most half a step inside the range") {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> dist(-3.0f, 7.0f);
  std::vector<float> values(1000);
  for (auto& v : values) v = dist(rng);
  const Tensor x = Tensor::from_vector<float>(Shape{10, 100}, values);
  const QuantParams p = activation_params(-3.0f, 7.0f);
  const Tensor q = quantize(x, p);
  CHECK(q.dtype() == DType::Int8);
  CHECK(q.shape() == Shape{10, 100});
  const Tensor back = dequantize(q, p);
  float worst = 0;
  for (int i = 0; i < 1000; ++i) worst = std::max(worst, std::fabs(back.data<float>()[i] - values[i]));
  // Half a step, plus float32's rounding of x / scale and (q - zp) · scale.
  CHECK(worst <= p.scale / 2 + 1e-5f);
  CHECK(worst > p.scale / 4);  // the values do get rounded
  // Weights too, symmetric.
  const QuantParams wp = weight_params(x);
  const Tensor wback = dequantize(quantize(x, wp, kWeightQMin, kWeightQMax), wp);
  for (int i = 0; i < 1000; ++i) REQUIRE(std::fabs(wback.data<float>()[i] - values[i]) <= wp.scale / 2 + 1e-5f);
  CHECK_THROWS_AS(quantize(q, p), InvalidArgumentError);
  CHECK_THROWS_AS(dequantize(x, p), InvalidArgumentError);
}

TEST_CASE("B38: weights and activations must be int8, bias int32, with TF's ValueError texts") {
  CHECK_NOTHROW(check_component_dtype(QuantizationComponent::Weight, DType::Int8));
  CHECK_NOTHROW(check_component_dtype(QuantizationComponent::Activation, DType::Int8));
  CHECK_NOTHROW(check_component_dtype(QuantizationComponent::Bias, DType::Int32));
  CHECK(value_error_text([] { check_component_dtype(QuantizationComponent::Weight, DType::Int32); }) ==
        "Only int8 precision is supported for input operands.");
  CHECK(value_error_text([] { check_component_dtype(QuantizationComponent::Activation, DType::UInt8); }) ==
        "Only int8 precision is supported for input operands.");
  CHECK(value_error_text([] { check_component_dtype(QuantizationComponent::Bias, DType::Int8); }) ==
        "Only int32 precision is supported for bias.");
}

TEST_CASE("B40: per-channel needs the UNIFORM_QUANTIZED op set or weight-only") {
  CHECK_NOTHROW(check_per_channel_quantization(false, QuantizationOptions::XLA, QuantizationOptions::STATIC_RANGE));
  CHECK_NOTHROW(
      check_per_channel_quantization(true, QuantizationOptions::UNIFORM_QUANTIZED, QuantizationOptions::STATIC_RANGE));
  CHECK_NOTHROW(check_per_channel_quantization(true, QuantizationOptions::XLA, QuantizationOptions::WEIGHT_ONLY));
  CHECK(value_error_text([] {
          check_per_channel_quantization(true, QuantizationOptions::XLA, QuantizationOptions::STATIC_RANGE);
        }) == "Currently, per-channel quantization is supported for Uniform Quantized opset and Weight-only.");
  CHECK(value_error_text([] {
          check_per_channel_quantization(true, QuantizationOptions::TF, QuantizationOptions::DYNAMIC_RANGE);
        }) == "Currently, per-channel quantization is supported for Uniform Quantized opset and Weight-only.");
}
