// int8_gemm on VPDPBUSD, which sums four products of an unsigned byte and a
// signed byte into each int32 lane. A's int8 becomes unsigned by adding 128
// (flipping its sign bit), so each sum gains 128·Σ_r B[r][j]; that and the
// zero point's share, (128 + zp)·Σ_r B[r][j], are taken out at the end. All
// of it wraps modulo 2^32, as the portable path's unsigned sums do, so the
// two give the same bits. Only the functions here carry the AVX512 target.
#include "runtime/ops/kernels/int8_gemm_vnni.h"

#if defined(__x86_64__)

#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "runtime/ops/kernels/panel_tiles.h"

#define AG_AVX512VNNI __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

namespace ag::kernels::detail {
namespace {

// A panel is 64 result columns, 4 registers of 16 int32 lanes; lane j of a
// quad holds B[4p..4p+3][j], the four bytes VPDPBUSD pairs with A's.
constexpr int64_t kPanel = 64;
constexpr int kBlocks = kPanel / 16;
// 6 rows × 4 accumulators + 4 B registers + 1 broadcast fit 32 zmm registers.
constexpr int kRows = 6;
using QuadWord = uint32_t __attribute__((may_alias));

/// B (k×n, row stride ldb) as panels of quads, zeros past k and n: each
/// lane's word is four rows' bytes of one column, built a row of words at a
/// time so the loop vectorizes.
void pack_b(const int8_t* b, int64_t k, int64_t n, int64_t ldb, int64_t quads, int8_t* out) {
  const int64_t panels = (n + kPanel - 1) / kPanel;
  std::memset(out, 0, static_cast<size_t>(panels * quads * kPanel * 4));
  const std::vector<uint8_t> zeros(static_cast<size_t>(n), 0);
  for (int64_t p = 0; p < quads; ++p) {
    const uint8_t* rows[4];
    for (int t = 0; t < 4; ++t) {
      rows[t] = 4 * p + t < k ? reinterpret_cast<const uint8_t*>(b + (4 * p + t) * ldb) : zeros.data();
    }
    for (int64_t q = 0; q < panels; ++q) {
      auto* dst = reinterpret_cast<QuadWord*>(out + (q * quads + p) * kPanel * 4);
      const int64_t j0 = q * kPanel, cols = std::min(kPanel, n - j0);
      for (int64_t j = 0; j < cols; ++j) {
        dst[j] = static_cast<uint32_t>(rows[0][j0 + j]) | static_cast<uint32_t>(rows[1][j0 + j]) << 8 |
                 static_cast<uint32_t>(rows[2][j0 + j]) << 16 | static_cast<uint32_t>(rows[3][j0 + j]) << 24;
      }
    }
  }
}

/// R rows × one panel over all quads into C (its `cols` columns), the
/// correction of each column subtracted.
template <int R>
AG_AVX512VNNI void micro_kernel(const QuadWord* a, int64_t a_stride, const int8_t* panel, int64_t quads,
                                const int32_t* correction, int32_t* c, int64_t ldc, int64_t cols) {
  __m512i acc[R][kBlocks];
  for (int r = 0; r < R; ++r)
    for (int blk = 0; blk < kBlocks; ++blk) acc[r][blk] = _mm512_setzero_si512();
  for (int64_t p = 0; p < quads; ++p) {
    const int8_t* bp = panel + p * kPanel * 4;
    __m512i bv[kBlocks];
    for (int blk = 0; blk < kBlocks; ++blk) bv[blk] = _mm512_loadu_si512(bp + blk * 64);
    for (int r = 0; r < R; ++r) {
      const __m512i av = _mm512_set1_epi32(static_cast<int>(a[r * a_stride + p]));
      for (int blk = 0; blk < kBlocks; ++blk) acc[r][blk] = _mm512_dpbusd_epi32(acc[r][blk], av, bv[blk]);
    }
  }
  for (int blk = 0; blk < kBlocks; ++blk) {
    const int64_t left = std::clamp<int64_t>(cols - blk * 16, 0, 16);
    if (left == 0) break;
    const __mmask16 mask = static_cast<__mmask16>((1u << left) - 1u);
    const __m512i corr = _mm512_maskz_loadu_epi32(mask, correction + blk * 16);
    for (int r = 0; r < R; ++r) {
      _mm512_mask_storeu_epi32(c + r * ldc + blk * 16, mask, _mm512_sub_epi32(acc[r][blk], corr));
    }
  }
}

using MicroKernel = void (*)(const QuadWord*, int64_t, const int8_t*, int64_t, const int32_t*, int32_t*, int64_t,
                             int64_t);
constexpr MicroKernel kMicroKernels[kRows + 1] = {nullptr,          micro_kernel<1>, micro_kernel<2>, micro_kernel<3>,
                                                  micro_kernel<4>, micro_kernel<5>, micro_kernel<6>};

}  // namespace

void int8_gemm_vnni(const int8_t* a, const int8_t* b, int32_t* c, int64_t m, int64_t n, int64_t k, int64_t lda,
                    int64_t ldb, int64_t ldc, int32_t a_zero_point, int threads) {
  if (m <= 0 || n <= 0) return;
  const int64_t quads = (k + 3) / 4;
  const int64_t panels = (n + kPanel - 1) / kPanel;
  std::vector<int8_t> packed_b(static_cast<size_t>(panels * quads * kPanel * 4));
  pack_b(b, k, n, ldb, quads, packed_b.data());
  // (128 + zp) · Σ_r B[r][j], modulo 2^32, padded to whole panels; summed
  // row by row, so the sums vectorize and B is read in order.
  std::vector<uint32_t> sums(static_cast<size_t>(panels * kPanel), 0u);
  for (int64_t r = 0; r < k; ++r) {
    for (int64_t j = 0; j < n; ++j) sums[j] += static_cast<uint32_t>(static_cast<int32_t>(b[r * ldb + j]));
  }
  std::vector<int32_t> correction(sums.size());
  const uint32_t offset = 128u + static_cast<uint32_t>(a_zero_point);
  for (size_t j = 0; j < sums.size(); ++j) correction[j] = static_cast<int32_t>(sums[j] * offset);
  // A + 128 as unsigned bytes, rows padded to whole quads (B is zero there).
  std::vector<uint32_t> packed_a(static_cast<size_t>(m * quads), 0u);
  for (int64_t i = 0; i < m; ++i) {
    auto* row = reinterpret_cast<uint8_t*>(packed_a.data() + i * quads);
    for (int64_t r = 0; r < k; ++r) row[r] = static_cast<uint8_t>(a[i * lda + r]) ^ 0x80u;
  }
  const QuadWord* a_quads = packed_a.data();
  for_each_tile(m, n, k, threads, kPanel, kRows, [&](int64_t i, int rows, int64_t q, int64_t cols) {
    kMicroKernels[rows](a_quads + i * quads, quads, packed_b.data() + q * quads * kPanel * 4, quads,
                        correction.data() + q * kPanel, c + i * ldc + q * kPanel, ldc, cols);
  });
}

}  // namespace ag::kernels::detail

#endif  // defined(__x86_64__)
