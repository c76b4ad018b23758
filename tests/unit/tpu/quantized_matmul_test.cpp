// TPU_EMULATOR.md B41: int8 x int8 -> int32 products, the bias at scale
// s_in·s_w, and requantization, by hand and against float32.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/ops/kernels/int8_gemm.h"
#include "runtime/tpu/quantized_matmul.h"

using namespace ag;
using namespace ag::tpu;

TEST_CASE("int8_gemm sums int8 products in int32, the left zero point taken out") {
  const int8_t a[] = {1, -2, 127, -128};
  const int8_t b[] = {3, -1, 4, 2};
  int32_t c[4];
  kernels::int8_gemm(a, b, c, 2, 2, 2, 2, 2, 2);
  CHECK(std::vector<int32_t>(c, c + 4) == std::vector<int32_t>{-5, -5, -131, -383});
  // With zero point -128 the left operand reads a + 128: {129, 126}, {255, 0}.
  kernels::int8_gemm(a, b, c, 2, 2, 2, 2, 2, 2, -128);
  CHECK(std::vector<int32_t>(c, c + 4) == std::vector<int32_t>{891, 123, 765, -255});
  // Strides: a 1×2 view of a row of 3, into a C row of 3.
  int32_t wide[3] = {9, 9, 9};
  const int8_t a3[] = {2, 3, 100};
  kernels::int8_gemm(a3, b, wide, 1, 2, 2, 3, 2, 3);
  CHECK(std::vector<int32_t>(wide, wide + 3) == std::vector<int32_t>{18, 4, 9});
}

TEST_CASE("int8_gemm's VNNI and portable paths give the same bits") {
  if (!kernels::int8_gemm_has_vnni()) return;  // nothing to compare on this CPU
  // Sizes off every block (6 rows, 64 columns, 4 K per quad), row strides
  // wider than the rows, every int8 value, and two threads.
  for (auto [m, n, k] : {std::array<int64_t, 3>{1, 1, 1}, {7, 65, 5}, {13, 130, 67}, {50, 64, 128}}) {
    const int64_t lda = k + 3, ldb = n + 5, ldc = n + 2;
    std::vector<int8_t> a(static_cast<size_t>(m * lda)), b(static_cast<size_t>(k * ldb));
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int8_t>((i * 37 + 11) % 256);
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int8_t>((i * 53 + 7) % 256);
    for (int32_t zp : {0, -128, 127, 17}) {
      std::vector<int32_t> fast(static_cast<size_t>(m * ldc), 1), portable(fast);
      kernels::int8_gemm(a.data(), b.data(), fast.data(), m, n, k, lda, ldb, ldc, zp, 2, kernels::Int8GemmPath::Vnni);
      kernels::int8_gemm(a.data(), b.data(), portable.data(), m, n, k, lda, ldb, ldc, zp, 1,
                         kernels::Int8GemmPath::Portable);
      CHECK(fast == portable);
    }
  }
}

TEST_CASE("bias quantizes at s_in·s_w and sums requantize to the output's int8") {
  CHECK(quantize_bias(0.75f, 0.5f, 0.25f) == 6);
  CHECK(quantize_bias(-0.0625f, 0.5f, 0.25f) == -1);  // -0.5 rounds away from zero
  CHECK(quantize_bias(1e30f, 1e-3f, 1e-3f) == 2147483647);
  CHECK(requantize(22, 0.125, QuantParams{1.0f, 5}) == 8);    // 2.75 -> 3, + 5
  CHECK(requantize(-20, 0.125, QuantParams{1.0f, 5}) == 2);   // -2.5 -> -3, + 5
  CHECK(requantize(100000, 0.125, QuantParams{1.0f, 5}) == 127);
  CHECK(requantize(-100000, 0.125, QuantParams{1.0f, 5}) == -128);
}

