// The AVX512-BF16 path of bf16_gemm (bf16_gemm.h states the summation order
// it keeps); compiled for that instruction set alone, called only after the
// run-time CPU check.
#pragma once

#include <cstdint>

#include "runtime/core/bfloat16.h"

namespace ag::kernels::detail {

/// bf16_gemm's contract, on VDPBF16PS. Requires AVX512F/BW/VL and BF16.
void bf16_gemm_avx512bf16(const bfloat16* a, const bfloat16* b, float* c, int64_t m, int64_t n, int64_t k,
                          int64_t lda, int64_t ldb, int64_t ldc, int threads);

}  // namespace ag::kernels::detail
