// What several benchmarks share: the median of paired ratios, CPU clocks, the
// load average printed beside the figures, seeded random float32 tensors, and
// get_state/set_state over a loop body's locals, written the way the
// generated code writes them.
#pragma once

#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "runtime/autograph/autograph.h"

namespace ag::bench {

/// The median of `v` (NaN when empty).
inline double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// `clock` (CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID) in milliseconds.
inline double cpu_ms(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

/// The 1-minute load average, or -1 when /proc/loadavg cannot be read.
inline double load_average() {
  double l = -1;
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &l) != 1) l = -1;
    std::fclose(f);
  }
  return l;
}

/// A float32 tensor of `shape`, uniform in [-1, 1), from mt19937(seed).
inline Tensor random_tensor(const Shape& shape, uint32_t seed) {
  Tensor t(DType::Float32, shape);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  float* d = t.data<float>();
  for (int64_t i = 0; i < t.num_elements(); ++i) d[i] = dist(gen);
  return t;
}

/// get_state/set_state over references to the body's locals, as the
/// generated code's lambdas are.
struct State {
  std::vector<Value*> vars;
  autograph::GetState get() const {
    return [v = vars] {
      std::vector<Value> out;
      out.reserve(v.size());
      for (Value* p : v) out.push_back(*p);
      return out;
    };
  }
  autograph::SetState set() const {
    return [v = vars](const std::vector<Value>& in) {
      for (size_t i = 0; i < v.size() && i < in.size(); ++i) *v[i] = in[i];
    };
  }
};

}  // namespace ag::bench
