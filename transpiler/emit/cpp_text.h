// Spelling Python things as C++ text: identifiers (a Python name that is a C++
// keyword or one of the emitter's own names gets a trailing underscore; a
// non-ASCII one is hex-escaped), string literals (escaped, so any Python str
// round-trips byte for byte) and number literals (a float keeps every digit).
#pragma once

#include <string>
#include <string_view>

namespace agc::emit {

/// A C++ identifier for the Python name `name`, unique per name.
std::string cpp_ident(std::string_view name);
/// A C++ string literal of the UTF-8 bytes `s` ("a\"b\n"); NULs are escaped,
/// and with `escape_high` every byte above 0x7f (raw bytes need not be UTF-8).
std::string cpp_string(std::string_view s, bool escape_high = false);
/// A C++ double literal that reads back as `d` (inf and nan as std::numeric_limits).
std::string cpp_double(double d);
/// A C++ literal of a Python int given in decimal, or "" when it does not fit int64.
std::string cpp_int(std::string_view decimal);

}  // namespace agc::emit
