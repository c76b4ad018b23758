// tf.function call overhead: a cache-hit call of `def add(a, b): return a + b`
// on two 2x2 float32 tensors, next to baselines measured in the same run:
// the same trace's concrete function, the prepared AddV2 kernel alone, and a
// hand-written Eigen 2x2 add. Prints ns per call and the ratios.
//
// usage: bench_function_call [--calls N] [--only function|braced|concrete|kernel|eigen]
// (--only times one loop, for `perf stat` per call of that loop alone.)
#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/function/function.h"
#include "runtime/ops/registry.h"

namespace {

using Clock = std::chrono::steady_clock;

/// Best of 5 runs of `calls` calls of `f`, in ns per call.
template <class F>
double ns_per_call(long calls, F&& f) {
  double best = 1e30;
  for (int run = 0; run < 5; ++run) {
    auto t0 = Clock::now();
    for (long i = 0; i < calls; ++i) f();
    double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / static_cast<double>(calls);
    best = std::min(best, ns);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  long calls = 200000;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--calls") == 0 && i + 1 < argc) calls = std::stol(argv[++i]);
    if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
  }
  // A loop not selected by --only reports 0 and is not run.
  auto timed = [&](const char* name, auto&& f) { return only.empty() || only == name ? ns_per_call(calls, f) : 0.0; };
  using namespace ag;
  Function add("add", {{"a", {}}, {"b", {}}}, [](const std::vector<Value>& a) { return a[0] + a[1]; });
  Tensor xt = Tensor::from_vector<float>({2, 2}, {1, 2, 3, 4});
  Value x(xt), y(xt);
  add({x, y});  // trace
  auto concrete = add.get_concrete_function({x, y});

  double function_ns = timed("function", [&] {
    Value r = add(x, y);
    asm volatile("" : : "r"(&r) : "memory");
  });
  // `add({x, y})` copies both Values into the initializer list first.
  double braced_ns = timed("braced", [&] {
    Value r = add({x, y});
    asm volatile("" : : "r"(&r) : "memory");
  });
  double concrete_ns = timed("concrete", [&] {
    Value r = concrete->call_bound({x, y});
    asm volatile("" : : "r"(&r) : "memory");
  });

  // The prepared kernel alone: what executing the graph's one node costs.
  const OpDef& op = OpRegistry::global().get(op::AddV2);
  TensorSpec spec{DType::Float32, Shape{2, 2}};
  std::vector<TensorSpec> ins{spec, spec}, outs{spec};
  Attrs attrs;
  Kernel kernel = op.cpu()(KernelSpec{"AddV2", ins, outs, attrs});
  const Tensor* args[] = {&xt, &xt};
  Tensor out[1];
  double kernel_ns = timed("kernel", [&] {
    KernelContext k{args, out};
    kernel(k);
  });

  Eigen::Matrix2f a, b, c;
  a << 1, 2, 3, 4;
  b = a;
  double eigen_ns = timed("eigen", [&] {
    c.noalias() = a + b;
    asm volatile("" : : "r"(c.data()) : "memory");
  });

  std::printf("tf.function cache-hit call, add of two 2x2 float32 (best of 5 x %ld calls)\n", calls);
  std::printf("  Function call (cache hit)      %8.1f ns   f(x, y)\n", function_ns);
  std::printf("  same, braced arguments         %8.1f ns   f({x, y}): copies x and y\n", braced_ns);
  std::printf("  ConcreteFunction call          %8.1f ns\n", concrete_ns);
  std::printf("  prepared AddV2 kernel alone    %8.1f ns\n", kernel_ns);
  std::printf("  hand-written Eigen 2x2 add     %8.1f ns\n", eigen_ns);
  std::printf("  ratio Function / kernel        %8.1fx\n", function_ns / kernel_ns);
  std::printf("  target <= 100 ns per call: %s\n", function_ns <= 100 ? "met" : "NOT met");
  return 0;
}
