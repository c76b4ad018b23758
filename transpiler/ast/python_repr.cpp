#include "transpiler/ast/python_repr.h"

#include <charconv>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "transpiler/base/utf8.h"

namespace agc::ast {
namespace {

/// Decodes one UTF-8 code point at s[i] (input is validated UTF-8).
uint32_t next_code_point(std::string_view s, size_t& i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  if (c < 0x80) {
    ++i;
    return c;
  }
  size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
  uint32_t cp = len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
  for (size_t k = 1; k < len && i + k < s.size(); ++k) cp = (cp << 6) | (b(i + k) & 0x3F);
  i += len;
  return cp;
}

/// Python's str.isprintable() for non-ASCII code points: false for control,
/// format, separator (other than space), surrogate, private-use and
/// noncharacter code points. Unassigned code points count as printable here
/// (that would need the full Unicode database).
bool printable(uint32_t cp) {
  if (cp < 0xA1) return false;  // C1 controls and NO-BREAK SPACE
  if (cp == 0xAD) return false;
  if (cp >= 0x600 && cp <= 0x605) return false;
  if (cp == 0x61C || cp == 0x6DD || cp == 0x70F || cp == 0x8E2 || cp == 0x180E || cp == 0x1680) return false;
  if (cp >= 0x2000 && cp <= 0x200F) return false;
  if (cp >= 0x2028 && cp <= 0x202F) return false;
  if (cp >= 0x205F && cp <= 0x206F) return false;
  if (cp == 0x3000 || cp == 0xFEFF) return false;
  if (cp >= 0xD800 && cp <= 0xF8FF) return false;
  if (cp >= 0xFFF9 && cp <= 0xFFFB) return false;
  if ((cp & 0xFFFE) == 0xFFFE) return false;
  if (cp >= 0xFDD0 && cp <= 0xFDEF) return false;
  if (cp == 0x110BD || cp == 0x110CD || (cp >= 0x13430 && cp <= 0x1343F)) return false;
  if (cp >= 0x1BCA0 && cp <= 0x1BCA3) return false;
  if (cp >= 0x1D173 && cp <= 0x1D17A) return false;
  if (cp == 0xE0001 || (cp >= 0xE0020 && cp <= 0xE007F)) return false;
  if (cp >= 0xF0000) return false;
  return true;
}

char pick_quote(std::string_view s) {
  bool single = s.find('\'') != std::string_view::npos;
  bool dbl = s.find('"') != std::string_view::npos;
  return single && !dbl ? '"' : '\'';
}

/// Shortest round-trip digits and decimal exponent of a finite, nonzero |v|:
/// v = 0.d1d2... * 10^decpt.
void shortest_digits(double v, std::string& digits, int& decpt) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
  std::string_view s(buf, static_cast<size_t>(res.ptr - buf));
  auto e = s.find('e');
  digits.clear();
  for (char c : s.substr(0, e)) {
    if (c != '.') digits += c;
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int exp = 0;
  std::from_chars(s.data() + e + 1 + (s[e + 1] == '+' ? 1 : 0), s.data() + s.size(), exp);
  decpt = exp + 1;
}

/// Python's float_repr_style 'short' formatting ('r' format code).
std::string format_repr(double v, bool add_dot_zero) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  std::string sign = std::signbit(v) ? "-" : "";
  if (v == 0) return sign + (add_dot_zero ? "0.0" : "0");
  std::string d;
  int decpt = 0;
  shortest_digits(v, d, decpt);
  int n = static_cast<int>(d.size());
  if (decpt <= -4 || decpt > 16) {
    std::string mant = d.substr(0, 1);
    if (n > 1) mant += "." + d.substr(1);
    int e = decpt - 1;
    return sign + mant + fmt::format("e{}{:02d}", e < 0 ? '-' : '+', std::abs(e));
  }
  std::string out;
  if (decpt <= 0) {
    out = "0." + std::string(static_cast<size_t>(-decpt), '0') + d;
  } else if (decpt >= n) {
    out = d + std::string(static_cast<size_t>(decpt - n), '0');
    if (add_dot_zero) out += ".0";
  } else {
    out = d.substr(0, static_cast<size_t>(decpt)) + "." + d.substr(static_cast<size_t>(decpt));
  }
  return sign + out;
}

}  // namespace

std::string repr_str(std::string_view s) {
  char q = pick_quote(s);
  std::string out;
  out.reserve(s.size() + 2);
  out += q;
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = next_code_point(s, i);
    if (cp == static_cast<uint32_t>(q) || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp < 0x20 || cp == 0x7F) {
      out += fmt::format("\\x{:02x}", cp);
    } else if (cp < 0x7F) {
      out += static_cast<char>(cp);
    } else if (printable(cp)) {
      append_utf8(out, cp);
    } else if (cp <= 0xFF) {
      out += fmt::format("\\x{:02x}", cp);
    } else if (cp <= 0xFFFF) {
      out += fmt::format("\\u{:04x}", cp);
    } else {
      out += fmt::format("\\U{:08x}", cp);
    }
  }
  out += q;
  return out;
}

std::string repr_bytes(std::string_view s) {
  char q = pick_quote(s);
  std::string out = "b";
  out += q;
  for (unsigned char c : s) {
    if (c == static_cast<unsigned char>(q) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c >= 0x7F) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  out += q;
  return out;
}

std::string repr_float(double v) { return format_repr(v, true); }

std::string repr_imag(double v) { return format_repr(v, false) + "j"; }

std::string repr_constant(const ast::ConstantValue& v) {
  using K = ast::ConstantValue::Kind;
  // astunparse writes overflowing literals back as 1e309 (its INFSTR).
  auto inf_fix = [](std::string s) {
    auto p = s.find("inf");
    if (p != std::string::npos) s.replace(p, 3, "1e309");
    return s;
  };
  switch (v.kind) {
    case K::None: return "None";
    case K::Bool: return v.boolean ? "True" : "False";
    case K::Int: return v.text;
    case K::Float: return inf_fix(repr_float(v.number));
    case K::Complex: return inf_fix(repr_imag(v.number));
    case K::Str: return (v.u_prefix ? "u" : "") + repr_str(v.text);
    case K::Bytes: return repr_bytes(v.text);
    case K::Ellipsis: return "...";
  }
  return "None";
}

}  // namespace agc::ast