TEST_CASE("a quantized matmul by hand: x [1,2] · w [2,1] + bias") {
  // x = [1, 2] at scale 0.5, zp -10 -> [-8, -6]; w = [1, 0.5] at 0.25 -> [4, 2].
  // (−8+10)·4 + (−6+10)·2 = 16 at scale 0.125 = 2.0; bias 0.75 -> 6; 22 ->
  // 2.75 -> round 3 + zp 5 = 8, which dequantizes to 3.
  const QuantParams in{0.5f, -10}, w_params{0.25f, 0}, out{1.0f, 5};
  const Tensor x = quantize(Tensor::from_vector<float>(Shape{1, 2}, {1.0f, 2.0f}), in);
  const Tensor w = quantize(Tensor::from_vector<float>(Shape{2, 1}, {1.0f, 0.5f}), w_params, kWeightQMin, kWeightQMax);
  CHECK(x.data<int8_t>()[0] == -8);
  CHECK(w.data<int8_t>()[1] == 2);
  const Tensor bias = Tensor::from_vector<float>(Shape{1}, {0.75f});
  const Tensor y = quantized_matmul(x, in, w, {w_params}, bias, out);
  CHECK(y.shape() == Shape{1, 1});
  CHECK(y.data<int8_t>()[0] == 8);
  CHECK(dequantize(y, out).data<float>()[0] == 3.0f);
  // Without bias: 16 -> 2.0 -> 2 + 5 = 7.
  CHECK(quantized_matmul(x, in, w, {w_params}, Tensor(), out).data<int8_t>()[0] == 7);
}

TEST_CASE("a calibrated quantized matmul stays close to float32, per tensor and per channel") {
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> xs(-1.0f, 3.0f), ws(-0.5f, 0.5f);
  const int64_t m = 8, k = 64, n = 16;
  std::vector<float> xv(m * k), wv(k * n), bv(n);
  for (auto& v : xv) v = xs(rng);
  for (auto& v : wv) v = ws(rng);
  // Columns of very different magnitudes: where per-channel scales help.
  for (int64_t r = 0; r < k; ++r)
    for (int64_t j = 0; j < n; ++j) wv[r * n + j] *= (j % 2 == 0) ? 1.0f : 0.01f;
  for (auto& v : bv) v = ws(rng);
  std::vector<float> yv(m * n);
  float lo = 0, hi = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = bv[j];
      for (int64_t r = 0; r < k; ++r) s += static_cast<double>(xv[i * k + r]) * wv[r * n + j];
      yv[i * n + j] = static_cast<float>(s);
      lo = std::min(lo, yv[i * n + j]);
      hi = std::max(hi, yv[i * n + j]);
    }
  const Tensor x = Tensor::from_vector<float>(Shape{m, k}, xv);
  const Tensor w = Tensor::from_vector<float>(Shape{k, n}, wv);
  const Tensor bias = Tensor::from_vector<float>(Shape{n}, bv);
  const QuantParams in = activation_params(-1.0f, 3.0f), out = activation_params(lo, hi);
  const Tensor xq = quantize(x, in);

  auto worst_error = [&](const Tensor& y, bool only_odd_columns) {
    const Tensor back = dequantize(y, out);
    float worst = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        if (!only_odd_columns || j % 2 == 1) {
          worst = std::max(worst, std::fabs(back.data<float>()[i * n + j] - yv[i * n + j]));
        }
    return worst;
  };
  const QuantParams wt = weight_params(w);
  const Tensor y_tensor = quantized_matmul(xq, in, quantize(w, wt, kWeightQMin, kWeightQMax), {wt}, bias, out);
  const std::vector<QuantParams> wc = per_channel_weight_params(w, -1);
  const Tensor y_channel = quantized_matmul(xq, in, quantize_per_channel(w, wc, -1), wc, bias, out);
  // Bound: the output's half step, plus the input's and weights' rounding
  // carried through k products (|x| <= 3, |w| <= 0.5).
  const float bound = out.scale / 2 + k * (in.scale / 2 * 0.5f + 3.0f * wt.scale / 2);
  CHECK(worst_error(y_tensor, false) <= bound);
  CHECK(worst_error(y_channel, false) <= bound);
  // On the small columns per-channel scales are far finer.
  CHECK(worst_error(y_channel, true) <= worst_error(y_tensor, true));
  CHECK_THROWS_AS(quantized_matmul(xq, in, xq, {wt}, bias, out), InvalidArgumentError);
  CHECK_THROWS_AS(quantized_matmul(x, in, w, {wt}, bias, out), InvalidArgumentError);
}
