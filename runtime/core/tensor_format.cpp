// NumPy 1.x array printing (arrayprint.py: FloatingFormat in 'maxprec' mode,
// IntegerFormat, BoolFormat, _formatArray's wrapping and summarization) and
// TF's SummarizeValue, re-derived for agc's dtypes.
#include "runtime/core/tensor_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace ag {
namespace {

constexpr int kLineWidth = 75;     // np.get_printoptions()['linewidth']
constexpr int kPrecision = 8;      // ['precision'], floatmode 'maxprec'
constexpr int64_t kThreshold = 1000;  // ['threshold']: summarize past this many elements
constexpr int kEdgeItems = 3;      // ['edgeitems']

// ---------------------------------------------------------------------------
// Float digits (Dragon4 as NumPy uses it: shortest round-trip digits, and
// past a digit cutoff the exact binary value correctly rounded).

/// Shortest round-trip significant digits of |v| (finite, nonzero) and the
/// decimal exponent of the first one: v = 0.?  d0.d1d2... x 10^exp.
template <class T>
void shortest_digits(T v, std::string& digits, int& exp10) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
  std::string s(buf, res.ptr);
  size_t e = s.find('e');
  digits.clear();
  for (size_t i = 0; i < e; ++i) {
    if (s[i] != '.') digits += s[i];
  }
  exp10 = std::atoi(s.c_str() + e + 1);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
}

void trim_zeros_keep_point(std::string& s) {
  size_t dot = s.find('.');
  if (dot == std::string::npos) {
    s += '.';
    return;
  }
  while (s.size() > dot + 1 && s.back() == '0') s.pop_back();
}

/// dragon4_positional(v, precision, unique=True, fractional=True, trim='.'):
/// "-12.345", "2.", "0.17907499" (at most `precision` digits after the point;
/// precision < 0: no limit).
template <class T>
std::string positional(T v, int precision) {
  bool neg = std::signbit(v);
  if (v == 0) return neg ? "-0." : "0.";
  std::string d;
  int e;
  shortest_digits(v, d, e);
  int frac = std::max(0, static_cast<int>(d.size()) - 1 - e);
  std::string out;
  if (precision >= 0 && frac > precision) {
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.*f", precision, static_cast<double>(std::fabs(v)));
    out = buf;
  } else if (e >= 0) {
    std::string ip = d.substr(0, std::min<size_t>(d.size(), static_cast<size_t>(e) + 1));
    while (static_cast<int>(ip.size()) < e + 1) ip += '0';
    out = ip + "." + (d.size() > static_cast<size_t>(e) + 1 ? d.substr(static_cast<size_t>(e) + 1) : "");
  } else {
    out = "0." + std::string(static_cast<size_t>(-e - 1), '0') + d;
  }
  trim_zeros_keep_point(out);
  return neg ? "-" + out : out;
}

/// dragon4_scientific(v, precision, unique=True, trim='.'): mantissa with at
/// most `precision` digits after the point (trailing zeros trimmed, point
/// kept) and the exponent separately ("+05", "-123").
template <class T>
void scientific(T v, int precision, std::string& mantissa, int& exp10) {
  bool neg = std::signbit(v);
  if (v == 0) {
    mantissa = neg ? "-0." : "0.";
    exp10 = 0;
    return;
  }
  std::string d;
  shortest_digits(v, d, exp10);
  if (precision >= 0 && static_cast<int>(d.size()) - 1 > precision) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", precision, static_cast<double>(std::fabs(v)));
    std::string s = buf;
    size_t epos = s.find('e');
    mantissa = s.substr(0, epos);
    exp10 = std::atoi(s.c_str() + epos + 1);
  } else {
    mantissa = d.substr(0, 1) + "." + d.substr(1);
  }
  trim_zeros_keep_point(mantissa);
  if (neg) mantissa = "-" + mantissa;
}

std::string exponent_string(int exp10, int min_digits) {
  std::string digits = std::to_string(std::abs(exp10));
  while (static_cast<int>(digits.size()) < min_digits) digits = "0" + digits;
  return std::string(exp10 < 0 ? "-" : "+") + digits;
}

