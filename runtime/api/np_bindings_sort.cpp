// The np.* rows that count and order elements (np_functions.def): bincount,
// argsort, unique, diff. Host loops over the elements, as NumPy's own.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/api/tf_call.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/ndarray_math.h"
#include "runtime/value/numpy_dtype.h"

namespace ag::np::impl {
namespace {

/// A valid axis of a rank-`rank` array, negative from the end; a ValueError
/// with the text of NumPy's AxisError otherwise (as ndarray_reduce's).
int64_t normalized_axis(const Value& axis, int64_t rank) {
  const int64_t a = axis.as_int();
  if (a < -rank || a >= rank) {
    throw ValueError("axis " + std::to_string(a) + " is out of bounds for array of dimension " + std::to_string(rank));
  }
  return a < 0 ? a + rank : a;
}

/// Sorts one line of `n` keys `stride` apart into `out` (indices along the
/// line): stable, NaN last, as NumPy's sorts order them.
template <class T>
void argsort_line(const T* keys, int64_t n, int64_t stride, int64_t* out) {
  std::vector<int64_t> idx(static_cast<size_t>(n));
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int64_t i, int64_t j) {
    const T a = keys[i * stride], b = keys[j * stride];
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(b)) return !std::isnan(a);
      if (std::isnan(a)) return false;
    }
    return a < b;
  });
  for (int64_t k = 0; k < n; ++k) out[k * stride] = idx[static_cast<size_t>(k)];
}

/// NumPy's sort order of two elements: NaN after every number.
template <class T>
bool sorts_before(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(b)) return !std::isnan(a);
    if (std::isnan(a)) return false;
  }
  return a < b;
}

/// Whether sorted neighbours `a`, `b` start a new unique value (all NaNs are
/// one, NumPy's equal_nan=True).
template <class T>
bool differs(const T& a, const T& b, bool equal_nan) {
  if constexpr (std::is_floating_point_v<T>) {
    if (equal_nan && std::isnan(a) && std::isnan(b)) return false;
  }
  return a != b;
}

}  // namespace

Value unique(const TfCall& c) {
  // NumPy 1.24's _unique1d: the flattened array sorted (stably, so an index
  // is a value's first occurrence), a mask of where each new value starts;
  // the values, then the optional outputs in NumPy's order.
  if (!c["axis"].is_none()) throw NotImplementedError("np.unique with axis= is not supported by agc (only axis=None)");
  Tensor a = ndarray::to_array(c["ar"]);
  a = a.reshaped(Shape{a.num_elements()});
  const bool want_index = truthy(c["return_index"]), want_inverse = truthy(c["return_inverse"]);
  const bool want_counts = truthy(c["return_counts"]), equal_nan = truthy(c["equal_nan"]);
  const int64_t n = a.num_elements();
  std::vector<int64_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<int64_t> starts;  // positions in sorted order where a new value starts
  Tensor values;
  dispatch_dtype(a.dtype(), [&]<class T>() {
    using K = std::conditional_t<std::is_same_v<T, bfloat16>, float, T>;
    const T* p = a.data<T>();
    auto key = [&](int64_t i) { return static_cast<K>(p[i]); };
    std::stable_sort(perm.begin(), perm.end(), [&](int64_t i, int64_t j) { return sorts_before(key(i), key(j)); });
    for (int64_t k = 0; k < n; ++k) {
      if (k == 0 || differs(key(perm[static_cast<size_t>(k - 1)]), key(perm[static_cast<size_t>(k)]), equal_nan)) {
        starts.push_back(k);
      }
    }
    values = Tensor(a.dtype(), Shape{static_cast<int64_t>(starts.size())});
    for (size_t u = 0; u < starts.size(); ++u) values.data<T>()[u] = p[perm[static_cast<size_t>(starts[u])]];
  });
  const auto m = static_cast<int64_t>(starts.size());
  std::vector<Value> out{ndarray::array(std::move(values))};
  if (want_index) {
    std::vector<int64_t> index(static_cast<size_t>(m));
    for (size_t u = 0; u < starts.size(); ++u) index[u] = perm[static_cast<size_t>(starts[u])];
    out.push_back(ndarray::array(Tensor::from_vector<int64_t>(Shape{m}, index)));
  }
  if (want_inverse) {
    std::vector<int64_t> inverse(static_cast<size_t>(n));
    int64_t u = -1;
    for (int64_t k = 0; k < n; ++k) {
      if (u + 1 < m && starts[static_cast<size_t>(u + 1)] == k) ++u;
      inverse[static_cast<size_t>(perm[static_cast<size_t>(k)])] = u;
    }
    out.push_back(ndarray::array(Tensor::from_vector<int64_t>(Shape{n}, inverse)));
  }
  if (want_counts) {
    std::vector<int64_t> counts(static_cast<size_t>(m));
    for (int64_t u = 0; u < m; ++u) {
      counts[static_cast<size_t>(u)] = (u + 1 < m ? starts[static_cast<size_t>(u + 1)] : n) - starts[static_cast<size_t>(u)];
    }
    out.push_back(ndarray::array(Tensor::from_vector<int64_t>(Shape{m}, counts)));
  }
  if (out.size() == 1) return out[0];
  return Value::tuple(std::move(out));
}

