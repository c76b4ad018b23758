#include "runtime/value/ndarray_reduce.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "runtime/ops/kernels/int_math.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/numpy_dtype.h"

namespace ag::ndarray {
namespace {

// NumPy's buffer size: a reduction's inner loop sees at most this many elements at once.
constexpr int64_t kBufferSize = 8192;
// Its pairwise summation's unrolling and block size (loops_utils.h.src).
constexpr int64_t kPairwiseBlock = 128;

/// pairwise_sum: eight partial sums over blocks of at most 128 elements,
/// halving (at a multiple of 8) above that.
template <class T>
T pairwise_sum(const T* a, int64_t n) {
  if (n < 8) {
    T res = T(0);
    for (int64_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= kPairwiseBlock) {
    T r[8];
    for (int k = 0; k < 8; ++k) r[k] = a[k];
    int64_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int k = 0; k < 8; ++k) r[k] += a[i + k];
    }
    T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}

/// How the reduction walks its input: `outer` blocks of `inner` contiguous
/// elements (the trailing reduced axes), each added into one output element.
struct Walk {
  Shape out_shape;           // without the reduced axes
  Shape keep_shape;          // with them as 1 (keepdims)
  int64_t inner = 1;
  int64_t outer = 0;
  int64_t count = 1;         // elements per output element
  std::vector<int64_t> out_index;  // per outer block
};

Walk make_walk(const Shape& shape, const std::vector<int>& axes) {
  int rank = shape.rank();
  std::vector<bool> reduced(static_cast<size_t>(rank), false);
  for (int a : axes) reduced[static_cast<size_t>(a)] = true;
  Walk w;
  for (int i = 0; i < rank; ++i) {
    if (reduced[static_cast<size_t>(i)]) {
      w.count *= shape.dim(i);
      w.keep_shape.push_back(1);
    } else {
      w.out_shape.push_back(shape.dim(i));
      w.keep_shape.push_back(shape.dim(i));
    }
  }
  int k = rank;
  while (k > 0 && reduced[static_cast<size_t>(k - 1)]) --k;
  for (int i = k; i < rank; ++i) w.inner *= shape.dim(i);
  w.outer = 1;
  for (int i = 0; i < k; ++i) w.outer *= shape.dim(i);
  if (w.inner == 0) w.outer = 0;
  // The output element of each outer block: its multi-index without the reduced axes.
  std::vector<int64_t> out_stride(static_cast<size_t>(k), 0);
  int64_t s = 1;
  for (int i = k - 1; i >= 0; --i) {
    if (!reduced[static_cast<size_t>(i)]) {
      out_stride[static_cast<size_t>(i)] = s;
      s *= shape.dim(i);
    }
  }
  w.out_index.reserve(static_cast<size_t>(w.outer));
  std::vector<int64_t> pos(static_cast<size_t>(k), 0);
  int64_t o = 0;
  for (int64_t j = 0; j < w.outer; ++j) {
    w.out_index.push_back(o);
    for (int i = k - 1; i >= 0; --i) {
      auto iu = static_cast<size_t>(i);
      o += out_stride[iu];
      if (++pos[iu] < shape.dim(i)) break;
      o -= out_stride[iu] * shape.dim(i);
      pos[iu] = 0;
    }
  }
  return w;
}

/// NumPy's float sum: per block, chunks of the buffer size, each summed pairwise.
template <class T>
Tensor sum_floats(const Tensor& x, const Walk& w) {
  Tensor out = Tensor::zeros(dtype_of<T>(), w.out_shape);
  T* po = out.data<T>();
  const T* px = x.data<T>();
  for (int64_t j = 0; j < w.outer; ++j) {
    const T* block = px + j * w.inner;
    T& acc = po[w.out_index[static_cast<size_t>(j)]];
    for (int64_t c = 0; c < w.inner; c += kBufferSize) acc += pairwise_sum(block + c, std::min(kBufferSize, w.inner - c));
  }
  return out;
}

/// A sequential reduction: out = step(out, x) in the input's order, from `init`
/// (or from the first element when init is null: max/min).
template <class T, class R, class Step>
Tensor fold(const Tensor& x, const Walk& w, std::optional<R> init, Step step) {
  Tensor out(dtype_of<R>(), w.out_shape);
  R* po = out.data<R>();
  std::vector<bool> started(static_cast<size_t>(out.num_elements()), init.has_value());
  if (init) std::fill(po, po + out.num_elements(), *init);
  const T* px = x.data<T>();
  for (int64_t j = 0; j < w.outer; ++j) {
    auto oi = static_cast<size_t>(w.out_index[static_cast<size_t>(j)]);
    for (int64_t i = 0; i < w.inner; ++i) {
      R v = static_cast<R>(px[j * w.inner + i]);
      if (!started[oi]) {
        po[oi] = v;
        started[oi] = true;
      } else {
        po[oi] = step(po[oi], v);
      }
    }
  }
  return out;
}

template <class T>
bool nan_of(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  return false;
}

/// The accumulator dtype of sum/prod (NumPy's: small integers and bools add in int64).
DType sum_dtype(DType t, const char* name) {
  switch (t) {
    case DType::Bool:
    case DType::Int8:
    case DType::Int32: return DType::Int64;
    case DType::UInt8:
      throw NotImplementedError(std::string("np.") + name +
                                " of uint8 values accumulates in uint64, which agc does not support; pass "
                                "dtype=np.int64");
    default: return t;
  }
}

Tensor sum_in(const Tensor& x_in, const Walk& w, DType dt) {
  Tensor x = cast(x_in, dt);
  return dispatch_dtype(dt, [&]<class T>() -> Tensor {
    if constexpr (std::is_floating_point_v<T>) {
      return sum_floats<T>(x, w);
    } else if constexpr (kernels::kInt<T>) {
      return fold<T, T>(x, w, T(0), [](T a, T b) { return kernels::wrap_add(a, b); });
    } else {
      throw TypeError("cannot sum " + std::string(numpy::dtype_name(dt)) + " values");
    }
  });
}

Tensor keep(Tensor t, const Walk& w, bool keepdims) { return keepdims ? t.reshaped(w.keep_shape) : t; }

Value finish(Tensor t) { return result(std::move(t)); }

/// ret / count, as NumPy's _mean divides: an array in its own dtype, a
/// scalar through a float64 quotient.
Tensor divide_by_count(const Tensor& sum, int64_t count) {
  Tensor out(sum.dtype(), sum.shape());
  dispatch_dtype(sum.dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      const T* ps = sum.data<T>();
      T* po = out.data<T>();
      for (int64_t i = 0; i < sum.num_elements(); ++i) {
        po[i] = sum.rank() == 0 ? static_cast<T>(static_cast<double>(ps[i]) / static_cast<double>(count))
                                : ps[i] / static_cast<T>(count);
      }
    } else {
      throw InternalError("mean in a non-float dtype");
    }
  });
  return out;
}

