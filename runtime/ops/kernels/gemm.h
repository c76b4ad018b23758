// The one matrix-multiply interface every op uses (MatMul, BatchMatMulV2,
// Conv2D's im2col), so a faster backend can replace Eigen's in one place; and
// the parallel_for big kernels use to run on 2 threads.
#pragma once

#include <cstdint>
#include <functional>

#include "runtime/core/bfloat16.h"

namespace ag::kernels {

/// C = op(A) · op(B), all row-major: op(A) is m×k, op(B) is k×n, C is m×n.
/// A is stored m×k (k×m when trans_a) with row stride lda; likewise B (k×n,
/// n×k when trans_b) with ldb; C with ldc. C is overwritten (never read), and
/// set to zero when k == 0. `threads` > 1 lets big products use that many
/// threads (small ones always run on the caller's thread). bfloat16 multiplies
/// in float and rounds once at the end; integers wrap on overflow as TF's do.
void gemm(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
          int64_t ldc, bool trans_a, bool trans_b, int threads = 2);
void gemm(const double* a, const double* b, double* c, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
          int64_t ldc, bool trans_a, bool trans_b, int threads = 2);
void gemm(const int32_t* a, const int32_t* b, int32_t* c, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
          int64_t ldc, bool trans_a, bool trans_b, int threads = 2);
void gemm(const int64_t* a, const int64_t* b, int64_t* c, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
          int64_t ldc, bool trans_a, bool trans_b, int threads = 2);
void gemm(const bfloat16* a, const bfloat16* b, bfloat16* c, int64_t m, int64_t n, int64_t k, int64_t lda,
          int64_t ldb, int64_t ldc, bool trans_a, bool trans_b, int threads = 2);

/// C += op(A) · op(B), as gemm() but accumulating into C (a GEMM with
/// beta = 1): FusedMatMul's second product, with no temporary.
void gemm_add(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
              int64_t ldc, bool trans_a, bool trans_b, int threads = 2);
void gemm_add(const double* a, const double* b, double* c, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
              int64_t ldc, bool trans_a, bool trans_b, int threads = 2);

/// Runs body(begin, end) over [0, n) split in `parts` contiguous ranges (at
/// most 2 at once: the caller's thread and one pooled worker), returning when
/// all are done. The threads take ranges from a shared counter, so with more
/// parts than threads a thread the OS deschedules delays only the part it
/// holds. parts <= 1 or n <= 1 runs body(0, n) inline. The first exception a
/// part throws is rethrown here.
void parallel_for(int64_t n, int parts, const std::function<void(int64_t begin, int64_t end)>& body);

/// How many threads a kernel doing `flops` multiply-adds should use (1 or 2;
/// always 1 under an intra-op limit of 1).
int threads_for(double flops);

/// The intra-op thread limit (tf.config.threading's): 1 runs every kernel on
/// the caller's thread (parallel_for then runs its body once, inline); 0,
/// the default, and anything above 1 let kernels use both threads.
void set_intra_op_threads(int n);
int intra_op_threads();

/// How parallel_blocks splits an m×n result costing `macs` multiply-adds:
/// row_parts × col_parts blocks. One block when `threads` or
/// threads_for(macs) is 1; else one per thread or, for big results, a few per
/// thread, halving the longer side while it stays at least 16, so each
/// block's products stay wide and square-ish.
struct BlockGrid {
  int64_t row_parts = 1, col_parts = 1;
  int64_t blocks() const { return row_parts * col_parts; }
};
BlockGrid block_grid(int64_t m, int64_t n, double macs, int threads);

/// Computes an m×n result that costs `macs` multiply-adds in the blocks of
/// block_grid(): block(r0, r1, c0, c1) for rows [r0, r1) × columns [c0, c1),
/// each on one thread, on the caller's thread alone when there is one block
/// (then with no std::function made: small products call it per kernel run).
/// gemm runs its products this way; so does a fused kernel whose epilogue
/// should run on each block while it is in cache.
template <class Block>
void parallel_blocks(int64_t m, int64_t n, double macs, int threads, const Block& block) {
  if (m <= 0 || n <= 0) return;
  const BlockGrid g = block_grid(m, n, macs, threads);
  if (g.blocks() <= 1) {
    block(int64_t{0}, m, int64_t{0}, n);
    return;
  }
  parallel_for(g.blocks(), static_cast<int>(g.blocks()), [&](int64_t first, int64_t last) {
    for (int64_t index = first; index < last; ++index) {
      const int64_t rp = index / g.col_parts, cp = index % g.col_parts;
      block(m * rp / g.row_parts, m * (rp + 1) / g.row_parts, n * cp / g.col_parts, n * (cp + 1) / g.col_parts);
    }
  });
}

}  // namespace ag::kernels
