// Python's time module (py_modules.def's time rows): the clocks as CPython
// reads them on Linux (time: the system clock; perf_counter and monotonic:
// CLOCK_MONOTONIC; process_time: the process's CPU clock), in float seconds
// or, for the _ns forms, int nanoseconds; and sleep.
#include <cmath>
#include <ctime>
#include <string>
#include <string_view>
#include <chrono>
#include <thread>

#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"

namespace ag::pymod::impl {
namespace {

int64_t clock_ns(std::string_view clock) {
  clockid_t id = clock == "time"           ? CLOCK_REALTIME
                 : clock == "process_time" ? CLOCK_PROCESS_CPUTIME_ID
                                           : CLOCK_MONOTONIC;
  timespec ts{};
  clock_gettime(id, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

}  // namespace

Value time_clock(const TfCall& c) { return Value(static_cast<double>(clock_ns(c.data())) * 1e-9); }

Value time_clock_ns(const TfCall& c) { return Value(clock_ns(c.data())); }

Value time_sleep(const TfCall& c) {
  const Value& v = c.arg(0);
  if (!v.is_number()) throw TypeError("'" + v.type_name() + "' object cannot be interpreted as an integer");
  const double secs = v.as_float();
  if (std::isnan(secs)) throw ValueError("Invalid value NaN (not a number)");
  if (secs < 0) throw ValueError("sleep length must be non-negative");
  std::this_thread::sleep_for(std::chrono::duration<double>(secs));
  return Value();
}

}  // namespace ag::pymod::impl
