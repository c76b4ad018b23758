// Python's datetime module (py_modules.def's datetime rows): naive dates,
// datetimes and timedeltas as CPython 3.11's _datetime computes them. A
// timedelta is normalized to days, seconds (0..86399) and microseconds
// (0..999999), float components rounded half to even as CPython's
// accumulation does; a date is the proleptic Gregorian calendar of CPython's
// ordinals (0001-01-01 is day 1); datetime is a subclass of date. Their
// operators (+ - * / // % and comparisons) are special methods
// (value_ops.cpp tries them), their texts CPython's str and repr. Time zones
// (tzinfo) are not supported; datetimes are not hashable here.
#include <sys/time.h>

#include <cmath>
#include <cstdint>
#include <ctime>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"
#include "runtime/value/object_model.h"

namespace ag::pymod {
namespace {

using Int = __int128;
constexpr int64_t kUsPerSecond = 1000000;
constexpr int64_t kUsPerDay = 86400 * kUsPerSecond;
constexpr int64_t kMaxDeltaDays = 999999999;
constexpr int kMaxOrdinal = 3652059;  // 9999-12-31

// ---- The calendar (CPython's datetime.py helpers).

bool is_leap(int64_t y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }
int days_in_month(int64_t y, int64_t m) {
  static const int kDays[] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[m];
}
int64_t days_before_month(int64_t y, int64_t m) {
  static const int kBefore[] = {0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
  return kBefore[m] + (m > 2 && is_leap(y) ? 1 : 0);
}
int64_t ymd_to_ordinal(int64_t y, int64_t m, int64_t d) {
  int64_t y1 = y - 1;
  return y1 * 365 + y1 / 4 - y1 / 100 + y1 / 400 + days_before_month(y, m) + d;
}
void ordinal_to_ymd(int64_t n, int& year, int& month, int& day) {
  n -= 1;
  int64_t n400 = n / 146097;
  n %= 146097;
  int64_t y = n400 * 400 + 1;
  int64_t n100 = n / 36524;
  n %= 36524;
  int64_t n4 = n / 1461;
  n %= 1461;
  int64_t n1 = n / 365;
  n %= 365;
  y += n100 * 100 + n4 * 4 + n1;
  if (n1 == 4 || n100 == 4) {
    year = static_cast<int>(y - 1), month = 12, day = 31;
    return;
  }
  bool leap = n1 == 3 && (n4 != 24 || n100 == 3);
  int64_t m = (n + 50) >> 5;
  int64_t preceding = days_before_month(2001, m) + (m > 2 && leap ? 1 : 0);
  if (preceding > n) {
    m -= 1;
    preceding -= days_in_month(2001, m) + (m == 2 && leap ? 1 : 0);
  }
  year = static_cast<int>(y), month = static_cast<int>(m), day = static_cast<int>(n - preceding + 1);
}

Int floor_div(Int a, Int b) {
  Int q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
Int floor_mod(Int a, Int b) { return a - floor_div(a, b) * b; }
/// a / b rounded half to even (CPython's divide_nearest).
Int divide_nearest(Int a, Int b) {
  Int q = floor_div(a, b), r = a - q * b;
  // Compare 2r with b, both made positive by b's sign.
  Int twice = 2 * r;
  bool greater = b > 0 ? twice > b : twice < b;
  bool equal = twice == b;
  if (greater || (equal && (q & 1) != 0)) ++q;
  return q;
}

std::string pad(int64_t v, int width) {
  std::string s = std::to_string(v);
  return std::string(s.size() < static_cast<size_t>(width) ? width - s.size() : 0, '0') + s;
}

// ---- The native states.

struct DeltaState : NativeState {
  int64_t days = 0, seconds = 0, us = 0;
  Int total() const { return (static_cast<Int>(days) * 86400 + seconds) * kUsPerSecond + us; }
};

/// A date, or with has_time a datetime.
struct MomentState : NativeState {
  bool has_time = false;
  int year = 1, month = 1, day = 1, hour = 0, minute = 0, second = 0, us = 0;
  int64_t ordinal() const { return ymd_to_ordinal(year, month, day); }
  /// Microseconds since 0001-01-01 00:00 (the time part of a datetime).
  Int total() const {
    return static_cast<Int>(ordinal()) * kUsPerDay +
           (static_cast<Int>(hour) * 3600 + minute * 60 + second) * kUsPerSecond + us;
  }
};

const Value& delta_class();
const Value& date_class();
const Value& datetime_class();

Value make_delta(Int total_us) {
  auto st = std::make_shared<DeltaState>();
  Int days = floor_div(total_us, kUsPerDay);
  if (days > kMaxDeltaDays || days < -kMaxDeltaDays) {
    throw OverflowError("days=" + std::to_string(static_cast<long long>(days)) + "; must have magnitude <= 999999999");
  }
  Int rest = total_us - days * kUsPerDay;
  st->days = static_cast<int64_t>(days);
  st->seconds = static_cast<int64_t>(rest / kUsPerSecond);
  st->us = static_cast<int64_t>(rest % kUsPerSecond);
  Value v = native_object(delta_class(), st);
  v.as_object().class_name = "datetime.timedelta";
  return v;
}

Value make_moment(std::shared_ptr<MomentState> st) {
  Value v = native_object(st->has_time ? datetime_class() : date_class(), st);
  v.as_object().class_name = st->has_time ? "datetime.datetime" : "datetime.date";
  return v;
}

/// A date or datetime `total` microseconds after 0001-01-01 00:00; OverflowError
/// outside years 1..9999.
Value moment_at(Int total, bool has_time) {
  Int ord = floor_div(total, kUsPerDay);
  if (ord < 1 || ord > kMaxOrdinal) throw OverflowError("date value out of range");
  auto st = std::make_shared<MomentState>();
  st->has_time = has_time;
  ordinal_to_ymd(static_cast<int64_t>(ord), st->year, st->month, st->day);
  int64_t rest = static_cast<int64_t>(total - ord * kUsPerDay);
  st->hour = static_cast<int>(rest / (3600 * kUsPerSecond));
  st->minute = static_cast<int>(rest / (60 * kUsPerSecond) % 60);
  st->second = static_cast<int>(rest / kUsPerSecond % 60);
  st->us = static_cast<int>(rest % kUsPerSecond);
  return make_moment(st);
}

DeltaState* delta(const Value& v) { return native_state<DeltaState>(v); }
MomentState* moment(const Value& v) { return native_state<MomentState>(v); }

int64_t int_field(const Value& v) {
  if (!v.is_int() && !v.is_bool()) throw TypeError("'" + v.type_name() + "' object cannot be interpreted as an integer");
  return v.as_int();
}

// ---- timedelta's constructor: CPython's accum(), component by component.

void accumulate(Int& sum, double& leftover, const Value& num, int64_t factor, const char* tag) {
  if (num.is_int() || num.is_bool()) {
    sum += static_cast<Int>(num.as_int()) * factor;
    return;
  }
  if (!num.is_float()) {
    throw TypeError(std::string("unsupported type for timedelta ") + tag + " component: " + num.type_name());
  }
  double d = num.as_float();
  if (!std::isfinite(d)) throw ValueError("cannot convert float " + repr(num) + " to integer");
  double intpart = 0;
  double frac = std::modf(d, &intpart);
  if (std::fabs(intpart) > 1e30) throw OverflowError("Python int too large to convert to C int");
  sum += static_cast<Int>(intpart) * factor;
  if (frac == 0.0) return;
  frac = std::modf(static_cast<double>(factor) * frac, &intpart);
  sum += static_cast<Int>(intpart);
  leftover += frac;
}

Value delta_new(const std::vector<Value>& a) {
  Int sum = 0;
  double leftover = 0;
  // CPython's order: microseconds, milliseconds, seconds, minutes, hours, days, weeks.
  accumulate(sum, leftover, a[3], 1, "microseconds");
  accumulate(sum, leftover, a[4], 1000, "milliseconds");
  accumulate(sum, leftover, a[2], kUsPerSecond, "seconds");
  accumulate(sum, leftover, a[5], 60 * kUsPerSecond, "minutes");
  accumulate(sum, leftover, a[6], 3600 * kUsPerSecond, "hours");
  accumulate(sum, leftover, a[1], kUsPerDay, "days");
  accumulate(sum, leftover, a[7], 7 * kUsPerDay, "weeks");
  if (leftover != 0.0) {
    double whole = std::round(leftover);
    if (std::fabs(whole - leftover) == 0.5) {
      // Halfway: to even, by the parity of the sum so far.
      int odd = static_cast<int>(sum & 1);
      whole = 2.0 * std::round((leftover + odd) * 0.5) - odd;
    }
    sum += static_cast<Int>(whole);
  }
  return make_delta(sum);
}

int bit_length(Int v) {
  if (v < 0) v = -v;
  int n = 0;
  while (v != 0) {
    v >>= 1;
    ++n;
  }
  return n;
}

/// us * f, or us / f with `divide`, rounded half to even exactly as CPython
/// does it through f.as_integer_ratio() (f = mant * 2**e).
Int scale(Int us, double f, bool divide) {
  if (!std::isfinite(f)) throw ValueError("cannot convert float " + float_repr(f) + " to integer ratio");
  if (divide && f == 0.0) throw ZeroDivisionError("division by zero");
  int e = 0;
  const Int mant = static_cast<Int>(std::ldexp(std::frexp(f, &e), 53));
  e -= 53;
  const auto too_large = [] { return OverflowError("Python int too large to convert to C int"); };
  // The numerator and denominator of the exact result.
  Int num = divide ? us : us * mant, den = divide ? mant : 1;
  int up = divide ? -e : e;  // num * 2**up / den
  if (up >= 0) {
    if (bit_length(num) + up > 120) throw too_large();
    num <<= up;
  } else {
    if (-up + bit_length(den) > 120) return 0;  // |result| < 1/2: rounds to 0
    den <<= -up;
  }
  Int q = divide_nearest(num, den);
  if (q > std::numeric_limits<int64_t>::max() || q < std::numeric_limits<int64_t>::min()) throw too_large();
  return q;
}

// ---- timedelta's methods.

std::string delta_str(const DeltaState& d) {
  int64_t mm = d.seconds / 60, ss = d.seconds % 60, hh = mm / 60;
  mm %= 60;
  std::string s = std::to_string(hh) + ":" + pad(mm, 2) + ":" + pad(ss, 2);
  if (d.days != 0) s = std::to_string(d.days) + " day" + (d.days == 1 || d.days == -1 ? "" : "s") + ", " + s;
  if (d.us != 0) s += "." + pad(d.us, 6);
  return s;
}

std::string delta_repr(const DeltaState& d) {
  std::string args;
  auto add = [&](const char* name, int64_t v) {
    if (v == 0) return;
    args += (args.empty() ? "" : ", ") + std::string(name) + "=" + std::to_string(v);
  };
  add("days", d.days);
  add("seconds", d.seconds);
  add("microseconds", d.us);
  return "datetime.timedelta(" + (args.empty() ? "0" : args) + ")";
}

Value delta_binary(const Value& self, const Value& other, char op, bool reflected) {
  const DeltaState& a = *delta(self);
  if (DeltaState* b = delta(other)) {
    Int x = reflected ? b->total() : a.total(), y = reflected ? a.total() : b->total();
    switch (op) {
      case '+': return make_delta(x + y);
      case '-': return make_delta(x - y);
      case '/':
        if (y == 0) throw ZeroDivisionError("division by zero");
        return Value(static_cast<double>(x) / static_cast<double>(y));
      case 'f':
        if (y == 0) throw ZeroDivisionError("integer division or modulo by zero");
        return Value(static_cast<int64_t>(floor_div(x, y)));
      case '%':
        if (y == 0) throw ZeroDivisionError("integer division or modulo by zero");
        return make_delta(floor_mod(x, y));
      default: return not_implemented();
    }
  }
  if (other.is_int() || other.is_bool()) {
    Int n = other.as_int();
    if (op == '*') return make_delta(a.total() * n);
    if (reflected) return not_implemented();
    if (op == '/') {
      if (n == 0) throw ZeroDivisionError("integer division or modulo by zero");
      return make_delta(divide_nearest(a.total(), n));
    }
    if (op == 'f') {
      if (n == 0) throw ZeroDivisionError("integer division or modulo by zero");
      return make_delta(floor_div(a.total(), n));
    }
  }
  if (other.is_float()) {
    if (op == '*') return make_delta(scale(a.total(), other.as_float(), false));
    if (op == '/' && !reflected) return make_delta(scale(a.total(), other.as_float(), true));
  }
  return not_implemented();
}

// ---- date and datetime's methods.

std::string date_text(const MomentState& m) { return pad(m.year, 4) + "-" + pad(m.month, 2) + "-" + pad(m.day, 2); }

std::string time_text(const MomentState& m, std::string_view timespec) {
  std::string hh = pad(m.hour, 2), mm = pad(m.minute, 2), ss = pad(m.second, 2);
  if (timespec == "auto") timespec = m.us != 0 ? "microseconds" : "seconds";
  if (timespec == "hours") return hh;
  if (timespec == "minutes") return hh + ":" + mm;
  if (timespec == "seconds") return hh + ":" + mm + ":" + ss;
  if (timespec == "milliseconds") return hh + ":" + mm + ":" + ss + "." + pad(m.us / 1000, 3);
  if (timespec == "microseconds") return hh + ":" + mm + ":" + ss + "." + pad(m.us, 6);
  throw ValueError("Unknown timespec value");
}

std::string moment_repr(const MomentState& m) {
  std::vector<int> parts = {m.year, m.month, m.day};
  if (m.has_time) {
    parts.insert(parts.end(), {m.hour, m.minute, m.second, m.us});
    // CPython drops a zero microsecond, then a zero second.
    for (int k = 0; k < 2 && parts.back() == 0; ++k) parts.pop_back();
  }
  std::string s = m.has_time ? "datetime.datetime(" : "datetime.date(";
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + std::to_string(parts[i]);
  return s + ")";
}

int weekday(const MomentState& m) { return static_cast<int>((m.ordinal() + 6) % 7); }

std::string strftime(const MomentState& m, const std::string& fmt) {
  // %f (and the empty %z/%Z of a naive value) are Python's; the rest the C library's.
  std::string c_fmt;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] == '%' && i + 1 < fmt.size()) {
      char c = fmt[i + 1];
      if (c == 'f') {
        c_fmt += pad(m.us, 6);
      } else if (c == 'z' || c == 'Z') {
      } else {
        c_fmt += fmt.substr(i, 2);
      }
      ++i;
    } else {
      c_fmt += fmt[i];
    }
  }
  std::tm tm{};
  tm.tm_year = m.year - 1900;
  tm.tm_mon = m.month - 1;
  tm.tm_mday = m.day;
  tm.tm_hour = m.hour;
  tm.tm_min = m.minute;
  tm.tm_sec = m.second;
  tm.tm_wday = (weekday(m) + 1) % 7;
  tm.tm_yday = static_cast<int>(days_before_month(m.year, m.month) + m.day - 1);
  tm.tm_isdst = -1;
  if (c_fmt.empty()) return "";
  std::vector<char> buf(256);
  while (true) {
    size_t n = std::strftime(buf.data(), buf.size(), c_fmt.c_str(), &tm);
    if (n > 0 || buf.size() > 256 * c_fmt.size() + 4096) return std::string(buf.data(), n);
    buf.resize(buf.size() * 4);
  }
}

Value moment_binary(const Value& self, const Value& other, char op, bool reflected) {
  const MomentState& a = *moment(self);
  if (DeltaState* d = delta(other)) {
    if (op != '+' && (op != '-' || reflected)) return not_implemented();
    Int step = op == '+' ? d->total() : -d->total();
    // A date moves by whole days only (CPython ignores the delta's seconds).
    if (!a.has_time) step = static_cast<Int>(op == '+' ? d->days : -d->days) * kUsPerDay;
    return moment_at(a.total() + step, a.has_time);
  }
  if (MomentState* b = moment(other); b && op == '-' && b->has_time == a.has_time) {
    return make_delta(reflected ? b->total() - a.total() : a.total() - b->total());
  }
  return not_implemented();
}

/// -1, 0 or 1; `what` a date/datetime of the same kind, else TypeError as CPython's.
int moment_compare(const MomentState& a, const Value& other, bool& comparable) {
  const MomentState* b = moment(other);
  comparable = b != nullptr && b->has_time == a.has_time;
  if (!comparable) return 0;
  Int x = a.total(), y = b->total();
  return x < y ? -1 : (x > y ? 1 : 0);
}

// ---- The classes.

Param param(const char* name) { return Param{name}; }
Param param(const char* name, Value dflt) { return Param{name, std::move(dflt)}; }

std::pair<std::string, Value> property(const std::string& cls, const char* name, std::function<Value(const Value&)> get) {
  return {name, make_property(Value::callable(cls + "." + name, [get](std::vector<Value> a, Kwargs) { return get(a.at(0)); }))};
}

/// The comparison methods of a class whose instances compare by `cmp`
/// (-1/0/1; `ok` false: not comparable with that operand).
void add_comparisons(std::vector<std::pair<std::string, Value>>& attrs, const std::string& cls,
                     std::function<int(const Value&, const Value&, bool&)> cmp,
                     std::function<Value(const Value&, const Value&)> incomparable) {
  struct Op {
    const char* name;
    bool (*test)(int);
  };
  static const Op kOps[] = {{"__lt__", [](int c) { return c < 0; }}, {"__le__", [](int c) { return c <= 0; }},
                            {"__gt__", [](int c) { return c > 0; }}, {"__ge__", [](int c) { return c >= 0; }}};
  for (const Op& op : kOps) {
    auto test = op.test;
    attrs.push_back(native_method(cls + "." + op.name, op.name, {param("self"), param("other")},
                                  [cmp, test, incomparable](const std::vector<Value>& a) -> Value {
                                    bool ok = false;
                                    int c = cmp(a[0], a[1], ok);
                                    if (!ok) return incomparable(a[0], a[1]);
                                    return Value(test(c));
                                  }));
  }
  attrs.push_back(native_method(cls + ".__eq__", "__eq__", {param("self"), param("other")},
                                [cmp](const std::vector<Value>& a) -> Value {
                                  bool ok = false;
                                  int c = cmp(a[0], a[1], ok);
                                  return Value(ok && c == 0);
                                }));
}

void add_binary(std::vector<std::pair<std::string, Value>>& attrs, const std::string& cls, const char* name, char op,
                bool reflected, Value (*impl)(const Value&, const Value&, char, bool)) {
  attrs.push_back(native_method(cls + "." + name, name, {param("self"), param("other")},
                                [op, reflected, impl](const std::vector<Value>& a) { return impl(a[0], a[1], op, reflected); }));
}

const Value& delta_class() {
  static const Value* cls = [] {
    const std::string c = "timedelta";
    std::vector<std::pair<std::string, Value>> attrs;
    attrs.push_back(native_method(c + ".__init__", "__init__",
                                  {param("self"), param("days", Value(0)), param("seconds", Value(0)),
                                   param("microseconds", Value(0)), param("milliseconds", Value(0)),
                                   param("minutes", Value(0)), param("hours", Value(0)), param("weeks", Value(0))},
                                  [](const std::vector<Value>& a) {
                                    Value made = delta_new(a);
                                    a[0].as_object().native = made.as_object().native;
                                    a[0].as_object().class_name = "datetime.timedelta";
                                    return Value();
                                  }));
    attrs.push_back(property(c, "days", [](const Value& s) { return Value(delta(s)->days); }));
    attrs.push_back(property(c, "seconds", [](const Value& s) { return Value(delta(s)->seconds); }));
    attrs.push_back(property(c, "microseconds", [](const Value& s) { return Value(delta(s)->us); }));
    attrs.push_back(native_method(c + ".total_seconds", "total_seconds", {param("self")}, [](const std::vector<Value>& a) {
      return Value(static_cast<double>(delta(a[0])->total()) / 1e6);
    }));
    attrs.push_back(native_method(c + ".__str__", "__str__", {param("self")},
                                  [](const std::vector<Value>& a) { return Value(delta_str(*delta(a[0]))); }));
    attrs.push_back(native_method(c + ".__repr__", "__repr__", {param("self")},
                                  [](const std::vector<Value>& a) { return Value(delta_repr(*delta(a[0]))); }));
    attrs.push_back(native_method(c + ".__bool__", "__bool__", {param("self")},
                                  [](const std::vector<Value>& a) { return Value(delta(a[0])->total() != 0); }));
    attrs.push_back(native_method(c + ".__neg__", "__neg__", {param("self")},
                                  [](const std::vector<Value>& a) { return make_delta(-delta(a[0])->total()); }));
    attrs.push_back(native_method(c + ".__pos__", "__pos__", {param("self")},
                                  [](const std::vector<Value>& a) { return make_delta(delta(a[0])->total()); }));
    attrs.push_back(native_method(c + ".__abs__", "__abs__", {param("self")}, [](const std::vector<Value>& a) {
      Int t = delta(a[0])->total();
      return make_delta(t < 0 ? -t : t);
    }));
    add_binary(attrs, c, "__add__", '+', false, delta_binary);
    add_binary(attrs, c, "__radd__", '+', true, delta_binary);
    add_binary(attrs, c, "__sub__", '-', false, delta_binary);
    add_binary(attrs, c, "__rsub__", '-', true, delta_binary);
    add_binary(attrs, c, "__mul__", '*', false, delta_binary);
    add_binary(attrs, c, "__rmul__", '*', true, delta_binary);
    add_binary(attrs, c, "__truediv__", '/', false, delta_binary);
    add_binary(attrs, c, "__floordiv__", 'f', false, delta_binary);
    add_binary(attrs, c, "__mod__", '%', false, delta_binary);
    add_comparisons(
        attrs, c,
        [](const Value& a, const Value& b, bool& ok) {
          ok = delta(b) != nullptr;
          if (!ok) return 0;
          Int x = delta(a)->total(), y = delta(b)->total();
          return x < y ? -1 : (x > y ? 1 : 0);
        },
        [](const Value&, const Value&) { return not_implemented(); });
    return new Value(make_class(c, {}, std::move(attrs)));
  }();
  return *cls;
}

/// The methods date and datetime share (datetime inherits them).
void add_moment_methods(std::vector<std::pair<std::string, Value>>& attrs, const std::string& c) {
  attrs.push_back(property(c, "year", [](const Value& s) { return Value(moment(s)->year); }));
  attrs.push_back(property(c, "month", [](const Value& s) { return Value(moment(s)->month); }));
  attrs.push_back(property(c, "day", [](const Value& s) { return Value(moment(s)->day); }));
  attrs.push_back(native_method(c + ".weekday", "weekday", {param("self")},
                                [](const std::vector<Value>& a) { return Value(weekday(*moment(a[0]))); }));
  attrs.push_back(native_method(c + ".isoweekday", "isoweekday", {param("self")},
                                [](const std::vector<Value>& a) { return Value(weekday(*moment(a[0])) + 1); }));
  attrs.push_back(native_method(c + ".toordinal", "toordinal", {param("self")},
                                [](const std::vector<Value>& a) { return Value(moment(a[0])->ordinal()); }));
  attrs.push_back(native_method(c + ".strftime", "strftime", {param("self"), param("format")},
                                [](const std::vector<Value>& a) {
                                  if (!a[1].is_str()) {
                                    throw TypeError("strftime() argument 1 must be str, not " + a[1].type_name());
                                  }
                                  return Value(strftime(*moment(a[0]), a[1].as_str()));
                                }));
  attrs.push_back(native_method(c + ".__repr__", "__repr__", {param("self")},
                                [](const std::vector<Value>& a) { return Value(moment_repr(*moment(a[0]))); }));
  add_binary(attrs, c, "__add__", '+', false, moment_binary);
  add_binary(attrs, c, "__radd__", '+', true, moment_binary);
  add_binary(attrs, c, "__sub__", '-', false, moment_binary);
  add_binary(attrs, c, "__rsub__", '-', true, moment_binary);
  add_comparisons(
      attrs, c, [](const Value& a, const Value& b, bool& ok) { return moment_compare(*moment(a), b, ok); },
      [](const Value& a, const Value& b) -> Value {
        // A date and a datetime do not order (CPython's TypeError); other values decline.
        if (moment(b) != nullptr) throw TypeError("can't compare " + a.type_name() + " to " + b.type_name());
        return not_implemented();
      });
}

/// The fields of a new date or datetime, checked as CPython checks them.
std::shared_ptr<MomentState> checked_moment(const std::vector<Value>& a, bool has_time) {
  auto st = std::make_shared<MomentState>();
  st->has_time = has_time;
  int64_t y = int_field(a[1]), m = int_field(a[2]), d = int_field(a[3]);
  if (y < 1 || y > 9999) throw ValueError("year " + std::to_string(y) + " is out of range");
  if (m < 1 || m > 12) throw ValueError("month must be in 1..12");
  if (d < 1 || d > days_in_month(y, m)) throw ValueError("day is out of range for month");
  st->year = static_cast<int>(y), st->month = static_cast<int>(m), st->day = static_cast<int>(d);
  if (!has_time) return st;
  int64_t hh = int_field(a[4]), mi = int_field(a[5]), ss = int_field(a[6]), us = int_field(a[7]);
  if (hh < 0 || hh > 23) throw ValueError("hour must be in 0..23");
  if (mi < 0 || mi > 59) throw ValueError("minute must be in 0..59");
  if (ss < 0 || ss > 59) throw ValueError("second must be in 0..59");
  if (us < 0 || us > 999999) throw ValueError("microsecond must be in 0..999999");
  if (!a[8].is_none()) throw NotImplementedError("datetime with a tzinfo is not supported by agc (naive datetimes only)");
  st->hour = static_cast<int>(hh), st->minute = static_cast<int>(mi), st->second = static_cast<int>(ss);
  st->us = static_cast<int>(us);
  return st;
}

void become(const Value& self, std::shared_ptr<MomentState> st) {
  self.as_object().class_name = st->has_time ? "datetime.datetime" : "datetime.date";
  self.as_object().native = std::move(st);
}

const Value& date_class() {
  static const Value* cls = [] {
    const std::string c = "date";
    std::vector<std::pair<std::string, Value>> attrs;
    attrs.push_back(native_method(c + ".__init__", "__init__", {param("self"), param("year"), param("month"), param("day")},
                                  [](const std::vector<Value>& a) {
                                    become(a[0], checked_moment(a, false));
                                    return Value();
                                  }));
    add_moment_methods(attrs, c);
    attrs.push_back(native_method(c + ".isoformat", "isoformat", {param("self")},
                                  [](const std::vector<Value>& a) { return Value(date_text(*moment(a[0]))); }));
    attrs.push_back(native_method(c + ".__str__", "__str__", {param("self")},
                                  [](const std::vector<Value>& a) { return Value(date_text(*moment(a[0]))); }));
    return new Value(make_class(c, {}, std::move(attrs)));
  }();
  return *cls;
}

const Value& datetime_class() {
  static const Value* cls = [] {
    const std::string c = "datetime";
    std::vector<std::pair<std::string, Value>> attrs;
    attrs.push_back(native_method(c + ".__init__", "__init__",
                                  {param("self"), param("year"), param("month"), param("day"), param("hour", Value(0)),
                                   param("minute", Value(0)), param("second", Value(0)),
                                   param("microsecond", Value(0)), param("tzinfo", Value())},
                                  [](const std::vector<Value>& a) {
                                    become(a[0], checked_moment(a, true));
                                    return Value();
                                  }));
    add_moment_methods(attrs, c);
    attrs.push_back(property(c, "hour", [](const Value& s) { return Value(moment(s)->hour); }));
    attrs.push_back(property(c, "minute", [](const Value& s) { return Value(moment(s)->minute); }));
    attrs.push_back(property(c, "second", [](const Value& s) { return Value(moment(s)->second); }));
    attrs.push_back(property(c, "microsecond", [](const Value& s) { return Value(moment(s)->us); }));
    attrs.push_back(native_method(c + ".date", "date", {param("self")}, [](const std::vector<Value>& a) {
      auto st = std::make_shared<MomentState>(*moment(a[0]));
      st->has_time = false;
      st->hour = st->minute = st->second = st->us = 0;
      return make_moment(st);
    }));
    attrs.push_back(native_method(
        c + ".isoformat", "isoformat", {param("self"), param("sep", Value("T")), param("timespec", Value("auto"))},
        [](const std::vector<Value>& a) {
          if (!a[1].is_str() || a[1].as_str().size() != 1) {
            throw TypeError("isoformat() argument 1 must be a unicode character, not " + a[1].type_name());
          }
          if (!a[2].is_str()) throw TypeError("isoformat() argument 2 must be str, not " + a[2].type_name());
          const MomentState& m = *moment(a[0]);
          return Value(date_text(m) + a[1].as_str() + time_text(m, a[2].as_str()));
        }));
    attrs.push_back(native_method(c + ".__str__", "__str__", {param("self")}, [](const std::vector<Value>& a) {
      const MomentState& m = *moment(a[0]);
      return Value(date_text(m) + " " + time_text(m, "auto"));
    }));
    return new Value(make_class(c, {date_class()}, std::move(attrs)));
  }();
  return *cls;
}

}  // namespace

namespace impl {

Value datetime_now(const TfCall& c) {
  const bool has_time = c.data() == "datetime";
  if (has_time && !c["tz"].is_none()) {
    throw NotImplementedError("datetime.now(tz) is not supported by agc (naive datetimes only)");
  }
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  std::time_t secs = ts.tv_sec;
  std::tm tm{};
  localtime_r(&secs, &tm);
  auto st = std::make_shared<MomentState>();
  st->has_time = has_time;
  st->year = tm.tm_year + 1900, st->month = tm.tm_mon + 1, st->day = tm.tm_mday;
  if (has_time) {
    st->hour = tm.tm_hour, st->minute = tm.tm_min, st->second = std::min(tm.tm_sec, 59);
    st->us = static_cast<int>(ts.tv_nsec / 1000);
  }
  return make_moment(st);
}

}  // namespace impl

namespace api {

const Value& datetime_timedelta() { return delta_class(); }
const Value& datetime_date() { return date_class(); }
const Value& datetime_datetime() { return datetime_class(); }
const Value& datetime_MINYEAR() {
  static const Value v(1);
  return v;
}
const Value& datetime_MAXYEAR() {
  static const Value v(9999);
  return v;
}

}  // namespace api
}  // namespace ag::pymod
