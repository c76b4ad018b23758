// bf16_gemm's dispatch and its portable path: std::fma steps that repeat
// VDPBF16PS's arithmetic (bf16_gemm.h) bit for bit, whatever the MXCSR says.
#include "runtime/ops/kernels/bf16_gemm.h"

#include <algorithm>
#include <bit>
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

/// One exact step of the contract: a fused multiply-add whose result FTZ
/// flushes when tiny (the operands are already read with DAZ, and `acc`,
/// a flushed result or the initial zero, is never denormal).
float exact_step(float acc, float a, float b) {
  const float r = std::fma(a, b, acc);
  return std::fabs(r) <= FLT_MIN ? flush_tiny(acc, a, b, r) : r;
}

// The portable path computes blocks of kRows rows × kCols columns with their
// sums held over the whole of K: plain fused multiply-adds, which GCC
// vectorizes, and a test of whether any step's result lies in (0, FLT_MIN]
// in magnitude. Without such a result DAZ and FTZ change
// nothing, so the block's bits are the contract's; with one, the block is
// summed again step by step through exact_step (rare: sums near 2^-126).
constexpr int kRows = 4;
constexpr int64_t kCols = 16;

/// R rows (`a` rows of the padded K, row stride `lda`) × kCols columns of
/// `b` (row stride ldb, padded with zero columns) into `out` (R × kCols);
/// false when a result fell in (0, FLT_MIN].
template <int R>
bool fast_block(const float* a, int64_t lda, const float* b, int64_t ldb, int64_t pairs, float* out) {
  float acc[R][kCols] = {};
  // Per column, the smallest of (|result| bits · 2) − 1, unsigned: a result
  // is tiny exactly when this is below FLT_MIN's bits · 2, ±0 wrapping to
  // the largest value. A shift, a subtract and an unsigned min per result,
  // kept per column so the loop needs no horizontal reduction.
  uint32_t smallest[kCols];
  std::fill(smallest, smallest + kCols, 0xFFFFFFFFu);
  for (int64_t p = 0; p < pairs; ++p) {
    const float* b1 = b + (2 * p + 1) * ldb;
    const float* b0 = b + (2 * p) * ldb;
    for (int r = 0; r < R; ++r) {
      const float a1 = a[r * lda + 2 * p + 1], a0 = a[r * lda + 2 * p];
      for (int64_t j = 0; j < kCols; ++j) {
        const float x = std::fma(a1, b1[j], acc[r][j]);
        const float y = std::fma(a0, b0[j], x);
        smallest[j] = std::min(smallest[j], (std::bit_cast<uint32_t>(x) << 1) - 1u);
        smallest[j] = std::min(smallest[j], (std::bit_cast<uint32_t>(y) << 1) - 1u);
        acc[r][j] = y;
      }
    }
  }
  for (int r = 0; r < R; ++r) std::copy(acc[r], acc[r] + kCols, out + r * kCols);
  return *std::min_element(smallest, smallest + kCols) >= (std::bit_cast<uint32_t>(FLT_MIN) << 1);
}

/// The same block summed through exact_step, element by element.
void exact_block(int rows, const float* a, int64_t lda, const float* b, int64_t ldb, int64_t pairs, float* out) {
  for (int r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < kCols; ++j) {
      float acc = 0.0f;
      for (int64_t p = 0; p < pairs; ++p) {
        acc = exact_step(acc, a[r * lda + 2 * p + 1], b[(2 * p + 1) * ldb + j]);
        acc = exact_step(acc, a[r * lda + 2 * p], b[(2 * p) * ldb + j]);
      }
      out[r * kCols + j] = acc;
    }
  }
}

using FastBlock = bool (*)(const float*, int64_t, const float*, int64_t, int64_t, float*);
constexpr FastBlock kFastBlocks[kRows + 1] = {nullptr, fast_block<1>, fast_block<2>, fast_block<3>, fast_block<4>};

void bf16_gemm_portable(const bfloat16* a, const bfloat16* b, float* c, int64_t m, int64_t n, int64_t k,
                        int64_t lda, int64_t ldb, int64_t ldc, int threads) {
  if (m <= 0 || n <= 0) return;
  const int64_t pairs = (k + 1) / 2, padded_k = 2 * pairs;
  const int64_t col_blocks = (n + kCols - 1) / kCols, padded_n = col_blocks * kCols;
  // Both operands widened to float once, denormals read as zeros, K padded
  // to even and B's columns to whole blocks with zeros.
  std::vector<float> af(static_cast<size_t>(m * padded_k), 0.0f), bf(static_cast<size_t>(padded_k * padded_n), 0.0f);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t r = 0; r < k; ++r) af[i * padded_k + r] = denormal_as_zero(static_cast<float>(a[i * lda + r]));
  for (int64_t r = 0; r < k; ++r)
    for (int64_t j = 0; j < n; ++j) bf[r * padded_n + j] = denormal_as_zero(static_cast<float>(b[r * ldb + j]));
  const int64_t row_blocks = (m + kRows - 1) / kRows, units = row_blocks * col_blocks;
  const double macs = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  const int parts = threads > 1 && threads_for(macs) > 1 ? static_cast<int>(std::min<int64_t>(units, 8)) : 1;
  parallel_for(units, parts, [&](int64_t first, int64_t last) {
    float out[kRows * kCols];
    for (int64_t u = first; u < last; ++u) {
      const int64_t i0 = (u / col_blocks) * kRows, j0 = (u % col_blocks) * kCols;
      const int rows = static_cast<int>(std::min<int64_t>(kRows, m - i0));
      const float* ablock = af.data() + i0 * padded_k;
      const float* bblock = bf.data() + j0;
      if (!kFastBlocks[rows](ablock, padded_k, bblock, padded_n, pairs, out)) {
        exact_block(rows, ablock, padded_k, bblock, padded_n, pairs, out);
      }
      const int64_t cols = std::min(kCols, n - j0);
      for (int r = 0; r < rows; ++r) std::copy(out + r * kCols, out + r * kCols + cols, c + (i0 + r) * ldc + j0);
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
