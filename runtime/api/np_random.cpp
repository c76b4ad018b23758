// NumPy's legacy RandomState, bit for bit: np.random.RandomState(seed), a
// class whose instances hold their own generator, and np.random's module
// functions, the methods of one global instance (as mtrand's are). Its generator is MT19937 (an integer seed sets the state as
// init_genrand does, a sequence of them as init_by_array), and its
// distributions are NumPy's legacy ones (numpy/random/src/legacy and
// distributions.c): doubles from two 32-bit draws (27 + 26 bits), normals by
// the polar method with the second value kept for the next call, integers by
// masked rejection (8-bit draws buffered four to a 32-bit one), shuffles by
// Fisher-Yates from the end. Never seeded, the state comes from the OS, as
// NumPy's does at import.
#include <cmath>
#include <mutex>
#include <random>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/api/tf_table_macros.h"
#include "runtime/core/mt19937.h"
#include "runtime/value/object_model.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/ndarray_shape.h"
#include "runtime/value/numpy_dtype.h"

namespace ag::np::impl {
namespace {

/// The legacy RandomState: the generator and the kept normal.
struct RandomState : NativeState {
  std::mutex mu;
  MT19937 mt;
  bool has_gauss = false;
  double gauss = 0;

  RandomState() { seed_from_os(); }

  void seed_from_os() {
    std::random_device rd;
    std::vector<uint32_t> words(MT19937::kN);
    for (uint32_t& w : words) w = rd();
    mt.seed_by_array(words);
    has_gauss = false;
  }

