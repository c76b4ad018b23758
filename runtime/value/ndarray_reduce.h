// NumPy's reductions on ndarrays (np.sum, a.mean(), np.max, argmax, any,
// std, ...) with NumPy's result dtypes (integer sums in int64, means of
// integers in float64) and its order of float additions: pairwise summation
// over the contiguous reduced elements in blocks of 8192 (its buffer size),
// sequential along outer axes, so sums print NumPy's digits.
#pragma once

#include <optional>

#include "runtime/value/value.h"

namespace ag::ndarray {

enum class Reduction { Sum, Prod, Max, Min, Mean, Var, Std, ArgMax, ArgMin, Any, All };

/// NumPy's name of the reduction ("sum", "maximum" as its errors say, ...).
const char* reduction_name(Reduction r);

/// The axes an `axis` argument names (None: all; an int; a tuple of ints),
/// normalized; ValueError "axis 2 is out of bounds for array of dimension 1"
/// (NumPy's AxisError) and "duplicate value in 'axis'".
std::vector<int> axes_argument(const Value& axis, int rank);

struct ReduceOptions {
  Value axis;                          // None, an int or a tuple of ints
  bool keepdims = false;
  std::optional<DType> dtype;          // the accumulator's dtype (sum, prod, mean, var, std)
  int64_t ddof = 0;                    // var, std
};

/// r over `a` (an ndarray or anything np.asarray takes). A result of rank 0
/// is a NumPy scalar.
Value reduce(Reduction r, const Value& a, const ReduceOptions& options);

/// np.cumsum / np.cumprod along `axis` (None: over the flattened array).
Value cumulative(bool product, const Value& a, const Value& axis, std::optional<DType> dtype);

}  // namespace ag::ndarray
