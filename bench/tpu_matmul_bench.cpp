// The TPU emulator's matmuls against the float32 GEMM every MatMul uses,
// 1024x1024 · 1024x1024 on the same two threads in one run: kernels::bf16_gemm
// (bf16 operands, f32 sums; TPU_EMULATOR.md B32) on its AVX512-BF16 path (when
// this CPU has it) and its portable path, kernels::int8_gemm (a quantized
// model's int8 product with int32 sums, B41) on its AVX512-VNNI and portable
// paths, and kernels::gemm(float). GFLOP/s (or GOP/s for int8) = 2·M·N·K /
// best time over the repeats. Each kernel's two paths are checked against
// each other (bit for bit) before anything is timed.
//
//   bench_tpu_matmul [--repeats N] [--size N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "runtime/ops/kernels/bf16_gemm.h"
#include "runtime/ops/kernels/gemm.h"
#include "runtime/ops/kernels/int8_gemm.h"

namespace {

using namespace ag;

volatile double g_sink = 0;  // results fold into it so the timed work stays

template <class F>
double best_ms(int repeats, F&& f) {
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 10;
  int64_t n = 1024;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--repeats") == 0) repeats = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--size") == 0) n = std::atoll(argv[i + 1]);
  }
  std::mt19937 rng(1);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> af(n * n), bf(n * n), cf(n * n);
  for (auto& x : af) x = dist(rng);
  for (auto& x : bf) x = dist(rng);
  std::vector<bfloat16> ab(n * n), bb(n * n);
  for (int64_t i = 0; i < n * n; ++i) ab[i] = bfloat16(af[i]), bb[i] = bfloat16(bf[i]);
  std::vector<float> c_fast(n * n), c_portable(n * n);

  const bool has = kernels::bf16_gemm_has_avx512bf16();
  kernels::bf16_gemm(ab.data(), bb.data(), c_portable.data(), n, n, n, n, n, n, 2, kernels::Bf16GemmPath::Portable);
  if (has) {
    kernels::bf16_gemm(ab.data(), bb.data(), c_fast.data(), n, n, n, n, n, n, 2, kernels::Bf16GemmPath::Avx512Bf16);
    if (std::memcmp(c_fast.data(), c_portable.data(), c_fast.size() * sizeof(float)) != 0) {
      std::fprintf(stderr, "the AVX512-BF16 and portable paths differ\n");
      return 1;
    }
  }
  const double flops = 2.0 * static_cast<double>(n) * n * n;
  auto gflops = [&](double ms) { return flops / (ms * 1e-3) / 1e9; };

  const double f32_ms = best_ms(repeats, [&] {
    kernels::gemm(af.data(), bf.data(), cf.data(), n, n, n, n, n, n, false, false, 2);
    g_sink = g_sink + cf[0];
  });
  const double portable_ms = best_ms(std::max(1, repeats / 5), [&] {
    kernels::bf16_gemm(ab.data(), bb.data(), c_portable.data(), n, n, n, n, n, n, 2, kernels::Bf16GemmPath::Portable);
    g_sink = g_sink + c_portable[0];
  });
  std::printf("matmul %lldx%lldx%lld, 2 threads, best of %d\n", static_cast<long long>(n),
              static_cast<long long>(n), static_cast<long long>(n), repeats);
  std::printf("  f32 gemm (Eigen)        %8.2f ms  %7.1f GFLOP/s\n", f32_ms, gflops(f32_ms));
  if (has) {
    const double fast_ms = best_ms(repeats, [&] {
      kernels::bf16_gemm(ab.data(), bb.data(), c_fast.data(), n, n, n, n, n, n, 2, kernels::Bf16GemmPath::Avx512Bf16);
      g_sink = g_sink + c_fast[0];
    });
    std::printf("  bf16 gemm AVX512-BF16   %8.2f ms  %7.1f GFLOP/s  (%.2fx f32)\n", fast_ms, gflops(fast_ms),
                f32_ms / fast_ms);
  } else {
    std::printf("  bf16 gemm AVX512-BF16   (this CPU has no AVX512-BF16)\n");
  }
  std::printf("  bf16 gemm portable      %8.2f ms  %7.1f GFLOP/s  (%.2fx f32)\n", portable_ms, gflops(portable_ms),
              f32_ms / portable_ms);

  // int8: values a quantized model's activations (zero point -3) and
  // symmetric weights take.
  std::uniform_int_distribution<int> byte(-128, 127), weight(-127, 127);
  std::vector<int8_t> ai(n * n), bi(n * n);
  for (auto& x : ai) x = static_cast<int8_t>(byte(rng));
  for (auto& x : bi) x = static_cast<int8_t>(weight(rng));
  std::vector<int32_t> ci_fast(n * n), ci_portable(n * n);
  const bool vnni = kernels::int8_gemm_has_vnni();
  kernels::int8_gemm(ai.data(), bi.data(), ci_portable.data(), n, n, n, n, n, n, -3, 2, kernels::Int8GemmPath::Portable);
  if (vnni) {
    kernels::int8_gemm(ai.data(), bi.data(), ci_fast.data(), n, n, n, n, n, n, -3, 2, kernels::Int8GemmPath::Vnni);
    if (ci_fast != ci_portable) {
      std::fprintf(stderr, "the AVX512-VNNI and portable int8 paths differ\n");
      return 1;
    }
    const double fast_ms = best_ms(repeats, [&] {
      kernels::int8_gemm(ai.data(), bi.data(), ci_fast.data(), n, n, n, n, n, n, -3, 2, kernels::Int8GemmPath::Vnni);
      g_sink = g_sink + ci_fast[0];
    });
    std::printf("  int8 gemm AVX512-VNNI   %8.2f ms  %7.1f GOP/s    (%.2fx f32)\n", fast_ms, gflops(fast_ms),
                f32_ms / fast_ms);
  } else {
    std::printf("  int8 gemm AVX512-VNNI   (this CPU has no AVX512-VNNI)\n");
  }
  const double int8_portable_ms = best_ms(std::max(1, repeats / 5), [&] {
    kernels::int8_gemm(ai.data(), bi.data(), ci_portable.data(), n, n, n, n, n, n, -3, 2,
                       kernels::Int8GemmPath::Portable);
    g_sink = g_sink + ci_portable[0];
  });
  std::printf("  int8 gemm portable      %8.2f ms  %7.1f GOP/s    (%.2fx f32)\n", int8_portable_ms,
              gflops(int8_portable_ms), f32_ms / int8_portable_ms);
  return 0;
}
