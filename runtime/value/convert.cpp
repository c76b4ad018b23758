#include "runtime/value/convert.h"

#include <cmath>
#include <limits>

#include "runtime/core/tensor_format.h"
#include "runtime/value/ndarray_value.h"
#include "runtime/value/tensor_shape_value.h"
#include "runtime/value/variable_value.h"

namespace ag {
namespace {

// The rectangular shape of a nested list/tuple, and its leaves in row-major order.
void flatten(const Value& v, int depth, Shape& shape, std::vector<const Value*>& leaves, bool& shape_set) {
  bool seq = v.is_list() || v.is_tuple();
  if (!shape_set) {
    if (seq) {
      if (shape.rank() >= kMaxRank) throw ValueError("Can't convert Python sequence nested deeper than 8 to Tensor.");
      shape.push_back(static_cast<int64_t>(v.items().size()));
      if (v.items().empty()) {
        shape_set = true;
        return;
      }
      for (const Value& x : v.items()) flatten(x, depth + 1, shape, leaves, shape_set);
      return;
    }
    shape_set = true;
    leaves.push_back(&v);
    return;
  }
  // The shape is fixed: every element must agree with it.
  bool want_seq = depth < shape.rank();
  if (seq != want_seq || (seq && static_cast<int64_t>(v.items().size()) != shape.dim(depth))) {
    throw ValueError("Can't convert non-rectangular Python sequence to Tensor.");
  }
  if (!seq) {
    leaves.push_back(&v);
    return;
  }
  for (const Value& x : v.items()) flatten(x, depth + 1, shape, leaves, shape_set);
}

std::string python_type_repr(const Value& v) { return "<class '" + v.type_name() + "'>"; }

[[noreturn]] void conversion_error(const Value& whole, const Value& bad, DType dtype) {
  if (current_graph() != nullptr) {
    throw TypeError("Expected " + dtype_repr(dtype) + ", but got " + str(bad) + " of type '" + bad.type_name() + "'.");
  }
  throw TypeError("Cannot convert " + repr(whole) + " to EagerTensor of dtype " + dtype_tf_string(dtype));
}

void unsupported(const Value& leaf) {
  throw ValueError("Attempt to convert a value (" + repr(leaf) + ") with an unsupported type (" +
                   python_type_repr(leaf) + ") to a Tensor.");
}

template <class T>
bool convert_leaf(const Value& leaf, T& out) {
  if constexpr (std::is_same_v<T, std::string>) {
    if (!leaf.is_str()) return false;
    out = leaf.as_str();
    return true;
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!leaf.is_bool()) return false;
    out = leaf.as_bool();
    return true;
  } else if constexpr (std::is_integral_v<T>) {
    if (!leaf.is_int() && !leaf.is_bool()) return false;
    int64_t i = leaf.as_int();
    if (i < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
        i > static_cast<int64_t>(std::numeric_limits<T>::max())) {
      return false;
    }
    out = static_cast<T>(i);
    return true;
  } else {
    if (!leaf.is_number()) return false;
    if constexpr (std::is_same_v<T, bfloat16>) {
      out = bfloat16(static_cast<float>(leaf.as_float()));
    } else {
      out = static_cast<T>(leaf.as_float());
    }
    return true;
  }
}

bool fits_int32(int64_t i) { return i >= INT32_MIN && i <= INT32_MAX; }

DType infer_leaves(const std::vector<const Value*>& leaves) {
  bool has_bool = false, has_int = false, has_float = false, has_str = false, big = false;
  for (const Value* l : leaves) {
    switch (l->kind()) {
      case Kind::Bool: has_bool = true; break;
      case Kind::Int: has_int = true; big = big || !fits_int32(l->as_int()); break;
      case Kind::Float: has_float = true; break;
      case Kind::Str: has_str = true; break;
      default: unsupported(*l);
    }
  }
  if (has_str) {
    if (has_bool || has_int || has_float) throw TypeError("Can't convert Python sequence with mixed types to Tensor.");
    return DType::String;
  }
  if (has_float) return DType::Float32;
  if (has_int) return big ? DType::Int64 : DType::Int32;
  if (has_bool) return DType::Bool;
  return DType::Float32;  // [] is a float32 tensor of shape (0,)
}

bool contains_tensor(const Value& v) {
  if (v.is_tensor()) return true;
  if (v.is_list() || v.is_tuple()) {
    for (const Value& x : v.items()) {
      if (contains_tensor(x)) return true;
    }
  }
  return false;
}

}  // namespace

