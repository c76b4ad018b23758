// The TPU emulator's matmuls against the float32 GEMM every MatMul uses,
// 1024x1024 · 1024x1024 on the same two threads in one run: kernels::bf16_gemm
// (bf16 operands, f32 sums; TPU_EMULATOR.md B32) on its AVX512-BF16 path (when
// this CPU has it) and its portable path, kernels::int8_gemm (a quantized
// model's int8 product with int32 sums, B41) on its AVX512-VNNI and portable
// paths, and kernels::gemm(float). GFLOP/s (or GOP/s for int8) = 2·M·N·K /
// best time over the repeats. Each kernel's two paths are checked against
// each other (bit for bit) before anything is timed. Then a quantized
// model's convolution: XlaConvV2 on int8 operands against Conv2D in float32,
// both run as ops, [8, 28, 28, 64] over a 3x3x64x64 filter, SAME.
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

#include "runtime/core/proto/xla_data.pb.h"
#include "runtime/ops/eager.h"
#include "runtime/ops/kernels/bf16_gemm.h"
#include "runtime/ops/kernels/gemm.h"
#include "runtime/ops/kernels/int8_gemm.h"
#include "runtime/ops/registry.h"

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

Tensor ints(std::vector<int32_t> v, Shape s) { return Tensor::from_vector<int32_t>(std::move(s), v); }

/// XlaConvV2 int8 -> int32 against Conv2D float32, as the ops run them.
int conv_bench(int repeats, std::mt19937& rng) {
  const Shape in_shape{8, 28, 28, 64}, filter_shape{3, 3, 64, 64};
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::uniform_int_distribution<int> byte(-128, 127), weight(-127, 127);
  std::vector<float> xf(static_cast<size_t>(in_shape.num_elements())), wf(static_cast<size_t>(filter_shape.num_elements()));
  std::vector<int8_t> xi(xf.size()), wi(wf.size());
  for (size_t i = 0; i < xf.size(); ++i) xf[i] = dist(rng), xi[i] = static_cast<int8_t>(byte(rng));
  for (size_t i = 0; i < wf.size(); ++i) wf[i] = dist(rng), wi[i] = static_cast<int8_t>(weight(rng));
  const OpDef& conv = *OpRegistry::global().find("Conv2D");
  const OpDef& xla_conv = *OpRegistry::global().find("XlaConvV2");
  const Attrs conv_attrs{{"T", DType::Float32},
                         {"strides", std::vector<int64_t>{1, 1, 1, 1}},
                         {"padding", std::string("SAME")}};
  xla::ConvolutionDimensionNumbers dn;  // NHWC over HWIO into NHWC
  dn.set_input_feature_dimension(3);
  dn.set_kernel_input_feature_dimension(2);
  dn.set_kernel_output_feature_dimension(3);
  dn.set_output_feature_dimension(3);
  for (int d : {1, 2}) dn.add_input_spatial_dimensions(d), dn.add_kernel_spatial_dimensions(d - 1), dn.add_output_spatial_dimensions(d);
  const Attrs xla_attrs{{"dimension_numbers", dn.SerializeAsString()}, {"preferred_element_type", DType::Int32}};
  const std::vector<Tensor> f_in = {Tensor::from_vector<float>(in_shape, xf), Tensor::from_vector<float>(filter_shape, wf)};
  const std::vector<Tensor> q_in = {Tensor::from_vector<int8_t>(in_shape, xi), Tensor::from_vector<int8_t>(filter_shape, wi),
                                    ints({1, 1}, Shape{2}),   ints({1, 1, 1, 1}, Shape{2, 2}),
                                    ints({1, 1}, Shape{2}),   ints({1, 1}, Shape{2}),
                                    Tensor::scalar<int32_t>(1)};
  const double f32_ms = best_ms(repeats, [&] { g_sink = g_sink + run_op(conv, f_in, conv_attrs)[0].data<float>()[0]; });
  const double int8_ms = best_ms(repeats, [&] { g_sink = g_sink + run_op(xla_conv, q_in, xla_attrs)[0].data<int32_t>()[0]; });
  const double ops = 2.0 * 8 * 28 * 28 * 64 * 3 * 3 * 64;
  auto rate = [&](double ms) { return ops / (ms * 1e-3) / 1e9; };
  std::printf("conv [8,28,28,64] * [3,3,64,64] SAME, best of %d\n", repeats);
  std::printf("  Conv2D float32          %8.2f ms  %7.1f GFLOP/s\n", f32_ms, rate(f32_ms));
  std::printf("  XlaConvV2 int8->int32   %8.2f ms  %7.1f GOP/s    (%.2fx f32)\n", int8_ms, rate(int8_ms), f32_ms / int8_ms);
  return 0;
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
  return conv_bench(repeats, rng);
}