Value bincount(const TfCall& c) {
  // NumPy casts a list's items to intp however they come, an array only
  // safely (from bool or an integer type); the counts are int64, or float64
  // sums of the weights.
  const Value& x_in = c["x"];
  if (x_in.is_ndarray()) {
    const DType t = ndarray::tensor(x_in).dtype();
    if (t != DType::Bool && !is_integer(t)) {
      throw TypeError(std::string("Cannot cast array data from dtype('") + numpy::dtype_name(t) +
                      "') to dtype('int64') according to the rule 'safe'");
    }
  }
  Tensor x = ndarray::cast(ndarray::to_array(x_in), DType::Int64);
  if (x.rank() == 0) throw ValueError("object of too small depth for desired array");
  if (x.rank() > 1) throw ValueError("object too deep for desired array");
  const int64_t minlength = c["minlength"].is_none() ? 0 : c["minlength"].as_int();
  if (minlength < 0) throw ValueError("'minlength' must not be negative");
  const int64_t n = x.num_elements();
  const int64_t* xs = x.data<int64_t>();
  int64_t size = minlength;
  for (int64_t i = 0; i < n; ++i) {
    if (xs[i] < 0) throw ValueError("'list' argument must have no negative elements");
    size = std::max(size, xs[i] + 1);
  }
  if (c["weights"].is_none()) {
    std::vector<int64_t> counts(static_cast<size_t>(size), 0);
    for (int64_t i = 0; i < n; ++i) ++counts[static_cast<size_t>(xs[i])];
    return ndarray::array(Tensor::from_vector<int64_t>(Shape{size}, counts));
  }
  Tensor w = ndarray::cast(ndarray::to_array(c["weights"]), DType::Float64);
  if (w.rank() != 1) throw ValueError(w.rank() == 0 ? "object of too small depth for desired array" : "object too deep for desired array");
  if (w.num_elements() != n) throw ValueError("The weights and list don't have the same length.");
  std::vector<double> sums(static_cast<size_t>(size), 0.0);
  for (int64_t i = 0; i < n; ++i) sums[static_cast<size_t>(xs[i])] += w.data<double>()[i];
  return ndarray::array(Tensor::from_vector<double>(Shape{size}, sums));
}

Value argsort(const TfCall& c) {
  // Every kind sorts stably here: NumPy's default quicksort gives the same
  // order but for equal keys, whose order it leaves unspecified.
  if (!c["order"].is_none()) throw NotImplementedError("np.argsort's order= (structured arrays) is not supported by agc");
  Tensor a = ndarray::to_array(c["a"]);
  if (a.dtype() == DType::String) throw NotImplementedError("np.argsort of string arrays is not supported by agc");
  if (c["axis"].is_none()) a = a.reshaped(Shape{a.num_elements()});
  if (a.rank() == 0) return ndarray::array(Tensor::from_vector<int64_t>(Shape{1}, {0}));
  const int64_t axis = c["axis"].is_none() ? 0 : normalized_axis(c["axis"], a.rank());
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= a.shape().dim(d);
  for (int64_t d = axis + 1; d < a.rank(); ++d) inner *= a.shape().dim(d);
  const int64_t n = a.shape().dim(axis);
  const bool floating = is_floating(a.dtype());
  Tensor keys = ndarray::cast(a, floating ? DType::Float64 : DType::Int64);
  std::vector<int64_t> out(static_cast<size_t>(a.num_elements()));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t start = o * n * inner + i;
      if (floating) {
        argsort_line(keys.data<double>() + start, n, inner, out.data() + start);
      } else {
        argsort_line(keys.data<int64_t>() + start, n, inner, out.data() + start);
      }
    }
  }
  return ndarray::array(Tensor::from_vector<int64_t>(a.shape(), out));
}

Value diff(const TfCall& c) {
  // The n-th difference along `axis`: a[1:] - a[:-1] there, n times (for
  // bools a[1:] != a[:-1], as NumPy takes it).
  const int64_t n = c["n"].as_int();
  if (n < 0) throw ValueError("order must be non-negative but got " + std::to_string(n));
  if (n == 0) return c["a"];
  Value a = ndarray::result(ndarray::to_array(c["a"]));
  const int64_t rank = ndarray::tensor(a).rank();
  if (rank == 0) throw ValueError("diff requires input that is at least one dimensional");
  const int64_t axis = normalized_axis(c["axis"], rank);
  std::vector<IndexPart> head(static_cast<size_t>(rank), SliceSpec{}), tail = head;
  head[static_cast<size_t>(axis)] = SliceSpec{Value(1), Value(), Value()};
  tail[static_cast<size_t>(axis)] = SliceSpec{Value(), Value(-1), Value()};
  for (int64_t k = 0; k < n; ++k) {
    const bool is_bool = ndarray::tensor(a).dtype() == DType::Bool;
    a = ndarray::apply(is_bool ? ndarray::Binary::NotEqual : ndarray::Binary::Subtract, ndarray::getitem(a, head),
                       ndarray::getitem(a, tail));
  }
  return a;
}

}  // namespace ag::np::impl
