// Python's random module (py_modules.def's random rows): CPython 3.11's
// module-level functions, bit for bit. One global generator, MT19937
// (core/mt19937.h) seeded as CPython seeds it (an int's absolute value as
// 32-bit words, least significant first, through init_by_array; unseeded,
// from the OS), and random.py's algorithms on top: random() as genrand_res53,
// getrandbits, integers by rejection (_randbelow_with_getrandbits), shuffle
// from the end, sample's pool or set selection, choices by bisection,
// gauss's Box-Muller with the second value kept, normalvariate's
// Kinderman-Monahan.
#include <cmath>
#include <cstdint>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "runtime/api/py_args.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"
#include "runtime/core/cpython_random.h"

namespace ag::pymod::impl {
namespace {

/// The module's generator: CPython's Random, and gauss's kept second value.
struct Random : CPythonRandom {
  std::optional<double> gauss_next;

  Random() {
    // Unseeded: from the OS, as CPython's random_seed_urandom.
    std::random_device rd;
    std::vector<uint32_t> key(MT19937::kN);
    for (uint32_t& w : key) w = rd();
    mt.seed_by_array(key);
  }

  void seed(int64_t a) {
    CPythonRandom::seed(a);
    gauss_next.reset();
  }
};

std::mutex& random_mutex() {
  static std::mutex mu;
  return mu;
}
Random& rng() {
  static Random* r = new Random();
  return *r;
}

/// random.py's randrange argument: an int, or (deprecated in 3.10-3.11) a
/// float with an integral value; another float is its ValueError.
int64_t range_arg(const Value& v, const char* which) {
  if (v.is_float()) {
    const double d = v.as_float();
    if (d != std::trunc(d)) throw ValueError(std::string("non-integer ") + which + " for randrange()");
    return py::int_({v}, {}).as_int();
  }
  return index_arg(v);
}

int64_t randrange(Random& r, const Value& start, const Value& stop, const Value& step) {
  const int64_t istart = range_arg(start, "arg 1");
  if (stop.is_none()) {
    if (istart > 0) return r.below(istart);
    throw ValueError("empty range for randrange()");
  }
  const int64_t istop = range_arg(stop, "stop"), istep = range_arg(step, "step");
  const int64_t width = istop - istart;
  if (istep == 1) {
    if (width > 0) return istart + r.below(width);
    throw ValueError("empty range for randrange() (" + std::to_string(istart) + ", " + std::to_string(istop) + ", " +
                     std::to_string(width) + ")");
  }
  auto floordiv = [](int64_t a, int64_t b) {  // Python's //
    int64_t q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) --q;
    return q;
  };
  if (istep == 0) throw ValueError("zero step for randrange()");
  const int64_t n = istep > 0 ? floordiv(width + istep - 1, istep) : floordiv(width + istep + 1, istep);
  if (n <= 0) throw ValueError("empty range for randrange()");
  return istart + istep * r.below(n);
}

}  // namespace

Value random_seed(const TfCall& c) {
  const Value& a = c["a"];
  std::lock_guard<std::mutex> lock(random_mutex());
  if (a.is_none()) {
    rng() = Random();
    return Value();
  }
  if (!a.is_bool() && !a.is_int()) {
    throw NotImplementedError("agc: random.seed takes None or an int (CPython also hashes a " + a.type_name() +
                              "; seed with an int)");
  }
  const int64_t v = a.as_int();
  rng().seed(v);
  return Value();
}

Value random_random(const TfCall&) {
  std::lock_guard<std::mutex> lock(random_mutex());
  return Value(rng().mt.next_double());
}

Value random_getrandbits(const TfCall& c) {
  const int64_t k = index_arg(c["k"]);
  if (k < 0) throw ValueError("number of bits must be non-negative");
  if (k > 63) throw OverflowError("agc: getrandbits(" + std::to_string(k) + ") exceeds agc's 64-bit ints");
  std::lock_guard<std::mutex> lock(random_mutex());
  return Value(k == 0 ? int64_t{0} : static_cast<int64_t>(rng().getrandbits(static_cast<int>(k))));
}

Value random_randrange(const TfCall& c) {
  std::lock_guard<std::mutex> lock(random_mutex());
  return Value(randrange(rng(), c["start"], c["stop"], c["step"]));
}

Value random_randint(const TfCall& c) {
  std::lock_guard<std::mutex> lock(random_mutex());
  // randrange(a, b + 1): a is checked first, as there.
  const int64_t a = range_arg(c["a"], "arg 1"), b = range_arg(c["b"], "stop");
  return Value(randrange(rng(), Value(a), Value(b + 1), Value(int64_t{1})));
}

Value random_choice(const TfCall& c) {
  const Value& seq = c["seq"];
  const int64_t n = len(seq);
  if (n == 0) throw IndexError("Cannot choose from an empty sequence");
  int64_t i;
  {
    std::lock_guard<std::mutex> lock(random_mutex());
    i = rng().below(n);
  }
  return getitem(seq, Value(i));
}

