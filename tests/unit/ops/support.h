// Helpers shared by the op family tests: running an op eagerly on a braced
// list of inputs, its error text, and filling tensors for the naive references.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/core/tensor.h"
#include "runtime/ops/eager.h"
#include "tests/unit/ops/function_def_round_trip.h"
#include "tests/unit/ops/sweep.h"

namespace ag::test {

/// run_op / run_op1 on a braced list of inputs; the family tests name their
/// ops as data (case tables), so an unregistered name fails the test. The
/// first calls of each op are also written to a FunctionDef and read back
/// (function_def_round_trip.h).
inline std::vector<Tensor> runv(std::string_view op, const std::vector<Tensor>& in, const Attrs& a = {}) {
  const OpDef& def = OpRegistry::global().get(OpType{op});
  std::vector<Tensor> out = run_op(def, in, a);
  check_function_def_round_trip(def, in, a, out);
  return out;
}
inline std::vector<Tensor> runv(OpType op, const std::vector<Tensor>& in, const Attrs& a = {}) { return runv(op.name(), in, a); }
inline Tensor run1(std::string_view op, const std::vector<Tensor>& in, const Attrs& a = {}) {
  std::vector<Tensor> out = runv(op, in, a);
  if (out.size() != 1) throw InternalError(std::string(op) + " has " + std::to_string(out.size()) + " outputs, not 1");
  return out[0];
}

/// The message of the InvalidArgumentError run1(op, in, a) throws ("<no error>" if none).
inline std::string error_of(std::string_view op, std::vector<Tensor> in, const Attrs& a = {}) {
  try {
    run1(op, in, a);
  } catch (const InvalidArgumentError& e) {
    return e.what();
  }
  return "<no error>";
}

/// An int32 tensor of `v`, of shape `s` (a vector when none is given).
inline Tensor int32s(const std::vector<int32_t>& v, std::optional<Shape> s = std::nullopt) {
  return Tensor::from_vector(s ? *s : Shape{static_cast<int64_t>(v.size())}, v);
}
/// A float64 tensor of `v`, of shape `s`.
inline Tensor float64s(const std::vector<double>& v, const Shape& s) { return Tensor::from_vector(s, v); }

/// The row-major multi-index of flat index `i` in shape `s`, and back.
inline std::vector<int64_t> unravel_index(int64_t i, const Shape& s) {
  std::vector<int64_t> idx(static_cast<size_t>(s.rank()));
  for (int d = s.rank() - 1; d >= 0; --d) {
    idx[static_cast<size_t>(d)] = i % s.dim(d);
    i /= s.dim(d);
  }
  return idx;
}
inline int64_t ravel_index(const std::vector<int64_t>& idx, const Shape& s) {
  int64_t f = 0;
  for (int d = 0; d < s.rank(); ++d) f = f * s.dim(d) + idx[static_cast<size_t>(d)];
  return f;
}

/// A random integer in [lo, hi] from the sweep's random source.
inline int64_t rnd(int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(sweep::rng()() % static_cast<unsigned>(hi - lo + 1));
}

/// Stores `v` into element i of `t` (bfloat16 rounded; strings left alone).
inline void put(Tensor& t, int64_t i, double v) {
  dispatch_dtype(t.dtype(), [&]<class T>() {
    if constexpr (std::is_same_v<T, bfloat16>) t.data<T>()[i] = bfloat16(static_cast<float>(v));
    else if constexpr (std::is_arithmetic_v<T>) t.data<T>()[i] = static_cast<T>(v);
  });
}

inline Tensor run1(OpType op, const std::vector<Tensor>& in, const Attrs& a = {}) { return run1(op.name(), in, a); }

}  // namespace ag::test
