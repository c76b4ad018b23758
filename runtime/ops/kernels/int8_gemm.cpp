// int8_gemm: the VNNI path when the CPU has it (int8_gemm_vnni.cpp), else
// rows of C accumulated in place, the inner loop over C's columns so it
// vectorizes to 16-bit multiplies and 32-bit adds.
#include "runtime/ops/kernels/int8_gemm.h"

#include <algorithm>

#include "runtime/core/error.h"
#include "runtime/ops/kernels/int8_gemm_vnni.h"

namespace ag::kernels {
namespace {

void int8_gemm_portable(const int8_t* a, const int8_t* b, int32_t* c, int64_t m, int64_t n, int64_t k, int64_t lda,
                        int64_t ldb, int64_t ldc, int32_t a_zero_point) {
  for (int64_t i = 0; i < m; ++i) {
    // Unsigned sums wrap where int32's would be undefined.
    uint32_t* row = reinterpret_cast<uint32_t*>(c + i * ldc);
    std::fill(row, row + n, 0u);
    for (int64_t r = 0; r < k; ++r) {
      const uint32_t av = static_cast<uint32_t>(static_cast<int32_t>(a[i * lda + r]) - a_zero_point);
      const int8_t* brow = b + r * ldb;
      for (int64_t j = 0; j < n; ++j) row[j] += av * static_cast<uint32_t>(static_cast<int32_t>(brow[j]));
    }
  }
}

}  // namespace

bool int8_gemm_has_vnni() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
  return has;
#else
  return false;
#endif
}

void int8_gemm(const int8_t* a, const int8_t* b, int32_t* c, int64_t m, int64_t n, int64_t k, int64_t lda,
               int64_t ldb, int64_t ldc, int32_t a_zero_point, int threads, Int8GemmPath path) {
  if (path == Int8GemmPath::Auto) path = int8_gemm_has_vnni() ? Int8GemmPath::Vnni : Int8GemmPath::Portable;
  if (path == Int8GemmPath::Portable) {
    int8_gemm_portable(a, b, c, m, n, k, lda, ldb, ldc, a_zero_point);
    return;
  }
  if (!int8_gemm_has_vnni()) throw InternalError("int8_gemm: the VNNI path was asked for on a CPU without it");
#if defined(__x86_64__)
  detail::int8_gemm_vnni(a, b, c, m, n, k, lda, ldb, ldc, a_zero_point, threads);
#endif
}

}  // namespace ag::kernels