  double next_gauss() {
    if (has_gauss) {
      has_gauss = false;
      return gauss;
    }
    double x1, x2, r2;
    do {
      x1 = 2.0 * mt.next_double() - 1.0;
      x2 = 2.0 * mt.next_double() - 1.0;
      r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    double f = std::sqrt(-2.0 * std::log(r2) / r2);
    gauss = f * x1;
    has_gauss = true;
    return f * x2;
  }

  /// A value in [0, max] (random_interval: masked rejection).
  uint64_t interval(uint64_t max) {
    if (max == 0) return 0;
    uint64_t mask = max;
    for (int s = 1; s <= 32; s *= 2) mask |= mask >> s;
    uint64_t v;
    if (max <= 0xffffffffu) {
      while ((v = (mt.next32() & mask)) > max) {
      }
    } else {
      while ((v = (mt.next64() & mask)) > max) {
      }
    }
    return v;
  }
};

/// np.random's global instance.
RandomState& global_state() {
  static RandomState* s = new RandomState();  // never destroyed: used until exit
  return *s;
}

/// The dims of a `size` argument (None: a single value).
std::optional<Shape> size_shape(const Value& size) {
  if (size.is_none()) return std::nullopt;
  std::vector<int64_t> dims = ndarray::shape_argument(size);
  for (int64_t d : dims) {
    if (d < 0) throw ValueError("negative dimensions are not allowed");
  }
  return Shape(std::span<const int64_t>(dims));
}

/// `n` doubles from `draw` as NumPy returns them: a Python float without a
/// size, else a float64 array.
template <class Draw>
Value doubles(RandomState& s, const std::optional<Shape>& shape, Draw draw) {
  std::lock_guard<std::mutex> lock(s.mu);
  if (!shape) return Value(draw(s));
  Tensor out(DType::Float64, *shape);
  for (int64_t i = 0; i < out.num_elements(); ++i) out.data<double>()[i] = draw(s);
  return ndarray::array(std::move(out));
}

std::optional<Shape> varargs_shape(const Value& args) {
  if (args.items().empty()) return std::nullopt;
  return size_shape(args);
}

double scalar_param(const Value& v, const char* fn) {
  if (v.is_ndarray() && ndarray::tensor(v).rank() > 0) {
    throw NotImplementedError(std::string("np.random.") + fn + " with array parameters is not supported by agc");
  }
  if (v.is_ndarray()) return ndarray::python_number(v).as_float();
  return v.as_float();
}

/// Integers in [low, low + rng] of `dt` (NumPy's _bounded_integers with masking).
Tensor bounded_integers(RandomState& s, int64_t low, uint64_t rng, DType dt, const Shape& shape) {
  Tensor out(dt, shape);
  int64_t n = out.num_elements();
  uint64_t mask = rng;
  for (int k = 1; k <= 32; k *= 2) mask |= mask >> k;
  bool narrow = dtype_size(dt) == 1;  // bool, int8, uint8: 8-bit draws from a buffered 32-bit one
  uint32_t buf = 0;
  int bcnt = 0;
  auto draw = [&]() -> uint64_t {
    if (rng == 0) return 0;
    if (narrow) {
      for (;;) {
        if (bcnt == 0) {
          buf = s.mt.next32();
          bcnt = 4;
        } else {
          buf >>= 8;
          --bcnt;
        }
        if (rng == 0xff) return buf & 0xffu;
        uint64_t v = buf & mask;
        if (v <= rng) return v;
      }
    }
    if (rng == 0xffffffffu) return s.mt.next32();
    if (rng < 0xffffffffu) {
      uint64_t v;
      while ((v = (s.mt.next32() & mask)) > rng) {
      }
      return v;
    }
    if (rng == 0xffffffffffffffffull) return s.mt.next64();
    uint64_t v;
    while ((v = (s.mt.next64() & mask)) > rng) {
    }
    return v;
  };
  dispatch_dtype(dt, [&]<class T>() {
    if constexpr (std::is_integral_v<T>) {
      for (int64_t i = 0; i < n; ++i) out.data<T>()[i] = static_cast<T>(static_cast<uint64_t>(low) + draw());
    } else {
      throw TypeError(std::string("Unsupported dtype dtype('") + numpy::dtype_name(dt) + "') for randint");
    }
  });
  return out;
}

/// Fisher-Yates from the end over the first axis of `t` (rows of `row` elements).
void shuffle_rows(RandomState& s, Tensor& t) {
  int64_t n = t.shape().dim(0);
  int64_t row = n == 0 ? 0 : t.num_elements() / n;
  dispatch_dtype(t.dtype(), [&]<class T>() {
    T* p = t.data<T>();
    for (int64_t i = n - 1; i >= 1; --i) {
      auto j = static_cast<int64_t>(s.interval(static_cast<uint64_t>(i)));
      if (i == j) continue;
      for (int64_t k = 0; k < row; ++k) std::swap(p[i * row + k], p[j * row + k]);
    }
  });
}

}  // namespace

// ---- The methods, over a state: one implementation for an instance and for
// the module's global one.

Value random_seed(RandomState& s, const TfCall& c) {
  const Value& seed = c["seed"];
  std::lock_guard<std::mutex> lock(s.mu);
  if (seed.is_none()) {
    s.seed_from_os();
    return Value();
  }
  auto check = [](int64_t v) {
    if (v < 0 || v > 4294967295LL) throw ValueError("Seed must be between 0 and 2**32 - 1");
    return static_cast<uint32_t>(v);
  };
  bool integer = seed.is_int() || seed.is_bool() ||
                 (seed.is_ndarray() && ndarray::tensor(seed).num_elements() == 1 && is_integer(ndarray::tensor(seed).dtype()));
  if (integer) {
    s.mt.seed(check(seed.is_ndarray() ? ndarray::python_number(seed).as_int() : seed.as_int()));
  } else {
    if (seed.is_float() || seed.is_str()) throw TypeError("Cannot cast scalar from dtype('float64') to dtype('int64') according to the rule 'safe'");
    Tensor t = ndarray::cast(ndarray::to_array(seed), DType::Int64);
    if (t.num_elements() == 0) throw ValueError("Seed must be non-empty");
    if (t.rank() != 1) throw ValueError("Seed array must be 1-d");
    std::vector<uint32_t> words;
    for (int64_t i = 0; i < t.num_elements(); ++i) words.push_back(check(t.data<int64_t>()[i]));
    s.mt.seed_by_array(words);
  }
  s.has_gauss = false;
  s.gauss = 0;
  return Value();
}

Value random_rand(RandomState& s, const TfCall& c) {
  return doubles(s, varargs_shape(c["args"]), [](RandomState& r) { return r.mt.next_double(); });
}

Value random_randn(RandomState& s, const TfCall& c) {
  return doubles(s, varargs_shape(c["args"]), [](RandomState& r) { return r.next_gauss(); });
}

Value random_random(RandomState& s, const TfCall& c) {
  return doubles(s, size_shape(c["size"]), [](RandomState& r) { return r.mt.next_double(); });
}

Value random_standard_normal(RandomState& s, const TfCall& c) {
  return doubles(s, size_shape(c["size"]), [](RandomState& r) { return r.next_gauss(); });
}

Value random_uniform(RandomState& s, const TfCall& c) {
  double low = scalar_param(c["low"], "uniform"), high = scalar_param(c["high"], "uniform");
  double range = high - low;
  if (!std::isfinite(range)) throw OverflowError("Range exceeds valid bounds");
  return doubles(s, size_shape(c["size"]), [low, range](RandomState& r) { return low + range * r.mt.next_double(); });
}

Value random_normal(RandomState& s, const TfCall& c) {
  double loc = scalar_param(c["loc"], "normal"), scale = scalar_param(c["scale"], "normal");
  if (scale < 0) throw ValueError("scale < 0");
  return doubles(s, size_shape(c["size"]), [loc, scale](RandomState& r) { return loc + scale * r.next_gauss(); });
}

Value random_randint(RandomState& s, const TfCall& c) {
  Value low_v = c["low"], high_v = c["high"];
  std::optional<DType> given = numpy::dtype_argument(c["dtype"]);
  DType dt = given ? *given : DType::Int64;
  if (high_v.is_none()) {
    high_v = low_v;
    low_v = Value(int64_t{0});
  }
  int64_t low = low_v.as_int(), high = high_v.as_int();
  if (high <= low) throw ValueError(c["high"].is_none() ? "high <= 0" : "low >= high");
  std::optional<Shape> shape = size_shape(c["size"]);
  std::lock_guard<std::mutex> lock(s.mu);
  Tensor out = bounded_integers(s, low, static_cast<uint64_t>(high - 1 - low), dt, shape ? *shape : Shape{});
  if (shape) return ndarray::array(std::move(out));
  // Without a size NumPy returns a Python int for dtype=int, else a scalar.
  if (!given) return ndarray::item(out, 0);
  return ndarray::scalar(std::move(out));
}

Value random_shuffle(RandomState& s, const TfCall& c) {
  const Value& x = c["x"];
  std::lock_guard<std::mutex> lock(s.mu);
  if (x.is_list()) {
    std::vector<Value>& items = x.items();
    for (int64_t i = static_cast<int64_t>(items.size()) - 1; i >= 1; --i) {
      auto j = static_cast<size_t>(s.interval(static_cast<uint64_t>(i)));
      std::swap(items[static_cast<size_t>(i)], items[j]);
    }
    return Value();
  }
  if (!x.is_ndarray() || ndarray::is_scalar(x)) throw TypeError("object of type '" + x.type_name() + "' has no len()");
  Tensor& t = x.as_ndarray().data;
  if (t.rank() == 0) throw TypeError("len() of unsized object");
  if (!t.owns_storage_uniquely()) t = t.clone();
  shuffle_rows(s, t);
  return Value();
}

Value random_permutation(RandomState& s, const TfCall& c) {
  const Value& x = c["x"];
  Tensor t;
  if (x.is_int() || (x.is_ndarray() && ndarray::is_scalar(x) && is_integer(ndarray::tensor(x).dtype()))) {
    int64_t n = x.as_int();
    if (n < 0) throw ValueError("negative dimensions are not allowed");
    std::vector<int64_t> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i;
    t = Tensor::from_vector<int64_t>(Shape{n}, v);
  } else {
    t = ndarray::to_array(x).clone();
    if (t.rank() < 1) throw IndexError("x must be an integer or at least 1-dimensional");
  }
  std::lock_guard<std::mutex> lock(s.mu);
  if (t.rank() == 1) {
    shuffle_rows(s, t);
    return ndarray::array(std::move(t));
  }
  // N-d: an index permutation, then the rows in that order (as NumPy does).
  int64_t n = t.shape().dim(0);
  std::vector<int64_t> idx(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) idx[static_cast<size_t>(i)] = i;
  Tensor it = Tensor::from_vector<int64_t>(Shape{n}, idx);
  shuffle_rows(s, it);
  Tensor out(t.dtype(), t.shape());
  int64_t row = n == 0 ? 0 : t.num_elements() / n;
  dispatch_dtype(t.dtype(), [&]<class T>() {
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t k = 0; k < row; ++k) out.data<T>()[i * row + k] = t.data<T>()[it.data<int64_t>()[i] * row + k];
    }
  });
  return ndarray::array(std::move(out));
}

