// Issue 13's training steps through agc (bench/training/train_steps.py,
// converted by `agc emit-cpp --lib`): the best and median wall time per step
// of the MLP 784-512-512-10 step (batch 128) and of the dynamic_rnn BPTT step
// (T=100, B=32, 256 units), each a traced tf.function doing forward, tape
// gradient and an Adam update. bench/training/torch_train_steps.py times the
// same steps in PyTorch eager and TorchScript (bench/run.sh runs both).
//
//   bench_train_steps [--steps N] [--only mlp|rnn]
// --only times just that step (for `perf record`).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/api/tf_api.h"
#include "train_steps.h"

namespace {

using Clock = std::chrono::steady_clock;

template <class F>
std::pair<double, double> time_steps(int steps, F&& step) {
  step();  // the trace
  std::vector<double> ms;
  for (int i = 0; i < steps; ++i) {
    auto t0 = Clock::now();
    step();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2]};
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 30;
  std::string only;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--steps") == 0) steps = std::stoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--only") == 0) only = argv[i + 1];
  }
  if (!only.empty() && only != "mlp" && only != "rnn") {
    std::fprintf(stderr, "--only takes mlp or rnn\n");
    return 2;
  }
  using namespace ag;
  train_steps::init();
  Value x = tf::random_normal(Value::list({Value(128), Value(784)}), Value(0.0), Value(1.0), DType::Float32);
  Value labels = tf::cast(tf::random_uniform(Value::list({Value(128)}), Value(0), Value(10), DType::Int32), DType::Int32);
  if (only != "rnn") {
    auto [mlp_best, mlp_median] = time_steps(steps, [&] { train_steps::mlp_step(x, labels); });
    std::printf("MLP 784-512-512-10, batch 128, Adam step: best %.2f ms, median %.2f ms\n", mlp_best, mlp_median);
  }
  if (only == "mlp") return 0;
  Value xs = tf::random_normal(Value::list({Value(100), Value(32), Value(256)}), Value(0.0), Value(1.0), DType::Float32);
  auto [rnn_best, rnn_median] = time_steps(std::max(steps / 3, 5), [&] { train_steps::rnn_step(xs); });
  std::printf("dynamic_rnn T=100 B=32 H=256, BPTT + Adam step: best %.2f ms, median %.2f ms\n", rnn_best, rnn_median);
  return 0;
}
