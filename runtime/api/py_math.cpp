// Python's math module (py_modules.def's math rows), as CPython 3.11 computes
// and fails: C's libm for the functions, then CPython's checks of the result
// (a NaN from a number is "math domain error", an infinity from a finite
// number "math range error" where the function can overflow, else a domain
// error), its exact fsum, and integer functions over agc's int64 ints.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <string_view>

#include "runtime/api/py_args.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"

namespace ag::pymod::impl {
namespace {

[[noreturn]] void domain_error() { throw ValueError("math domain error"); }
[[noreturn]] void range_error() { throw OverflowError("math range error"); }

/// CPython's is_error/math_1 rule for a result r of finite-or-not input x.
double checked(double x, double r, bool can_overflow) {
  if (std::isnan(r) && !std::isnan(x)) domain_error();
  if (std::isinf(r) && std::isfinite(x)) {
    if (can_overflow) range_error();
    domain_error();
  }
  return r;
}

bool non_positive_integer(double x) { return x <= 0 && x == std::floor(x); }

/// a * b as Python's * on agc's ints computes it (OverflowError past int64).
int64_t mul_checked(int64_t a, int64_t b) { return (Value(a) * Value(b)).as_int(); }

}  // namespace

Value math_unary(const TfCall& c) {
  const std::string_view f = c.data();
  const double x = real_arg(c.arg(0));
  if (f == "sqrt") return Value(checked(x, std::sqrt(x), false));
  if (f == "exp") return Value(checked(x, std::exp(x), true));
  if (f == "expm1") return Value(checked(x, std::expm1(x), true));
  if (f == "log" || f == "log2" || f == "log10" || f == "log1p") {
    // Poles and negative inputs are domain errors (CPython's m_log family).
    if (f == "log1p" ? x <= -1 : x <= 0) domain_error();
    double r = f == "log" ? std::log(x) : f == "log2" ? std::log2(x) : f == "log10" ? std::log10(x) : std::log1p(x);
    return Value(checked(x, r, false));
  }
  if (f == "sin") return Value(checked(x, std::sin(x), false));
  if (f == "cos") return Value(checked(x, std::cos(x), false));
  if (f == "tan") return Value(checked(x, std::tan(x), false));
  if (f == "asin") return Value(checked(x, std::asin(x), false));
  if (f == "acos") return Value(checked(x, std::acos(x), false));
  if (f == "atan") return Value(checked(x, std::atan(x), false));
  if (f == "sinh") return Value(checked(x, std::sinh(x), true));
  if (f == "cosh") return Value(checked(x, std::cosh(x), true));
  if (f == "tanh") return Value(checked(x, std::tanh(x), false));
  if (f == "asinh") return Value(checked(x, std::asinh(x), false));
  if (f == "acosh") return Value(checked(x, std::acosh(x), false));
  if (f == "atanh") {
    if (std::fabs(x) >= 1) domain_error();
    return Value(std::atanh(x));
  }
  if (f == "erf") return Value(std::erf(x));
  if (f == "erfc") return Value(std::erfc(x));
  if (f == "gamma" || f == "lgamma") {
    // A pole (0, -1, -2, ...) is a domain error, a finite overflow a range error.
    if (std::isfinite(x) && non_positive_integer(x)) domain_error();
    if (f == "gamma" && x == -HUGE_VAL) domain_error();
    return Value(checked(x, f == "gamma" ? std::tgamma(x) : std::lgamma(x), true));
  }
  if (f == "fabs") return Value(std::fabs(x));
  if (f == "degrees") return Value(x * (180.0 / M_PI));
  if (f == "radians") return Value(x * (M_PI / 180.0));
  throw InternalError("math." + std::string(f) + " has no implementation");
}

Value math_binary(const TfCall& c) {
  const std::string_view f = c.data();
  const double x = real_arg(c.arg(0)), y = real_arg(c.arg(1));
  if (f == "atan2") return Value(std::atan2(x, y));
  if (f == "copysign") return Value(std::copysign(x, y));
  if (f == "fmod") {
    if (std::isinf(x) && !std::isnan(y)) domain_error();
    if (y == 0 && !std::isnan(x)) domain_error();
    return Value(std::fmod(x, y));
  }
  if (f == "remainder") {
    if (std::isinf(x) && !std::isnan(y)) domain_error();
    if (y == 0 && !std::isnan(x)) domain_error();
    return Value(std::remainder(x, y));
  }
  if (f == "pow") {
    // CPython's math_pow: 0 ** negative and a negative base to a
    // non-integer power are domain errors, a finite overflow a range error.
    if (x == 0 && std::isfinite(y) && y < 0) domain_error();
    double r = std::pow(x, y);
    if (std::isfinite(x) && std::isfinite(y)) {
      if (std::isnan(r)) domain_error();
      if (std::isinf(r)) range_error();
    }
    return Value(r);
  }
  throw InternalError("math." + std::string(f) + " has no implementation");
}

Value math_log(const TfCall& c) {
  auto log_of = [](const Value& v) {
    double x = real_arg(v);
    if (x <= 0) domain_error();
    return std::log(x);
  };
  double num = log_of(c.arg(0));
  if (c.arg(1).is_none()) return Value(num);
  double den = log_of(c.arg(1));
  if (den == 0) throw ZeroDivisionError("float division by zero");
  return Value(num / den);
}

Value math_hypot(const TfCall& c) {
  // Python 3.8+: any number of coordinates; an infinity wins over a NaN.
  double sum = 0, largest = 0;
  bool nan = false, inf = false;
  std::vector<double> xs;
  for (const Value& v : c.arg(0).items()) {
    double x = std::fabs(real_arg(v));
    inf = inf || std::isinf(x);
    nan = nan || std::isnan(x);
    largest = std::max(largest, x);
    xs.push_back(x);
  }
  if (inf) return Value(HUGE_VAL);
  if (nan) return Value(std::nan(""));
  if (largest == 0) return Value(0.0);
  // CPython's vector_norm is correctly rounded in most cases; C's hypot is
  // within an ulp for two, a scaled sum for more (the last bit may differ).
  if (xs.size() == 2) return Value(std::hypot(xs[0], xs[1]));
  for (double x : xs) sum += (x / largest) * (x / largest);
  return Value(largest * std::sqrt(sum));
}

Value math_to_int(const TfCall& c) {
  const Value& v = c.arg(0);
  if (v.is_bool() || v.is_int()) return Value(v.as_int());
  const std::string_view f = c.data();
  double x = real_arg(v);
  double r = f == "floor" ? std::floor(x) : f == "ceil" ? std::ceil(x) : std::trunc(x);
  return py::int_({Value(r)}, {});  // int()'s errors for NaN, infinity and int64's range
}

Value math_predicate(const TfCall& c) {
  const std::string_view f = c.data();
  double x = real_arg(c.arg(0));
  return Value(f == "isnan" ? std::isnan(x) : f == "isinf" ? std::isinf(x) : std::isfinite(x));
}

Value math_isclose(const TfCall& c) {
  const double a = real_arg(c["a"]), b = real_arg(c["b"]);
  const double rel = real_arg(c["rel_tol"]), abs_tol = real_arg(c["abs_tol"]);
  if (rel < 0 || abs_tol < 0) throw ValueError("tolerances must be non-negative");
  if (a == b) return Value(true);
  if (std::isinf(a) || std::isinf(b)) return Value(false);
  const double diff = std::fabs(b - a);
  return Value(diff <= std::fabs(rel * b) || diff <= std::fabs(rel * a) || diff <= abs_tol);
}

Value math_fsum(const TfCall& c) {
  // Shewchuk's exactly rounded sum, with CPython's handling of infinities,
  // NaNs and intermediate overflow, and its final half-way correction.
  std::vector<double> partials;
  double special_sum = 0, inf_sum = 0;
  for (const Value& item : iterate(c.arg(0))) {
    double x = real_arg(item);
    const double xsave = x;
    size_t i = 0;
    for (double y : partials) {
      if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
      const double hi = x + y;
      const double lo = y - (hi - x);
      if (lo != 0.0) partials[i++] = lo;
      x = hi;
    }
    partials.resize(i);
    if (x == 0.0) continue;
    if (!std::isfinite(x)) {
      if (std::isfinite(xsave)) throw OverflowError("intermediate overflow in fsum");
      if (std::isinf(xsave)) inf_sum += xsave;
      special_sum += xsave;
      partials.clear();
    } else {
      partials.push_back(x);
    }
  }
  if (special_sum != 0.0) {
    if (std::isnan(inf_sum)) throw ValueError("-inf + inf in fsum");
    return Value(special_sum);
  }
  double hi = 0.0, lo = 0.0;
  size_t n = partials.size();
  if (n > 0) {
    hi = partials[--n];
    while (n > 0) {
      const double x = hi, y = partials[--n];
      hi = x + y;
      lo = y - (hi - x);
      if (lo != 0.0) break;
    }
    if (n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0))) {
      const double y = lo * 2.0, x = hi + y;
      if (y == x - hi) hi = x;
    }
  }
  return Value(hi);
}