Value random_choice(RandomState& s, const TfCall& c) {
  Tensor a = ndarray::to_array(c["a"]);
  int64_t pop;
  if (a.rank() == 0) {
    if (!is_integer(a.dtype())) throw ValueError("a must be 1-dimensional or an integer");
    pop = ndarray::item(a, 0).as_int();
  } else if (a.rank() != 1) {
    throw ValueError("a must be 1-dimensional");
  } else {
    pop = a.shape().dim(0);
  }
  std::optional<Shape> shape = size_shape(c["size"]);
  int64_t size = shape ? shape->num_elements() : 1;
  if (pop <= 0 && size != 0) {
    throw ValueError(a.rank() == 0 ? "a must be greater than 0 unless no samples are taken"
                                   : "'a' cannot be empty unless no samples are taken");
  }
  const Value& p_v = c["p"];
  std::vector<double> p;
  if (!p_v.is_none()) {
    Tensor pt = ndarray::cast(ndarray::to_array(p_v), DType::Float64);
    if (pt.rank() != 1) throw ValueError("'p' must be 1-dimensional");
    if (pt.num_elements() != pop) throw ValueError("'a' and 'p' must have same size");
    p.assign(pt.data<double>(), pt.data<double>() + pop);
    // kahan_sum, as NumPy checks the total.
    double sum = 0, comp = 0;
    for (double x : p) {
      double y = x - comp, t = sum + y;
      comp = (t - sum) - y;
      sum = t;
    }
    if (std::isnan(sum)) throw ValueError("probabilities contain NaN");
    for (double x : p) {
      if (x < 0) throw ValueError("probabilities are not non-negative");
    }
    if (std::fabs(sum - 1.0) > std::sqrt(2.220446049250313e-16)) throw ValueError("probabilities do not sum to 1");
  }
  bool replace = truthy(c["replace"]);
  Shape out_shape = shape ? *shape : Shape{};
  Tensor idx(DType::Int64, out_shape);
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (replace && !p.empty()) {
      std::vector<double> cdf(p.size());
      double acc = 0;
      for (size_t i = 0; i < p.size(); ++i) cdf[i] = acc += p[i];
      double last = cdf.back();
      for (double& x : cdf) x /= last;
      for (int64_t i = 0; i < size; ++i) {
        double u = s.mt.next_double();
        idx.data<int64_t>()[i] = std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin();
      }
    } else if (replace) {
      Tensor r = bounded_integers(s, 0, static_cast<uint64_t>(pop - 1), DType::Int64, out_shape);
      idx = r;
    } else {
      if (!p.empty()) throw NotImplementedError("np.random.choice with replace=False and p= is not supported by agc");
      if (size > pop) throw ValueError("Cannot take a larger sample than population when 'replace=False'");
      std::vector<int64_t> perm(static_cast<size_t>(pop));
      for (int64_t i = 0; i < pop; ++i) perm[static_cast<size_t>(i)] = i;
      Tensor pt = Tensor::from_vector<int64_t>(Shape{pop}, perm);
      shuffle_rows(s, pt);
      for (int64_t i = 0; i < size; ++i) idx.data<int64_t>()[i] = pt.data<int64_t>()[i];
    }
  }
  if (a.rank() == 0) return shape ? ndarray::array(std::move(idx)) : ndarray::item(idx, 0);
  Value arr = ndarray::array(a);
  if (!shape) return ndarray::getitem(arr, {IndexPart(ndarray::item(idx, 0))});
  return ndarray::getitem(arr, {IndexPart(ndarray::array(idx))});
}

