// bf16_gemm's dispatch and its portable path: std::fma steps that repeat
// VDPBF16PS's arithmetic (bf16_gemm.h) bit for bit, whatever the MXCSR says.
#include "runtime/ops/kernels/bf16_gemm.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/ops/kernels/bf16_gemm_avx512.h"
#include "runtime/ops/kernels/gemm.h"

namespace ag::kernels {
namespace {

/// DAZ: a float32 denormal read as a zero of its sign.
float denormal_as_zero(float x) { return std::fabs(x) < FLT_MIN ? std::copysign(0.0f, x) : x; }

/// FTZ for a step whose rounded result r has |r| <= FLT_MIN (the caller's
/// fast test): flushes it when x86 would call it tiny, i.e. when the exact
/// acc + a·b is below FLT_MIN - 2^-151 in magnitude (below that it rounds to
/// 24 bits under FLT_MIN; at or above, to FLT_MIN: ties go to its even
/// significand). Only |r| == FLT_MIN needs the exact sum: a·b is exact in
/// double (two 8-bit significands) and TwoSum gives the sum's rounding error.
float flush_tiny(float acc, float a, float b, float r) {
  if (std::fabs(r) < FLT_MIN) return std::copysign(0.0f, r);
  const double p = static_cast<double>(a) * static_cast<double>(b);
  const double s = p + static_cast<double>(acc);
  const double bv = s - p;
  const double err = (p - (s - bv)) + (static_cast<double>(acc) - bv);  // exact: s + err == p + acc
  const double sign = r < 0 ? -1.0 : 1.0;
  const double mag = s * sign, mag_err = err * sign;
  const double threshold = static_cast<double>(FLT_MIN) - std::ldexp(1.0, -151);
  const bool tiny = mag < threshold || (mag == threshold && mag_err < 0);
  return tiny ? std::copysign(0.0f, r) : r;
}

/// One row of C: acc[j] over every pair of the padded K, in the contract's
/// order. The fused multiply-adds run over the whole row first (so they
/// vectorize); the rare results at or below FLT_MIN are then fixed one by one.
/// `a` is the row's K values, `b` the K×n operand, both already widened with
/// DAZ and with the padding zero row at index k when k is odd.
void portable_row(const float* a, const float* b, int64_t pairs, int64_t n, float* acc, float* next) {
  std::fill(acc, acc + n, 0.0f);
  auto step = [&](float av, const float* brow) {
    for (int64_t j = 0; j < n; ++j) next[j] = std::fma(av, brow[j], acc[j]);
    for (int64_t j = 0; j < n; ++j)
      if (std::fabs(next[j]) <= FLT_MIN) next[j] = flush_tiny(acc[j], av, brow[j], next[j]);
    std::swap(acc, next);
  };
  for (int64_t p = 0; p < pairs; ++p) {
    step(a[2 * p + 1], b + (2 * p + 1) * n);
    step(a[2 * p], b + (2 * p) * n);
  }
  // After an even number of swaps acc is the caller's first buffer again.
}

void bf16_gemm_portable(const bfloat16* a, const bfloat16* b, float* c, int64_t m, int64_t n, int64_t k,
                        int64_t lda, int64_t ldb, int64_t ldc, int threads) {
  if (m <= 0 || n <= 0) return;
  const int64_t pairs = (k + 1) / 2, padded = 2 * pairs;
  // Both operands widened to float once, denormals read as zeros, K padded.
  std::vector<float> bf(static_cast<size_t>(padded * n), 0.0f);
  for (int64_t r = 0; r < k; ++r)
    for (int64_t j = 0; j < n; ++j) bf[r * n + j] = denormal_as_zero(static_cast<float>(b[r * ldb + j]));
  const double macs = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  const int parts = threads > 1 && threads_for(macs) > 1 ? static_cast<int>(std::min<int64_t>(m, 8)) : 1;
  parallel_for(m, parts, [&](int64_t first, int64_t last) {
    std::vector<float> arow(static_cast<size_t>(padded), 0.0f), acc(n), next(n);
    for (int64_t i = first; i < last; ++i) {
      for (int64_t r = 0; r < k; ++r) arow[r] = denormal_as_zero(static_cast<float>(a[i * lda + r]));
      portable_row(arow.data(), bf.data(), pairs, n, acc.data(), next.data());
      std::copy(acc.begin(), acc.end(), c + i * ldc);
    }
  });
}

}  // namespace

bool bf16_gemm_has_avx512bf16() {
#if defined(__x86_64__) && defined(__GNUC__)
  // libgcc's check includes the OS's XCR0 support for the ZMM state.
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bf16");
  return has;
#else
  return false;
#endif
}

void bf16_gemm(const bfloat16* a, const bfloat16* b, float* c, int64_t m, int64_t n, int64_t k, int64_t lda,
               int64_t ldb, int64_t ldc, int threads, Bf16GemmPath path) {
  if (path == Bf16GemmPath::Auto)
    path = bf16_gemm_has_avx512bf16() ? Bf16GemmPath::Avx512Bf16 : Bf16GemmPath::Portable;
  switch (path) {
    case Bf16GemmPath::Avx512Bf16:
      if (!bf16_gemm_has_avx512bf16()) {
        throw InternalError("bf16_gemm: the AVX512-BF16 path was asked for on a CPU without it");
      }
#if defined(__x86_64__)
      detail::bf16_gemm_avx512bf16(a, b, c, m, n, k, lda, ldb, ldc, threads);
#endif
      return;
    case Bf16GemmPath::Portable:
    case Bf16GemmPath::Auto:
      bf16_gemm_portable(a, b, c, m, n, k, lda, ldb, ldc, threads);
      return;
  }
}

void tpu_f32_gemm(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k, int64_t lda,
                  int64_t ldb, int64_t ldc, F32MatmulPrecision precision, int threads) {
  switch (precision) {
    case F32MatmulPrecision::Highest:
      gemm(a, b, c, m, n, k, lda, ldb, ldc, false, false, threads);
      return;
    case F32MatmulPrecision::Default: {
      // The MXU reads bfloat16: round each operand once (B31), then the bf16 product.
      std::vector<bfloat16> ab(static_cast<size_t>(m * k)), bb(static_cast<size_t>(k * n));
      for (int64_t i = 0; i < m; ++i)
        for (int64_t r = 0; r < k; ++r) ab[i * k + r] = bfloat16(a[i * lda + r]);
      for (int64_t r = 0; r < k; ++r)
        for (int64_t j = 0; j < n; ++j) bb[r * n + j] = bfloat16(b[r * ldb + j]);
      bf16_gemm(ab.data(), bb.data(), c, m, n, k, k, n, ldc, threads);
      return;
    }
  }
}

}  // namespace ag::kernels
