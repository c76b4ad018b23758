#include "transpiler/frontend/literals.h"

#include <cerrno>
#include <clocale>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <fmt/format.h>

#include "transpiler/base/utf8.h"

namespace agc::frontend {

StringPrefix parse_string_prefix(std::string_view tok) {
  StringPrefix p;
  size_t i = 0;
  for (; i < tok.size() && tok[i] != '\'' && tok[i] != '"'; ++i) {
    switch (tok[i]) {
      case 'r': case 'R': p.raw = true; break;
      case 'b': case 'B': p.bytes = true; break;
      case 'f': case 'F': p.fstring = true; break;
      case 'u': case 'U': p.unicode = true; break;
      default: break;
    }
  }
  p.quote_len = tok.size() - i >= 3 ? 3 : 1;
  return p;
}

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Decoded decode_escapes(std::string_view s, bool bytes) {
  Decoded d;
  std::string& out = d.value;
  out.reserve(s.size());
  auto fail = [&](size_t at, std::string msg, size_t len = 2) {
    if (d.error.empty()) {
      d.error = std::move(msg);
      d.error_at = at;
      d.error_len = len;
    }
  };
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c != '\\') {
      if (bytes && static_cast<unsigned char>(c) >= 0x80) {
        fail(i, "bytes can only contain ASCII literal characters; use \\x escapes");
      }
      out += c;
      continue;
    }
    if (i + 1 >= s.size()) {
      out += c;
      break;
    }
    size_t at = i;
    char e = s[++i];
    switch (e) {
      case '\n': break;  // backslash-newline continues the literal
      case '\r': if (i + 1 < s.size() && s[i + 1] == '\n') ++i; break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        uint32_t v = 0;
        int n = 0;
        while (n < 3 && i < s.size() && s[i] >= '0' && s[i] <= '7') {
          v = v * 8 + static_cast<uint32_t>(s[i] - '0');
          ++i;
          ++n;
        }
        --i;
        if (bytes) {
          if (v > 0xFF) fail(at, "octal escape value out of range for bytes");
          out += static_cast<char>(v & 0xFF);
        } else {
          append_utf8(out, v);
        }
        break;
      }
      case 'x': {
        if (i + 2 >= s.size() || hex_value(s[i + 1]) < 0 || hex_value(s[i + 2]) < 0) {
          fail(at, "truncated \\xXX escape");
          break;
        }
        uint32_t v = static_cast<uint32_t>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
        i += 2;
        if (bytes) out += static_cast<char>(v);
        else append_utf8(out, v);
        break;
      }
      case 'u':
      case 'U': {
        if (bytes) {
          out += '\\';
          out += e;
          break;
        }
        size_t n = e == 'u' ? 4 : 8;
        uint32_t v = 0;
        bool ok = true;
        for (size_t k = 1; k <= n; ++k) {
          if (i + k >= s.size() || hex_value(s[i + k]) < 0) {
            ok = false;
            break;
          }
          v = v * 16 + static_cast<uint32_t>(hex_value(s[i + k]));
        }
        if (!ok) {
          fail(at, fmt::format("truncated \\{}{} escape", e, std::string(n, 'X')));
          break;
        }
        i += n;
        if (v > 0x10FFFF) {
          fail(at, "illegal Unicode character in \\U escape");
        } else if (v >= 0xD800 && v <= 0xDFFF) {
          fail(at, "lone surrogate escapes are not supported");
        } else {
          append_utf8(out, v);
        }
        break;
      }
      case 'N':
        if (!bytes) {
          size_t close = s.find('}', i);
          size_t len = close != std::string_view::npos && i + 1 < s.size() && s[i + 1] == '{' ? close - at + 1 : 2;
          fail(at, "\\N{...} escapes are not supported; write the character itself or a \\u escape", len);
          i = at + len - 1;
          break;
        }
        [[fallthrough]];
      default:
        // Python keeps unknown escapes as written (with a warning).
        out += '\\';
        out += e;
        break;
    }
  }
  return d;
}

namespace {

/// Converts digits in `base` to a decimal string, for integers of any size.
std::string to_decimal(std::string_view digits, int base) {
  std::vector<uint32_t> limbs{0};  // little-endian base 1e9
  for (char c : digits) {
    uint64_t carry = static_cast<uint64_t>(hex_value(c));
    for (auto& limb : limbs) {
      uint64_t v = static_cast<uint64_t>(limb) * static_cast<uint64_t>(base) + carry;
      limb = static_cast<uint32_t>(v % 1000000000u);
      carry = v / 1000000000u;
    }
    while (carry) {
      limbs.push_back(static_cast<uint32_t>(carry % 1000000000u));
      carry /= 1000000000u;
    }
  }
  std::string out = std::to_string(limbs.back());
  for (size_t i = limbs.size() - 1; i-- > 0;) out += fmt::format("{:09d}", limbs[i]);
  return out;
}

}  // namespace

NumberLiteral parse_number(std::string_view text) {
  NumberLiteral r;
  std::string t;
  t.reserve(text.size());
  for (char c : text) {
    if (c != '_') t += c;
  }
  if (t.empty()) {
    r.error = "invalid number literal";
    return r;
  }
  char last = t.back();
  if (last == 'l' || last == 'L') {
    r.error = "invalid decimal literal (Python 2's long suffix 'L' is not valid Python 3; drop it)";
    return r;
  }
  bool imaginary = last == 'j' || last == 'J';
  if (imaginary) t.pop_back();
  bool is_int = !imaginary && t.find_first_of(".eE") == std::string::npos;
  if (t.size() > 2 && t[0] == '0' && std::string_view("xXoObB").find(t[1]) != std::string_view::npos) {
    is_int = true;
  }
  if (is_int && !imaginary) {
    int base = 10;
    std::string_view digits = t;
    if (t.size() > 1 && t[0] == '0') {
      switch (t[1]) {
        case 'x': case 'X': base = 16; digits.remove_prefix(2); break;
        case 'o': case 'O': base = 8; digits.remove_prefix(2); break;
        case 'b': case 'B': base = 2; digits.remove_prefix(2); break;
        default:
          if (t.find_first_not_of('0') != std::string::npos) {
            r.error = "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers";
            return r;
          }
      }
    }
    if (digits.empty()) {
      r.error = "invalid number literal";
      return r;
    }
    for (char c : digits) {
      int v = hex_value(c);
      if (v < 0 || v >= base) {
        r.error = fmt::format("invalid digit '{}' in number literal", c);
        return r;
      }
    }
    r.value = ast::ConstantValue::of_int(to_decimal(digits, base));
    return r;
  }
  // strtod honours the C locale's decimal point; agc never changes the locale.
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size()) {
    r.error = "invalid number literal";
    return r;
  }
  r.value = imaginary ? ast::ConstantValue::of_complex(v) : ast::ConstantValue::of_float(v);
  return r;
}

}  // namespace agc::frontend
