// The integer product quantized matmuls run on (TPU_EMULATOR.md B41): int8
// operands, int32 sums, the left operand's zero point taken out exactly.
#pragma once

#include <cstdint>

namespace ag::kernels {

/// Which implementation int8_gemm runs: both give the same bits.
enum class Int8GemmPath { Auto, Vnni, Portable };

/// True when this CPU (and OS) runs AVX512-VNNI's VPDPBUSD.
bool int8_gemm_has_vnni();

/// C[i][j] = Σ_r (A[i][r] − a_zero_point) · B[r][j] in int32, wrapping on
/// overflow as TF's int32 arithmetic does (|A − zp| <= 255 and |B| <= 128, so
/// K up to 65793 cannot overflow). A is m×k (row stride lda), B k×n (ldb),
/// C m×n (ldc), row-major; C is overwritten. The right operand's zero point
/// is 0: weights are symmetric (B40). `threads` > 1 lets a large product
/// run on the kernels' thread pool. Auto takes VNNI when the CPU has it.
void int8_gemm(const int8_t* a, const int8_t* b, int32_t* c, int64_t m, int64_t n, int64_t k, int64_t lda,
               int64_t ldb, int64_t ldc, int32_t a_zero_point = 0, int threads = 1,
               Int8GemmPath path = Int8GemmPath::Auto);

}  // namespace ag::kernels
