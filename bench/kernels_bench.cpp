// Large kernels through the runtime against Eigen on the same two threads,
// measured in this run:
//   (a) MatMul 1024x1024 · 1024x1024 float32 as a compiled plan of one node
//       (what a tf.function of `tf.matmul(a, b)` runs), against Eigen's own
//       GEMM: an Eigen::Tensor contraction on a 2-thread ThreadPoolDevice (the
//       path TensorFlow's MatMul kernel takes);
//   (b) Conv2D 3x3, 1x200x200x100 -> 100 channels, stride 1, VALID, as a
//       compiled plan of one node, against Eigen on a 2-thread
//       ThreadPoolDevice written as TensorFlow's SpatialConvolution is
//       (extract_image_patches, reshape, contract: one lazy expression), and
//       against im2col + GEMM in Eigen: the patches evaluated into a buffer on
//       the device, then one contraction, whole (a 141 MB patch matrix) and in
//       chunks of 512 output pixels (one 1.8 MB buffer, reused).
// The runtime's kernels use at most two threads (the caller and one pooled
// worker); the pools here have two threads while the caller waits.
// Results are checked against each other before anything is timed.
// Target (the runtime issue): runtime speed >= 0.9x of Eigen's (the ratio
// printed is Eigen time / runtime time; for (b) against the faster Eigen
// variant). Figures are printed, never asserted.
//
//   bench_kernels [--repeats N]
#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "bench/bench_support.h"
#include "runtime/exec/plan.h"
#include "runtime/graph/graph.h"
#include "runtime/ops/kernels/gemm.h"