/// NumPy's scalar repr of a float32/float64 (numpy 1.x): positional with one
/// trailing zero kept ("1.0", "2.2") when 1e-4 <= |v| < 1e16 or v == 0, else
/// scientific without trailing zeros ("1e+16", "1.5e-05").
template <class T>
std::string numpy_scalar_float(T v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  double a = std::fabs(static_cast<double>(v));  // compared as double: float32(1e-4) < 1e-4
  if (a == 0 || (a >= 1e-4 && a < 1e16)) {
    std::string s = positional(v, -1);
    if (s.back() == '.') s += '0';
    return s;
  }
  std::string m;
  int e;
  scientific(v, -1, m, e);
  if (m.back() == '.') m.pop_back();
  return m + "e" + exponent_string(e, 2);
}

// ---------------------------------------------------------------------------
// Element formatters: built from the elements that will be shown, then asked
// for each one by flat index.

using ElemFn = std::function<std::string(int64_t)>;

std::string pad_left_to(std::string s, size_t width) {
  if (s.size() < width) s.insert(0, width - s.size(), ' ');
  return s;
}

/// FloatingFormat(data, precision=8, floatmode='maxprec', suppress_small=False, sign='-').
template <class T>
ElemFn floating_format(const T* data, const std::vector<int64_t>& shown) {
  std::vector<T> finite;
  bool has_nonfinite = false, has_neginf = false;
  for (int64_t i : shown) {
    T x = data[i];
    if (std::isfinite(x)) {
      finite.push_back(x);
    } else {
      has_nonfinite = true;
      if (std::isinf(x) && x < 0) has_neginf = true;
    }
  }
  bool exp_format = false;
  T max_val = 0, min_val = 0;
  bool any_nonzero = false;
  for (T x : finite) {
    if (x == 0) continue;
    T a = std::fabs(x);
    if (!any_nonzero) max_val = min_val = a;
    max_val = std::max(max_val, a);
    min_val = std::min(min_val, a);
    any_nonzero = true;
  }
  if (any_nonzero) {
    double mx = static_cast<double>(max_val), mn = static_cast<double>(min_val);
    exp_format = mx >= 1e8 || mn < 0.0001 || mx / mn > 1000.0;
  }
  size_t pad_left = 0, pad_right = 0;
  int precision = kPrecision, exp_size = -1;
  if (finite.empty()) {
    // Only nan/inf: no padding beyond their own width.
  } else if (exp_format) {
    int max_frac = 0;
    for (T x : finite) {
      std::string m;
      int e;
      scientific(x, kPrecision, m, e);
      size_t dot = m.find('.');
      pad_left = std::max(pad_left, dot);
      max_frac = std::max(max_frac, static_cast<int>(m.size() - dot - 1));
      exp_size = std::max(exp_size, static_cast<int>(exponent_string(e, 2).size()) - 1);
    }
    precision = max_frac;
    pad_right = static_cast<size_t>(exp_size + 2 + precision);
  } else {
    for (T x : finite) {
      std::string s = positional(x, kPrecision);
      size_t dot = s.find('.');
      pad_left = std::max(pad_left, dot);
      pad_right = std::max(pad_right, s.size() - dot - 1);
    }
  }
  if (has_nonfinite) {
    size_t offset = pad_right + 1;
    size_t inflen = 3 + (has_neginf ? 1 : 0);
    if (3 > offset) pad_left = std::max(pad_left, 3 - offset);
    if (inflen > offset) pad_left = std::max(pad_left, inflen - offset);
  }
  return [=](int64_t i) -> std::string {
    T x = data[i];
    if (!std::isfinite(x)) {
      std::string r = std::isnan(x) ? "nan" : (x < 0 ? "-inf" : "inf");
      return pad_left_to(r, pad_left + pad_right + 1);
    }
    if (exp_format) {
      // min_digits = precision: digits past the shortest ones are the exact
      // value's, rounded at the last (Dragon4), i.e. printf's %.*e.
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.*e", precision, static_cast<double>(x));
      std::string m = buf;
      int e = std::atoi(m.c_str() + m.find('e') + 1);
      m.erase(m.find('e'));
      if (precision == 0) m += '.';
      size_t dot = m.find('.');
      return pad_left_to(m, pad_left + m.size() - dot) + "e" + exponent_string(e, exp_size);
    }
    std::string s = positional(x, kPrecision);
    size_t dot = s.find('.');
    s = pad_left_to(s, pad_left + s.size() - dot);
    size_t frac = s.size() - (pad_left + 1);
    s.append(pad_right - frac, ' ');
    return s;
  };
}

