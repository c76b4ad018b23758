// TPU_EMULATOR.md B32: the bf16 matrix product with float32 sums, its two
// paths bit for bit, its error against a double reference, and the float32
// precisions.
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "runtime/ops/kernels/bf16_gemm.h"
#include "runtime/ops/kernels/gemm.h"

using ag::bfloat16;
using namespace ag::kernels;

namespace {

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

bfloat16 bf(float f) {
  const bfloat16 r(f);
  REQUIRE(static_cast<float>(r) == f);  // the vectors below use exact bf16 values
  return r;
}

std::vector<Bf16GemmPath> paths() {
  std::vector<Bf16GemmPath> p = {Bf16GemmPath::Portable};
  if (bf16_gemm_has_avx512bf16()) p.push_back(Bf16GemmPath::Avx512Bf16);
  return p;
}

/// One output element: a 1×k row times a k×1 column, on `path`.
float dot(const std::vector<bfloat16>& a, const std::vector<bfloat16>& b, Bf16GemmPath path) {
  float c = -1234.0f;
  bf16_gemm(a.data(), b.data(), &c, 1, 1, static_cast<int64_t>(a.size()), static_cast<int64_t>(a.size()), 1, 1, 1,
            path);
  return c;
}

std::vector<bfloat16> random_bf16(size_t n, std::mt19937& rng) {
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<bfloat16> v(n);
  for (auto& x : v) x = bfloat16(dist(rng));
  return v;
}

}  // namespace

TEST_CASE("pairs run in K order, each pair's odd element first, as VDPBF16PS does") {
  const float tiny = std::ldexp(1.0f, -30);
  const std::vector<bfloat16> ones = {bf(1), bf(1), bf(1), bf(1)};
  for (Bf16GemmPath path : paths()) {
    CAPTURE(static_cast<int>(path));
    // Pair 0 leaves -1; pair 1 adds its odd 1 (-> 0), then its even 2^-30.
    // Even first, pair 1 would give (-1 + 2^-30) + 1 = 0.
    CHECK(dot({bf(0), bf(-1), bf(tiny), bf(1)}, ones, path) == tiny);
    // Pair 0 (-1 in its even slot) before pair 1: -1 + 0, + 1, + 2^-30.
    // Pair 1 first would give (1 + 2^-30) - 1 = 0.
    CHECK(dot({bf(-1), bf(0), bf(tiny), bf(1)}, ones, path) == tiny);
  }
}

TEST_CASE("each step rounds once: a fused multiply-add, rounded between steps") {
  for (Bf16GemmPath path : paths()) {
    // Starting from acc = 1 (pair 0: 1·1 in the odd slot), 1 + 2^-24 is a tie
    // and rounds to 1 twice; one rounding of 1 + 2^-23 would be 1 + 2^-23.
    const float half_ulp = std::ldexp(1.0f, -24);
    CHECK(dot({bf(0), bf(1), bf(half_ulp), bf(half_ulp)}, {bf(0), bf(1), bf(1), bf(1)}, path) == 1.0f);
    // Fused: 2^127·2 + (-1.5·2^127) = 2^126 although 2^128 alone overflows.
    CHECK(dot({bf(std::ldexp(2.0f, 127 - 1)), bf(-1.5f * std::ldexp(1.0f, 127))},
              {bf(2), bf(1)}, path) == std::ldexp(1.0f, 126));
  }
}

TEST_CASE("denormal operands read as zero and tiny results flush, tininess after rounding") {
  const float flt_min = FLT_MIN;
  for (Bf16GemmPath path : paths()) {
    // A bf16 denormal times 2^100 would be 2^-33; DAZ makes it 0.
    CHECK(dot({bfloat16::from_bits(0x0001), bf(0)}, {bf(std::ldexp(1.0f, 100)), bf(0)}, path) == 0.0f);
    // A product of 2^-140 is a float denormal: flushed.
    CHECK(bits(dot({bf(std::ldexp(1.0f, -70)), bf(0)}, {bf(std::ldexp(1.0f, -70)), bf(0)}, path)) == 0u);
    // -2^-140 flushes to -0.
    CHECK(bits(dot({bf(-std::ldexp(1.0f, -70)), bf(0)}, {bf(std::ldexp(1.0f, -70)), bf(0)}, path)) == 0x80000000u);
    // acc = FLT_MIN (odd slot), then FLT_MIN - 1.5·2^-151: as a subnormal it
    // rounds to FLT_MIN, but to 24 bits it is FLT_MIN - 2^-150, tiny: 0.
    CHECK(dot({bf(-1.5f * std::ldexp(1.0f, -75)), bf(1)}, {bf(std::ldexp(1.0f, -76)), bf(flt_min)}, path) == 0.0f);
    // FLT_MIN - 2^-152 rounds to FLT_MIN even to 24 bits: not tiny, kept.
    CHECK(dot({bf(-std::ldexp(1.0f, -76)), bf(1)}, {bf(std::ldexp(1.0f, -76)), bf(flt_min)}, path) == flt_min);
    // Exactly FLT_MIN - 2^-151: a tie, to FLT_MIN's even significand: kept.
    CHECK(dot({bf(-std::ldexp(1.0f, -75)), bf(1)}, {bf(std::ldexp(1.0f, -76)), bf(flt_min)}, path) == flt_min);
  }
}