std::string dtype_repr(DType t) { return dtype_name(t); }

Shape shape_from_value(const Value& v) {
  if (v.is_none()) return Shape::unknown_rank();
  if (std::optional<Shape> s = tensor_shape_of(v)) return *s;
  std::vector<int64_t> dims;
  for (const Value& d : iterate(v)) dims.push_back(d.is_none() ? kUnknownDim : d.as_int());
  return Shape(std::span<const int64_t>(dims));
}


DType infer_literal_dtype(const Value& v) {
  if (std::optional<Shape> s = tensor_shape_of(v)) return infer_literal_dtype(tensor_shape_dims_for_conversion(*s));
  Shape shape;
  std::vector<const Value*> leaves;
  bool shape_set = false;
  flatten(v, 0, shape, leaves, shape_set);
  return infer_leaves(leaves);
}

Tensor literal_to_tensor(const Value& v, std::optional<DType> dtype) {
  if (v.is_tensor()) {
    if (v.as_tensor().symbolic()) throw InternalError("literal_to_tensor of a symbolic tensor");
    return v.as_tensor().value();
  }
  if (std::optional<Shape> s = tensor_shape_of(v)) return literal_to_tensor(tensor_shape_dims_for_conversion(*s), dtype);
  Shape shape;
  std::vector<const Value*> leaves;
  bool shape_set = false;
  flatten(v, 0, shape, leaves, shape_set);
  DType dt = dtype ? *dtype : infer_leaves(leaves);
  if (dtype) {
    for (const Value* l : leaves) {
      if (!(l->is_number() || l->is_str())) unsupported(*l);
    }
  }
  Tensor t(dt, shape);
  dispatch_dtype(dt, [&]<class T>() {
    T* d = t.data<T>();
    for (size_t i = 0; i < leaves.size(); ++i) {
      if (!convert_leaf<T>(*leaves[i], d[i])) conversion_error(v, *leaves[i], dt);
    }
  });
  return t;
}

TensorHandle to_tensor(const Value& v, std::optional<DType> dtype) {
  if (v.is_variable()) return to_tensor(Value(variable_value::read(v)), dtype);
  if (std::optional<Tensor> a = ndarray_tensor(v)) return to_tensor(Value(std::move(*a)), dtype);
  if (v.is_tensor()) {
    const TensorHandle& h = v.as_tensor();
    if (dtype && h.dtype() != *dtype) {
      throw ValueError("Tensor conversion requested dtype " + dtype_repr(*dtype) + " for Tensor with dtype " +
                       dtype_repr(h.dtype()) + ": " + repr(v));
    }
    return h;
  }
  if ((v.is_list() || v.is_tuple()) && contains_tensor(v)) {
    // TF auto-packs a list holding tensors: tf.stack of the converted items.
    std::vector<TensorHandle> parts;
    std::optional<DType> dt = dtype;
    for (const Value& x : v.items()) {
      if (x.is_tensor() && !dt) dt = x.as_tensor().dtype();
    }
    for (const Value& x : v.items()) parts.push_back(to_tensor(x, dt));
    Attrs attrs{{"axis", int64_t{0}}, {"N", static_cast<int64_t>(parts.size())}};
    return apply_op1(op::Pack, parts, attrs, "packed");
  }
  return TensorHandle(literal_to_tensor(v, dtype));
}

TensorHandle to_tensor_hint(const Value& v, DType hint) {
  if (v.is_tensor() || v.is_variable()) return to_tensor(v);
  try {
    return to_tensor(v, hint);
  } catch (const TypeError&) {
    return to_tensor(v);
  }
}

TensorHandle to_tensor_for_op(const Value& v, DType dtype, std::string_view op, std::string_view param) {
  if (v.is_tensor() || v.is_variable()) return to_tensor(v);
  try {
    return to_tensor(v, dtype);
  } catch (const TypeError& e) {
    if (current_graph() == nullptr) throw;
    throw TypeError("Expected " + dtype_repr(dtype) + " passed to parameter '" + std::string(param) + "' of op '" +
                    std::string(op) + "', got " + repr(v) + " of type '" + v.type_name() + "' instead. Error: " +
                    e.what());
  }
}

}  // namespace ag
