// Issue 13: what a GradientTape costs an eager program. A chain of 10,000
// eager ops (x = x * c + d on 16 floats, 2 ops per step) run without a tape,
// under a tape that watches nothing (every op is offered and declined), and
// under a tape that records every op; ns per op of each, and the recording
// overhead per op (recorded - untaped). Then the gradient of the recorded
// chain, ns per recorded op. Best of 5 runs each.
//
//   bench_tape [--steps N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/graph/gradients.h"
#include "runtime/graph/tape.h"
#include "runtime/ops/registry.h"

namespace {

using namespace ag;
using Clock = std::chrono::steady_clock;

TensorHandle chain(TensorHandle x, int steps, const TensorHandle& c, const TensorHandle& d) {
  for (int i = 0; i < steps; ++i) {
    TensorHandle mul[] = {x, c};
    TensorHandle prod = apply_op1(op::Mul, mul);
    TensorHandle add[] = {prod, d};
    x = apply_op1(op::AddV2, add);
  }
  return x;
}

template <class F>
double best_ms(F&& f) {
  double best = 1e30;
  for (int run = 0; run < 5; ++run) {
    auto t0 = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 5000;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--steps") == 0) steps = std::stoi(argv[i + 1]);
  }
  const double ops = 2.0 * steps;
  std::vector<float> ones(16, 1.0f);
  TensorHandle x0(Tensor::from_vector<float>({16}, ones));
  TensorHandle c(Tensor::scalar<float>(0.999f)), d(Tensor::scalar<float>(0.001f));

  double plain = best_ms([&] { chain(x0, steps, c, d); });
  double idle = best_ms([&] {
    Tape tape(false, true);
    tape.start();
    chain(x0, steps, c, d);
    tape.stop();
  });
  double recorded = 0, backward = 0;
  for (int run = 0; run < 5; ++run) {
    Tape tape(false, true);
    TensorHandle x(Tensor::from_vector<float>({16}, ones));
    tape.watch(x);
    auto t0 = Clock::now();
    tape.start();
    TensorHandle y = chain(x, steps, c, d);
    tape.stop();
    double rec = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    std::optional<TensorHandle> seed;
    GradientSource source{key_of(x), {DType::Float32, Shape{16}}};
    auto t1 = Clock::now();
    auto g = compute_gradient(tape.entries(), std::span<const TensorHandle>(&y, 1),
                              std::span<const std::optional<TensorHandle>>(&seed, 1), std::span(&source, 1));
    double back = std::chrono::duration<double, std::milli>(Clock::now() - t1).count();
    if (!g[0]) return 1;
    recorded = run == 0 ? rec : std::min(recorded, rec);
    backward = run == 0 ? back : std::min(backward, back);
  }
  std::printf("eager chain of %.0f ops on 16 floats, best of 5:\n", ops);
  std::printf("  no tape:                     %8.1f ns/op\n", plain * 1e6 / ops);
  std::printf("  tape watching nothing:       %8.1f ns/op\n", idle * 1e6 / ops);
  std::printf("  tape recording every op:     %8.1f ns/op (recording overhead %.1f ns/op)\n", recorded * 1e6 / ops,
              (recorded - plain) * 1e6 / ops);
  std::printf("  gradient of the recording:   %8.1f ns per recorded op\n", backward * 1e6 / ops);
  return 0;
}
