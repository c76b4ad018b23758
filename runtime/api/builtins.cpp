// Python's builtins (builtins.def) with Python's semantics and error texts:
// conversions, containers, attributes, printing, isinstance/type. The
// sequence builtins (zip, map, sorted, min, ...) are in builtins_seq.cpp.
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "runtime/api/binding.h"
#include "runtime/api/native_iterator.h"
#include "runtime/api/py_sys.h"
#include "runtime/api/python_api.h"
#include "runtime/graph/control_flow.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/bytes_value.h"
#include "runtime/value/exception_value.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/numpy_types.h"
#include "runtime/value/iteration.h"
#include "runtime/value/object_model.h"
#include "runtime/value/set_value.h"
#include "runtime/value/tensor_array.h"
#include "runtime/value/variable_value.h"

namespace ag {

Value builtin_value(const char* python_name, PyFn fn) {
  // An exception class named as a value (isinstance(e, ValueError), a base
  // class, `except` tuples) is the class itself: its calls construct, and
  // issubclass sees Python's hierarchy.
  if (is_known_exception(python_name)) return exception_class(python_name);
  // Interned per function, so `f is tf.tanh` and isinstance(x, int) can
  // compare identities.
  static std::mutex mu;
  static std::unordered_map<PyFn, Value>* interned = new std::unordered_map<PyFn, Value>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = interned->find(fn);
  if (it != interned->end()) return it->second;
  // Python's builtins print as Python's do (types as classes); a tf.*
  // function ("tf.tanh") is a Python function in TF.
  static const std::unordered_set<std::string_view> types{"bool", "int", "float", "str", "list", "tuple", "dict",
                                                          "set", "frozenset", "type", "object", "range", "bytes",
                                                          "enumerate", "zip", "map", "filter", "reversed", "slice"};
  CallFn call = [fn](std::vector<Value> args, Kwargs kwargs) { return fn(std::move(args), std::move(kwargs)); };
  Value v = std::string_view(python_name).find('.') != std::string_view::npos
                ? Value::callable(python_name, std::move(call))
                : Value::builtin(python_name, std::move(call), types.count(python_name) != 0);
  interned->emplace(fn, v);
  return v;
}

namespace py {
namespace {

using api::check_positional;
using api::take_kwarg;

// ---- Text to numbers, as int() and float() parse them.
std::string strip(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\n\r\f\v");
  return s.substr(b, e - b + 1);
}

int64_t parse_int(const std::string& text, int64_t base) {
  auto invalid = [&]() {
    throw ValueError("invalid literal for int() with base " + std::to_string(base) + ": " + repr(Value(text)));
  };
  std::string s = strip(text);
  size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  if (base == 0 || base == 16 || base == 8 || base == 2) {
    if (i + 1 < s.size() && s[i] == '0') {
      char p = static_cast<char>(std::tolower(s[i + 1]));
      int64_t b = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
      if (b != 0 && (base == 0 || base == b)) {
        base = b;
        i += 2;
      }
    }
    if (base == 0) base = 10;
  }
  if (base < 2 || base > 36) throw ValueError("int() base must be >= 2 and <= 36, or 0");
  if (i >= s.size()) invalid();
  __int128 acc = 0;
  bool last_digit = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '_' && last_digit) {
      last_digit = false;
      continue;
    }
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
            : std::isalpha(static_cast<unsigned char>(c)) ? std::tolower(c) - 'a' + 10
                                                          : 99;
    if (d >= base) invalid();
    acc = acc * base + d;
    if (acc > static_cast<__int128>(INT64_MAX) + 1) throw OverflowError("int too large to convert: " + repr(Value(text)));
    last_digit = true;
  }
  if (!last_digit) invalid();
  if (neg) acc = -acc;
  if (acc > INT64_MAX) throw OverflowError("int too large to convert: " + repr(Value(text)));
  return static_cast<int64_t>(acc);
}

double parse_float(const std::string& text) {
  std::string s = strip(text);
  std::string clean;
  for (size_t i = 0; i < s.size(); ++i) {
    // Python allows '_' between digits only.
    if (s[i] == '_' && i > 0 && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i - 1])) &&
        std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      continue;
    }
    clean += s[i];
  }
  std::string lower;
  for (char c : clean) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string body = lower;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) body = body.substr(1);
  bool ok_word = body == "inf" || body == "infinity" || body == "nan";
  bool ok_chars = !body.empty() && body.find_first_not_of("0123456789.e+-") == std::string::npos &&
                  body.find_first_of("0123456789") != std::string::npos && body[0] != 'e';
  if (ok_word || ok_chars) {
    errno = 0;
    char* end = nullptr;
    double d = std::strtod(clean.c_str(), &end);
    if (end == clean.c_str() + clean.size()) return d;
  }
  throw ValueError("could not convert string to float: " + repr(Value(text)));
}