DType mean_dtype(DType t, std::optional<DType> given) {
  if (given) return *given;
  return (t == DType::Bool || is_integer(t)) ? DType::Float64 : t;
}

}  // namespace

const char* reduction_name(Reduction r) {
  switch (r) {
    case Reduction::Sum: return "sum";
    case Reduction::Prod: return "prod";
    case Reduction::Max: return "maximum";
    case Reduction::Min: return "minimum";
    case Reduction::Mean: return "mean";
    case Reduction::Var: return "var";
    case Reduction::Std: return "std";
    case Reduction::ArgMax: return "argmax";
    case Reduction::ArgMin: return "argmin";
    case Reduction::Any: return "any";
    case Reduction::All: return "all";
  }
  return "?";
}

std::vector<int> axes_argument(const Value& axis, int rank) {
  std::vector<int> out;
  if (axis.is_none()) {
    for (int i = 0; i < rank; ++i) out.push_back(i);
    return out;
  }
  std::vector<Value> items = axis.is_tuple() || axis.is_list() ? axis.items() : std::vector<Value>{axis};
  for (const Value& a : items) {
    if (!(a.is_int() || (a.is_ndarray() && is_integer(tensor(a).dtype())))) {
      throw TypeError("'" + a.type_name() + "' object cannot be interpreted as an integer");
    }
    int64_t i = a.as_int();
    if (i < -rank || i >= rank) {
      throw ValueError("axis " + std::to_string(i) + " is out of bounds for array of dimension " + std::to_string(rank));
    }
    int n = static_cast<int>(i < 0 ? i + rank : i);
    if (std::find(out.begin(), out.end(), n) != out.end()) throw ValueError("duplicate value in 'axis'");
    out.push_back(n);
  }
  return out;
}