template <class T>
ElemFn integer_format(const T* data, const std::vector<int64_t>& shown) {
  size_t width = 0;
  for (int64_t i : shown) width = std::max(width, std::to_string(static_cast<int64_t>(data[i])).size());
  return [=](int64_t i) { return pad_left_to(std::to_string(static_cast<int64_t>(data[i])), width); };
}

/// ml_dtypes' bfloat16 prints each element as `str(float)` of C++ streams (%g).
std::string bfloat16_string(bfloat16 v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(static_cast<float>(v)));
  return buf;
}

ElemFn element_format(const Tensor& t, const std::vector<int64_t>& shown) {
  switch (t.dtype()) {
    case DType::Float32: return floating_format(t.data<float>(), shown);
    case DType::Float64: return floating_format(t.data<double>(), shown);
    case DType::Int32: return integer_format(t.data<int32_t>(), shown);
    case DType::Int64: return integer_format(t.data<int64_t>(), shown);
    case DType::Int8: return integer_format(t.data<int8_t>(), shown);
    case DType::UInt8: return integer_format(t.data<uint8_t>(), shown);
    case DType::Bool: {
      const bool* d = t.data<bool>();
      return [d](int64_t i) -> std::string { return d[i] ? " True" : "False"; };
    }
    case DType::String: {
      const std::string* d = t.data<std::string>();
      return [d](int64_t i) { return python_bytes_repr(d[i]); };
    }
    case DType::BFloat16: {
      const bfloat16* d = t.data<bfloat16>();
      return [d](int64_t i) { return bfloat16_string(d[i]); };
    }
    case DType::Variant: break;
  }
  return [](int64_t) { return std::string("?"); };
}

// ---------------------------------------------------------------------------
// _formatArray: nested brackets, wrapping at the line width, `...` rows.

struct ArrayPrinter {
  const Shape& shape;
  std::vector<int64_t> strides;
  bool summarize;
  std::string sep;
  ElemFn fmt;

  ArrayPrinter(const Shape& s, bool summ, std::string separator) : shape(s), summarize(summ), sep(std::move(separator)) {
    strides.assign(static_cast<size_t>(s.rank()), 1);
    for (int i = s.rank() - 2; i >= 0; --i) strides[static_cast<size_t>(i)] = strides[static_cast<size_t>(i) + 1] * s.dim(i + 1);
  }

  bool shows_summary(int axis) const { return summarize && 2 * kEdgeItems < shape.dim(axis); }

  /// The indices along `axis` that are printed (all, or the edges).
  std::vector<int64_t> positions(int axis) const {
    int64_t n = shape.dim(axis);
    std::vector<int64_t> out;
    if (shows_summary(axis)) {
      for (int64_t i = 0; i < kEdgeItems; ++i) out.push_back(i);
      for (int64_t i = n - kEdgeItems; i < n; ++i) out.push_back(i);
    } else {
      for (int64_t i = 0; i < n; ++i) out.push_back(i);
    }
    return out;
  }

  void collect(int axis, int64_t offset, std::vector<int64_t>& out) const {
    if (axis == shape.rank()) {
      out.push_back(offset);
      return;
    }
    for (int64_t i : positions(axis)) collect(axis + 1, offset + i * strides[static_cast<size_t>(axis)], out);
  }

  static std::string rstrip(std::string s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  }

  static void extend_line(std::string& s, std::string& line, const std::string& word, int width,
                          const std::string& indent) {
    bool wrap = static_cast<int>(line.size() + word.size()) > width && line.size() > indent.size();
    if (wrap) {
      s += rstrip(line) + "\n";
      line = indent;
    }
    line += word;
  }