Value random_choices(const TfCall& c) {
  const Value& population = c["population"];
  const int64_t n = len(population), k = index_arg(c["k"]);
  const Value &weights = c["weights"], &cum = c["cum_weights"];
  std::vector<Value> out;
  std::lock_guard<std::mutex> lock(random_mutex());
  if (cum.is_none() && weights.is_none()) {
    for (int64_t i = 0; i < k; ++i) {
      out.push_back(getitem(population, Value(static_cast<int64_t>(std::floor(rng().mt.next_double() * static_cast<double>(n))))));
    }
    return Value::list(std::move(out));
  }
  if (!cum.is_none() && !weights.is_none()) throw TypeError("Cannot specify both weights and cumulative weights");
  std::vector<double> cumulative;
  if (cum.is_none()) {
    Value total(int64_t{0});
    for (const Value& w : iterate(weights)) {
      total = total + w;  // itertools.accumulate: Python's +
      cumulative.push_back(real_arg(total));
    }
  } else {
    for (const Value& w : iterate(cum)) cumulative.push_back(real_arg(w));
  }
  if (static_cast<int64_t>(cumulative.size()) != n) throw ValueError("The number of weights does not match the population");
  const double total = cumulative.empty() ? 0.0 : cumulative.back();
  if (total <= 0.0) throw ValueError("Total of weights must be greater than zero");
  if (!std::isfinite(total)) throw ValueError("Total of weights must be finite");
  for (int64_t i = 0; i < k; ++i) {
    // bisect_right(cum_weights, random() * total, 0, n - 1)
    const double x = rng().mt.next_double() * total;
    auto it = std::upper_bound(cumulative.begin(), cumulative.begin() + (n - 1), x);
    out.push_back(getitem(population, Value(static_cast<int64_t>(it - cumulative.begin()))));
  }
  return Value::list(std::move(out));
}

Value random_shuffle(const TfCall& c) {
  const Value& x = c["x"];
  if (!x.is_list()) throw TypeError("'" + x.type_name() + "' object does not support item assignment");
  std::vector<Value>& items = x.items();
  std::lock_guard<std::mutex> lock(random_mutex());
  for (int64_t i = static_cast<int64_t>(items.size()) - 1; i > 0; --i) {
    const int64_t j = rng().below(i + 1);
    std::swap(items[static_cast<size_t>(i)], items[static_cast<size_t>(j)]);
  }
  return Value();
}

Value random_sample(const TfCall& c) {
  const Value& population = c["population"];
  if (!population.is_list() && !population.is_tuple() && !population.is_str()) {
    throw TypeError("Population must be a sequence.  For dicts or sets, use sorted(d).");
  }
  const int64_t n = len(population), k = index_arg(c["k"]);
  if (k < 0 || k > n) throw ValueError("Sample larger than population or is negative");
  std::vector<Value> result(static_cast<size_t>(k));
  int64_t setsize = 21;
  if (k > 5) setsize += static_cast<int64_t>(std::pow(4.0, std::ceil(std::log(static_cast<double>(k * 3)) / std::log(4.0))));
  std::lock_guard<std::mutex> lock(random_mutex());
  if (n <= setsize) {
    std::vector<Value> pool = iterate(population);
    for (int64_t i = 0; i < k; ++i) {
      const int64_t j = rng().below(n - i);
      result[static_cast<size_t>(i)] = pool[static_cast<size_t>(j)];
      pool[static_cast<size_t>(j)] = pool[static_cast<size_t>(n - i - 1)];
    }
  } else {
    std::set<int64_t> selected;
    for (int64_t i = 0; i < k; ++i) {
      int64_t j = rng().below(n);
      while (selected.count(j)) j = rng().below(n);
      selected.insert(j);
      result[static_cast<size_t>(i)] = getitem(population, Value(j));
    }
  }
  return Value::list(std::move(result));
}

Value random_uniform(const TfCall& c) {
  const double a = real_arg(c["a"]), b = real_arg(c["b"]);
  std::lock_guard<std::mutex> lock(random_mutex());
  return Value(a + (b - a) * rng().mt.next_double());
}

Value random_gauss(const TfCall& c) {
  const double mu = real_arg(c["mu"]), sigma = real_arg(c["sigma"]);
  std::lock_guard<std::mutex> lock(random_mutex());
  Random& r = rng();
  double z;
  if (r.gauss_next) {
    z = *r.gauss_next;
    r.gauss_next.reset();
  } else {
    const double x2pi = r.mt.next_double() * 2 * M_PI;
    const double g2rad = std::sqrt(-2.0 * std::log(1.0 - r.mt.next_double()));
    z = std::cos(x2pi) * g2rad;
    r.gauss_next = std::sin(x2pi) * g2rad;
  }
  return Value(mu + z * sigma);
}

Value random_normalvariate(const TfCall& c) {
  const double mu = real_arg(c["mu"]), sigma = real_arg(c["sigma"]);
  const double magic = 4 * std::exp(-0.5) / std::sqrt(2.0);
  std::lock_guard<std::mutex> lock(random_mutex());
  double z;
  while (true) {
    const double u1 = rng().mt.next_double();
    const double u2 = 1.0 - rng().mt.next_double();
    z = magic * (u1 - 0.5) / u2;
    if (z * z / 4.0 <= -std::log(u2)) break;
  }
  return Value(mu + z * sigma);
}

}  // namespace ag::pymod::impl
