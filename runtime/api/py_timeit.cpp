// Python's timeit module (py_modules.def's timeit rows) for callables:
// timeit(stmt, setup, timer, number) runs setup once, then reads the timer,
// calls stmt `number` times and reads it again, as CPython's Timer.timeit;
// repeat does that `repeat` times. A statement given as source text cannot
// run here (agc compiles ahead of time and has no exec); only 'pass', the
// default, which does nothing.
#include <ctime>
#include <string>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"

namespace ag::pymod::impl {
namespace {

/// time.perf_counter(), the default timer (CLOCK_MONOTONIC, as py_time.cpp).
double time_clock_now() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// A stmt/setup argument as something to run: a callable, or None for 'pass'.
Value runnable(const Value& v, const char* what) {
  if (v.is_str()) {
    std::string s = v.as_str();
    size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
    s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
    if (s == "pass" || s.empty()) return Value();
    throw NotImplementedError(std::string("timeit: agc compiles Python ahead of time and cannot run a ") + what +
                              " given as source text; pass a callable (e.g. lambda: " + s + ")");
  }
  if (!v.is_callable() && !v.is_object()) throw ValueError(std::string(what) + " is neither a string nor callable");
  return v;
}

double time_once(const Value& stmt, const Value& setup, const Value& timer, int64_t number) {
  if (!setup.is_none()) setup({}, {});
  auto now = [&] { return timer.is_none() ? time_clock_now() : timer({}, {}).as_float(); };
  double t0 = now();
  if (stmt.is_none()) {
    for (int64_t i = 0; i < number; ++i) {
    }
  } else {
    for (int64_t i = 0; i < number; ++i) stmt({}, {});
  }
  return now() - t0;
}

}  // namespace

Value timeit_timeit(const TfCall& c) {
  Value stmt = runnable(c["stmt"], "stmt"), setup = runnable(c["setup"], "setup");
  return Value(time_once(stmt, setup, c["timer"], c["number"].as_int()));
}

Value timeit_repeat(const TfCall& c) {
  Value stmt = runnable(c["stmt"], "stmt"), setup = runnable(c["setup"], "setup");
  std::vector<Value> times;
  const int64_t repeat = c["repeat"].as_int(), number = c["number"].as_int();
  for (int64_t r = 0; r < repeat; ++r) times.emplace_back(time_once(stmt, setup, c["timer"], number));
  return Value::list(std::move(times));
}

}  // namespace ag::pymod::impl