  std::string recurse(int axis, int64_t offset, const std::string& indent, int width) const {
    if (axis == shape.rank()) return fmt(offset);
    std::string next_indent = indent + " ";
    int next_width = width - 1;
    int64_t stride = strides[static_cast<size_t>(axis)];
    std::vector<int64_t> pos = positions(axis);
    bool summary = shows_summary(axis);
    std::string s;
    if (axis == shape.rank() - 1) {
      int elem_width = width - std::max<int>(static_cast<int>(rstrip(sep).size()), 1);
      std::string line = indent;
      for (size_t k = 0; k < pos.size(); ++k) {
        if (summary && k == static_cast<size_t>(kEdgeItems)) {
          extend_line(s, line, "...", elem_width, indent);
          line += sep;
        }
        extend_line(s, line, recurse(axis + 1, offset + pos[k] * stride, next_indent, next_width), elem_width, indent);
        if (k + 1 < pos.size()) line += sep;
      }
      s += line;
    } else {
      std::string line_sep = rstrip(sep) + std::string(static_cast<size_t>(shape.rank() - axis - 1), '\n');
      for (size_t k = 0; k < pos.size(); ++k) {
        if (summary && k == static_cast<size_t>(kEdgeItems)) s += indent + "..." + line_sep;
        s += indent + recurse(axis + 1, offset + pos[k] * stride, next_indent, next_width);
        if (k + 1 < pos.size()) s += line_sep;
      }
    }
    return "[" + s.substr(indent.size()) + "]";
  }
};

/// array2string(a, linewidth, separator, prefix, suffix) for rank >= 1.
std::string array2string(const Tensor& t, const std::string& sep, const std::string& prefix, size_t suffix_len) {
  if (t.num_elements() == 0) return "[]";
  ArrayPrinter p(t.shape(), t.num_elements() > kThreshold, sep);
  std::vector<int64_t> shown;
  p.collect(0, 0, shown);
  p.fmt = element_format(t, shown);
  return p.recurse(0, 0, " " + std::string(prefix.size(), ' '), kLineWidth - static_cast<int>(suffix_len));
}

/// NumPy's str() of a scalar of this dtype (index i).
std::string numpy_scalar(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DType::Float32: return numpy_scalar_float(t.data<float>()[i]);
    case DType::Float64: return numpy_scalar_float(t.data<double>()[i]);
    case DType::Int32: return std::to_string(t.data<int32_t>()[i]);
    case DType::Int64: return std::to_string(t.data<int64_t>()[i]);
    case DType::Int8: return std::to_string(t.data<int8_t>()[i]);
    case DType::UInt8: return std::to_string(t.data<uint8_t>()[i]);
    case DType::Bool: return t.data<bool>()[i] ? "True" : "False";
    case DType::String: return python_bytes_repr(t.data<std::string>()[i]);
    case DType::BFloat16: return bfloat16_string(t.data<bfloat16>()[i]);
    case DType::Variant: break;
  }
  return "?";
}

/// The dtype name in NumPy's repr; strings are object arrays of bytes.
const char* numpy_dtype_name(DType d) { return d == DType::String ? "object" : dtype_name(d); }

/// float64, int64 and bool arrays print without `dtype=` (NumPy's defaults).
bool dtype_is_implied(DType d) { return d == DType::Float64 || d == DType::Int64 || d == DType::Bool; }

std::string with_leading_newline(std::string s) {
  return s.find('\n') != std::string::npos ? "\n" + s : s;
}

// ---------------------------------------------------------------------------
// TF's SummarizeValue(max_entries, print_v2=true).

/// absl::Utf8SafeCEscape: C escapes and octal for control bytes; bytes >= 0x80 pass.
std::string utf8_safe_cescape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '"': out += "\\\""; break;
      case '\'': out += "\\'"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03o", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