// ---- np.random's module functions: the global instance's methods.
#define AG_NP_RANDOM_MODULE_FN(fn) \
  Value fn(const TfCall& c) { return fn(global_state(), c); }
AG_NP_RANDOM_MODULE_FN(random_seed)
AG_NP_RANDOM_MODULE_FN(random_rand)
AG_NP_RANDOM_MODULE_FN(random_randn)
AG_NP_RANDOM_MODULE_FN(random_random)
AG_NP_RANDOM_MODULE_FN(random_standard_normal)
AG_NP_RANDOM_MODULE_FN(random_uniform)
AG_NP_RANDOM_MODULE_FN(random_normal)
AG_NP_RANDOM_MODULE_FN(random_randint)
AG_NP_RANDOM_MODULE_FN(random_shuffle)
AG_NP_RANDOM_MODULE_FN(random_permutation)
AG_NP_RANDOM_MODULE_FN(random_choice)
#undef AG_NP_RANDOM_MODULE_FN

namespace {

/// A RandomState method: its name, the np.random row's signature, the shared code.
struct Method {
  std::string_view name;
  const char* signature;
  Value (*fn)(RandomState&, const TfCall&);
};

/// The methods, one per np.random row (np_functions.def) whose impl has a
/// RandomState overload above, named as the row's paths after "random.".
/// A template so that rows without one drop out of the `if constexpr`.
template <class S>
std::vector<Method> methods() {
  std::vector<Method> out;
#define AG_NP_FN(cpp_name, paths, signature, impl_fn, data)                                           \
  if constexpr (requires(S& s, const TfCall& c) { impl_fn(s, c); }) {                                  \
    for (std::string_view p : {AG_TF_UNPAREN paths}) {                                                 \
      out.push_back({p.substr(p.find('.') + 1), signature,                                             \
                     [](RandomState& s, const TfCall& c) { return impl_fn(static_cast<S&>(s), c); }}); \
    }                                                                                                  \
  }
#include "runtime/api/np_functions.def"
  return out;
}

RandomState& state_of(const Value& self) {
  RandomState* s = native_state<RandomState>(self);
  if (s == nullptr) throw TypeError("descriptor requires a 'numpy.random.mtrand.RandomState' object");
  return *s;
}

}  // namespace

}  // namespace ag::np::impl

