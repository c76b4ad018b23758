#include "runtime/value/tensor_spec_value.h"

#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/tensor_shape_value.h"

namespace ag {

Value make_tensor_spec(const Shape& shape, DType dtype, const std::string& name) {
  Value spec = Value::object("TensorSpec");
  spec.setattr("shape", tensor_shape(shape));
  spec.setattr("dtype", dtype_value(dtype));
  spec.setattr("name", name.empty() ? Value() : Value(name));
  return spec;
}

std::optional<TensorSpec> tensor_spec_of(const Value& v) {
  if (!v.is_object() || v.as_object().class_name != "TensorSpec") return std::nullopt;
  TensorSpec spec;
  spec.dtype = require_dtype(v.getattr("dtype"));
  spec.shape = shape_from_value(v.getattr("shape"));
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