std::string tf_element(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DType::Float32: return tf_float_string(t.data<float>()[i]);
    case DType::Float64: return tf_double_string(t.data<double>()[i]);
    case DType::BFloat16: return tf_float_string(static_cast<float>(t.data<bfloat16>()[i]));
    case DType::Int32: return std::to_string(t.data<int32_t>()[i]);
    case DType::Int64: return std::to_string(t.data<int64_t>()[i]);
    case DType::Int8: return std::to_string(t.data<int8_t>()[i]);
    case DType::UInt8: return std::to_string(t.data<uint8_t>()[i]);
    case DType::Bool: return t.data<bool>()[i] ? "1" : "0";
    case DType::String: return "\"" + utf8_safe_cescape(t.data<std::string>()[i]) + "\"";
    case DType::Variant: return "<TensorList>";  // TF's Variant DebugString
  }
  return "?";
}

void dim_spacing(int axis, int rank, std::string& out) {
  if (axis == rank - 1) {
    out += ' ';
    return;
  }
  out.append(static_cast<size_t>(rank - axis - 1), '\n');
  out.append(static_cast<size_t>(axis + 1), ' ');
}

/// PrintOneDimV2: `ends` items at each end of every axis, `...` between.
void print_dim_v2(const Tensor& t, int axis, int64_t ends, int64_t offset, std::string& out) {
  const Shape& s = t.shape();
  if (axis == s.rank()) {
    out += tf_element(t, offset);
    return;
  }
  out += '[';
  int64_t n = s.dim(axis);
  int64_t start_of_end = std::max(ends, n - ends);
  int64_t per = 1;
  for (int i = axis + 1; i < s.rank(); ++i) per *= s.dim(i);
  for (int64_t i = 0; i < ends && i < n; ++i) {
    if (i > 0) dim_spacing(axis, s.rank(), out);
    print_dim_v2(t, axis + 1, ends, offset + per * i, out);
  }
  if (n > 2 * ends) {
    dim_spacing(axis, s.rank(), out);
    out += "...";
  }
  for (int64_t i = start_of_end; i < n; ++i) {
    dim_spacing(axis, s.rank(), out);
    print_dim_v2(t, axis + 1, ends, offset + per * i, out);
  }
  out += ']';
}

template <class T>
std::string tf_fp_string(T v, int short_digits, int long_digits) {
  if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", short_digits, static_cast<double>(v));
  T back;
  if constexpr (std::is_same_v<T, float>) {
    back = std::strtof(buf, nullptr);
  } else {
    back = std::strtod(buf, nullptr);
  }
  if (back != v) std::snprintf(buf, sizeof buf, "%.*g", long_digits, static_cast<double>(v));
  return buf;
}

}  // namespace

std::string tf_float_string(float v) { return tf_fp_string(v, 6, 9); }
std::string tf_double_string(double v) { return tf_fp_string(v, 15, 17); }

std::string tf_c_escape(std::string_view s, bool utf8_safe) {
  std::string out;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\"': out += "\\\""; break;
      case '\'': out += "\\'"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c == 0x7f || (c >= 0x80 && !utf8_safe)) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03o", c);
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  return out;
}

namespace {

/// One element as SummarizeValue without print_v2 prints it (TF's StrCat).
std::string element(const Tensor& t, int64_t i) {
  return dispatch_dtype(t.dtype(), [&]<class T>() -> std::string {
    const T& v = t.data<T>()[i];
    if constexpr (std::is_same_v<T, std::string>) {
      return tf_c_escape(v, true);
    } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, bfloat16>) {
      return tf_float_string(static_cast<float>(v));
    } else if constexpr (std::is_same_v<T, double>) {
      return tf_double_string(v);
    } else if constexpr (std::is_integral_v<T>) {
      return std::to_string(static_cast<int64_t>(v));
    } else {
      return "?";
    }
  });
}

}  // namespace

