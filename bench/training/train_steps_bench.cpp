// Issue 13's training steps through agc (bench/training/train_steps.py,
// converted by `agc emit-cpp --lib`): the best and median wall time per step
// of the MLP 784-512-512-10 step (batch 128) and of the dynamic_rnn BPTT step
// (T=100, B=32, 256 units), each a traced tf.function doing forward, tape
// gradient and an Adam update. bench/training/torch_train_steps.py times the
// same steps in PyTorch eager and TorchScript (bench/run.sh runs both).
// It also reports what the RNN's While saves per iteration for its gradient.
//
//   bench_train_steps [--steps N] [--only mlp|rnn]
//   bench_train_steps --rnn-memory   the RNN step's memory: the growth of the
//                                    fresh process's peak resident memory and
//                                    of its tensor storage (buffer_stats) over
//                                    its first step
// --only times just that step (for `perf record`).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "runtime/api/tf_api.h"
#include "runtime/core/buffer.h"
#include "runtime/function/function_value.h"
#include "runtime/graph/control_flow_grad.h"
#include "runtime/graph/graph.h"
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

/// A field of /proc/self/status in kB ("VmRSS", "VmHWM").
long status_kb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with(field) && line[std::strlen(field)] == ':') return std::stol(line.substr(std::strlen(field) + 1));
  }
  return -1;
}

/// Per While of the traced RNN step, the tensors its gradient saves every
/// iteration and their bytes (bytes_of() of a fully known shape).
void report_saved(const ag::Value& xs) {
  using namespace ag;
  Value graph = train_steps::rnn_graph(xs);
  for (const auto& node : graph_of(graph)->nodes()) {
    std::vector<SavedPerIteration> saved = while_saved_tensors(*node);
    if (saved.empty()) continue;
    int64_t bytes = 0;
    std::string names;
    for (const SavedPerIteration& s : saved) {
      bytes += s.spec.shape.num_elements() * dtype_size(s.spec.dtype);
      names += (names.empty() ? "" : ", ") + s.tensor + " " + s.spec.shape.str();
    }
    std::printf("RNN While '%s' saves per iteration: %zu tensors, %lld bytes (%s)\n", node->name.c_str(), saved.size(),
                static_cast<long long>(bytes), names.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 30;
  bool memory = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc) steps = std::stoi(argv[++i]);
    else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
    else if (std::strcmp(argv[i], "--rnn-memory") == 0) memory = true;
  }
  if (!only.empty() && only != "mlp" && only != "rnn") {
    std::fprintf(stderr, "--only takes mlp or rnn\n");
    return 2;
  }
  using namespace ag;
  train_steps::init();
  if (memory) {
    Value xs = tf::random_normal(Value::list({Value(100), Value(32), Value(256)}), Value(0.0), Value(1.0), DType::Float32);
    // The first step: a later one reuses buffers the executor keeps.
    long before = status_kb("VmRSS");
    reset_buffer_peak();
    int64_t held = buffer_stats().current;
    train_steps::rnn_step(xs);  // the trace and a first step
    std::printf("RNN step: peak resident memory +%ld kB, peak tensor storage +%lld kB over the first step "
                "(with the trace)\n",
                status_kb("VmHWM") - before, static_cast<long long>((buffer_stats().peak - held) / 1024));
    report_saved(xs);
    return 0;
  }
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
  report_saved(xs);
  return 0;
}
