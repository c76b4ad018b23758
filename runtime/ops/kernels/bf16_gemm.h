// The TPU's matrix product (TPU_EMULATOR.md B32): bfloat16 operands, products
// exact in float32 and summed in float32, a float32 result. Two paths give the
// same bits: AVX512-BF16's VDPBF16PS where the CPU has it, and a portable one
// that follows that instruction's arithmetic step by step.
//
// The order every result element is summed in (the contract both paths keep):
// K is padded with one zero to an even length; element (i, j) starts at +0.0f
// and, for each pair p = 0, 1, ... of the padded K, takes two steps, the odd
// element of the pair first, as VDPBF16PS's pseudo-code does per lane:
//   acc = step(acc, A[i][2p+1], B[2p+1][j]);
//   acc = step(acc, A[i][2p],   B[2p][j]);
// where step(acc, a, b) is one fused multiply-add rounded once to nearest
// even, with denormal inputs read as zeros of their sign (DAZ: bf16 operands
// and the accumulator) and a tiny result flushed to a zero of its sign (FTZ),
// tininess detected after rounding as x86 does: a result flushes when it
// would be below FLT_MIN rounded to 24 bits with an unbounded exponent, so an
// exact sum in [FLT_MIN - 2^-150, FLT_MIN - 2^-151] flushes although it
// rounds to FLT_MIN as a subnormal. The machine's MXCSR is neither read nor
// changed. NaN results are NaN in both paths, their payloads unspecified.
#pragma once

#include <cstdint>

#include "runtime/core/bfloat16.h"

namespace ag::kernels {

/// Which implementation bf16_gemm runs.
enum class Bf16GemmPath {
  Auto,        // AVX512-BF16 when this CPU has it, else Portable
  Portable,    // plain C++ (std::fma), on any CPU
  Avx512Bf16,  // VDPBF16PS; only when bf16_gemm_has_avx512bf16()
};

/// Whether this CPU (and its OS) runs AVX512-BF16 instructions; asked once.
bool bf16_gemm_has_avx512bf16();

/// C = A · B in the order above: A is m×k bfloat16 with row stride lda, B is
/// k×n bfloat16 with row stride ldb, C is m×n float32 with row stride ldc,
/// all row-major. C is overwritten (never read); all zeros when k == 0.
/// `threads` > 1 lets big products use two threads; every element is summed
/// by one thread, so the bits do not depend on it. Asking for Avx512Bf16 on
/// a CPU without it throws InternalError (a bug in the caller).
void bf16_gemm(const bfloat16* a, const bfloat16* b, float* c, int64_t m, int64_t n, int64_t k, int64_t lda,
               int64_t ldb, int64_t ldc, int threads = 2, Bf16GemmPath path = Bf16GemmPath::Auto);

/// How a float32 matmul runs on the TPU (B32; jax-ml/jax#1856): Default
/// rounds both operands to bfloat16 (B31) and multiplies as bf16_gemm does;
/// Highest is exact float32 (kernels::gemm).
enum class F32MatmulPrecision { Default, Highest };

/// C = A · B for float32 operands at the TPU's `precision`; layout as
/// bf16_gemm's.
void tpu_f32_gemm(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k, int64_t lda,
                  int64_t ldb, int64_t ldc, F32MatmulPrecision precision, int threads = 2);

}  // namespace ag::kernels