int64_t float_to_int(double d) {
  if (std::isinf(d)) throw OverflowError("cannot convert float infinity to integer");
  if (std::isnan(d)) throw ValueError("cannot convert float NaN to integer");
  double t = std::trunc(d);
  if (t >= 9223372036854775808.0 || t < -9223372036854775808.0) {
    throw OverflowError("int too large to convert: " + float_repr(d));
  }
  return static_cast<int64_t>(t);
}

// ---- Builtin types as values (isinstance(x, int), type(x) is int).
bool is_builtin(const Value& cls, const char* name, PyFn fn) { return cls.is(builtin_value(name, fn)); }

/// The concrete classes type() gives for TF's values, as TF 2.15 names them:
/// an eager tensor's, a traced one's (TF before 2.14 said Tensor) and a
/// variable's. Each is a subclass of tf.Tensor / tf.Variable for isinstance.
enum class TfType { EagerTensor, SymbolicTensor, ResourceVariable };

const Value& tf_type_class(TfType t) {
  static const Value classes[3] = {
      make_class("EagerTensor", {}, {{"__module__", Value("tensorflow.python.framework.ops")}}),
      make_class("SymbolicTensor", {}, {{"__module__", Value("tensorflow.python.framework.ops")}}),
      make_class("ResourceVariable", {}, {{"__module__", Value("tensorflow.python.ops.resource_variable_ops")}}),
  };
  return classes[static_cast<int>(t)];
}

// isinstance(v, cls) for the builtin types as values; nullopt when cls is none of them.
std::optional<bool> builtin_isinstance(const Value& v, const Value& cls) {
  if (cls.is(tf_type_class(TfType::EagerTensor))) return v.is_tensor() && !v.as_tensor().symbolic();
  if (cls.is(tf_type_class(TfType::SymbolicTensor))) return v.is_tensor() && v.as_tensor().symbolic();
  if (cls.is(tf_type_class(TfType::ResourceVariable))) return v.is_variable();
  if (!cls.is_callable()) return std::nullopt;
  if (is_builtin(cls, "int", int_)) return v.is_int() || v.is_bool();
  // np.float64 is a subclass of Python's float.
  if (is_builtin(cls, "float", float_)) {
    return v.is_float() || (v.is_ndarray() && ndarray::is_scalar(v) && ndarray::tensor(v).dtype() == DType::Float64);
  }
  if (is_builtin(cls, "bool", bool_)) return v.is_bool();
  if (is_builtin(cls, "str", str)) return v.is_str();
  if (is_builtin(cls, "bytes", bytes)) return bytes_value::is_bytes(v);
  if (is_builtin(cls, "list", list)) return v.is_list();
  if (is_builtin(cls, "tuple", tuple)) return v.is_tuple();
  if (is_builtin(cls, "dict", dict)) return v.is_dict();
  if (is_builtin(cls, "set", set_)) return v.is_set() && !v.as_set().frozen;
  if (is_builtin(cls, "frozenset", frozenset)) return v.is_set() && v.as_set().frozen;
  if (is_builtin(cls, "map", map)) return is_instance(v, native_iterator_class("builtins", "map"));
  if (is_builtin(cls, "filter", filter)) return is_instance(v, native_iterator_class("builtins", "filter"));
  if (cls.is(tf::api::Tensor())) return v.is_tensor();
  if (cls.is(tf::api::Variable())) return v.is_variable();
  if (cls.is(tf::api::TensorArray())) return v.is_tensor_array();
  if (cls.is(tf::api::TensorSpec())) return v.is_object() && v.as_object().class_name == "TensorSpec";
  return std::nullopt;
}

