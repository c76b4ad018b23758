// Helpers the tf.keras losses and metrics tests share: nested Python lists of
// numbers, float32 tensors of them, and a tensor's values read back.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>
#include <vector>

#include "runtime/api/tf_api.h"
#include "runtime/value/convert.h"
#include "runtime/value/value.h"

namespace ag::test {

/// A Python list of floats: [x, ...].
inline Value row(std::initializer_list<double> xs) {
  std::vector<Value> out;
  for (double x : xs) out.emplace_back(x);
  return Value::list(std::move(out));
}

/// A Python list of such lists.
inline Value rows(std::initializer_list<std::initializer_list<double>> rs) {
  std::vector<Value> out;
  for (const auto& r : rs) out.push_back(row(r));
  return Value::list(std::move(out));
}

/// A float32 tensor of nested lists.
inline Value f32(const Value& list) { return tf::constant(list, DType::Float32); }

/// The values of a float32 tensor (a variable is read).
inline std::vector<float> floats(const Value& v) {
  Tensor t = to_tensor(v).value();
  REQUIRE(t.dtype() == DType::Float32);
  const float* p = t.data<float>();
  return std::vector<float>(p, p + t.num_elements());
}

inline double scalar(const Value& v) {
  std::vector<float> f = floats(v);
  REQUIRE(f.size() == 1);
  return f[0];
}

/// Equal to float32 precision (relative 1e-5).
inline doctest::Approx near(double x) { return doctest::Approx(x).epsilon(1e-5); }

/// Every value of `v` near the expected one.
inline bool all_near(const Value& v, const std::vector<double>& expected) {
  std::vector<float> f = floats(v);
  if (f.size() != expected.size()) return false;
  for (size_t i = 0; i < f.size(); ++i) {
    if (std::abs(f[i] - expected[i]) > 1e-5 * std::max(1.0, std::abs(expected[i]))) return false;
  }
  return true;
}

}  // namespace ag::test