std::string tf_summarize_value(const Tensor& t, int64_t max_entries) {
  if (t.dtype() == DType::Variant) return "<variant>";
  const int64_t n = t.num_elements();
  const int64_t limit = std::min(max_entries, n);
  std::string out;
  if (t.rank() <= 1) {
    for (int64_t i = 0; i < limit; ++i) out += (i > 0 ? " " : "") + element(t, i);
    if (n > limit) out += "...";
    return out;
  }
  int64_t next = 0;
  auto dim = [&](auto& self, int d) -> void {
    if (next >= limit) return;
    const int64_t count = t.shape().dim(d);
    if (d == t.rank() - 1) {
      for (int64_t i = 0; i < count; ++i) {
        if (next >= limit) {
          out += "...";
          return;
        }
        out += (i > 0 ? " " : "") + element(t, next++);
      }
      return;
    }
    for (int64_t i = 0; i < count; ++i) {
      bool open = next < limit;
      if (open) out += "[";
      self(self, d + 1);
      if (next < limit || open) out += "]";
    }
  };
  dim(dim, 0);
  if (n > limit) out += "...";
  return out;
}

std::string python_bytes_repr(std::string_view s) {
  char quote = '\'';
  if (s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos) quote = '"';
  std::string out = "b";
  out += quote;
  for (unsigned char c : s) {
    if (c == static_cast<unsigned char>(quote) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += quote;
  return out;
}

// Variant tensors have no NumPy value: TF's numpy_text() says "<unprintable>".
constexpr const char* kUnprintable = "<unprintable>";

std::string numpy_str(const Tensor& t) {
  if (t.dtype() == DType::Variant) return kUnprintable;
  if (t.rank() == 0) return numpy_scalar(t, 0);
  return array2string(t, " ", "", 0);
}

std::string numpy_repr(const Tensor& t) {
  if (t.rank() == 0) return t.dtype() == DType::Variant ? kUnprintable : numpy_scalar(t, 0);
  return numpy_array_repr(t);
}

std::string numpy_array_repr(const Tensor& t) {
  if (t.dtype() == DType::Variant) return kUnprintable;
  bool skip_dtype = dtype_is_implied(t.dtype()) && t.num_elements() > 0;
  std::string prefix = "array(";
  std::string suffix = skip_dtype ? ")" : ",";
  std::string lst;
  if (t.rank() == 0) {
    // A 0-d array formats its element as an array's (`2.`), bools without
    // the column padding (BoolFormat's truestr for shape ()).
    lst = t.dtype() == DType::Bool ? numpy_scalar(t, 0) : element_format(t, {0})(0);
  } else if (t.num_elements() > 0 || (t.rank() == 1 && t.shape().dim(0) == 0)) {
    lst = array2string(t, ", ", prefix, suffix.size());
  } else {
    lst = "[], shape=" + t.shape().str();
  }
  std::string arr = prefix + lst + suffix;
  if (skip_dtype) return arr;
  std::string dtype = std::string("dtype=") + numpy_dtype_name(t.dtype()) + ")";
  size_t nl = arr.rfind('\n');
  size_t last_line = nl == std::string::npos ? arr.size() : arr.size() - nl - 1;
  std::string spacer = last_line + dtype.size() + 1 > static_cast<size_t>(kLineWidth) ? "\n" + std::string(prefix.size(), ' ') : " ";
  return arr + spacer + dtype;
}

std::string tensor_str(const Tensor& t) {
  return "tf.Tensor(" + with_leading_newline(numpy_str(t)) + ", shape=" + t.shape().str() +
         ", dtype=" + dtype_name(t.dtype()) + ")";
}

std::string tensor_repr(const Tensor& t) {
  return "<tf.Tensor: shape=" + t.shape().str() + ", dtype=" + dtype_name(t.dtype()) +
         ", numpy=" + with_leading_newline(numpy_repr(t)) + ">";
}

std::string symbolic_tensor_str(std::string_view name, int index, DType dtype, const Shape& shape) {
  return "Tensor(\"" + std::string(name) + ":" + std::to_string(index) + "\", shape=" + shape.str() +
         ", dtype=" + dtype_name(dtype) + ")";
}

std::string tf_print_format(const Tensor& t, int summarize) {
  int64_t n = t.num_elements();
  int64_t limit = summarize < 0 ? n : std::min<int64_t>(summarize, n);
  std::string out;
  if (t.rank() == 0) {
    if (limit > 0) out += tf_element(t, 0);
    if (n > limit) out += "...";
    return out;
  }
  print_dim_v2(t, 0, limit, 0, out);
  return out;
}

}  // namespace ag