bool is_builtin_type(const Value& cls) { return builtin_isinstance(Value(), cls).has_value(); }

bool is_instance_of(const Value& v, const Value& cls) {
  if (cls.is_tuple()) {
    for (const Value& c : cls.items()) {
      if (is_instance_of(v, c)) return true;
    }
    return false;
  }
  if (std::optional<bool> b = builtin_isinstance(v, cls)) return *b;
  if (v.is_ndarray() && is_class(cls)) return is_subclass(numpy::type_of(v), cls);
  if (is_class(cls)) return is_instance(v, cls);
  throw TypeError("isinstance() arg 2 must be a type, a tuple of types, or a union");
}

bool is_subclass_of(const Value& sub, const Value& cls) {
  if (!is_class(sub) && !is_builtin_type(sub)) throw TypeError("issubclass() arg 1 must be a class");
  if (cls.is_tuple()) {
    for (const Value& c : cls.items()) {
      if (is_subclass_of(sub, c)) return true;
    }
    return false;
  }
  if (is_class(cls)) return is_class(sub) && is_subclass(sub, cls);
  if (is_builtin_type(cls)) {
    if (sub.is(cls) || (is_builtin(cls, "int", int_) && is_builtin(sub, "bool", bool_))) return true;
    // EagerTensor and SymbolicTensor are tf.Tensors, ResourceVariable a tf.Variable.
    if (cls.is(tf::api::Tensor())) {
      return sub.is(tf_type_class(TfType::EagerTensor)) || sub.is(tf_type_class(TfType::SymbolicTensor));
    }
    return cls.is(tf::api::Variable()) && sub.is(tf_type_class(TfType::ResourceVariable));
  }
  throw TypeError("issubclass() arg 2 must be a class, a tuple of classes, or a union");
}


std::vector<std::pair<Value, Value>> pairs_of(const Value& v) {
  if (v.is_dict()) return v.as_dict().entries;
  std::vector<std::pair<Value, Value>> out;
  size_t i = 0;
  for (const Value& item : iterate(v)) {
    std::vector<Value> kv;
    try {
      kv = iterate(item);
    } catch (const TypeError&) {
      throw TypeError("cannot convert dictionary update sequence element #" + std::to_string(i) + " to a sequence");
    }
    if (kv.size() != 2) {
      throw ValueError("dictionary update sequence element #" + std::to_string(i) + " has length " +
                       std::to_string(kv.size()) + "; 2 is required");
    }
    out.emplace_back(kv[0], kv[1]);
    ++i;
  }
  return out;
}

}  // namespace

Value print(std::vector<Value> args, Kwargs kwargs) {
  std::optional<Value> sep = take_kwarg(kwargs, "sep");
  std::optional<Value> end = take_kwarg(kwargs, "end");
  std::optional<Value> file = take_kwarg(kwargs, "file");
  (void)take_kwarg(kwargs, "flush");  // every print flushes (program order with tf.print's stderr)
  if (!kwargs.empty()) throw TypeError("'" + kwargs.front().first + "' is an invalid keyword argument for print()");
  auto text = [](const std::optional<Value>& v, const char* what, const char* dflt) -> std::string {
    if (!v || v->is_none()) return dflt;
    if (!v->is_str()) throw TypeError(std::string(what) + " must be None or a string, not " + v->type_name());
    return v->as_str();
  };
  std::string s = text(sep, "sep", " ");
  std::string e = text(end, "end", "\n");
  std::string line;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) line += s;
    line += ag::str(args[i]);
  }
  line += e;
  // C stdio as tf.print's PrintV2 kernel writes (pymod::write_standard_stream);
  // any other file is an object with a write method.
  if (!file || file->is_none()) {
    pymod::write_standard_stream("stdout", line);
  } else if (const char* stream = pymod::standard_stream(*file)) {
    pymod::write_standard_stream(stream, line);
  } else {
    file->getattr("write")({Value(line)}, {});
  }
  return Value();
}

