// Walking the nested structure of a Python value (lists, tuples, dicts) to its
// tensor leaves, as TF's nest module does for function inputs and outputs
// with expand_composites=True: a composite tensor's leaves are its components.
#pragma once

#include <utility>
#include <vector>

#include "runtime/value/composite_tensor.h"
#include "runtime/value/value.h"
#include "runtime/value/variable_value.h"

namespace ag {

/// `v` with each tensor leaf replaced by f(leaf), depth first; lists, tuples
/// and dicts are rebuilt (new objects), composites rebuilt from their
/// TypeSpec with each component mapped, other values kept as they are.
template <class F>
Value map_tensors(const Value& v, F&& f) {
  switch (v.kind()) {
    case Kind::Tensor: return f(v);
    case Kind::Variable: return f(Value(variable_value::read(v)));  // a returned variable is its value
    case Kind::List:
    case Kind::Tuple: {
      std::vector<Value> items;
      for (const Value& item : v.items()) items.push_back(map_tensors(item, f));
      return v.is_list() ? Value::list(std::move(items)) : Value::tuple(std::move(items));
    }
    case Kind::Dict: {
      std::vector<std::pair<Value, Value>> items;
      for (const auto& [k, item] : v.as_dict().entries) items.emplace_back(k, map_tensors(item, f));
      return Value::dict(std::move(items));
    }
    case Kind::Object:
      if (composite_state(v) != nullptr) return map_components(v, f);
      return v;
    default: return v;
  }
}

}  // namespace ag