namespace {

using namespace ag;
using bench::random_tensor;

/// Results fold into this so that the optimizer cannot drop the timed work.
volatile double g_sink = 0;

double elapsed_ms(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// Minimum wall time in ms of one call of `f`, kept in `best`.
template <class F>
void time_into(double& best, F&& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  best = std::min(best, elapsed_ms(t0));
}


/// max |a - b| / max(1, max |b|) over `n` floats.
double relative_error(const float* a, const float* b, int64_t n) {
  double diff = 0, scale = 1;
  for (int64_t i = 0; i < n; ++i) {
    diff = std::max(diff, static_cast<double>(std::fabs(a[i] - b[i])));
    scale = std::max(scale, static_cast<double>(std::fabs(b[i])));
  }
  return diff / scale;
}

constexpr double kTolerance = 1e-4;

bool agrees(const char* what, const float* got, const float* want, int64_t n) {
  double err = relative_error(got, want, n);
  if (err <= kTolerance) return true;
  std::fprintf(stderr, "%s: relative error %g exceeds %g\n", what, err, kTolerance);
  return false;
}

using Matrix = Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>>;
using ConstMatrix = Eigen::TensorMap<Eigen::Tensor<const float, 2, Eigen::RowMajor>>;
using ConstImage = Eigen::TensorMap<Eigen::Tensor<const float, 4, Eigen::RowMajor>>;
using Pair = Eigen::IndexPair<Eigen::Index>;

// ------------------------------------------------------------------ (a)

bool bench_matmul(const Eigen::ThreadPoolDevice& dev, int repeats) {
  constexpr int64_t n = 1024;
  Graph g("matmul");
  Output a = g.placeholder({DType::Float32, Shape{n, n}}, "a");
  Output b = g.placeholder({DType::Float32, Shape{n, n}}, "b");
  g.outputs() = {g.add_node(op::MatMul, {a, b}, {}, "MatMul")->output()};
  Plan plan = compile_plan(g);
  std::vector<Tensor> args{random_tensor(Shape{n, n}, 1), random_tensor(Shape{n, n}, 2)};

  std::vector<float> eigen_out(static_cast<size_t>(n * n));
  ConstMatrix ea(args[0].data<float>(), n, n), eb(args[1].data<float>(), n, n);
  Matrix ec(eigen_out.data(), n, n);
  const Eigen::array<Pair, 1> dims{Pair(1, 0)};
  auto eigen_gemm = [&] { ec.device(dev) = ea.contract(eb, dims); };

  eigen_gemm();
  std::vector<Tensor> out = plan.run(args);
  if (!agrees("MatMul against Eigen", out[0].data<float>(), eigen_out.data(), n * n)) return false;

  std::vector<float> one_out(static_cast<size_t>(n * n));
  auto runtime_gemm1 = [&] {
    kernels::gemm(args[0].data<float>(), args[1].data<float>(), one_out.data(), n, n, n, n, n, n, false, false, 1);
  };
  Eigen::DefaultDevice single;
  auto eigen_gemm1 = [&] { ec.device(single) = ea.contract(eb, dims); };
  runtime_gemm1();
  if (!agrees("one-thread gemm against Eigen", one_out.data(), eigen_out.data(), n * n)) return false;

  double plan_ms = std::numeric_limits<double>::infinity(), eigen_ms = plan_ms, gemm1_ms = plan_ms,
         eigen1_ms = plan_ms;
  for (int r = 0; r < repeats; ++r) {
    time_into(plan_ms, [&] { g_sink = g_sink + plan.run(args)[0].data<float>()[7]; });
    time_into(eigen_ms, [&] {
      eigen_gemm();
      g_sink = g_sink + eigen_out[7];
    });
  }
  for (int r = 0; r < std::max(1, repeats / 2); ++r) {
    time_into(gemm1_ms, [&] {
      runtime_gemm1();
      g_sink = g_sink + one_out[7];
    });
    time_into(eigen1_ms, [&] {
      eigen_gemm1();
      g_sink = g_sink + eigen_out[7];
    });
  }
  const double gflop = 2.0 * n * n * n / 1e9;
  std::printf("(a) MatMul 1024x1024x1024 float32\n");
  std::printf("    runtime plan (one MatMul node):          %8.1f ms  %6.1f GFLOP/s\n", plan_ms, gflop / plan_ms * 1e3);
  std::printf("    Eigen Tensor contraction, 2-thread pool: %8.1f ms  %6.1f GFLOP/s\n", eigen_ms,
              gflop / eigen_ms * 1e3);
  std::printf("    runtime speed / Eigen = %.2fx   target >= 0.9x: %s\n", eigen_ms / plan_ms,
              eigen_ms / plan_ms >= 0.9 ? "met" : "MISSED");
  std::printf("    one thread: runtime gemm %.1f ms, Eigen contraction (DefaultDevice) %.1f ms (%.2fx)\n", gemm1_ms,
              eigen1_ms, eigen1_ms / gemm1_ms);
  return true;
}

// ------------------------------------------------------------------ (b)

bool bench_conv(const Eigen::ThreadPoolDevice& dev, int repeats) {
  constexpr int64_t h = 200, w = 200, c = 100, k = 3, oc = 100;
  constexpr int64_t oh = h - k + 1, ow = w - k + 1, pixels = oh * ow, patch = k * k * c;
  Graph g("conv");
  Output in = g.placeholder({DType::Float32, Shape{1, h, w, c}}, "input");
  Output filter = g.placeholder({DType::Float32, Shape{k, k, c, oc}}, "filter");
  Attrs attrs{{"strides", std::vector<int64_t>{1, 1, 1, 1}}, {"padding", std::string("VALID")}};
  g.outputs() = {g.add_node(op::Conv2D, {in, filter}, attrs, "Conv2D")->output()};
  Plan plan = compile_plan(g);
  std::vector<Tensor> args{random_tensor(Shape{1, h, w, c}, 3), random_tensor(Shape{k, k, c, oc}, 4)};

  ConstImage ein(args[0].data<float>(), 1, h, w, c);
  ConstMatrix ekernel(args[1].data<float>(), patch, oc);  // [KH, KW, C, OC] is [KH*KW*C, OC] row-major
  const Eigen::array<Pair, 1> dims{Pair(1, 0)};
  const Eigen::array<Eigen::Index, 2> patch_shape{pixels, patch};
  // RowMajor extract_image_patches gives [N, patches, KH, KW, C]: rows of the im2col matrix.
  auto patches = ein.extract_image_patches(k, k, 1, 1, 1, 1, Eigen::PADDING_VALID).reshape(patch_shape);

  std::vector<float> spatial_out(static_cast<size_t>(pixels * oc));
  Matrix espatial(spatial_out.data(), pixels, oc);
  auto eigen_spatial = [&] { espatial.device(dev) = patches.contract(ekernel, dims); };

  std::vector<float> cols(static_cast<size_t>(pixels * patch)), im2col_out(static_cast<size_t>(pixels * oc));
  Matrix ecols(cols.data(), pixels, patch), eim2col(im2col_out.data(), pixels, oc);
  auto eigen_im2col = [&] {
    ecols.device(dev) = patches;
    eim2col.device(dev) = ecols.contract(ekernel, dims);
  };

  constexpr int64_t kChunk = 512;
  std::vector<float> chunk_cols(static_cast<size_t>(kChunk * patch)), chunked_out(static_cast<size_t>(pixels * oc));
  auto eigen_chunked = [&] {
    for (int64_t p0 = 0; p0 < pixels; p0 += kChunk) {
      const int64_t rows = std::min(kChunk, pixels - p0);
      Matrix ccols(chunk_cols.data(), rows, patch), cres(chunked_out.data() + p0 * oc, rows, oc);
      ccols.device(dev) = patches.slice(Eigen::array<Eigen::Index, 2>{p0, 0}, Eigen::array<Eigen::Index, 2>{rows, patch});
      cres.device(dev) = ccols.contract(ekernel, dims);
    }
  };

  eigen_spatial();
  eigen_im2col();
  eigen_chunked();
  std::vector<Tensor> out = plan.run(args);
  if (!agrees("Conv2D against Eigen im2col + GEMM", out[0].data<float>(), im2col_out.data(), pixels * oc) ||
      !agrees("Eigen SpatialConvolution against im2col + GEMM", spatial_out.data(), im2col_out.data(),
              pixels * oc) ||
      !agrees("Eigen chunked im2col against whole im2col", chunked_out.data(), im2col_out.data(), pixels * oc)) {
    return false;
  }

  double plan_ms = std::numeric_limits<double>::infinity(), spatial_ms = plan_ms, im2col_ms = plan_ms, chunked_ms = plan_ms;
  for (int r = 0; r < repeats; ++r) {
    time_into(plan_ms, [&] { g_sink = g_sink + plan.run(args)[0].data<float>()[7]; });
    time_into(spatial_ms, [&] {
      eigen_spatial();
      g_sink = g_sink + spatial_out[7];
    });
    time_into(im2col_ms, [&] {
      eigen_im2col();
      g_sink = g_sink + im2col_out[7];
    });
    time_into(chunked_ms, [&] {
      eigen_chunked();
      g_sink = g_sink + chunked_out[7];
    });
  }
  const double gflop = 2.0 * pixels * patch * oc / 1e9;
  const double best_eigen = std::min({spatial_ms, im2col_ms, chunked_ms});
  std::printf("(b) Conv2D 3x3, 1x200x200x100 -> 100 channels, VALID, float32\n");
  std::printf("    runtime plan (one Conv2D node):          %8.1f ms  %6.1f GFLOP/s\n", plan_ms, gflop / plan_ms * 1e3);
  std::printf("    Eigen SpatialConvolution expression:     %8.1f ms  %6.1f GFLOP/s\n", spatial_ms,
              gflop / spatial_ms * 1e3);
  std::printf("    Eigen im2col + contraction, whole:       %8.1f ms  %6.1f GFLOP/s\n", im2col_ms,
              gflop / im2col_ms * 1e3);
  std::printf("    Eigen im2col + contraction, 512 pixels:  %8.1f ms  %6.1f GFLOP/s\n", chunked_ms,
              gflop / chunked_ms * 1e3);
  std::printf("    runtime speed / faster Eigen = %.2fx   target >= 0.9x: %s\n", best_eigen / plan_ms,
              best_eigen / plan_ms >= 0.9 ? "met" : "MISSED");
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 5;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[i + 1]));
  }
  Eigen::ThreadPool pool(2);
  Eigen::ThreadPoolDevice dev(&pool, 2);
  bool ok = bench_matmul(dev, repeats);
  ok = bench_conv(dev, repeats) && ok;
  return ok ? 0 : 1;
}