namespace {

/// py_builtins._tf_tensor_len: the static length when dim 0 is known; a
/// scalar is a ValueError naming its tf.shape; otherwise tf.shape(x)[0], or
/// for an unknown rank a tf.cond on the rank that asserts it is not 0 when
/// the function runs.
Value tensor_len(const Value& x) {
  const Shape shape = x.as_tensor().shape();
  if (shape.rank_known() && shape.rank() > 0 && shape.dim(0) != kUnknownDim) return Value(shape.dim(0));
  Value static_shape = tf::shape(x);  // TF's, made before it looks at the rank
  if (shape.rank_known() && shape.rank() == 0) {
    throw ValueError("len requires a non-scalar tensor, got one of shape " + ag::str(static_shape));
  }
  if (shape.rank_known()) return getitem(tf::shape(x), Value(0));
  Value rank = tf::rank(x);
  Graph& g = *current_graph();
  auto branch = [&](const char* name, const std::function<Value()>& f) {
    auto b = std::make_shared<Graph>(name, &g);
    TraceScope scope(*b);
    b->outputs() = {in_graph(*b, f().as_tensor())};
    return b;
  };
  auto then_g = branch("cond_true", [&] { return getitem(tf::shape(x), Value(0)); });
  auto else_g = branch("cond_false", [&] {
    Value msg = tf::string_join(Value::list({Value("len requires non-zero rank, got "), tf::as_string(rank)}));
    TensorHandle in[2] = {TensorHandle(Tensor::scalar<bool>(false)), msg.as_tensor()};
    apply_op(op::Assert, in, Attrs{{"summarize", int64_t{3}}}, "Assert");
    return Value(TensorHandle(Tensor::scalar<int32_t>(0)));
  });
  return Value(add_if(g, in_graph(g, (rank > Value(0)).as_tensor()), {}, then_g, else_g)->output(0));
}

}  // namespace

Value len(std::vector<Value> args, Kwargs kwargs) {
  check_positional("len", args, kwargs, 1, 1);
  const Value& x = args[0];
  // While a function is traced its code is AutoGraph's, whose len_ answers
  // for tensors and TensorArrays; elsewhere it is Python's len (which a
  // symbolic tensor refuses).
  if (current_graph() != nullptr) {
    if (x.is_tensor_array()) return tensor_array::size(x);
    if (x.is_variable()) return tensor_len(Value(variable_value::read(x)));
    if (x.is_tensor()) return tensor_len(x);
  }
  return Value(ag::len(x));
}

Value range(std::vector<Value> args, Kwargs kwargs) {
  check_positional("range", args, kwargs, 1, 3);
  auto as_index = [](const Value& v) {
    // An eager integer scalar tensor is an index (EagerTensor.__index__);
    // AutoGraph's range_ (autograph/py_builtins.h) makes tensors tf.range.
    if (v.is_tensor() && !v.as_tensor().symbolic()) {
      if (!is_integer(v.as_tensor().dtype()) || v.as_tensor().shape().rank() != 0) {
        throw TypeError("only integer scalar arrays can be converted to a scalar index");  // NumPy's __index__
      }
      return api::tensor_scalar(v, "index").as_int();
    }
    if (!v.is_index()) {
      throw TypeError("'" + v.type_name() + "' object cannot be interpreted as an integer");
    }
    return v.as_int();
  };
  int64_t start = 0, stop = 0, step = 1;
  if (args.size() == 1) {
    stop = as_index(args[0]);
  } else {
    start = as_index(args[0]);
    stop = as_index(args[1]);
    if (args.size() == 3) step = as_index(args[2]);
  }
  if (step == 0) throw ValueError("range() arg 3 must not be zero");
  std::vector<Value> out;
  __int128 n = 0;
  if (step > 0 && start < stop) n = (static_cast<__int128>(stop) - start - 1) / step + 1;
  if (step < 0 && stop < start) n = (static_cast<__int128>(start) - stop - 1) / (-static_cast<__int128>(step)) + 1;
  // A range is eager here (a list): refuse what would not fit in memory.
  if (n > (int64_t{1} << 28)) throw ResourceExhaustedError("range() of " + std::to_string(static_cast<int64_t>(n)) +
                                                           " items is too large to materialize");
  out.reserve(static_cast<size_t>(n));
  for (__int128 i = 0; i < n; ++i) out.emplace_back(static_cast<int64_t>(start + i * step));
  return Value::list(std::move(out));
}

