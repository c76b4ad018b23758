// Python's itertools (py_modules.def's itertools rows): CPython's items in
// CPython's order, returned as lists (agc's map/zip/filter do the same).
#include <string>
#include <vector>

#include "runtime/api/py_args.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"

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

Value itertools_repeat(const TfCall& c) {
  if (c["times"].is_none()) {
    throw NotImplementedError("agc: itertools.repeat without times is an endless iterator; agc's itertools return "
                              "lists, so give times");
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
  const std::vector<Value> items = iterate(c["iterable"]);
  std::vector<Value> out;
  for (int64_t i = start; i < stop && i < static_cast<int64_t>(items.size()); i += step) {
    out.push_back(items[static_cast<size_t>(i)]);
  }
  return Value::list(std::move(out));
}

}  // namespace ag::pymod::impl
