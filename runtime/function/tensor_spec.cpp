#include "runtime/function/tensor_spec.h"

#include "runtime/value/dtype_value.h"



namespace ag {

Value make_tensor_spec(const Shape& shape, DType dtype, const std::string& name) {
  Value spec = Value::object("TensorSpec");
  std::vector<Value> dims;
  if (shape.rank_known()) {
    for (int64_t d : shape.dims()) dims.push_back(d < 0 ? Value() : Value(static_cast<long long>(d)));
    spec.setattr("shape", Value::tuple(std::move(dims)));
  } else {
    spec.setattr("shape", Value());
  }
  spec.setattr("dtype", dtype_value(dtype));
  spec.setattr("name", name.empty() ? Value() : Value(name));
  return spec;
}

std::optional<TensorSpec> tensor_spec_of(const Value& v) {
  if (!v.is_object() || v.as_object().class_name != "TensorSpec") return std::nullopt;
  TensorSpec spec;
  spec.dtype = require_dtype(v.getattr("dtype"));
  Value shape = v.getattr("shape");
  if (shape.is_none()) {
    spec.shape = Shape::unknown_rank();
  } else {
    Shape s;
    for (const Value& d : shape.items()) s.push_back(d.is_none() ? kUnknownDim : d.as_int());
    spec.shape = s;
  }
  return spec;
}

std::string tensor_spec_name(const Value& v) {
  Value n = v.getattr("name");
  return n.is_none() ? "" : n.as_str();
}

std::string tensor_spec_repr(const TensorSpec& spec, const std::string& name) {
  return "TensorSpec(shape=" + spec.shape.str() + ", dtype=tf." + std::string(dtype_name(spec.dtype)) +
         ", name=" + (name.empty() ? std::string("None") : "'" + name + "'") + ")";
}

}  // namespace ag