Value isinstance(std::vector<Value> args, Kwargs kwargs) {
  check_positional("isinstance", args, kwargs, 2, 2);
  return Value(is_instance_of(args[0], args[1]));
}

Value issubclass(std::vector<Value> args, Kwargs kwargs) {
  check_positional("issubclass", args, kwargs, 2, 2);
  return Value(is_subclass_of(args[0], args[1]));
}

Value int_(std::vector<Value> args, Kwargs kwargs) {
  std::optional<Value> base_kw = take_kwarg(kwargs, "base");
  api::no_more_kwargs("int", kwargs);
  if (args.size() > 2 || (args.size() == 2 && base_kw)) {
    throw TypeError("int() takes at most 2 arguments (" + std::to_string(args.size() + (base_kw ? 1 : 0)) + " given)");
  }
  if (args.size() == 2) base_kw = args[1];
  if (args.empty()) {
    if (base_kw) throw TypeError("int() missing string argument");
    return Value(0);
  }
  Value x = args[0];
  if (base_kw) {
    if (!x.is_str()) throw TypeError("int() can't convert non-string with explicit base");
    return Value(parse_int(x.as_str(), ag::api::int_arg(*base_kw, "base")));
  }
  if (x.is_tensor()) x = api::tensor_scalar(x, "int");
  if (x.is_variable()) x = api::tensor_scalar(Value(variable_value::read(x)), "int");
  if (x.is_ndarray()) x = ndarray::python_number(x);
  if (x.is_bool() || x.is_int()) return Value(x.as_int());
  if (x.is_float()) return Value(float_to_int(x.as_float()));
  if (x.is_str()) return Value(parse_int(x.as_str(), 10));
  throw TypeError("int() argument must be a string, a bytes-like object or a real number, not '" + x.type_name() +
                  "'");
}

Value float_(std::vector<Value> args, Kwargs kwargs) {
  check_positional("float", args, kwargs, 0, 1);
  if (args.empty()) return Value(0.0);
  Value x = args[0];
  if (x.is_tensor()) x = api::tensor_scalar(x, "float");
  if (x.is_variable()) x = api::tensor_scalar(Value(variable_value::read(x)), "float");
  if (x.is_ndarray()) x = ndarray::python_number(x);
  if (x.is_number()) return Value(x.as_float());
  if (x.is_str()) return Value(parse_float(x.as_str()));
  throw TypeError("float() argument must be a string or a real number, not '" + x.type_name() + "'");
}

Value bool_(std::vector<Value> args, Kwargs kwargs) {
  check_positional("bool", args, kwargs, 0, 1);
  if (args.empty()) return Value(false);
  return Value(truthy(args[0]));
}

Value str(std::vector<Value> args, Kwargs kwargs) {
  // str(object=''), or str(object=b'', encoding='utf-8', errors='strict'),
  // which decodes bytes.
  std::vector<Value> a = bind_arguments("str", {{"object", Value("")}, {"encoding", Value()}, {"errors", Value()}},
                                        std::move(args), std::move(kwargs));
  if (a[1].is_none() && a[2].is_none()) return Value(ag::str(a[0]));
  if (!bytes_value::is_bytes(a[0])) throw TypeError("decoding to str: need a bytes-like object, " + a[0].type_name() + " found");
  return Value(bytes_value::decode(bytes_value::data(a[0]), a[1].is_none() ? "utf-8" : a[1].as_str(),
                                   a[2].is_none() ? "strict" : a[2].as_str()));
}

Value bytes(std::vector<Value> args, Kwargs kwargs) { return bytes_value::construct(std::move(args), std::move(kwargs)); }

