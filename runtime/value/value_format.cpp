// format(value, spec): Python's format-spec mini-language for int, float and
// str, what f-strings such as f'{x:.2f}' or f'{n:>5,}' print. Eager scalar
// tensors format as their element (NumPy scalars do the same).
#include <cmath>
#include <cstdio>

#include "runtime/value/ndarray.h"
#include "runtime/value/value.h"

namespace ag {
namespace {

struct Spec {
  std::string fill = " ";
  char align = 0;  // < > = ^ or 0 (the type's default)
  char sign = '-';
  bool z = false;
  bool alt = false;
  int64_t width = 0;
  char grouping = 0;  // , or _
  int64_t precision = -1;
  char type = 0;
};

int64_t parse_number(std::string_view s, size_t& i) {
  int64_t n = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
    n = n * 10 + (s[i] - '0');
    if (n > (int64_t{1} << 31)) throw ValueError("Too many decimal digits in format string");
    ++i;
  }
  return n;
}

bool is_align(char c) { return c == '<' || c == '>' || c == '=' || c == '^'; }

Spec parse(std::string_view s, const char* type_name) {
  Spec sp;
  size_t i = 0;
  // A fill character is one UTF-8 code point followed by an alignment.
  size_t cp_len = 1;
  if (!s.empty()) {
    unsigned char c = static_cast<unsigned char>(s[0]);
    cp_len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
  }
  if (s.size() > cp_len && is_align(s[cp_len])) {
    sp.fill = std::string(s.substr(0, cp_len));
    sp.align = s[cp_len];
    i = cp_len + 1;
  } else if (!s.empty() && is_align(s[0])) {
    sp.align = s[0];
    i = 1;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) sp.sign = s[i++];
  if (i < s.size() && s[i] == 'z') {
    sp.z = true;
    ++i;
  }
  if (i < s.size() && s[i] == '#') {
    sp.alt = true;
    ++i;
  }
  if (i < s.size() && s[i] == '0') {
    if (sp.align == 0) {
      sp.fill = "0";
      sp.align = '=';
    }
    ++i;
  }
  sp.width = parse_number(s, i);
  if (i < s.size() && (s[i] == ',' || s[i] == '_')) sp.grouping = s[i++];
  if (i < s.size() && s[i] == '.') {
    ++i;
    size_t start = i;
    sp.precision = parse_number(s, i);
    if (i == start) throw ValueError("Format specifier missing precision");
  }
  if (i < s.size()) sp.type = s[i++];
  if (i < s.size()) {
    throw ValueError("Invalid format specifier '" + std::string(s) + "' for object of type '" + type_name + "'");
  }
  return sp;
}

size_t text_width(const std::string& s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string repeat_fill(const std::string& fill, int64_t n) {
  std::string out;
  for (int64_t k = 0; k < n; ++k) out += fill;
  return out;
}

// Pads `sign` + `body` to the width with the spec's fill and alignment.
std::string pad(const Spec& sp, const std::string& sign, const std::string& body, char default_align) {
  char align = sp.align ? sp.align : default_align;
  int64_t len = static_cast<int64_t>(text_width(sign) + text_width(body));
  int64_t missing = sp.width > len ? sp.width - len : 0;
  switch (align) {
    case '<': return sign + body + repeat_fill(sp.fill, missing);
    case '^': return repeat_fill(sp.fill, missing / 2) + sign + body + repeat_fill(sp.fill, missing - missing / 2);
    case '=': return sign + repeat_fill(sp.fill, missing) + body;
    default: return repeat_fill(sp.fill, missing) + sign + body;
  }
}

// Inserts the grouping separator every `every` digits of the leading digit run.
std::string group(const std::string& digits, char sep, int every) {
  if (!sep) return digits;
  size_t end = 0;
  while (end < digits.size() && std::isxdigit(static_cast<unsigned char>(digits[end]))) ++end;
  if (digits.find_first_of(".eE") != std::string::npos) end = std::min(end, digits.find_first_of(".eE"));
  std::string head = digits.substr(0, end), out;
  int count = 0;
  for (size_t k = head.size(); k-- > 0;) {
    out.insert(out.begin(), head[k]);
    if (++count % every == 0 && k > 0) out.insert(out.begin(), sep);
  }
  return out + digits.substr(end);
}

std::string sign_of(const Spec& sp, bool negative) {
  if (negative) return "-";
  if (sp.sign == '+') return "+";
  if (sp.sign == ' ') return " ";
  return "";
}

std::string printf_double(const char* fmt, int64_t precision, double x) {
  char buf[512];
  int n = std::snprintf(buf, sizeof buf, fmt, static_cast<int>(precision), x);
  if (n < 0) return "";
  if (static_cast<size_t>(n) >= sizeof buf) {
    std::string big(static_cast<size_t>(n) + 1, '\0');
    std::snprintf(big.data(), big.size(), fmt, static_cast<int>(precision), x);
    big.resize(static_cast<size_t>(n));
    return big;
  }
  return std::string(buf, static_cast<size_t>(n));
}

// Python's 'g' and no-type-with-precision: `p` significant digits; fixed when
// -4 <= exp < p (or p - 1 for the no-type form), else scientific.
std::string general(double x, int64_t p, bool alt, bool no_type, bool upper) {
  if (p == 0) p = 1;
  std::string sci = printf_double("%.*e", p - 1, x);
  int exp = std::stoi(sci.substr(sci.find('e') + 1));
  int64_t limit = no_type ? p - 1 : p;
  std::string out;
  if (exp >= -4 && exp < limit) {
    out = printf_double("%.*f", p - 1 - exp, x);
    if (!alt) {
      if (out.find('.') != std::string::npos) {
        while (out.back() == '0') out.pop_back();
        if (out.back() == '.') {
          if (no_type) {
            out += '0';
          } else {
            out.pop_back();
          }
        }
      } else if (no_type) {
        out += ".0";
      }
    }
  } else {
    std::string mant = sci.substr(0, sci.find('e'));
    std::string e = sci.substr(sci.find('e'));
    if (!alt && mant.find('.') != std::string::npos) {
      while (mant.back() == '0') mant.pop_back();
      if (mant.back() == '.') mant.pop_back();
    }
    out = mant + e;
  }
  if (upper) {
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

std::string format_float(double x, const Spec& sp, const char* type_name) {
  char t = sp.type;
  bool negative = std::signbit(x) && !(sp.z && x == 0.0) && !std::isnan(x);
  double a = std::fabs(x);
  if (sp.z && a == 0.0) a = 0.0;
  bool upper = t == 'E' || t == 'F' || t == 'G';
  std::string body;
  if (std::isnan(a) || std::isinf(a)) {
    body = std::isnan(a) ? "nan" : "inf";
    if (upper) body = std::isnan(a) ? "NAN" : "INF";
    if (t == '%') body += "%";
  } else {
    int64_t p = sp.precision < 0 ? 6 : sp.precision;
    switch (t) {
      case 'e':
      case 'E': body = printf_double(t == 'e' ? "%.*e" : "%.*E", p, a); break;
      case 'f':
      case 'F': body = printf_double("%.*f", p, a); break;
      case '%': body = printf_double("%.*f", p, a * 100.0) + "%"; break;
      case 'g':
      case 'G':
      case 'n': body = general(a, p, sp.alt, false, upper); break;
      case 0:
        body = sp.precision < 0 ? float_repr(a) : general(a, sp.precision, sp.alt, true, false);
        break;
      default:
        throw ValueError(std::string("Unknown format code '") + t + "' for object of type '" + type_name + "'");
    }
    if (sp.alt && body.find_first_of(".eEn%") == std::string::npos) body += ".";
  }
  body = group(body, sp.grouping, 3);
  return pad(sp, sign_of(sp, negative), body, '>');
}

std::string format_int(int64_t v, const Spec& sp) {
  char t = sp.type;
  if (t == 'e' || t == 'E' || t == 'f' || t == 'F' || t == 'g' || t == 'G' || t == '%') {
    return format_float(static_cast<double>(v), sp, "int");
  }
  if (sp.precision >= 0) throw ValueError("Precision not allowed in integer format specifier");
  uint64_t mag = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  std::string body, prefix;
  int every = 3;
  switch (t) {
    case 0:
    case 'd':
    case 'n': body = std::to_string(mag); break;
    case 'b':
    case 'o':
    case 'x':
    case 'X': {
      int base = t == 'b' ? 2 : (t == 'o' ? 8 : 16);
      const char* digits = t == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
      do {
        body.insert(body.begin(), digits[mag % static_cast<uint64_t>(base)]);
        mag /= static_cast<uint64_t>(base);
      } while (mag > 0);
      if (sp.alt) prefix = t == 'b' ? "0b" : (t == 'o' ? "0o" : (t == 'x' ? "0x" : "0X"));
      every = 4;
      break;
    }
    case 'c': {
      if (v < 0 || v > 0x10FFFF) throw OverflowError("%c arg not in range(0x110000)");
      uint32_t c = static_cast<uint32_t>(v);
      if (c < 0x80) {
        body = std::string(1, static_cast<char>(c));
      } else if (c < 0x800) {
        body = {static_cast<char>(0xC0 | (c >> 6)), static_cast<char>(0x80 | (c & 0x3F))};
      } else if (c < 0x10000) {
        body = {static_cast<char>(0xE0 | (c >> 12)), static_cast<char>(0x80 | ((c >> 6) & 0x3F)),
                static_cast<char>(0x80 | (c & 0x3F))};
      } else {
        body = {static_cast<char>(0xF0 | (c >> 18)), static_cast<char>(0x80 | ((c >> 12) & 0x3F)),
                static_cast<char>(0x80 | ((c >> 6) & 0x3F)), static_cast<char>(0x80 | (c & 0x3F))};
      }
      return pad(sp, "", body, '<');
    }
    default: throw ValueError(std::string("Unknown format code '") + t + "' for object of type 'int'");
  }
  if (sp.grouping == ',' && every == 4) throw ValueError("Cannot specify ',' with '" + std::string(1, t) + "'.");
  body = group(body, sp.grouping, every);
  return pad(sp, sign_of(sp, v < 0) + prefix, body, '>');
}

std::string format_str(const std::string& s, const Spec& sp) {
  if (sp.type != 0 && sp.type != 's') {
    throw ValueError(std::string("Unknown format code '") + sp.type + "' for object of type 'str'");
  }
  if (sp.sign != '-') throw ValueError("Sign not allowed in string format specifier");
  if (sp.align == '=') throw ValueError("'=' alignment not allowed in string format specifier");
  std::string body = s;
  if (sp.precision >= 0) {
    size_t n = 0, k = 0;
    for (; k < body.size(); ++k) {
      if ((static_cast<unsigned char>(body[k]) & 0xC0) != 0x80) {
        if (static_cast<int64_t>(n) == sp.precision) break;
        ++n;
      }
    }
    body.resize(k);
  }
  return pad(sp, "", body, '<');
}

}  // namespace

Value scalar_value(const Tensor& t) {
  return dispatch_dtype(t.dtype(), [&]<class T>() -> Value {
    const T& x = t.data<T>()[0];
    if constexpr (std::is_same_v<T, std::string>) {
      return Value(x);
    } else if constexpr (std::is_same_v<T, bool>) {
      return Value(x);
    } else if constexpr (std::is_same_v<T, bfloat16>) {
      return Value(static_cast<double>(static_cast<float>(x)));
    } else if constexpr (std::is_floating_point_v<T>) {
      return Value(static_cast<double>(x));
    } else {
      return Value(static_cast<int64_t>(x));
    }
  });
}

std::string format(const Value& v, std::string_view spec) {
  if (spec.empty()) return str(v);
  switch (v.kind()) {
    case Kind::Bool:
    case Kind::Int: {
      // bool is an int: f'{True:>5}' is '    1' (only an empty spec prints 'True').
      return format_int(v.as_int(), parse(spec, "int"));
    }
    case Kind::Float: {
      Spec sp = parse(spec, "float");
      if (sp.type == 'd' || sp.type == 'b' || sp.type == 'o' || sp.type == 'x' || sp.type == 'X' || sp.type == 'c' ||
          sp.type == 's') {
        throw ValueError(std::string("Unknown format code '") + sp.type + "' for object of type 'float'");
      }
      return format_float(v.as_float(), sp, "float");
    }
    case Kind::Str: return format_str(v.as_str(), parse(spec, "str"));
    case Kind::Tensor: {
      const TensorHandle& t = v.as_tensor();
      if (!t.symbolic() && t.value().num_elements() == 1 && t.value().rank() == 0) {
        Value x = scalar_value(t.value());
        if (x.is_str()) throw TypeError("unsupported format string passed to numpy.bytes_.__format__");
        return format(x, spec);
      }
      throw TypeError(std::string("unsupported format string passed to ") +
                      (t.symbolic() ? "Tensor" : "numpy.ndarray") + ".__format__");
    }
    case Kind::NDArray: {
      // NumPy scalars and 0-d arrays format as their Python number.
      const Tensor& t = ndarray::tensor(v);
      if (t.rank() == 0 && t.dtype() != DType::String) return format(ndarray::item(t, 0), spec);
      break;
    }
    default: break;
  }
  throw TypeError("unsupported format string passed to " + v.type_name() + ".__format__");
}

}  // namespace ag