namespace ag::np::api {

const Value& random_RandomState() {
  static const Value cls = [] {
    using impl::RandomState;
    std::vector<std::pair<std::string, Value>> attrs;
    // RandomState(seed=None): seeded as seed(seed) seeds, from the OS without one.
    attrs.push_back({"__init__", Value::callable("RandomState.__init__", [](std::vector<Value> args, Kwargs kwargs) {
                       static const tf::TfFunction row("RandomState(seed=None)", "", "");
                       Value self = args.at(0);
                       args.erase(args.begin());
                       auto state = std::make_shared<RandomState>();
                       impl::random_seed(*state, row.bind(std::move(args), std::move(kwargs)));
                       self.as_object().native = std::move(state);
                       return Value();
                     })});
    for (const impl::Method& m : impl::methods<RandomState>()) {
      auto row = std::make_shared<tf::TfFunction>(m.signature, "", "");
      attrs.push_back({std::string(m.name), Value::callable("RandomState." + std::string(m.name),
                                                            [row, fn = m.fn](std::vector<Value> args, Kwargs kwargs) {
                                                              RandomState& s = impl::state_of(args.at(0));
                                                              args.erase(args.begin());
                                                              return fn(s, row->bind(std::move(args), std::move(kwargs)));
                                                            })});
    }
    return make_class("RandomState", {}, std::move(attrs));
  }();
  return cls;
}

}  // namespace ag::np::api
