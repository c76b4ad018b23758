// A Python signature written as text, as the tf.* table (tf_functions.def)
// gives TF's: "reduce_sum(input_tensor, axis=None, keepdims=False, name=None)",
// "print_v2(*inputs, sep=' ', name=None)", "einsum(equation, *inputs, **kwargs)".
// Parsed once into parameters with their default values; bind() is Python's
// argument binding over it, with Python's TypeError texts.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/function/concrete_function.h"

namespace ag::api {

struct Signature {
  /// The `def` name, as binding errors name the function ("print_v2()").
  std::string name;
  /// Every parameter in order; `*args` and `**kwargs` included (no default).
  std::vector<Param> params;
  /// The index of `*args` (the parameters after it are keyword-only).
  std::optional<size_t> varargs;
  /// The index of `**kwargs` (always the last parameter).
  std::optional<size_t> varkw;

  /// The index of parameter `name`, or nullopt.
  std::optional<size_t> find(std::string_view param) const;
};

/// Parses `name(p, q=default, *args, k=default, **kwargs)`. Defaults are
/// None, True, False, ints, floats, 'strings' (with \n \t \\ \' escapes),
/// tf.<dtype> or tf.dtypes.<dtype>, and sys.stdout / sys.stderr (the strings
/// generated code passes for them). std::invalid_argument for other text:
/// a mistake in the table, caught by tests/unit/api/tf_table_test.cpp.
Signature parse_signature(std::string_view text);

/// One value per parameter, as Python binds `args` and `kwargs`: defaults
/// filled in, `*args` a tuple of the extra positional arguments, `**kwargs`
/// a dict of the unknown keywords. TypeError in Python's words otherwise.
std::vector<Value> bind(const Signature& sig, std::vector<Value> args, Kwargs kwargs);

}  // namespace ag::api
