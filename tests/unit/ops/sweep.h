// The op sweep (ggml's test-backend-ops): every registered op is run against a
// naive reference on random shapes and dtypes, zero-size dims included, and its
// error texts are checked. Family test files hold the cases and declare which
// ops they cover with AG_SWEEP_COVERS; the completeness test in sweep.cpp fails
// on any registered op that no case covers.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <random>
#include <string>

#include "runtime/core/tensor.h"

namespace ag::sweep {

/// The sweep's random source (fixed seed: runs are reproducible).
std::mt19937& rng();
/// A random shape of rank 0..max_rank with dims 0..max_dim (0 only if allow_zero).
Shape random_shape(int max_rank = 4, int64_t max_dim = 5, bool allow_zero = true);
/// A tensor of `shape` with random elements: floats uniform in [lo, hi), integers
/// in [lo, hi] (clamped to the type), bools fair, strings short words.
Tensor random_tensor(DType dtype, const Shape& shape, double lo = -5, double hi = 5);
/// Element i of `t` as a double (bool → 0/1, bfloat16 widened; not for strings).
double element(const Tensor& t, int64_t i);

/// CHECKs that `got` has `want`'s dtype and shape and that every element is
/// within atol + rtol * |want| (exact for integers, bools and strings; NaN
/// matches NaN). `what` names the case in failure messages.
void expect_close(const Tensor& got, const Tensor& want, const std::string& what, double rtol = 1e-5,
                  double atol = 1e-6);

/// Records that ops are covered by sweep cases.
struct Covers {
  Covers(std::initializer_list<const char*> ops);
};

}  // namespace ag::sweep

#define AG_SWEEP_CAT2(a, b) a##b
#define AG_SWEEP_CAT(a, b) AG_SWEEP_CAT2(a, b)
/// AG_SWEEP_COVERS("AddV2", "Sub"); at namespace scope in a family test file.
#define AG_SWEEP_COVERS(...) static const ::ag::sweep::Covers AG_SWEEP_CAT(ag_sweep_covers_, __COUNTER__){__VA_ARGS__}
