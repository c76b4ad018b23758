// The kernels of one training step of the Keras "Simple MNIST convnet"
// (bench/training/keras_fit_cnn.py, batch 128), each timed alone through the
// eager op path with the step's exact shapes: what an epoch of its fit
// spends per op. A guide for kernel work, next to the end-to-end figure in
// docs/performance.md; it prints milliseconds (the best of --repeats) and
// asserts nothing.
//
//   bench_cnn_kernels [--repeats N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "bench/bench_support.h"
#include "runtime/ops/eager.h"

namespace {

using namespace ag;
using bench::random_tensor;


Tensor shape_tensor(const Shape& s) {
  Tensor t(DType::Int32, Shape{s.rank()});
  for (int i = 0; i < s.rank(); ++i) t.data<int32_t>()[i] = static_cast<int32_t>(s.dim(i));
  return t;
}

Attrs conv_attrs() {
  return Attrs{{"strides", std::vector<int64_t>{1, 1, 1, 1}}, {"padding", std::string("VALID")}};
}
Attrs pool_attrs() {
  return Attrs{{"ksize", std::vector<int64_t>{1, 2, 2, 1}}, {"strides", std::vector<int64_t>{1, 2, 2, 1}},
               {"padding", std::string("VALID")}};
}

double g_total = 0;

void time_op(const char* label, OpType op, const std::vector<Tensor>& in, const Attrs& a, int repeats) {
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < repeats; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    std::vector<Tensor> out = run_op(op, in, a);
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  g_total += best;
  std::printf("%-44s %8.3f ms\n", label, best);
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 20;
  if (argc == 3 && std::strcmp(argv[1], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[2]));
  const int64_t n = 128;
  Tensor x = random_tensor(Shape{n, 28, 28, 1}, 1);
  Tensor w1 = random_tensor(Shape{3, 3, 1, 32}, 2);
  Tensor c1 = random_tensor(Shape{n, 26, 26, 32}, 3);
  Tensor p1 = run_op1(op::MaxPool, std::vector<Tensor>{c1}, pool_attrs());
  Tensor w2 = random_tensor(Shape{3, 3, 32, 64}, 4);
  Tensor c2 = random_tensor(Shape{n, 11, 11, 64}, 5);
  Tensor p2 = run_op1(op::MaxPool, std::vector<Tensor>{c2}, pool_attrs());
  Tensor b32 = random_tensor(Shape{32}, 6), b64 = random_tensor(Shape{64}, 7);
  Tensor axes(DType::Int32, Shape{3});
  for (int i = 0; i < 3; ++i) axes.data<int32_t>()[i] = i;

  std::printf("one step of the small CNN, batch %lld (best of %d)\n", static_cast<long long>(n), repeats);
  time_op("Conv2D 28x28x1 -> 26x26x32", op::Conv2D, {x, w1}, conv_attrs(), repeats);
  time_op("BiasAdd 26x26x32", op::BiasAdd, {c1, b32}, {}, repeats);
  time_op("Relu 26x26x32", op::Relu, {c1}, {}, repeats);
  time_op("MaxPool 26x26x32 -> 13x13x32", op::MaxPool, {c1}, pool_attrs(), repeats);
  time_op("Conv2D 13x13x32 -> 11x11x64", op::Conv2D, {p1, w2}, conv_attrs(), repeats);
  time_op("BiasAdd 11x11x64", op::BiasAdd, {c2, b64}, {}, repeats);
  time_op("Relu 11x11x64", op::Relu, {c2}, {}, repeats);
  time_op("MaxPool 11x11x64 -> 5x5x64", op::MaxPool, {c2}, pool_attrs(), repeats);
  time_op("MaxPoolGrad 5x5x64 -> 11x11x64", op::MaxPoolGrad, {c2, p2, p2}, pool_attrs(), repeats);
  time_op("ReluGrad 11x11x64", op::ReluGrad, {c2, c2}, {}, repeats);
  time_op("Sum over N,H,W 11x11x64 (bias grad)", op::Sum, {c2, axes}, {}, repeats);
  time_op("Conv2DBackpropInput 11x11x64 -> 13x13x32", op::Conv2DBackpropInput, {shape_tensor(p1.shape()), w2, c2},
          conv_attrs(), repeats);
  time_op("Conv2DBackpropFilter 3x3x32x64", op::Conv2DBackpropFilter, {p1, shape_tensor(w2.shape()), c2},
          conv_attrs(), repeats);
  time_op("MaxPoolGrad 13x13x32 -> 26x26x32", op::MaxPoolGrad, {c1, p1, p1}, pool_attrs(), repeats);
  time_op("ReluGrad 26x26x32", op::ReluGrad, {c1, c1}, {}, repeats);
  time_op("Sum over N,H,W 26x26x32 (bias grad)", op::Sum, {c1, axes}, {}, repeats);
  time_op("Conv2DBackpropFilter 3x3x1x32", op::Conv2DBackpropFilter, {x, shape_tensor(w1.shape()), c1}, conv_attrs(),
          repeats);
  std::printf("%-44s %8.3f ms\n", "total", g_total);
  return 0;
}
