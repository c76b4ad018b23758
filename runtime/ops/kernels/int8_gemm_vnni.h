// The AVX512-VNNI path of int8_gemm (int8_gemm.h's contract, bit for bit);
// compiled for that instruction set alone, called only after the run-time
// CPU check.
#pragma once

#include <cstdint>

namespace ag::kernels::detail {

/// int8_gemm on VPDPBUSD. Requires AVX512F/BW/VL and VNNI.
void int8_gemm_vnni(const int8_t* a, const int8_t* b, int32_t* c, int64_t m, int64_t n, int64_t k, int64_t lda,
                    int64_t ldb, int64_t ldc, int32_t a_zero_point, int threads);

}  // namespace ag::kernels::detail
