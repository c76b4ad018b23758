// Python's itertools (py_modules.def's itertools rows): CPython's items in
// CPython's order, returned as lists (agc's zip does the same), but for
// the endless count, cycle and repeat, which are iterator objects
// (native_iterator.h, as the lazy map and filter).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/native_iterator.h"
#include "runtime/api/py_args.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"
#include "runtime/value/iteration.h"

namespace ag::pymod::impl {
namespace {

std::vector<std::vector<Value>> pools_of(const Value& iterables) {
  std::vector<std::vector<Value>> pools;
  for (const Value& it : iterables.items()) pools.push_back(iterate(it));
  return pools;
}

int64_t non_negative(const Value& v, const char* what) {
  const int64_t n = index_arg(v);
  if (n < 0) throw ValueError(std::string(what) + " must be non-negative");
  return n;
}

/// count, cycle and repeat never end, so they cannot be lists as the others
/// are: they are iterator objects of class itertools.`name`.
Value endless(const char* name, std::function<Value()> next, std::function<std::string()> text) {
  return native_iterator("itertools", name, std::move(next), std::move(text));
}

}  // namespace

Value itertools_product(const TfCall& c) {
  const int64_t repeat = index_arg(c["repeat"]);
  if (repeat < 0) throw ValueError("repeat argument cannot be negative");
  std::vector<std::vector<Value>> base = pools_of(c["iterables"]), pools;
  for (int64_t r = 0; r < repeat; ++r) pools.insert(pools.end(), base.begin(), base.end());
  // The rightmost pool advances fastest, as nested for loops would.
  std::vector<std::vector<Value>> rows{{}};
  for (const auto& pool : pools) {
    std::vector<std::vector<Value>> next;
    for (const auto& row : rows) {
      for (const Value& x : pool) {
        next.push_back(row);
        next.back().push_back(x);
      }
    }
    rows = std::move(next);
  }
  std::vector<Value> out;
  for (auto& row : rows) out.push_back(Value::tuple(std::move(row)));
  return Value::list(std::move(out));
}

Value itertools_chain(const TfCall& c) {
  std::vector<Value> out;
  for (const Value& it : c["iterables"].items()) {
    for (Value& x : iterate(it)) out.push_back(std::move(x));
  }
  return Value::list(std::move(out));
}

Value itertools_chain_from_iterable(const TfCall& c) {
  std::vector<Value> out;
  for (const Value& it : iterate(c["iterable"])) {
    for (Value& x : iterate(it)) out.push_back(std::move(x));
  }
  return Value::list(std::move(out));
}

Value itertools_choose(const TfCall& c) {
  // Index tuples in CPython's (lexicographic) order, then the items at them.
  const std::string_view kind = c.data();
  const std::vector<Value> pool = iterate(c["iterable"]);
  const int64_t n = static_cast<int64_t>(pool.size());
  const int64_t r = kind == "permutations" && c["r"].is_none() ? n : non_negative(c["r"], "r");
  std::vector<Value> out;
  std::vector<int64_t> idx;
  std::vector<bool> used(static_cast<size_t>(n), false);
  auto emit = [&] {
    std::vector<Value> t;
    for (int64_t i : idx) t.push_back(pool[static_cast<size_t>(i)]);
    out.push_back(Value::tuple(std::move(t)));
  };
  auto walk = [&](auto&& self, int64_t start) -> void {
    if (static_cast<int64_t>(idx.size()) == r) {
      emit();
      return;
    }
    const int64_t from = kind == "permutations" ? 0 : start;
    for (int64_t i = from; i < n; ++i) {
      if (kind == "permutations") {
        if (used[static_cast<size_t>(i)]) continue;
        used[static_cast<size_t>(i)] = true;
      }
      idx.push_back(i);
      self(self, kind == "combinations" ? i + 1 : i);
      idx.pop_back();
      if (kind == "permutations") used[static_cast<size_t>(i)] = false;
    }
  };
  if (r <= n || kind == "combinations_with_replacement") {
    if (!(kind == "combinations_with_replacement" && n == 0 && r > 0)) walk(walk, 0);
  }
  return Value::list(std::move(out));
}

Value itertools_accumulate(const TfCall& c) {
  const Value& func = c["func"];
  std::vector<Value> out;
  bool have = false;
  Value total;
  if (!c["initial"].is_none()) {
    total = c["initial"];
    out.push_back(total);
    have = true;
  }
  for (const Value& x : iterate(c["iterable"])) {
    total = !have ? x : func.is_none() ? total + x : func({total, x}, {});
    have = true;
    out.push_back(total);
  }
  return Value::list(std::move(out));
}

Value itertools_zip_longest(const TfCall& c) {
  std::vector<std::vector<Value>> pools = pools_of(c["iterables"]);
  size_t longest = 0;
  for (const auto& p : pools) longest = std::max(longest, p.size());
  std::vector<Value> out;
  for (size_t i = 0; i < longest; ++i) {
    std::vector<Value> row;
    for (const auto& p : pools) row.push_back(i < p.size() ? p[i] : c["fillvalue"]);
    out.push_back(Value::tuple(std::move(row)));
  }
  return Value::list(std::move(out));
}

Value itertools_count(const TfCall& c) {
  Value start = c["start"], step = c["step"];
  if (!start.is_number() || !step.is_number()) throw TypeError("a number is required");
  auto next = std::make_shared<Value>(start);
  return endless(
      "count", [next, step] { return std::exchange(*next, *next + step); },
      [next, step] { return "count(" + repr(*next) + (step.is_int() && step.as_int() == 1 ? "" : ", " + repr(step)) + ")"; });
}

Value itertools_cycle(const TfCall& c) {
  // The first pass goes through the iterable as it comes (it may be endless
  // itself), keeping its items; later passes repeat them.
  auto source = std::make_shared<Iteration>(c["iterable"]);
  auto saved = std::make_shared<std::vector<Value>>();
  auto at = std::make_shared<size_t>(0);
  return endless(
      "cycle",
      [source, saved, at]() -> Value {
        if (std::optional<Value> v = source->next()) {
          saved->push_back(*v);
          return *v;
        }
        if (saved->empty()) throw StopIteration("");
        return (*saved)[(*at)++ % saved->size()];
      },
      nullptr);
}

Value itertools_repeat(const TfCall& c) {
  if (c["times"].is_none()) {
    Value object = c["object"];
    std::string text = "repeat(" + repr(object) + ")";
    return endless("repeat", [object] { return object; }, [text] { return text; });
  }
  const int64_t times = index_arg(c["times"]);
  return Value::list(std::vector<Value>(static_cast<size_t>(std::max<int64_t>(times, 0)), c["object"]));
}

Value itertools_islice(const TfCall& c) {
  // islice(iterable, stop) or islice(iterable, start, stop[, step]), with
  // CPython's checks of the bounds.
  const std::vector<Value>& args = c["args"].items();
  if (args.empty() || args.size() > 3) {
    throw TypeError("islice expected at most 4 arguments, got " + std::to_string(args.size() + 1));
  }
  auto bound = [](const Value& v, int64_t none) -> int64_t {
    if (v.is_none()) return none;
    if ((!v.is_int() && !v.is_bool()) || v.as_int() < 0) {
      throw ValueError("Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize.");
    }
    return v.as_int();
  };
  int64_t start = 0, stop, step = 1;
  const int64_t kAll = INT64_MAX;
  if (args.size() == 1) {
    stop = bound(args[0], kAll);
  } else {
    if (!args[0].is_none() && !args[0].is_int()) {
      throw ValueError("Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.");
    }
    start = args[0].is_none() ? 0 : args[0].as_int();
    stop = bound(args[1], kAll);
    if (args.size() == 3) {
      if (!args[2].is_none() && !args[2].is_int()) {
        throw ValueError("Step for islice() must be a positive integer or None.");
      }
      step = args[2].is_none() ? 1 : args[2].as_int();
    }
  }
  if (start < 0) throw ValueError("Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.");
  if (step <= 0) throw ValueError("Step for islice() must be a positive integer or None.");
  // One item at a time, so an endless iterator (count()) stops at `stop`.
  Iteration items(c["iterable"]);
  std::vector<Value> out;
  for (int64_t i = 0; i < stop; ++i) {
    std::optional<Value> v = items.next();
    if (!v) break;
    if (i >= start && (i - start) % step == 0) out.push_back(std::move(*v));
  }
  return Value::list(std::move(out));
}

}  // namespace ag::pymod::impl
