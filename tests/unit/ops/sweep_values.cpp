// The op sweep's values (sweep.h): its random source, shapes and tensors, and
// elements read as doubles; apart from sweep.cpp's doctest checks so that
// tools outside the unit tests (ops_fuzz, through references.cpp) link them.
#include <cmath>
#include <limits>

#include "tests/unit/ops/sweep.h"

namespace ag::sweep {

std::mt19937& rng() {
  static std::mt19937 r(20261122);
  return r;
}

Shape random_shape(int max_rank, int64_t max_dim, bool allow_zero) {
  int rank = static_cast<int>(rng()() % static_cast<unsigned>(max_rank + 1));
  Shape s;
  for (int i = 0; i < rank; ++i) {
    int64_t lo = allow_zero ? 0 : 1;
    // Zero-size dims are rarer than others, but every sweep sees some.
    int64_t d = lo + static_cast<int64_t>(rng()() % static_cast<unsigned>(max_dim - lo + 1));
    if (allow_zero && d == 0 && rng()() % 2) d = 1;
    s.push_back(d);
  }
  return s;
}

Tensor random_tensor(DType dtype, const Shape& shape, double lo, double hi) {
  Tensor t(dtype, shape);
  int64_t n = t.num_elements();
  std::uniform_real_distribution<double> real(lo, hi);
  dispatch_dtype(dtype, [&]<class T>() {
    T* d = t.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<T, bool>) {
        d[i] = rng()() % 2 == 0;
      } else if constexpr (std::is_same_v<T, std::string>) {
        static const char* const kWords[] = {"", "a", "tf", "hello", "42", "-3.5", "agc"};
        d[i] = kWords[rng()() % 7];
      } else if constexpr (std::is_same_v<T, bfloat16>) {
        d[i] = bfloat16(static_cast<float>(real(rng())));
      } else if constexpr (std::is_integral_v<T>) {
        double l = std::max<double>(lo, static_cast<double>(std::numeric_limits<T>::min()));
        double h = std::min<double>(hi, static_cast<double>(std::numeric_limits<T>::max()));
        std::uniform_int_distribution<int64_t> in(static_cast<int64_t>(std::ceil(l)), static_cast<int64_t>(std::floor(h)));
        d[i] = static_cast<T>(in(rng()));
      } else {
        d[i] = static_cast<T>(real(rng()));
      }
    }
  });
  return t;
}

double element(const Tensor& t, int64_t i) {
  return dispatch_dtype(t.dtype(), [&]<class T>() -> double {
    if constexpr (std::is_same_v<T, std::string>) {
      return 0.0;
    } else if constexpr (std::is_same_v<T, bfloat16>) {
      return static_cast<double>(static_cast<float>(t.data<T>()[i]));
    } else {
      return static_cast<double>(t.data<T>()[i]);
    }
  });
}

}  // namespace ag::sweep