Value repr(std::vector<Value> args, Kwargs kwargs) {
  check_positional("repr", args, kwargs, 1, 1);
  return Value(ag::repr(args[0]));
}

Value list(std::vector<Value> args, Kwargs kwargs) {
  check_positional("list", args, kwargs, 0, 1);
  if (args.empty()) return Value::list();
  return Value::list(iterate(args[0]));
}

Value tuple(std::vector<Value> args, Kwargs kwargs) {
  check_positional("tuple", args, kwargs, 0, 1);
  if (args.empty()) return Value::tuple();
  if (args[0].is_tuple()) return args[0];
  return Value::tuple(iterate(args[0]));
}

namespace {
/// set(iterable=()) / frozenset(iterable=()), with CPython's argument errors.
Value make_set(const char* name, std::vector<Value>& args, const Kwargs& kwargs, bool frozen) {
  if (!kwargs.empty()) throw TypeError(std::string(name) + "() takes no keyword arguments");
  if (args.size() > 1) {
    throw TypeError(std::string(name) + " expected at most 1 argument, got " + std::to_string(args.size()));
  }
  return args.empty() ? set_value::make({}, frozen) : set_value::from_iterable(args[0], frozen);
}
}  // namespace

Value set_(std::vector<Value> args, Kwargs kwargs) { return make_set("set", args, kwargs, false); }

Value frozenset(std::vector<Value> args, Kwargs kwargs) { return make_set("frozenset", args, kwargs, true); }

Value dict(std::vector<Value> args, Kwargs kwargs) {
  if (args.size() > 1) throw TypeError("dict expected at most 1 argument, got " + std::to_string(args.size()));
  Value d = Value::dict();
  if (!args.empty()) {
    for (auto& [k, v] : pairs_of(args[0])) d.as_dict().set(k, v);
  }
  for (auto& [k, v] : kwargs) d.as_dict().set(Value(k), v);
  return d;
}

// The decorators of methods: descriptors the object model asks when the
// attribute is read (object_model.h).
Value property(std::vector<Value> args, Kwargs kwargs) {
  std::vector<Value> a = api::bind_builtin(
      "property", {{"fget", Value()}, {"fset", Value()}, {"fdel", Value()}, {"doc", Value()}}, args, kwargs);
  if (!a[2].is_none()) throw NotImplementedError("agc: property() with a deleter");
  return make_property(a[0], a[1]);
}

Value staticmethod(std::vector<Value> args, Kwargs kwargs) {
  check_positional("staticmethod", args, kwargs, 1, 1);
  return make_staticmethod(args[0]);
}

Value classmethod(std::vector<Value> args, Kwargs kwargs) {
  check_positional("classmethod", args, kwargs, 1, 1);
  return make_classmethod(args[0]);
}

Value callable(std::vector<Value> args, Kwargs kwargs) {
  check_positional("callable", args, kwargs, 1, 1);
  const Value& v = args[0];
  if (v.is_callable()) return Value(true);
  if (v.is_object()) {
    if (is_class(v)) return Value(true);
    try {
      (void)v.getattr("__call__");
      return Value(true);
    } catch (const AttributeError&) {
      return Value(false);
    }
  }
  return Value(false);
}

Value hasattr(std::vector<Value> args, Kwargs kwargs) {
  check_positional("hasattr", args, kwargs, 2, 2);
  if (!args[1].is_str()) throw TypeError("attribute name must be string, not '" + args[1].type_name() + "'");
  try {
    (void)args[0].getattr(args[1].as_str());
    return Value(true);
  } catch (const AttributeError&) {
    return Value(false);
  }
}

Value getattr(std::vector<Value> args, Kwargs kwargs) {
  check_positional("getattr", args, kwargs, 2, 3);
  if (!args[1].is_str()) throw TypeError("attribute name must be string, not '" + args[1].type_name() + "'");
  if (args.size() == 2) return args[0].getattr(args[1].as_str());
  try {
    return args[0].getattr(args[1].as_str());
  } catch (const AttributeError&) {
    return args[2];
  }
}