Value reduce(Reduction r, const Value& a, const ReduceOptions& options) {
  Tensor x = to_array(a);
  if (x.dtype() == DType::String || x.dtype() == DType::BFloat16) {
    throw NotImplementedError(std::string("np.") + reduction_name(r) + " of " + numpy::dtype_name(x.dtype()) +
                              " arrays is not supported by agc");
  }
  if (r == Reduction::ArgMax || r == Reduction::ArgMin) {
    bool is_max = r == Reduction::ArgMax;
    if (!options.axis.is_none() && !(options.axis.is_int() || options.axis.is_ndarray())) {
      throw TypeError("'" + options.axis.type_name() + "' object cannot be interpreted as an integer");
    }
    Tensor flat = options.axis.is_none() ? x.reshaped(Shape{x.num_elements()}) : x;
    int axis = axes_argument(options.axis.is_none() ? Value(0) : options.axis, flat.rank())[0];
    int64_t n = flat.shape().dim(axis);
    if (n == 0) throw ValueError(std::string("attempt to get ") + reduction_name(r) + " of an empty sequence");
    int64_t inner = 1;
    for (int i = axis + 1; i < flat.rank(); ++i) inner *= flat.shape().dim(i);
    Walk w = make_walk(flat.shape(), {axis});
    Tensor out(DType::Int64, w.out_shape);
    dispatch_dtype(flat.dtype(), [&]<class T>() {
      if constexpr (!std::is_same_v<T, std::string> && !std::is_same_v<T, bfloat16>) {
        const T* px = flat.data<T>();
        int64_t outer = flat.num_elements() / (n * inner);
        for (int64_t o = 0; o < outer; ++o) {
          for (int64_t in = 0; in < inner; ++in) {
            const T* base = px + o * n * inner + in;
            int64_t best = 0;
            for (int64_t i = 1; i < n && !nan_of(base[best * inner]); ++i) {
              T v = base[i * inner];
              if (nan_of(v) || (is_max ? v > base[best * inner] : v < base[best * inner])) best = i;
            }
            out.data<int64_t>()[o * inner + in] = best;
          }
        }
      }
    });
    if (options.keepdims && !options.axis.is_none()) out = out.reshaped(w.keep_shape);
    return finish(std::move(out));
  }

  std::vector<int> axes = axes_argument(options.axis, x.rank());
  Walk w = make_walk(x.shape(), axes);
  switch (r) {
    case Reduction::Sum: {
      DType dt = options.dtype ? *options.dtype : sum_dtype(x.dtype(), "sum");
      if (dt == DType::Bool) {
        return finish(keep(fold<bool, bool>(cast(x, DType::Bool), w, false, [](bool p, bool q) { return p || q; }), w,
                           options.keepdims));
      }
      return finish(keep(sum_in(x, w, dt), w, options.keepdims));
    }
    case Reduction::Prod: {
      DType dt = options.dtype ? *options.dtype : sum_dtype(x.dtype(), "prod");
      Tensor c = cast(x, dt);
      Tensor out = dispatch_dtype(dt, [&]<class T>() -> Tensor {
        if constexpr (std::is_floating_point_v<T>) {
          return fold<T, T>(c, w, T(1), [](T p, T q) { return p * q; });
        } else if constexpr (kernels::kInt<T>) {
          return fold<T, T>(c, w, T(1), [](T p, T q) { return kernels::wrap_mul(p, q); });
        } else if constexpr (std::is_same_v<T, bool>) {
          return fold<T, T>(c, w, true, [](T p, T q) { return p && q; });
        } else {
          throw TypeError("cannot multiply " + std::string(numpy::dtype_name(dt)) + " values");
        }
      });
      return finish(keep(std::move(out), w, options.keepdims));
    }
    case Reduction::Max:
    case Reduction::Min: {
      if (w.count == 0 || x.num_elements() == 0) {
        throw ValueError(std::string("zero-size array to reduction operation ") + reduction_name(r) +
                         " which has no identity");
      }
      bool is_max = r == Reduction::Max;
      Tensor out = dispatch_dtype(x.dtype(), [&]<class T>() -> Tensor {
        if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bfloat16>) {
          throw InternalError("max of an unsupported dtype");
        } else {
          return fold<T, T>(x, w, std::nullopt, [is_max](T p, T q) {
            if (nan_of(p)) return p;
            if (nan_of(q)) return q;
            if constexpr (std::is_same_v<T, bool>) return is_max ? (p || q) : (p && q);
            else return is_max ? (p >= q ? p : q) : (p <= q ? p : q);
          });
        }
      });
      return finish(keep(std::move(out), w, options.keepdims));
    }
    case Reduction::Any:
    case Reduction::All: {
      bool any = r == Reduction::Any;
      Tensor b = cast(x, DType::Bool);
      Tensor out = fold<bool, bool>(b, w, !any, [any](bool p, bool q) { return any ? (p || q) : (p && q); });
      return finish(keep(std::move(out), w, options.keepdims));
    }
    case Reduction::Mean: {
      DType dt = mean_dtype(x.dtype(), options.dtype);
      Tensor s = keep(sum_in(x, w, dt), w, options.keepdims);
      return finish(divide_by_count(s, w.count));
    }
    case Reduction::Var:
    case Reduction::Std: {
      DType dt = mean_dtype(x.dtype(), options.dtype);
      Tensor xd = cast(x, dt);
      // NumPy's _var: the mean with keepdims (an array, divided in its dtype),
      // the squared deviations, their sum, divided by count - ddof.
      Tensor mean = divide_by_count(sum_in(xd, w, dt).reshaped(w.keep_shape), w.count);
      Tensor dev(dt, xd.shape());
      dispatch_dtype(dt, [&]<class T>() {
        if constexpr (std::is_floating_point_v<T>) {
          std::vector<int64_t> mstride(static_cast<size_t>(xd.rank()), 0);
          int64_t s = 1;
          for (int i = xd.rank() - 1; i >= 0; --i) {
            if (w.keep_shape.dim(i) != 1 || xd.shape().dim(i) == 1) mstride[static_cast<size_t>(i)] = s;
            s *= w.keep_shape.dim(i);
          }
          std::vector<int64_t> pos(static_cast<size_t>(xd.rank()), 0);
          const T* px = xd.data<T>();
          const T* pm = mean.data<T>();
          T* pd = dev.data<T>();
          for (int64_t i = 0; i < xd.num_elements(); ++i) {
            int64_t mo = 0;
            for (size_t k = 0; k < pos.size(); ++k) mo += pos[k] * mstride[k];
            T d = px[i] - pm[mo];
            pd[i] = d * d;
            for (int k = xd.rank() - 1; k >= 0; --k) {
              if (++pos[static_cast<size_t>(k)] < xd.shape().dim(k)) break;
              pos[static_cast<size_t>(k)] = 0;
            }
          }
        } else {
          throw InternalError("var in a non-float dtype");
        }
      });
      Tensor v = keep(sum_in(dev, w, dt), w, options.keepdims);
      Tensor out = divide_by_count(v, std::max<int64_t>(w.count - options.ddof, 0));
      if (r == Reduction::Std) {
        dispatch_dtype(dt, [&]<class T>() {
          if constexpr (std::is_floating_point_v<T>) {
            T* p = out.data<T>();
            for (int64_t i = 0; i < out.num_elements(); ++i) p[i] = std::sqrt(p[i]);
          }
        });
      }
      return finish(std::move(out));
    }
    case Reduction::ArgMax:
    case Reduction::ArgMin: break;
  }
  throw InternalError("unhandled reduction");
}

