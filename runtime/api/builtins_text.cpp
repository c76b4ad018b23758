// Python's builtins between numbers and text: chr, ord, hex, oct, bin,
// format, with Python's results and error texts.
#include <string>

#include "runtime/api/binding.h"
#include "runtime/api/python_api.h"
#include "runtime/core/utf8.h"

namespace ag::py {
namespace {

using api::check_positional;

/// An int argument as __index__ takes it (bools are ints; floats are not).
int64_t index_of(const Value& v) {
  if (!v.is_int() && !v.is_bool()) throw TypeError("'" + v.type_name() + "' object cannot be interpreted as an integer");
  return v.as_int();
}

/// `v` in base 2, 8 or 16 with Python's prefix, the sign before it.
Value with_prefix(const Value& v, int base, const char* prefix) {
  int64_t n = index_of(v);
  // Magnitude as unsigned, so the most negative int64 prints too.
  uint64_t m = n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
  std::string digits;
  do {
    digits.insert(digits.begin(), "0123456789abcdef"[m % static_cast<uint64_t>(base)]);
    m /= static_cast<uint64_t>(base);
  } while (m != 0);
  return Value((n < 0 ? "-" : "") + std::string(prefix) + digits);
}

/// The code points of UTF-8 text (agc's strings are UTF-8).
std::vector<uint32_t> code_points(const std::string& s) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    int len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    uint32_t cp = len == 1 ? c : c & (0x7F >> len);
    for (int k = 1; k < len && i + static_cast<size_t>(k) < s.size(); ++k) {
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + static_cast<size_t>(k)]) & 0x3F);
    }
    out.push_back(cp);
    i += static_cast<size_t>(len);
  }
  return out;
}

}  // namespace

Value chr(std::vector<Value> args, Kwargs kwargs) {
  check_positional("chr", args, kwargs, 1, 1);
  int64_t cp = index_of(args[0]);
  if (cp < 0 || cp > 0x10FFFF) throw ValueError("chr() arg not in range(0x110000)");
  std::string s;
  append_utf8(s, static_cast<uint32_t>(cp));
  return Value(s);
}

Value ord(std::vector<Value> args, Kwargs kwargs) {
  check_positional("ord", args, kwargs, 1, 1);
  if (!args[0].is_str()) throw TypeError("ord() expected string of length 1, but " + args[0].type_name() + " found");
  std::vector<uint32_t> cps = code_points(args[0].as_str());
  if (cps.size() != 1) {
    throw TypeError("ord() expected a character, but string of length " + std::to_string(cps.size()) + " found");
  }
  return Value(static_cast<int64_t>(cps[0]));
}

Value hex(std::vector<Value> args, Kwargs kwargs) {
  check_positional("hex", args, kwargs, 1, 1);
  return with_prefix(args[0], 16, "0x");
}

Value oct(std::vector<Value> args, Kwargs kwargs) {
  check_positional("oct", args, kwargs, 1, 1);
  return with_prefix(args[0], 8, "0o");
}

Value bin(std::vector<Value> args, Kwargs kwargs) {
  check_positional("bin", args, kwargs, 1, 1);
  return with_prefix(args[0], 2, "0b");
}

Value format(std::vector<Value> args, Kwargs kwargs) {
  check_positional("format", args, kwargs, 1, 2);
  if (args.size() == 2 && !args[1].is_str()) {
    throw TypeError("format() argument 2 must be str, not " + args[1].type_name());
  }
  return Value(ag::format(args[0], args.size() == 2 ? args[1].as_str() : std::string()));
}

}  // namespace ag::py
