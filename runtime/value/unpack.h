// Python's iterable unpacking, `a, b = value`, as generated code does it.
#pragma once

#include <cstddef>
#include <vector>

#include "runtime/value/value.h"

namespace ag {

/// The `n` items of `v` (a list, tuple, str, dict, or eager tensor's rows);
/// ValueError in Python's words when there are more or fewer ("too many
/// values to unpack (expected 2)", "not enough values to unpack (expected 3,
/// got 1)"), TypeError for a value that is not iterable.
std::vector<Value> unpack(const Value& v, size_t n);

}  // namespace ag