Value cumulative(bool product, const Value& a, const Value& axis, std::optional<DType> dtype) {
  Tensor x = to_array(a);
  if (axis.is_none()) x = x.reshaped(Shape{x.num_elements()});
  int ax = axes_argument(axis.is_none() ? Value(0) : axis, x.rank())[0];
  DType dt = dtype ? *dtype : sum_dtype(x.dtype(), product ? "cumprod" : "cumsum");
  Tensor c = cast(x, dt).clone();
  int64_t n = x.shape().dim(ax), inner = 1;
  for (int i = ax + 1; i < x.rank(); ++i) inner *= x.shape().dim(i);
  int64_t outer = n * inner == 0 ? 0 : x.num_elements() / (n * inner);
  dispatch_dtype(dt, [&]<class T>() {
    if constexpr (std::is_floating_point_v<T> || kernels::kInt<T>) {
      T* p = c.data<T>();
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 1; i < n; ++i) {
          for (int64_t in = 0; in < inner; ++in) {
            T& cur = p[(o * n + i) * inner + in];
            T prev = p[(o * n + i - 1) * inner + in];
            if constexpr (kernels::kInt<T>) {
              cur = product ? kernels::wrap_mul(prev, cur) : kernels::wrap_add(prev, cur);
            } else {
              cur = product ? prev * cur : prev + cur;
            }
          }
        }
      }
    } else {
      throw NotImplementedError(std::string("np.") + (product ? "cumprod" : "cumsum") + " of " +
                                numpy::dtype_name(dt) + " values is not supported by agc");
    }
  });
  return array(std::move(c));
}

}  // namespace ag::ndarray
