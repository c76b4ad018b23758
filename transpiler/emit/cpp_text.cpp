#include "transpiler/emit/cpp_text.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <set>

#include <fmt/format.h>

namespace agc::emit {
namespace {

// C++20's keywords and alternative tokens, the names the generated code
// itself uses (ag, std, main, ag_*), and macros from the C library headers
// <ag/ag.h> pulls in that a Python name could hit.
const std::set<std::string_view>& reserved() {
  static const std::set<std::string_view> kReserved = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
      "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
      "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
      "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
      "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
      "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
      // the generated code's own names
      "ag", "std", "main", "module", "init", "run", "kFile", "kSource", "kName", "args", "kwargs", "errno", "assert",
      "NULL", "EOF", "stdin",
      "stdout", "stderr", "NAN", "INFINITY", "unix", "linux"};
  return kReserved;
}

}  // namespace

std::string cpp_ident(std::string_view name) {
  std::string out;
  bool ascii = true;
  for (unsigned char c : name) ascii = ascii && c < 0x80;
  if (!ascii) {
    // Python identifiers may be any Unicode letters; C++ compilers differ on
    // accepting them, so spell the bytes out.
    out = "u_";
    for (unsigned char c : name) {
      if (c < 0x80) {
        out += static_cast<char>(c);
      } else {
        out += fmt::format("x{:02x}", c);
      }
    }
    return out + "_";
  }
  out = std::string(name);
  // A clash is resolved by a trailing underscore, so `double` -> `double_`; a
  // user name that already is such a spelling (`double_`) gets one more.
  // Names starting with ag_ are the emitter's temporaries.
  std::string_view base = name.substr(0, name.find_last_not_of('_') + 1);
  if (reserved().count(base) || name.substr(0, 3) == "ag_") out += '_';
  return out;
}

std::string cpp_string(std::string_view s, bool escape_high) {
  std::string out = "\"";
  bool after_hex = false;
  for (unsigned char c : s) {
    bool hex_digit = std::isxdigit(c) != 0;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '?': out += "\\?"; break;  // no trigraphs
      default:
        if (c < 0x20 || c == 0x7f || (escape_high && c >= 0x80)) {
          out += fmt::format("\\x{:02x}", c);
          after_hex = true;
          continue;
        }
        // A hex escape swallows following hex digits: split the literal.
        if (after_hex && hex_digit) out += "\" \"";
        out += static_cast<char>(c);
    }
    after_hex = false;
  }
  return out + "\"";
}

std::string cpp_double(double d) {
  if (std::isnan(d)) return "std::numeric_limits<double>::quiet_NaN()";
  if (std::isinf(d)) return d > 0 ? "std::numeric_limits<double>::infinity()" : "-std::numeric_limits<double>::infinity()";
  std::string s = fmt::format("{}", d);  // shortest round-trip
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

std::string cpp_int(std::string_view decimal) {
  errno = 0;
  std::string digits(decimal);
  char* end = nullptr;
  long long v = std::strtoll(digits.c_str(), &end, 10);
  if (errno == ERANGE || end != digits.c_str() + digits.size()) return "";
  if (v > INT32_MAX || v < INT32_MIN) return fmt::format("int64_t{{{}}}", v);
  return std::to_string(v);
}

}  // namespace agc::emit
