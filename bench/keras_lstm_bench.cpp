// tf.keras.layers.LSTM forward and backward (T=100, batch 32, 256 inputs,
// 256 units, return_sequences=True, loss mean(y^2), GradientTape gradients
// of the loss by the three weights and the input), as a traced tf.function
// and eagerly: best and median wall time per step, and what the traced
// step's While saves per iteration. bench/training/torch_lstm.py times the
// same step with torch.nn.LSTM.
//
//   bench_keras_lstm [--steps N] [--only traced|eager] [--gru]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/function/function_value.h"
#include "runtime/graph/control_flow_grad.h"
#include "runtime/graph/graph.h"
#include "runtime/value/user_function.h"

namespace {

using Clock = std::chrono::steady_clock;
using namespace ag;

template <class F>
std::pair<double, double> time_steps(int steps, F&& step) {
  step();  // the trace, or an untimed eager warm-up
  std::vector<double> ms;
  for (int i = 0; i < steps; ++i) {
    auto t0 = Clock::now();
    step();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2]};
}

Value step_body(const Value& layer, const Value& x) {
  Value tape = tf::api::GradientTape()({}, {});
  tape.getattr("__enter__")({}, {});
  tape.getattr("watch")({x}, {});
  Value y = layer({x}, {});
  Value loss = tf::reduce_mean(tf::multiply(y, y));
  tape.getattr("__exit__")({Value(), Value(), Value()}, {});
  std::vector<Value> sources{x};
  for (const Value& w : iterate(layer.getattr("trainable_weights"))) sources.push_back(w);
  Value grads = tape.getattr("gradient")({loss, Value::list(std::move(sources))}, {});
  std::vector<Value> out{loss};
  for (const Value& g : iterate(grads)) out.push_back(g);
  return Value::list(std::move(out));
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 20;
  std::string only;
  bool gru = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) steps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--gru")) gru = true;
  }
  tf::set_seed(Value(1));
  Value cls = gru ? tf::api::keras_layers_GRU() : tf::api::keras_layers_LSTM();
  Value layer = cls({Value(256)}, {{"return_sequences", Value(true)}});
  Value x = tf::random_normal(Value::list({Value(32), Value(100), Value(256)}));
  layer({x});
  const char* what = gru ? "GRU" : "LSTM";
  if (only.empty() || only == "traced") {
    Value fn = tf::api::function(
        {make_function("train_step", {{"x", std::nullopt}}, [&](const std::vector<Value>& a) { return step_body(layer, a[0]); })},
        {});
    auto [best, median] = time_steps(steps, [&] { fn({x}); });
    std::printf("keras %s T=100 B=32 256->256 forward+backward, traced: best %.2f ms, median %.2f ms\n", what, best,
                median);
    Value concrete = fn.getattr("get_concrete_function")({x}, {});
    for (const auto& node : graph_of(concrete.getattr("graph"))->nodes()) {
      std::vector<SavedPerIteration> saved = while_saved_tensors(*node);
      if (saved.empty()) continue;
      int64_t bytes = 0;
      std::string names;
      for (const SavedPerIteration& s : saved) {
        bytes += s.spec.shape.num_elements() * dtype_size(s.spec.dtype);
        names += (names.empty() ? "" : ", ") + s.tensor + " " + s.spec.shape.str();
      }
      std::printf("While '%s' saves per iteration: %zu tensors, %lld bytes (%s)\n", node->name.c_str(), saved.size(),
                  static_cast<long long>(bytes), names.c_str());
    }
  }
  if (only.empty() || only == "eager") {
    auto [best, median] = time_steps(std::max(3, steps / 4), [&] { step_body(layer, x); });
    std::printf("keras %s T=100 B=32 256->256 forward+backward, eager: best %.2f ms, median %.2f ms\n", what, best,
                median);
  }
  return 0;
}
