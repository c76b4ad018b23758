// Python literal decoding: string prefixes and escapes, and numbers of every
// Python form, into the values Constant nodes hold.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "transpiler/ast/ast.h"

namespace agc::frontend {

struct StringPrefix {
  bool raw = false;
  bool bytes = false;
  bool fstring = false;
  bool unicode = false;  // explicit u'' prefix
  size_t quote_len = 1;  // 1 or 3
};

/// Reads the prefix and quote of a string-start token such as `rb'''`.
StringPrefix parse_string_prefix(std::string_view start_token);

/// The result of decoding; `error` is empty on success, else `error_at` is the
/// byte offset of the bad escape within the decoded body.
struct Decoded {
  std::string value;
  std::string error;
  size_t error_at = 0;
  size_t error_len = 2;  // bytes of the bad escape
};

/// Applies Python's backslash escapes to the body of a non-raw literal.
Decoded decode_escapes(std::string_view body, bool bytes);

struct NumberLiteral {
  ast::ConstantValue value;
  std::string error;  // empty on success
};

/// Parses an integer, float or imaginary literal as Python does.
NumberLiteral parse_number(std::string_view text);

}  // namespace agc::frontend