TEST_CASE("the portable path gives the AVX512-BF16 path's bits on odd-sized random matrices") {
  if (!bf16_gemm_has_avx512bf16()) {
    MESSAGE("this CPU has no AVX512-BF16: only the portable path runs here");
    return;
  }
  std::mt19937 rng(7);
  const int64_t sizes[][3] = {{1, 1, 1}, {7, 13, 5}, {13, 67, 31}, {37, 129, 101}, {64, 64, 64}, {65, 33, 257}};
  for (const auto& s : sizes) {
    const int64_t m = s[0], n = s[1], k = s[2];
    CAPTURE(m);
    CAPTURE(n);
    CAPTURE(k);
    // Row strides wider than the rows, to check the strides are honoured.
    const int64_t lda = k + 3, ldb = n + 1, ldc = n + 2;
    auto a = random_bf16(static_cast<size_t>(m * lda), rng);
    auto b = random_bf16(static_cast<size_t>(k * ldb), rng);
    std::vector<float> c1(static_cast<size_t>(m * ldc), 7.0f), c2 = c1;
    bf16_gemm(a.data(), b.data(), c1.data(), m, n, k, lda, ldb, ldc, 2, Bf16GemmPath::Portable);
    bf16_gemm(a.data(), b.data(), c2.data(), m, n, k, lda, ldb, ldc, 2, Bf16GemmPath::Avx512Bf16);
    int64_t differ = 0;
    for (size_t i = 0; i < c1.size(); ++i) differ += bits(c1[i]) != bits(c2[i]);
    CHECK(differ == 0);
    // C's columns past n are never written.
    CHECK(c1[static_cast<size_t>(n)] == 7.0f);
    CHECK(c2[static_cast<size_t>(n)] == 7.0f);
    CHECK(c1[static_cast<size_t>(n + 1)] == 7.0f);
    CHECK(c2[static_cast<size_t>(n + 1)] == 7.0f);
  }
}

TEST_CASE("the two paths agree where sums cross FLT_MIN and flush") {
  if (!bf16_gemm_has_avx512bf16()) {
    MESSAGE("this CPU has no AVX512-BF16: only the portable path runs here");
    return;
  }
  // Operands near 2^-63 make products near 2^-126: many partial sums are
  // tiny (flushed) or land at FLT_MIN, so every branch of the FTZ emulation runs.
  std::mt19937 rng(13);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  const int64_t m = 31, n = 47, k = 63;
  std::vector<bfloat16> a(static_cast<size_t>(m * k)), b(static_cast<size_t>(k * n));
  for (auto& x : a) x = bfloat16(std::ldexp(dist(rng), -62));
  for (auto& x : b) x = bfloat16(std::ldexp(dist(rng), -64));
  std::vector<float> c1(static_cast<size_t>(m * n)), c2(c1.size());
  bf16_gemm(a.data(), b.data(), c1.data(), m, n, k, k, n, n, 2, Bf16GemmPath::Portable);
  bf16_gemm(a.data(), b.data(), c2.data(), m, n, k, k, n, n, 2, Bf16GemmPath::Avx512Bf16);
  int64_t differ = 0, zeros = 0, normal = 0;
  for (size_t i = 0; i < c1.size(); ++i) {
    differ += bits(c1[i]) != bits(c2[i]);
    zeros += c2[i] == 0.0f;
    normal += std::fabs(c2[i]) >= FLT_MIN;
  }
  CHECK(differ == 0);
  CHECK(zeros > 0);
  CHECK(normal > 0);
}

