// What borrowing an app's buffer saves per call (runtime/core/
// borrowed_tensor.h): each typed call of borrowed_inputs.py's functions
// against the same call on a tensor copied from the buffer first, paired
// and interleaved, for inputs of 784 floats (one MNIST image) to 16M floats
// (64 MB). total() reads its input once; scale() also writes as much.
#include <time.h>

#include <cstdio>
#include <vector>

#include "bench/bench_support.h"
#include "borrowed_inputs.h"

namespace {

double now_us() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) * 1e-3;
}

template <class Borrowed, class Copied>
void compare(const char* name, int64_t n, Borrowed borrowed, Copied copied) {
  const int reps = n <= 100000 ? 2000 : n <= 1000000 ? 200 : 20;
  std::vector<double> b_us, c_us;
  for (int r = 0; r < reps; ++r) {
    double t0 = now_us();
    borrowed();
    double t1 = now_us();
    copied();
    double t2 = now_us();
    b_us.push_back(t1 - t0);
    c_us.push_back(t2 - t1);
  }
  double b = ag::bench::median(b_us), c = ag::bench::median(c_us);
  std::printf("%-6s %9lld floats  borrowed %10.2f us  copied %10.2f us  copy costs %6.1f%%\n", name,
              static_cast<long long>(n), b, c, 100.0 * (c - b) / b);
}

}  // namespace

int main() {
  std::printf("load average %.2f\n", ag::bench::load_average());
  for (int64_t n : {int64_t{784}, int64_t{64 * 784}, int64_t{1} << 20, int64_t{16} << 20}) {
    std::vector<float> data(static_cast<size_t>(n), 0.5f);
    ag::TensorView<float> view(data, {n});
    auto copy = [&] { return ag::Value(ag::Tensor::from_vector<float>({n}, data)); };
    borrowed_inputs::total(view);  // traced once
    borrowed_inputs::scale(view);
    compare("total", n, [&] { borrowed_inputs::total(view); }, [&] { borrowed_inputs::total(copy()); });
    compare("scale", n, [&] { borrowed_inputs::scale(view); }, [&] { borrowed_inputs::scale(copy()); });
  }
  return 0;
}