Value math_prod(const TfCall& c) {
  // Python's * between the items, from `start` (ints stay ints, tensors multiply).
  Value result = c["start"];
  for (const Value& item : iterate(c["iterable"])) result = result * item;
  return result;
}

Value math_factorial(const TfCall& c) {
  const int64_t n = index_arg(c.arg(0));
  if (n < 0) throw ValueError("factorial() not defined for negative values");
  int64_t r = 1;
  for (int64_t k = 2; k <= n; ++k) r = mul_checked(r, k);
  return Value(r);
}

Value math_gcd(const TfCall& c) {
  int64_t g = 0;
  for (const Value& v : c.arg(0).items()) g = std::gcd(g, index_arg(v));
  return Value(g);
}

Value math_comb(const TfCall& c) {
  // comb(n, k) = n! / (k! (n-k)!), perm(n, k) = n! / (n-k)!, multiplied out
  // step by step (each partial product of comb is itself a binomial).
  const bool perm = c.data() == "perm";
  const int64_t n = index_arg(c.arg(0));
  if (n < 0) throw ValueError("n must be a non-negative integer");
  const int64_t k = perm && c.arg(1).is_none() ? n : index_arg(c.arg(1));
  if (k < 0) throw ValueError("k must be a non-negative integer");
  if (k > n) return Value(int64_t{0});
  int64_t r = 1;
  if (perm) {
    for (int64_t i = 0; i < k; ++i) r = mul_checked(r, n - i);
    return Value(r);
  }
  const int64_t m = std::min(k, n - k);
  for (int64_t i = 1; i <= m; ++i) {
    // r * (n - m + i) / i is exact; divide by the gcd first to stay in range.
    const int64_t num = n - m + i;
    const int64_t g = std::gcd(r, i);
    r = mul_checked(r / g, num / (i / g));
  }
  return Value(r);
}

}  // namespace ag::pymod::impl
