// `fmt % args`: CPython's printf-style string formatting (Objects/unicodeobject.c,
// PyUnicode_Format): %[(key)][flags][width][.precision][length]type. Each
// conversion is rewritten as a format spec and printed by format(), so the
// digits are those of f-strings; the arguments convert as CPython converts
// them (%d through int(), %f through float(), %s through str()), and an eager
// scalar tensor converts as its element, as TF's EagerTensor does.
#include <cmath>
#include <cstdio>
#include <string>

#include "runtime/value/ndarray.h"
#include "runtime/value/object_model.h"
#include "runtime/value/value.h"
#include "runtime/value/variable_value.h"

namespace ag {
namespace {

/// A Python scalar for a scalar tensor, variable or NumPy number (%f of
/// np.float32 goes through float(), as CPython's does); anything else unchanged.
Value as_number(const Value& v) {
  if (v.is_variable()) return as_number(Value(variable_value::read(v)));
  if (v.is_ndarray() && ndarray::tensor(v).rank() == 0 && ndarray::tensor(v).dtype() != DType::String) {
    return ndarray::item(ndarray::tensor(v), 0);
  }
  if (v.is_tensor() && !v.as_tensor().symbolic() && v.as_tensor().value().rank() == 0) {
    return scalar_value(v.as_tensor().value());
  }
  return v;
}

/// The argument of %d, %i, %u (int(v)) or of %o, %x, %X (an integer only).
int64_t integer_arg(const Value& arg, char type) {
  Value v = as_number(arg);
  if (v.is_bool() || v.is_int()) return v.as_int();
  bool index_only = type == 'o' || type == 'x' || type == 'X';
  if (v.is_float() && !index_only) {
    double d = v.as_float();
    if (std::isnan(d)) throw ValueError("cannot convert float NaN to integer");
    if (std::isinf(d)) throw OverflowError("cannot convert float infinity to integer");
    return static_cast<int64_t>(d);
  }
  throw TypeError(std::string("%") + type + " format: " + (index_only ? "an integer" : "a real number") +
                  " is required, not " + arg.type_name());
}

double float_arg(const Value& arg) {
  Value v = as_number(arg);
  if (v.is_bool() || v.is_int() || v.is_float()) return v.as_float();
  throw TypeError("must be real number, not " + arg.type_name());
}

struct Reader {
  const std::string& fmt;
  size_t i = 0;

