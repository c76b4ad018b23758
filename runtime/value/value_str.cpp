// str() and repr() exactly as Python prints them: floats with the shortest
// round-trip digits, strs quoted as Python chooses, containers with their
// items' repr (and `[...]` for a list that contains itself), tensors as TF.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "runtime/core/tensor_format.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/numpy_dtype.h"
#include "runtime/value/object_model.h"
#include "runtime/value/set_value.h"
#include "runtime/value/symbolic_dispatch.h"
#include "runtime/value/value.h"
#include "runtime/value/variable_value.h"

namespace ag {
namespace {

// The containers being printed on this thread (recursion guard).
thread_local std::vector<const void*> t_printing;

struct Guard {
  bool recursive = false;
  explicit Guard(const void* p) {
    for (const void* q : t_printing) recursive = recursive || q == p;
    if (!recursive) t_printing.push_back(p);
  }
  ~Guard() {
    if (!recursive) t_printing.pop_back();
  }
};

std::string str_repr(const std::string& s) {
  bool has_single = s.find('\'') != std::string::npos;
  bool has_double = s.find('"') != std::string::npos;
  char q = has_single && !has_double ? '"' : '\'';
  std::string out(1, q);
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (ch == q || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  out += q;
  return out;
}

std::string tensor_text(const TensorHandle& t, bool as_repr) {
  if (t.symbolic()) {
    if (std::optional<std::string> text = symbolic_text(t, as_repr)) return *text;
    const Output& o = t.output();
    if (as_repr) {
      return "<tf.Tensor '" + o.name() + "' shape=" + t.shape().str() + " dtype=" + dtype_name(t.dtype()) + ">";
    }
    return symbolic_tensor_str(o.node->name, o.index, t.dtype(), t.shape());
  }
  return as_repr ? tensor_repr(t.value()) : tensor_str(t.value());
}

std::string sequence(const Value& v, const char* open, const char* close) {
  Guard g(&v.items());
  if (g.recursive) return std::string(open) + "..." + close;
  std::string out = open;
  const std::vector<Value>& items = v.items();
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += repr(items[i]);
  }
  if (v.is_tuple() && items.size() == 1) out += ",";
  return out + close;
}

}  // namespace

std::string float_repr(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  if (d == 0.0) return std::signbit(d) ? "-0.0" : "0.0";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  // sci: [-]D[.DDD]e[+-]XX
  bool neg = sci[0] == '-';
  if (neg) sci.erase(0, 1);
  size_t e = sci.find('e');
  std::string digits = sci.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  int exp = std::stoi(sci.substr(e + 1));
  int decpt = exp + 1;
  int n = static_cast<int>(digits.size());
  std::string out = neg ? "-" : "";
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) {
      out += "0." + std::string(static_cast<size_t>(-decpt), '0') + digits;
    } else if (decpt >= n) {
      out += digits + std::string(static_cast<size_t>(decpt - n), '0') + ".0";
    } else {
      out += digits.substr(0, static_cast<size_t>(decpt)) + "." + digits.substr(static_cast<size_t>(decpt));
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (n > 1) out += "." + digits.substr(1);
  char eb[16];
  std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
  return out + eb;
}

std::string repr(const Value& v) {
  // TF's DType: repr "tf.float32", str "<dtype: 'float32'>".
  if (const char* dtype = dtype_value_name(v)) return std::string("tf.") + dtype;
  if (std::optional<DType> t = numpy::dtype_of_object(v)) return std::string("dtype('") + numpy::dtype_name(*t) + "')";
  switch (v.kind()) {
    case Kind::Str: return str_repr(v.as_str());
    case Kind::Tensor: return tensor_text(v.as_tensor(), true);
    case Kind::List: return sequence(v, "[", "]");
    case Kind::Tuple: return sequence(v, "(", ")");
    case Kind::Dict: {
      const DictObj& d = v.as_dict();
      Guard g(&d);
      if (g.recursive) return "{...}";
      auto braces = [](const std::vector<std::pair<Value, Value>>& entries) {
        std::string out = "{";
        for (size_t i = 0; i < entries.size(); ++i) out += (i ? ", " : "") + repr(entries[i].first) + ": " + repr(entries[i].second);
        return out + "}";
      };
      switch (d.flavor) {
        case DictObj::Flavor::Dict: return braces(d.entries);
        case DictObj::Flavor::DefaultDict: return "defaultdict(" + repr(d.default_factory) + ", " + braces(d.entries) + ")";
        case DictObj::Flavor::OrderedDict: {
          // Python 3.11's form (3.12 prints OrderedDict({...})).
          if (d.entries.empty()) return "OrderedDict()";
          std::string out = "OrderedDict([";
          for (size_t i = 0; i < d.entries.size(); ++i) {
            out += (i ? ", (" : "(") + repr(d.entries[i].first) + ", " + repr(d.entries[i].second) + ")";
          }
          return out + "])";
        }
        case DictObj::Flavor::Counter:
          // Most common first, ties in insertion order (Counter.__repr__ is most_common()).
          return d.entries.empty() ? "Counter()" : "Counter(" + braces(counter_most_common(v)) + ")";
      }
      return braces(d.entries);
    }
    case Kind::Object: return object_text(v, true);
    case Kind::NDArray: return ndarray::repr(v);
    case Kind::Set: return set_value::repr(v);
    default: return str(v);
  }
}

std::string str(const Value& v) {
  if (const char* dtype = dtype_value_name(v)) return std::string("<dtype: '") + dtype + "'>";
  if (std::optional<DType> t = numpy::dtype_of_object(v)) return numpy::dtype_name(*t);
  switch (v.kind()) {
    case Kind::None: return "None";
    case Kind::Bool: return v.as_bool() ? "True" : "False";
    case Kind::Int: return std::to_string(v.as_int());
    case Kind::Float: return float_repr(v.as_float());
    case Kind::Str: return v.as_str();
    case Kind::Tensor: return tensor_text(v.as_tensor(), false);
    case Kind::Callable: {
      const CallableObj& c = v.as_callable();
      switch (c.printed) {
        case CallableObj::Printed::BuiltinType: return "<class '" + c.name + "'>";
        case CallableObj::Printed::BuiltinFunction: return "<built-in function " + c.name + ">";
        case CallableObj::Printed::Function: break;
      }
      return "<function " + c.name + " at " + address_text(&c) + ">";
    }
    case Kind::Object: return object_text(v, false);
    case Kind::TensorArray:
      return "<tensorflow.python.ops.tensor_array_ops.TensorArray object at " + address_text(&v.as_tensor_array()) + ">";
    case Kind::Variable: return variable_value::repr(v);
    case Kind::NDArray: return ndarray::str(v);
    default: return repr(v);
  }
}

void print(const std::vector<Value>& args, std::string_view sep, std::string_view end) {
  std::string line;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) line += sep;
    line += str(args[i]);
  }
  line += end;
  std::cout << line << std::flush;
}

std::string address_text(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

}  // namespace ag
