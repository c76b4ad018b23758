// Helpers the tf.keras layer tests share: layers made and called as Python
// does, float32 tensors of given values, tf.function wrappers, tape
// gradients and central finite differences to check them against.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/value/convert.h"
#include "runtime/value/user_function.h"
#include "runtime/value/value.h"
#include "runtime/value/variable_value.h"
#include "tests/unit/keras/support.h"

namespace ag::test {

/// cls(*args, **kwargs).
inline Value make_layer(const Value& cls, std::vector<Value> args = {}, Kwargs kwargs = {}) {
  return cls(std::move(args), std::move(kwargs));
}

/// A float32 tensor of `shape` holding `values` (row-major).
inline Value tensor_of(const std::vector<float>& values, const std::vector<int64_t>& shape) {
  return Value(TensorHandle(Tensor::from_vector<float>(Shape{std::span<const int64_t>(shape)}, values)));
}

/// 0, 1, 2, ... times `scale` plus `offset`, n values.
inline std::vector<float> iota_values(size_t n, float scale = 1.0f, float offset = 0.0f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) * scale + offset;
  return v;
}

/// Values in [-1, 1) of a fixed LCG stream (reproducible without TF's RNG).
inline std::vector<float> lcg_values(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    v[i] = static_cast<float>((s >> 8) & 0xFFFF) / 32768.0f - 1.0f;
  }
  return v;
}

/// tf.function(f) over a body taking `names` as parameters.
inline Value traced_function(std::vector<std::string> names, std::function<Value(const std::vector<Value>&)> body) {
  std::vector<Param> params;
  for (std::string& n : names) params.push_back({std::move(n), std::nullopt});
  return tf::api::function({make_function("f", std::move(params), std::move(body))}, {});
}

/// with tf.GradientTape() as tape: [watch(x) for x in watched]; y = loss()
/// then tape.gradient(y, sources) as a list.
inline std::vector<Value> tape_gradients(const std::function<Value()>& loss, const std::vector<Value>& sources,
                                         const std::vector<Value>& watched = {}) {
  Value tape = tf::api::GradientTape()({}, {});
  tape.getattr("__enter__")();
  for (const Value& w : watched) tape.getattr("watch")({w});
  Value y = loss();
  tape.getattr("__exit__")({Value(), Value(), Value()});
  return tape.getattr("gradient")({y, Value::list(sources)}).items();
}

/// Central differences of `f` at `x`, one per element.
inline std::vector<double> numeric_gradient(const std::function<double(const std::vector<float>&)>& f,
                                            const std::vector<float>& x, float delta = 1e-2f) {
  std::vector<double> g(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    std::vector<float> hi = x, lo = x;
    hi[i] += delta;
    lo[i] -= delta;
    g[i] = (f(hi) - f(lo)) / (static_cast<double>(hi[i]) - static_cast<double>(lo[i]));
  }
  return g;
}

/// A tensor's (or variable's) float32 values.
inline std::vector<float> values_of(const Value& v) {
  return floats(v.is_variable() ? Value(variable_value::read(v)) : v);
}

/// Every value within `tol` (absolute, or relative past magnitude 1).
inline bool all_close(const std::vector<float>& got, const std::vector<double>& want, double tol) {
  if (got.size() != want.size()) return false;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::abs(got[i] - want[i]) > tol * std::max(1.0, std::abs(want[i]))) return false;
  }
  return true;
}

inline std::vector<double> widen_values(const std::vector<float>& v) { return std::vector<double>(v.begin(), v.end()); }

/// [w.name for w in layer.weights]
inline std::vector<std::string> weight_names(const Value& layer) {
  std::vector<std::string> out;
  const Value weights = layer.getattr("weights");  // the list outlives the loop
  for (const Value& w : weights.items()) out.push_back(str(w.getattr("name")));
  return out;
}

/// The shapes of layer.weights as Python prints them: "(3, 3, 1, 2)".
inline std::vector<std::string> weight_shapes(const Value& layer) {
  std::vector<std::string> out;
  const Value weights = layer.getattr("weights");
  for (const Value& w : weights.items()) out.push_back(str(w.getattr("shape")));
  return out;
}

/// sum(y · r) for fixed r: a scalar whose gradient reaches every output.
inline Value weighted_sum(const Value& y, uint32_t seed = 7) {
  const Shape& s = y.as_tensor().shape();
  std::vector<int64_t> dims;
  for (int i = 0; i < s.rank(); ++i) dims.push_back(s.dim(i));
  return tf::reduce_sum(y * tensor_of(lcg_values(static_cast<size_t>(s.num_elements()), seed), dims));
}

}  // namespace ag::test
