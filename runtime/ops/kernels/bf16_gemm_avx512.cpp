// bf16_gemm on VDPBF16PS: one instruction per 16 result columns and one pair
// of K does bf16_gemm.h's two steps per lane, odd element first, with its DAZ,
// FTZ and round-to-nearest-even built in. Only the functions here carry the
// AVX512 target, so the rest of the binary still runs on CPUs without it.
#include "runtime/ops/kernels/bf16_gemm_avx512.h"

// x86-64 only: elsewhere bf16_gemm_has_avx512bf16() is false and this file is empty.
#if defined(__x86_64__)

#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "runtime/ops/kernels/panel_tiles.h"

#define AG_AVX512BF16 __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16")))

namespace ag::kernels::detail {
namespace {

// A panel is 64 result columns: 4 registers of 16 lanes. Each lane holds a
// pair (B[2p][j] in the low half, B[2p+1][j] in the high half), the layout
// VDPBF16PS reads: element 2i of a lane is the even K index.
constexpr int64_t kPanel = 64;
constexpr int kBlocks = kPanel / 16;
// Rows per micro-kernel: 6 × 4 accumulators + 4 B registers + 1 broadcast
// fit the 32 zmm registers.
constexpr int kRows = 6;
// A pair of A's bf16 read as one 32-bit word, from bfloat16 storage or a
// packed copy: may_alias makes the read through the other type defined.
using PairWord = uint32_t __attribute__((may_alias));

/// Packs B (k×n, row stride ldb) into panels: panel q, pair p, 64 lanes of
/// (even, odd) bf16, zeros past n and past k.
AG_AVX512BF16 void pack_b(const uint16_t* b, int64_t k, int64_t n, int64_t ldb, int64_t pairs, uint16_t* out) {
  // Interleaves the 16 elements of row 2p (register elements t, the low
  // half) with the 16 of row 2p+1 (elements 16 + t, the high half).
  alignas(64) uint16_t order[32];
  for (int t = 0; t < 16; ++t) {
    order[2 * t] = static_cast<uint16_t>(t);
    order[2 * t + 1] = static_cast<uint16_t>(16 + t);
  }
  const __m512i idx = _mm512_load_si512(order);
  const int64_t panels = (n + kPanel - 1) / kPanel;
  for (int64_t q = 0; q < panels; ++q) {
    for (int64_t p = 0; p < pairs; ++p) {
      uint16_t* dst = out + ((q * pairs + p) * kPanel) * 2;
      for (int blk = 0; blk < kBlocks; ++blk) {
        const int64_t j0 = q * kPanel + blk * 16;
        const int64_t cols = std::clamp<int64_t>(n - j0, 0, 16);
        const __mmask16 mask = static_cast<__mmask16>((1u << cols) - 1u);
        const __m256i even = _mm256_maskz_loadu_epi16(mask, b + (2 * p) * ldb + j0);
        const __m256i odd = 2 * p + 1 < k ? _mm256_maskz_loadu_epi16(mask, b + (2 * p + 1) * ldb + j0)
                                          : _mm256_setzero_si256();
        const __m512i both = _mm512_inserti64x4(_mm512_castsi256_si512(even), odd, 1);
        _mm512_storeu_si512(dst + blk * 32, _mm512_permutexvar_epi16(idx, both));
      }
    }
  }
}

/// R rows × one panel over all pairs: C rows start at c, `cols` of the 64
/// columns are stored. a_pairs(r, p) is the 32-bit pair of A row r.
template <int R>
AG_AVX512BF16 void micro_kernel(const PairWord* a, int64_t a_stride, const uint16_t* panel, int64_t pairs, float* c,
                                int64_t ldc, int64_t cols) {
  __m512 acc[R][kBlocks];
  for (int r = 0; r < R; ++r)
    for (int blk = 0; blk < kBlocks; ++blk) acc[r][blk] = _mm512_setzero_ps();
  for (int64_t p = 0; p < pairs; ++p) {
    const uint16_t* bp = panel + p * kPanel * 2;
    __m512bh bv[kBlocks];
    for (int blk = 0; blk < kBlocks; ++blk) bv[blk] = (__m512bh)_mm512_loadu_si512(bp + blk * 32);
    for (int r = 0; r < R; ++r) {
      const __m512bh av = (__m512bh)_mm512_set1_epi32(static_cast<int>(a[r * a_stride + p]));
      for (int blk = 0; blk < kBlocks; ++blk) acc[r][blk] = _mm512_dpbf16_ps(acc[r][blk], av, bv[blk]);
    }
  }
  for (int blk = 0; blk < kBlocks; ++blk) {
    const int64_t left = std::clamp<int64_t>(cols - blk * 16, 0, 16);
    if (left == 0) break;
    const __mmask16 mask = static_cast<__mmask16>((1u << left) - 1u);
    for (int r = 0; r < R; ++r) _mm512_mask_storeu_ps(c + r * ldc + blk * 16, mask, acc[r][blk]);
  }
}

using MicroKernel = void (*)(const PairWord*, int64_t, const uint16_t*, int64_t, float*, int64_t, int64_t);
constexpr MicroKernel kMicroKernels[kRows + 1] = {nullptr,          micro_kernel<1>, micro_kernel<2>, micro_kernel<3>,
                                                  micro_kernel<4>, micro_kernel<5>, micro_kernel<6>};

}  // namespace

AG_AVX512BF16 void bf16_gemm_avx512bf16(const bfloat16* a, const bfloat16* b, float* c, int64_t m, int64_t n,
                                        int64_t k, int64_t lda, int64_t ldb, int64_t ldc, int threads) {
  if (m <= 0 || n <= 0) return;
  const int64_t pairs = (k + 1) / 2;
  const int64_t panels = (n + kPanel - 1) / kPanel;
  std::vector<uint16_t> packed_b(static_cast<size_t>(panels * pairs * kPanel * 2));
  pack_b(reinterpret_cast<const uint16_t*>(b), k, n, ldb, pairs, packed_b.data());
  // A's pairs as 32-bit words (even index low): its own rows when they hold
  // whole aligned pairs, else a copy with the odd K padded by a zero.
  std::vector<uint32_t> packed_a;
  const PairWord* a_pairs;
  int64_t a_stride;
  if (k % 2 == 0 && lda % 2 == 0 && reinterpret_cast<uintptr_t>(a) % alignof(uint32_t) == 0) {
    a_pairs = reinterpret_cast<const PairWord*>(a);  // bf16 is a uint16_t: the pair is one little-endian word
    a_stride = lda / 2;
  } else {
    packed_a.assign(static_cast<size_t>(m * pairs), 0u);
    // (k == 0 leaves nothing to copy, and memcpy may not see the empty vector's null data.)
    for (int64_t i = 0; i < m && k > 0; ++i)
      std::memcpy(packed_a.data() + i * pairs, a + i * lda, static_cast<size_t>(k) * sizeof(bfloat16));
    a_pairs = packed_a.data();
    a_stride = pairs;
  }
  for_each_tile(m, n, k, threads, kPanel, kRows, [&](int64_t i, int rows, int64_t q, int64_t cols) {
    kMicroKernels[rows](a_pairs + i * a_stride, a_stride, packed_b.data() + q * pairs * kPanel * 2, pairs,
                        c + i * ldc + q * kPanel, ldc, cols);
  });
}

}  // namespace ag::kernels::detail

#endif  // defined(__x86_64__)
