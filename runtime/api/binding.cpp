#include "runtime/api/binding.h"

#include <algorithm>

namespace ag::api {

void check_positional(const char* fn, const std::vector<Value>& args, const Kwargs& kwargs, size_t min, size_t max) {
  if (!kwargs.empty()) throw TypeError(std::string(fn) + "() takes no keyword arguments");
  size_t n = args.size();
  if (n >= min && n <= max) return;
  if (min == 1 && max == 1) {
    throw TypeError(std::string(fn) + "() takes exactly one argument (" + std::to_string(n) + " given)");
  }
  auto plural = [](size_t k) { return std::to_string(k) + (k == 1 ? " argument" : " arguments"); };
  if (min == max) throw TypeError(std::string(fn) + " expected " + plural(min) + ", got " + std::to_string(n));
  if (n < min) throw TypeError(std::string(fn) + " expected at least " + plural(min) + ", got " + std::to_string(n));
  throw TypeError(std::string(fn) + " expected at most " + plural(max) + ", got " + std::to_string(n));
}

std::optional<Value> take_kwarg(Kwargs& kwargs, const char* name) {
  auto it = std::find_if(kwargs.begin(), kwargs.end(), [&](const auto& kv) { return kv.first == name; });
  if (it == kwargs.end()) return std::nullopt;
  Value v = std::move(it->second);
  kwargs.erase(it);
  return v;
}

void no_more_kwargs(const char* fn, const Kwargs& kwargs) {
  if (!kwargs.empty()) {
    throw TypeError(std::string(fn) + "() got an unexpected keyword argument '" + kwargs.front().first + "'");
  }
}

std::optional<DType> opt_dtype(const Value& v) {
  if (v.is_none()) return std::nullopt;
  return require_dtype(v);
}

int64_t int_arg(const Value& v, const char* param) {
  if (v.is_int() || v.is_bool()) return v.as_int();
  if (v.is_tensor() && !v.as_tensor().symbolic() && is_integer(v.as_tensor().dtype()) &&
      v.as_tensor().value().num_elements() == 1 && v.as_tensor().shape().rank() == 0) {
    return tensor_scalar(v, param).as_int();
  }
  throw TypeError("'" + std::string(param) + "' must be an int, not " + v.type_name());
}

const std::string& str_arg(const Value& v, const char* param) {
  if (!v.is_str()) throw TypeError("'" + std::string(param) + "' must be a str, not " + v.type_name());
  return v.as_str();
}

Value tensor_scalar(const Value& v, const char* fn) {
  const TensorHandle& h = v.as_tensor();
  if (h.symbolic()) {
    throw TypeError(std::string(fn) + "() argument must be a string or a real number, not 'SymbolicTensor'");
  }
  const Tensor& t = h.value();
  if (t.num_elements() != 1) throw TypeError("only length-1 arrays can be converted to Python scalars");
  switch (t.dtype()) {
    case DType::Bool: return Value(*t.data<bool>());
    case DType::String: return Value(*t.data<std::string>());
    case DType::Float32: return Value(static_cast<double>(*t.data<float>()));
    case DType::Float64: return Value(*t.data<double>());
    case DType::BFloat16: return Value(static_cast<double>(static_cast<float>(*t.data<bfloat16>())));
    case DType::Int32: return Value(static_cast<int64_t>(*t.data<int32_t>()));
    case DType::Int64: return Value(*t.data<int64_t>());
    case DType::Int8: return Value(static_cast<int64_t>(*t.data<int8_t>()));
    case DType::UInt8: return Value(static_cast<int64_t>(*t.data<uint8_t>()));
    default: throw TypeError(std::string(fn) + "() argument must be a string or a real number, not 'EagerTensor'");
  }
}

}  // namespace ag::api