  [[noreturn]] void incomplete() const { throw ValueError("incomplete format"); }
  char peek() const {
    if (i >= fmt.size()) incomplete();
    return fmt[i];
  }
};

}  // namespace

std::string percent_format(const std::string& fmt, const Value& args) {
  // A tuple gives the positional arguments; anything else is one, and may
  // also be the mapping %(key)s reads from: CPython takes any subscriptable
  // value but a tuple or str as one, and then forgives unused arguments.
  std::vector<Value> positional = args.is_tuple() ? args.items() : std::vector<Value>{args};
  const bool mapping = args.is_dict() || args.is_list() || args.is_tensor() || args.is_variable() ||
                       (args.is_object() && object_hasattr(args, "__getitem__"));
  size_t next = 0;
  auto next_arg = [&]() -> Value {
    if (next >= positional.size()) throw TypeError("not enough arguments for format string");
    return positional[next++];
  };

  std::string out;
  Reader r{fmt};
  while (r.i < fmt.size()) {
    size_t pct = fmt.find('%', r.i);
    if (pct == std::string::npos) {
      out.append(fmt, r.i, std::string::npos);
      break;
    }
    out.append(fmt, r.i, pct - r.i);
    r.i = pct + 1;

    std::optional<Value> keyed;
    if (r.peek() == '(') {
      if (!mapping) throw TypeError("format requires a mapping");
      int depth = 1;
      size_t start = ++r.i;
      while (depth > 0) {
        char c = r.peek();
        if (c == '(') ++depth;
        if (c == ')') --depth;
        ++r.i;
      }
      keyed = getitem(args, Value(fmt.substr(start, r.i - 1 - start)));
    }
    bool left = false, zero = false, plus = false, space = false, alt = false;
    for (;; ++r.i) {
      char c = r.peek();
      if (c == '-') left = true;
      else if (c == '0') zero = true;
      else if (c == '+') plus = true;
      else if (c == ' ') space = true;
      else if (c == '#') alt = true;
      else break;
    }
    auto number = [&](bool& given) -> int64_t {
      if (r.peek() == '*') {
        ++r.i;
        given = true;
        Value v = next_arg();
        if (!v.is_int() && !v.is_bool()) throw TypeError("* wants int");
        return v.as_int();
      }
      int64_t n = 0;
      while (r.peek() >= '0' && r.peek() <= '9') {
        n = n * 10 + (fmt[r.i++] - '0');
        if (n > (int64_t{1} << 31)) throw ValueError("width too big");
        given = true;
      }
      return n;
    };
    bool has_width = false, has_precision = false;
    int64_t width = number(has_width);
    if (width < 0) {  // a negative * width means left-aligned
      left = true;
      width = -width;
    }
    int64_t precision = 0;
    if (r.peek() == '.') {
      ++r.i;
      bool given = false;
      precision = number(given);
      has_precision = true;
      if (precision < 0) precision = 0;
    }
    while (r.peek() == 'h' || r.peek() == 'l' || r.peek() == 'L') ++r.i;  // length modifiers: ignored
    const size_t type_at = r.i;
    char type = fmt[r.i++];
    if (type == '%') {
      out += '%';
      continue;
    }
    Value arg = keyed ? *keyed : next_arg();

    // The format spec for format(): alignment, sign, '#', zero padding, width, precision.
    bool numeric = std::string_view("diuoxXeEfFgG").find(type) != std::string_view::npos;
    std::string spec;
    if (left) spec += '<';
    else if (!numeric || !zero) spec += '>';
    if (numeric) {
      if (plus) spec += '+';
      else if (space) spec += ' ';
      if (alt) spec += '#';
      if (zero && !left) spec += '0';
    }
    if (has_width && width > 0) spec += std::to_string(width);
    if (has_precision && type != 'd' && type != 'i' && type != 'u' && type != 'o' && type != 'x' && type != 'X' &&
        type != 'c') {
      spec += '.' + std::to_string(precision);
    }
    switch (type) {
      case 'd':
      case 'i':
      case 'u': out += format(Value(integer_arg(arg, type)), spec + 'd'); break;
      case 'o':
      case 'x':
      case 'X': out += format(Value(integer_arg(arg, type)), spec + type); break;
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G': out += format(Value(float_arg(arg)), spec + (has_precision ? "" : ".6") + type); break;
      case 's': out += format(Value(str(arg)), spec); break;
      case 'r':
      case 'a': out += format(Value(repr(arg)), spec); break;
      case 'c': {
        Value v = as_number(arg);
        std::string ch;
        if (v.is_str() && v.as_str().size() >= 1) {
          ch = v.as_str();
        } else if (v.is_int() || v.is_bool()) {
          int64_t code = v.as_int();
          if (code < 0 || code > 0x10FFFF) throw OverflowError("%c arg not in range(0x110000)");
          ch = format(Value(code), "c");
        } else {
          throw TypeError("%c requires int or char");
        }
        out += format(Value(ch), spec);
        break;
      }
      default: {
        char hex[8];
        std::snprintf(hex, sizeof hex, "%x", static_cast<unsigned char>(type));
        throw ValueError(std::string("unsupported format character '") + type + "' (0x" + hex + ") at index " +
                         std::to_string(type_at));
      }
    }
  }
  if (next < positional.size() && !mapping) {
    throw TypeError("not all arguments converted during string formatting");
  }
  return out;
}

}  // namespace ag
