// Python's builtins over sequences and numbers: zip, enumerate, min, max, sum,
// abs, round, divmod, pow, sorted, reversed, any, all, map, filter.
// map and filter are lazy iterator objects as in Python 3 (native_iterator.h);
// zip/enumerate/reversed are eager: they return lists (not lazy
// iterators), which iterate, index and len() as the seeds use them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>

#include "runtime/api/binding.h"
#include "runtime/api/native_iterator.h"
#include "runtime/api/python_api.h"
#include "runtime/value/iteration.h"
#include "runtime/value/ndarray.h"

namespace ag::py {
namespace {

using api::check_positional;
using api::take_kwarg;

bool less_than(const Value& a, const Value& b) { return truthy(a < b); }

// min()/max(): one iterable or two+ positional values, key= and default=.
Value extreme(const char* fn, std::vector<Value> args, Kwargs kwargs, bool want_max) {
  std::optional<Value> key = take_kwarg(kwargs, "key");
  std::optional<Value> dflt = take_kwarg(kwargs, "default");
  if (!kwargs.empty()) {
    throw TypeError("'" + kwargs.front().first + "' is an invalid keyword argument for " + fn + "()");
  }
  if (args.empty()) throw TypeError(std::string(fn) + " expected at least 1 argument, got 0");
  std::vector<Value> items;
  if (args.size() == 1) {
    items = iterate(args[0]);
  } else {
    if (dflt) {
      throw TypeError(std::string("Cannot specify a default for ") + fn + "() with multiple positional arguments");
    }
    items = std::move(args);
  }
  if (key && key->is_none()) key.reset();
  if (items.empty()) {
    if (dflt) return *dflt;
    throw ValueError(std::string(fn) + "() arg is an empty sequence");
  }
  size_t best = 0;
  Value best_key = key ? (*key)({items[0]}, {}) : items[0];
  for (size_t i = 1; i < items.size(); ++i) {
    Value k = key ? (*key)({items[i]}, {}) : items[i];
    // The first of equal extremes wins, as in Python.
    if (want_max ? less_than(best_key, k) : less_than(k, best_key)) {
      best = i;
      best_key = std::move(k);
    }
  }
  return items[best];
}

// round(float) to an int, half to even.
Value round_to_int(double d) {
  if (std::isinf(d)) throw OverflowError("cannot convert float infinity to integer");
  if (std::isnan(d)) throw ValueError("cannot convert float NaN to integer");
  double r = std::nearbyint(d);  // the default rounding mode: to nearest, ties to even
  if (r >= 9223372036854775808.0 || r < -9223372036854775808.0) {
    throw OverflowError("int too large to convert: " + float_repr(d));
  }
  return Value(static_cast<int64_t>(r));
}

// round(float, n): the float nearest the decimal rounded exactly (half to
// even on exact ties), as CPython's correctly rounded dtoa does.
double round_digits(double d, int64_t n) {
  if (!std::isfinite(d) || n > 308) return d;
  if (n < -308) return std::copysign(0.0, d);
  if (n >= 0) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(n), d);
    return std::strtod(buf, nullptr);
  }
  double p = std::pow(10.0, static_cast<double>(-n));
  double r = std::nearbyint(d / p) * p;
  return r == 0 ? std::copysign(0.0, d) : r;
}

}  // namespace

Value zip(std::vector<Value> args, Kwargs kwargs) {
  std::optional<Value> strict = take_kwarg(kwargs, "strict");
  if (!kwargs.empty()) throw TypeError("zip() got an unexpected keyword argument '" + kwargs.front().first + "'");
  if (args.empty()) return Value::list();
  const bool check = strict && truthy(*strict);
  // In lockstep, one item of each at a time, as CPython's zip pulls them: an
  // endless iterator (itertools.count()) beside a list stops with the list.
  std::vector<Iteration> its;
  for (const Value& a : args) its.emplace_back(a);
  auto than = [](size_t i) { return std::string(i == 1 ? " 1" : "s 1-" + std::to_string(i)); };
  std::vector<Value> out;
  while (true) {
    std::vector<Value> row;
    for (size_t i = 0; i < its.size(); ++i) {
      std::optional<Value> v = its[i].next();
      if (v) {
        row.push_back(std::move(*v));
        continue;
      }
      if (check && i > 0) {
        throw ValueError("zip() argument " + std::to_string(i + 1) + " is shorter than argument" + than(i));
      }
      if (check) {
        for (size_t j = 1; j < its.size(); ++j) {
          if (its[j].next()) {
            throw ValueError("zip() argument " + std::to_string(j + 1) + " is longer than argument" + than(j));
          }
        }
      }
      return Value::list(std::move(out));
    }
    out.push_back(Value::tuple(std::move(row)));
  }
}