TEST_CASE("results stay within the float32 summation bound of a double reference") {
  std::mt19937 rng(11);
  const int64_t m = 17, n = 23, k = 301;
  auto a = random_bf16(static_cast<size_t>(m * k), rng);
  auto b = random_bf16(static_cast<size_t>(k * n), rng);
  for (Bf16GemmPath path : paths()) {
    std::vector<float> c(static_cast<size_t>(m * n));
    bf16_gemm(a.data(), b.data(), c.data(), m, n, k, k, n, n, 2, path);
    // Products are exact; k sums each rounding by at most 2^-24 relative:
    // |c - exact| <= gamma_k · sum |a||b|, gamma_k = k·u / (1 - k·u).
    const double u = std::ldexp(1.0, -24), gamma = k * u / (1 - k * u);
    double worst = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double exact = 0, magnitude = 0;
        for (int64_t r = 0; r < k; ++r) {
          const double p = static_cast<double>(static_cast<float>(a[i * k + r])) * static_cast<float>(b[r * n + j]);
          exact += p;
          magnitude += std::fabs(p);
        }
        const double err = std::fabs(c[i * n + j] - exact);
        REQUIRE(err <= gamma * magnitude);
        worst = std::max(worst, err / magnitude);
      }
    CHECK(worst > 0);  // float32 sums do round: the reference is not the result itself
  }
}

TEST_CASE("the result depends on neither the thread count nor the path chosen, and k = 0 gives zeros") {
  std::mt19937 rng(3);
  const int64_t m = 150, n = 130, k = 77;
  auto a = random_bf16(static_cast<size_t>(m * k), rng);
  auto b = random_bf16(static_cast<size_t>(k * n), rng);
  for (Bf16GemmPath path : paths()) {
    std::vector<float> one(static_cast<size_t>(m * n)), two(one.size());
    bf16_gemm(a.data(), b.data(), one.data(), m, n, k, k, n, n, 1, path);
    bf16_gemm(a.data(), b.data(), two.data(), m, n, k, k, n, n, 2, path);
    CHECK(std::memcmp(one.data(), two.data(), one.size() * sizeof(float)) == 0);
    // Auto takes one of the paths, so it gives their bits too.
    std::vector<float> automatic(one.size());
    bf16_gemm(a.data(), b.data(), automatic.data(), m, n, k, k, n, n, 2, Bf16GemmPath::Auto);
    CHECK(std::memcmp(one.data(), automatic.data(), one.size() * sizeof(float)) == 0);
    std::vector<float> c(6, 5.0f);
    bf16_gemm(a.data(), b.data(), c.data(), 2, 3, 0, 1, 3, 3, 2, path);
    for (float x : c) CHECK(bits(x) == 0u);
  }
}

TEST_CASE("float32 at DEFAULT precision multiplies bf16-rounded operands; HIGHEST is exact float32") {
  std::mt19937 rng(5);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  const int64_t m = 9, n = 11, k = 21;
  std::vector<float> a(static_cast<size_t>(m * k)), b(static_cast<size_t>(k * n));
  for (auto& x : a) x = dist(rng);
  for (auto& x : b) x = dist(rng);
  std::vector<bfloat16> ar(a.size()), br(b.size());
  for (size_t i = 0; i < a.size(); ++i) ar[i] = bfloat16(a[i]);
  for (size_t i = 0; i < b.size(); ++i) br[i] = bfloat16(b[i]);

  std::vector<float> def(static_cast<size_t>(m * n)), rounded(def.size()), highest(def.size()), f32(def.size());
  tpu_f32_gemm(a.data(), b.data(), def.data(), m, n, k, k, n, n, F32MatmulPrecision::Default);
  bf16_gemm(ar.data(), br.data(), rounded.data(), m, n, k, k, n, n);
  CHECK(std::memcmp(def.data(), rounded.data(), def.size() * sizeof(float)) == 0);

  tpu_f32_gemm(a.data(), b.data(), highest.data(), m, n, k, k, n, n, F32MatmulPrecision::Highest);
  gemm(a.data(), b.data(), f32.data(), m, n, k, k, n, n, false, false);
  CHECK(std::memcmp(highest.data(), f32.data(), f32.size() * sizeof(float)) == 0);

  // The two precisions differ by bf16's rounding of the operands (2^-9
  // relative each), far more than float32's own error.
  double max_diff = 0;
  for (size_t i = 0; i < def.size(); ++i) max_diff = std::max(max_diff, std::fabs(double(def[i]) - highest[i]));
  CHECK(max_diff > 1e-3);
  CHECK(max_diff < 0.5);

  // A 1×1×1 product by hand: 1 + 2^-10 is not a bf16 (7 mantissa bits) and
  // rounds to 1, so DEFAULT gives 3 where HIGHEST gives 3 + 3·2^-10.
  const float x = 1.0f + std::ldexp(1.0f, -10), y = 3.0f;
  float c = 0;
  tpu_f32_gemm(&x, &y, &c, 1, 1, 1, 1, 1, 1, F32MatmulPrecision::Default);
  CHECK(c == 3.0f);
  tpu_f32_gemm(&x, &y, &c, 1, 1, 1, 1, 1, 1, F32MatmulPrecision::Highest);
  CHECK(c == 3.0f + 3.0f * std::ldexp(1.0f, -10));
}