Value setattr(std::vector<Value> args, Kwargs kwargs) {
  check_positional("setattr", args, kwargs, 3, 3);
  if (!args[1].is_str()) throw TypeError("attribute name must be string, not '" + args[1].type_name() + "'");
  args[0].setattr(args[1].as_str(), args[2]);
  return Value();
}

Value id(std::vector<Value> args, Kwargs kwargs) {
  check_positional("id", args, kwargs, 1, 1);
  const Value& v = args[0];
  // Reference kinds: the object's address (stable while it lives). Immediate
  // kinds have no identity of their own here: their hash, as equal small ints
  // share an id in CPython.
  auto addr = [](const void* p) { return Value(static_cast<int64_t>(reinterpret_cast<uintptr_t>(p) >> 1)); };
  switch (v.kind()) {
    case Kind::List:
    case Kind::Tuple: return addr(&v.items());
    case Kind::Dict: return addr(&v.as_dict());
    case Kind::Callable: return addr(&v.as_callable());
    case Kind::Object: return addr(&v.as_object());
    case Kind::TensorArray: return addr(&v.as_tensor_array());
    case Kind::Variable: return addr(v.as_variable().get());
    case Kind::NDArray: return addr(&v.as_ndarray());
    case Kind::Set: return addr(&v.as_set());
    case Kind::Tensor:
      if (!v.as_tensor().symbolic()) return addr(v.as_tensor().value().raw_data());
      return Value(static_cast<int64_t>(std::hash<std::string>{}(v.as_tensor().output().name()) >> 1));
    default: return Value(static_cast<int64_t>(hash(v) >> 1));
  }
}

Value iter(std::vector<Value> args, Kwargs kwargs) {
  check_positional("iter", args, kwargs, 1, 1);
  return py_iter(args[0]);
}

Value next_(std::vector<Value> args, Kwargs kwargs) {
  check_positional("next", args, kwargs, 1, 2);
  if (args.size() == 1) return py_next(args[0]);
  try {
    return py_next(args[0]);
  } catch (const StopIteration&) {
    return args[1];  // next(it, default)
  }
}

Value type(std::vector<Value> args, Kwargs kwargs) {
  if (args.size() == 3) throw UnimplementedError("type(name, bases, dict) is not supported: use a class statement");
  check_positional("type", args, kwargs, 1, 1);
  const Value& v = args[0];
  switch (v.kind()) {
    case Kind::Bool: return builtin_value("bool", bool_);
    case Kind::Int: return builtin_value("int", int_);
    case Kind::Float: return builtin_value("float", float_);
    case Kind::Str: return builtin_value("str", str);
    case Kind::List: return builtin_value("list", list);
    case Kind::Tuple: return builtin_value("tuple", tuple);
    case Kind::Dict:
      switch (v.as_dict().flavor) {
        case DictObj::Flavor::Dict: return builtin_value("dict", dict);
        case DictObj::Flavor::DefaultDict: return builtin_value("defaultdict", pymod::api::collections_defaultdict);
        case DictObj::Flavor::OrderedDict: return builtin_value("OrderedDict", pymod::api::collections_ordered_dict);
        case DictObj::Flavor::Counter: return builtin_value("Counter", pymod::api::collections_counter);
      }
      return builtin_value("dict", dict);
    case Kind::Set: return v.as_set().frozen ? builtin_value("frozenset", frozenset) : builtin_value("set", set_);
    case Kind::Tensor: return tf_type_class(v.as_tensor().symbolic() ? TfType::SymbolicTensor : TfType::EagerTensor);
    case Kind::Variable: return tf_type_class(TfType::ResourceVariable);
    case Kind::TensorArray: return tf::api::TensorArray();
    case Kind::NDArray: return numpy::type_of(v);
    case Kind::Object:
      if (v.as_object().class_name == "TensorSpec") return tf::api::TensorSpec();
      if (is_class(v)) return builtin_value("type", type);  // a class's type is `type`
      return v.getattr("__class__");
    default: throw UnimplementedError("type() of a '" + v.type_name() + "' value is not supported");
  }
}

}  // namespace py
}  // namespace ag
