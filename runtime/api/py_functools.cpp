// Python's functools module (py_modules.def's functools rows): partial and
// reduce as CPython computes them.
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"

namespace ag::pymod::impl {

Value functools_partial(const TfCall& c) {
  // A call passes the frozen positional arguments first, then its own, and
  // the frozen keywords updated by its own (CPython's partial_call).
  Value func = c["func"];
  if (!func.is_callable() && !func.is_object()) throw TypeError("the first argument must be callable");
  std::vector<Value> frozen = c["args"].items();
  Kwargs frozen_kw;
  for (const auto& [k, v] : c["keywords"].as_dict().entries) frozen_kw.emplace_back(k.as_str(), v);
  return Value::callable("functools.partial", [func, frozen, frozen_kw](std::vector<Value> args, Kwargs kwargs) {
    std::vector<Value> all = frozen;
    all.insert(all.end(), std::make_move_iterator(args.begin()), std::make_move_iterator(args.end()));
    Kwargs kw = frozen_kw;
    for (auto& [k, v] : kwargs) {
      bool replaced = false;
      for (auto& [fk, fv] : kw) {
        if (fk == k) {
          fv = v;
          replaced = true;
        }
      }
      if (!replaced) kw.emplace_back(k, std::move(v));
    }
    return func(std::move(all), std::move(kw));
  });
}

Value functools_reduce(const TfCall& c) {
  const std::vector<Value>& initial = c["initial"].items();
  if (initial.size() > 1) {
    throw TypeError("reduce expected at most 3 arguments, got " + std::to_string(2 + initial.size()));
  }
  const Value& function = c["function"];
  std::vector<Value> items = iterate(c["iterable"]);
  size_t i = 0;
  Value acc;
  if (!initial.empty()) {
    acc = initial[0];
  } else {
    if (items.empty()) throw TypeError("reduce() of empty iterable with no initial value");
    acc = items[i++];
  }
  for (; i < items.size(); ++i) acc = function({acc, items[i]}, {});
  return acc;
}

}  // namespace ag::pymod::impl
