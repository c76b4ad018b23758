#include "runtime/value/numpy_types.h"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <functional>
#include <map>

#include "runtime/value/ndarray.h"
#include "runtime/value/numpy_dtype.h"
#include "runtime/value/object_model.h"

namespace ag::numpy {
namespace {

using Constructor = std::function<Value(std::vector<Value>, Kwargs)>;

/// A NumPy class: a class of the object model whose call is native (a scalar
/// type converts its argument).
struct NumpyClass : ClassInfo {
  Constructor construct;
  bool callable() const override { return true; }
  Value call(std::vector<Value> args, Kwargs kwargs) override { return construct(std::move(args), std::move(kwargs)); }
};

Value make_numpy_class(const std::string& name, std::vector<Value> bases, Constructor construct,
                       const char* module = "numpy") {
  Value cls = Value::object("type");
  ObjectObj& o = cls.as_object();
  o.attrs.emplace_back("__module__", Value(module));
  auto info = std::make_shared<NumpyClass>();
  info->name = name;
  info->bases = std::move(bases);
  info->construct = std::move(construct);
  o.native = std::move(info);
  return cls;
}

[[noreturn]] void not_constructible(const std::string& name) {
  throw TypeError("cannot create 'numpy." + name + "' instances");
}

/// The text of `s` as the number np.float32("1.5") / np.int64("12") read.
Value parse_number(const std::string& s, DType t) {
  size_t b = s.find_first_not_of(" \t\n\r\f\v");
  size_t e = s.find_last_not_of(" \t\n\r\f\v");
  std::string text = b == std::string::npos ? "" : s.substr(b, e - b + 1);
  char* end = nullptr;
  errno = 0;
  if (is_floating(t)) {
    double d = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0') throw ValueError("could not convert string to float: '" + s + "'");
    return Value(d);
  }
  long long i = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE) {
    throw ValueError("invalid literal for int() with base 10: '" + s + "'");
  }
  return Value(static_cast<int64_t>(i));
}

/// np.float32(x=0): a scalar of the value, or an array of a sequence.
Value construct_scalar(DType t, const std::string& name, std::vector<Value> args, Kwargs kwargs) {
  if (!kwargs.empty()) throw TypeError(name + "() takes no keyword arguments");
  if (args.size() > 1) throw TypeError(name + "() takes at most 1 argument (" + std::to_string(args.size()) + " given)");
  Value x = args.empty() ? Value(int64_t{0}) : args[0];
  if (x.is_str() && t != DType::String) x = parse_number(x.as_str(), t);
  Tensor a = ndarray::to_array(x, t);
  return a.rank() == 0 ? ndarray::scalar(std::move(a)) : ndarray::array(std::move(a));
}

struct Types {
  Value ndarray;
  std::map<std::string, Value, std::less<>> abstract;
  std::array<Value, kNumDTypes> scalars;

  Types() {
    auto abstract_class = [&](const char* name, std::vector<Value> bases) {
      abstract[name] = make_numpy_class(name, std::move(bases), [n = std::string(name)](std::vector<Value>, Kwargs) -> Value {
        not_constructible(n);
      });
      return abstract[name];
    };
    Value generic = abstract_class("generic", {});
    Value number = abstract_class("number", {generic});
    Value integer = abstract_class("integer", {number});
    Value signed_int = abstract_class("signedinteger", {integer});
    Value unsigned_int = abstract_class("unsignedinteger", {integer});
    Value inexact = abstract_class("inexact", {number});
    Value floating = abstract_class("floating", {inexact});
    ndarray = make_numpy_class("ndarray", {}, [](std::vector<Value>, Kwargs) -> Value {
      throw NotImplementedError("np.ndarray(shape) is not supported by agc: make arrays with np.array, np.zeros or "
                                "np.empty");
    });
    for (int i = 0; i < kNumDTypes; ++i) {
      DType t = static_cast<DType>(i);
      std::vector<Value> bases;
      std::string name = numpy::dtype_name(t);
      const char* module = "numpy";
      switch (t) {
        case DType::Float32:
        case DType::Float64: bases = {floating}; break;
        case DType::Int8:
        case DType::Int32:
        case DType::Int64: bases = {signed_int}; break;
        case DType::UInt8: bases = {unsigned_int}; break;
        case DType::Bool:
          bases = {generic};
          name = "bool_";
          break;
        case DType::String:
          name = "bytes";  // TF's .numpy() of a string scalar is Python's bytes
          module = "builtins";
          break;
        case DType::BFloat16:
          bases = {floating};
          module = "ml_dtypes";
          break;
        case DType::Variant: continue;
      }
      scalars[static_cast<size_t>(i)] = make_numpy_class(
          name, std::move(bases),
          [t, name](std::vector<Value> args, Kwargs kwargs) { return construct_scalar(t, name, std::move(args), std::move(kwargs)); },
          module);
    }
  }
};

const Types& types() {
  static const Types* t = new Types();  // never destroyed: values may outlive static destruction
  return *t;
}

}  // namespace

const Value& ndarray_type() { return types().ndarray; }

const Value& scalar_type(DType t) {
  if (t == DType::Variant) throw InternalError("no NumPy scalar type for variant tensors");
  return types().scalars.at(static_cast<size_t>(t));
}

const Value& abstract_type(const char* name) {
  auto it = types().abstract.find(name);
  if (it == types().abstract.end()) throw InternalError(std::string("no NumPy abstract type ") + name);
  return it->second;
}

const Value& type_of(const Value& v) {
  if (ndarray::is_scalar(v)) return scalar_type(ndarray::tensor(v).dtype());
  return ndarray_type();
}

}  // namespace ag::numpy