Value enumerate(std::vector<Value> args, Kwargs kwargs) {
  auto a = api::bind_builtin("enumerate", {{"iterable", std::nullopt}, {"start", Value(0)}}, args, kwargs);
  if (!a[1].is_int() && !a[1].is_bool()) {
    throw TypeError("'" + a[1].type_name() + "' object cannot be interpreted as an integer");
  }
  int64_t i = a[1].as_int();
  std::vector<Value> out;
  for (Value& x : iterate(a[0])) out.push_back(Value::tuple({Value(i++), std::move(x)}));
  return Value::list(std::move(out));
}

Value min(std::vector<Value> args, Kwargs kwargs) { return extreme("min", std::move(args), std::move(kwargs), false); }
Value max(std::vector<Value> args, Kwargs kwargs) { return extreme("max", std::move(args), std::move(kwargs), true); }

Value sum(std::vector<Value> args, Kwargs kwargs) {
  std::optional<Value> start = take_kwarg(kwargs, "start");
  if (!kwargs.empty()) throw TypeError("sum() takes at most 2 arguments");
  if (args.empty() || args.size() + (start ? 1 : 0) > 2) {
    throw TypeError("sum() takes at least 1 positional argument (" + std::to_string(args.size()) + " given)");
  }
  if (args.size() == 2) start = args[1];
  Value acc = start ? *start : Value(0);
  if (acc.is_str()) throw TypeError("sum() can't sum strings [use ''.join(seq) instead]");
  for (const Value& x : iterate(args[0])) acc = acc + x;
  return acc;
}

Value abs(std::vector<Value> args, Kwargs kwargs) {
  check_positional("abs", args, kwargs, 1, 1);
  return ag::abs(args[0]);
}

Value round(std::vector<Value> args, Kwargs kwargs) {
  auto a = api::bind_builtin("round", {{"number", std::nullopt}, {"ndigits", Value()}}, args, kwargs);
  // A NumPy scalar rounds as its Python number.
  const Value x = a[0].is_ndarray() && ndarray::is_scalar(a[0]) ? ndarray::python_number(a[0]) : a[0];
  const Value& nd = a[1];
  if (!nd.is_none() && !nd.is_int() && !nd.is_bool()) {
    throw TypeError("'" + nd.type_name() + "' object cannot be interpreted as an integer");
  }
  if (x.is_bool() || x.is_int()) {
    if (nd.is_none() || nd.as_int() >= 0) return Value(x.as_int());
    // Round to a multiple of 10**-n, half to even.
    int64_t n = -nd.as_int();
    if (n > 18) return Value(0);
    int64_t p = 1;
    for (int64_t i = 0; i < n; ++i) p *= 10;
    int64_t v = x.as_int();
    int64_t q = v / p, r = v % p;
    if (r < 0) {
      r += p;
      q -= 1;
    }
    if (2 * r > p || (2 * r == p && (q % 2 != 0))) q += 1;
    return Value(q * p);
  }
  if (x.is_float()) {
    if (nd.is_none()) return round_to_int(x.as_float());
    return Value(round_digits(x.as_float(), nd.as_int()));
  }
  throw TypeError("type " + x.type_name() + " doesn't define __round__ method");
}

Value divmod(std::vector<Value> args, Kwargs kwargs) {
  check_positional("divmod", args, kwargs, 2, 2);
  return Value::tuple({ag::floordiv(args[0], args[1]), args[0] % args[1]});
}

Value pow(std::vector<Value> args, Kwargs kwargs) {
  auto a = api::bind_builtin("pow", {{"base", std::nullopt}, {"exp", std::nullopt}, {"mod", Value()}}, args, kwargs);
  if (a[2].is_none()) return ag::pow(a[0], a[1]);
  if (!(a[0].is_int() || a[0].is_bool()) || !(a[1].is_int() || a[1].is_bool()) || !(a[2].is_int() || a[2].is_bool())) {
    throw TypeError("pow() 3rd argument not allowed unless all arguments are integers");
  }
  int64_t m = a[2].as_int();
  if (m == 0) throw ValueError("pow() 3rd argument cannot be 0");
  int64_t e = a[1].as_int();
  if (e < 0) throw UnimplementedError("pow() with a negative exponent and a modulus is not supported");
  __int128 base = a[0].as_int() % m, result = 1 % m;
  while (e > 0) {
    if (e & 1) result = (result * base) % m;
    base = (base * base) % m;
    e >>= 1;
  }
  if (result != 0 && ((result < 0) != (m < 0))) result += m;  // Python's sign: the modulus's
  return Value(static_cast<int64_t>(result));
}

