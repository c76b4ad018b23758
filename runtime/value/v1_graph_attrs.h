// Attributes of a TF1 graph's tensors and variables that only the API layer
// can give (Tensor.eval and .op, Variable.initializer and .eval: they run a
// Session or make a tf.Operation). api/compat_v1 installs the hook when it
// makes its first TF1 graph, before any such tensor can exist.
#pragma once

#include <optional>
#include <string_view>

#include "runtime/value/value.h"

namespace ag {

using V1AttrHook = std::optional<Value> (*)(const Value& tensor_or_variable, std::string_view name);

void set_v1_attr_hook(V1AttrHook hook);
/// The attribute `name` of a TF1 graph's tensor or variable, or nullopt.
std::optional<Value> v1_attr(const Value& v, std::string_view name);

}  // namespace ag
