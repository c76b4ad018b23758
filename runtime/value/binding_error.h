// Python's TypeError for a call whose arguments do not bind to a signature,
// computed from the signature's shape and the call's shape alone (no
// values): the runtime's binding (user_function.cpp) raises it, and the
// transpiler reports it at the call's line when both shapes are known at
// transpile time, so the two can never word it differently.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace ag {

/// Where a parameter sits in a Python signature `def f(a, /, b, *args, c, **kwargs)`.
enum class ParamKind : uint8_t { PositionalOrKeyword, PositionalOnly, VarPositional, KeywordOnly, VarKeyword };

/// A parameter as binding sees it.
struct ParamShape {
  std::string_view name;
  ParamKind kind = ParamKind::PositionalOrKeyword;
  bool has_default = false;
};

/// CPython 3.11's TypeError text for calling `fn_name` (its qualname, as
/// "f", "Count.__init__") with `positional` positional arguments and the
/// keyword arguments `keywords` in order, or "" when the call binds.
/// CPython checks keywords first, then the positional count, then missing
/// parameters (positional ones before keyword-only ones).
std::string binding_error(std::string_view fn_name, std::span<const ParamShape> params, size_t positional,
                          std::span<const std::string_view> keywords);

}  // namespace ag