Value sorted(std::vector<Value> args, Kwargs kwargs) {
  std::optional<Value> key = take_kwarg(kwargs, "key");
  std::optional<Value> reverse = take_kwarg(kwargs, "reverse");
  if (!kwargs.empty()) {
    throw TypeError("sort() got an unexpected keyword argument '" + kwargs.front().first + "'");
  }
  if (args.size() != 1) {
    throw TypeError("sorted expected 1 argument, got " + std::to_string(args.size()));
  }
  std::vector<Value> items = iterate(args[0]);
  bool rev = reverse && truthy(*reverse);
  if (key && key->is_none()) key.reset();
  std::vector<std::pair<Value, Value>> keyed;
  keyed.reserve(items.size());
  for (Value& x : items) keyed.emplace_back(key ? (*key)({x}, {}) : x, std::move(x));
  // Python keeps equal items in their order also when reversing: reverse,
  // stable sort, reverse.
  if (rev) std::reverse(keyed.begin(), keyed.end());
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return less_than(a.first, b.first); });
  if (rev) std::reverse(keyed.begin(), keyed.end());
  std::vector<Value> out;
  out.reserve(keyed.size());
  for (auto& [k, x] : keyed) out.push_back(std::move(x));
  return Value::list(std::move(out));
}

Value reversed(std::vector<Value> args, Kwargs kwargs) {
  check_positional("reversed", args, kwargs, 1, 1);
  const Value& v = args[0];
  if (!v.is_list() && !v.is_tuple() && !v.is_str() && !v.is_tensor()) {
    throw TypeError("'" + v.type_name() + "' object is not reversible");
  }
  std::vector<Value> items = iterate(v);
  std::reverse(items.begin(), items.end());
  return Value::list(std::move(items));
}

Value any(std::vector<Value> args, Kwargs kwargs) {
  check_positional("any", args, kwargs, 1, 1);
  // One item at a time: it stops at the first true one, as Python's does
  // (a generator past it is not run further; an endless one ends).
  for (const Value& x : iteration(args[0])) {
    if (truthy(x)) return Value(true);
  }
  return Value(false);
}

Value all(std::vector<Value> args, Kwargs kwargs) {
  check_positional("all", args, kwargs, 1, 1);
  for (const Value& x : iteration(args[0])) {
    if (!truthy(x)) return Value(false);
  }
  return Value(true);
}

Value map(std::vector<Value> args, Kwargs kwargs) {
  if (!kwargs.empty()) throw TypeError("map() takes no keyword arguments");
  if (args.size() < 2) throw TypeError("map() must have at least two arguments.");
  // Python 3's map is lazy: iter() of each iterable now (a non-iterable
  // fails here), one call of the function per __next__, stopping at the
  // shortest iterable, so it works over endless iterators and is used up
  // after one pass.
  std::vector<std::shared_ptr<Iteration>> sources;
  for (size_t i = 1; i < args.size(); ++i) sources.push_back(std::make_shared<Iteration>(args[i]));
  Value fn = args[0];
  return native_iterator("builtins", "map", [fn, sources]() -> Value {
    std::vector<Value> call_args;
    call_args.reserve(sources.size());
    for (const auto& source : sources) {
      std::optional<Value> v = source->next();
      if (!v) throw StopIteration("");
      call_args.push_back(std::move(*v));
    }
    return fn(std::move(call_args), {});
  });
}

Value filter(std::vector<Value> args, Kwargs kwargs) {
  check_positional("filter", args, kwargs, 2, 2);
  // Lazy as map: the predicate runs as items are asked for.
  auto source = std::make_shared<Iteration>(args[1]);
  Value fn = args[0];
  return native_iterator("builtins", "filter", [fn, source]() -> Value {
    while (std::optional<Value> v = source->next()) {
      if (fn.is_none() ? truthy(*v) : truthy(fn({*v}, {}))) return std::move(*v);
    }
    throw StopIteration("");
  });
}

}  // namespace ag::py
