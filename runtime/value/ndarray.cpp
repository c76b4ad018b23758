// NumPy values: construction (np.asarray's dtype discovery), conversion to
// Python values, text, truth, hashing, len and iteration.
#include "runtime/value/ndarray.h"

#include <algorithm>
#include <cstring>

#include "runtime/core/tensor_format.h"
#include "runtime/ops/eager.h"
#include "runtime/value/numpy_dtype.h"
#include "runtime/core/variable.h"

namespace ag::ndarray {
namespace {

Value make(Tensor t, bool is_scalar) {
  if (!t.defined()) throw InternalError("an ndarray of a null tensor");
  if (t.dtype() == DType::Variant) throw TypeError("a TensorList (variant) tensor has no NumPy value");
  return Value::ndarray(std::make_shared<NDArrayObj>(NDArrayObj{std::move(t), is_scalar}));
}

// ---- np.asarray: the shape and the pieces of a nested value.

/// A part of the value being converted: an array (or tensor) whose elements
/// fill the next block of the result, or one Python leaf.
struct Piece {
  Tensor t;
};

[[noreturn]] void inhomogeneous(const Shape& detected, int depth) {
  Shape prefix;
  for (int i = 0; i < depth; ++i) prefix.push_back(detected.dim(i));
  std::string dims = prefix.str();
  throw ValueError("setting an array element with a sequence. The requested array has an inhomogeneous shape after " +
                   std::to_string(depth) + " dimensions. The detected shape was " + dims +
                   " + inhomogeneous part.");
}

/// A Python leaf as the 0-d tensor NumPy discovers for it.
Tensor leaf_tensor(const Value& v) {
  switch (v.kind()) {
    case Kind::Bool: return Tensor::scalar<bool>(v.as_bool());
    case Kind::Int: return Tensor::scalar<int64_t>(v.as_int());
    case Kind::Float: return Tensor::scalar<double>(v.as_float());
    case Kind::Str:
      throw NotImplementedError("NumPy arrays of Python str (NumPy's unicode dtype) are not supported by agc; "
                                "arrays hold numbers, bools or bytes");
    case Kind::NDArray: return tensor(v);
    case Kind::Variable: return v.as_variable()->read();
    case Kind::Tensor: {
      const TensorHandle& h = v.as_tensor();
      if (h.symbolic()) {
        throw NotImplementedError("Cannot convert a symbolic tf.Tensor (" + h.output().name() +
                                  ") to a numpy array. This error may indicate that you're trying to pass a Tensor "
                                  "to a NumPy call, which is not supported.");
      }
      return h.value();
    }
    case Kind::None:
      throw NotImplementedError("NumPy object arrays (here of None) are not supported by agc");
    default: break;
  }
  throw NotImplementedError("NumPy object arrays (here of '" + v.type_name() + "') are not supported by agc");
}

bool is_sequence(const Value& v) { return v.is_list() || v.is_tuple(); }

/// The shape of `v` from `depth` on, checking every sibling agrees with the first.
void discover(const Value& v, int depth, Shape& shape, bool& shape_set, std::vector<Piece>& pieces) {
  if (is_sequence(v)) {
    const std::vector<Value>& items = v.items();
    if (!shape_set) {
      if (shape.rank() >= kMaxRank) {
        throw ValueError("setting an array element with a sequence: agc's arrays have at most " +
                         std::to_string(kMaxRank) + " dimensions");
      }
      shape.push_back(static_cast<int64_t>(items.size()));
      if (items.empty()) shape_set = true;
    } else if (depth >= shape.rank() || shape.dim(depth) != static_cast<int64_t>(items.size())) {
      inhomogeneous(shape, std::min(depth, shape.rank()));
    }
    for (const Value& x : items) discover(x, depth + 1, shape, shape_set, pieces);
    return;
  }
  Tensor t = leaf_tensor(v);
  if (!shape_set) {
    if (shape.rank() + t.rank() > kMaxRank) {
      throw ValueError("agc's arrays have at most " + std::to_string(kMaxRank) + " dimensions");
    }
    for (int i = 0; i < t.rank(); ++i) shape.push_back(t.shape().dim(i));
    shape_set = true;
  } else {
    bool fits = shape.rank() - depth == t.rank();
    for (int i = 0; fits && i < t.rank(); ++i) fits = shape.dim(depth + i) == t.shape().dim(i);
    if (!fits) inhomogeneous(shape, std::min(depth, shape.rank()));
  }
  pieces.push_back(Piece{std::move(t)});
}

/// The dtype NumPy discovers for the pieces: promoted as np.result_type
/// promotes arrays (no value-based rule: np.array([np.int8(1), 1000]) is int64).
DType discovered_dtype(const std::vector<Piece>& pieces) {
  if (pieces.empty()) return DType::Float64;  // np.array([]) is float64
  bool any_string = false, all_string = true;
  for (const Piece& p : pieces) {
    any_string = any_string || p.t.dtype() == DType::String;
    all_string = all_string && p.t.dtype() == DType::String;
  }
  if (any_string) {
    if (!all_string) throw NotImplementedError("NumPy arrays mixing bytes and numbers are not supported by agc");
    return DType::String;
  }
  DType d = pieces[0].t.dtype();
  for (size_t i = 1; i < pieces.size(); ++i) {
    if (pieces[i].t.dtype() != d) d = numpy::promote_types(d, pieces[i].t.dtype());
  }
  return d;
}

}  // namespace

Value array(Tensor t) { return make(std::move(t), false); }

Value scalar(Tensor t) {
  if (t.rank() != 0) throw InternalError("a NumPy scalar of rank " + std::to_string(t.rank()));
  return make(std::move(t), true);
}

Value result(Tensor t) { return t.rank() == 0 ? scalar(std::move(t)) : array(std::move(t)); }

bool is_scalar(const Value& v) { return v.as_ndarray().scalar; }

bool contains_ndarray(const Value& v) {
  switch (v.kind()) {
    case Kind::NDArray: return true;
    case Kind::List:
    case Kind::Tuple:
      return std::any_of(v.items().begin(), v.items().end(), [](const Value& x) { return contains_ndarray(x); });
    case Kind::Dict:
      return std::any_of(v.as_dict().entries.begin(), v.as_dict().entries.end(),
                         [](const auto& kv) { return contains_ndarray(kv.second); });
    default: return false;
  }
}

const Tensor& tensor(const Value& v) { return v.as_ndarray().data; }

Tensor cast(const Tensor& t, DType dtype) {
  if (t.dtype() == dtype) return t;
  if (t.dtype() == DType::String || dtype == DType::String) {
    throw NotImplementedError(std::string("casting NumPy ") + numpy::dtype_name(t.dtype()) + " values to " +
                              numpy::dtype_name(dtype) + " is not supported by agc");
  }
  Tensor in[1] = {t};
  return run_op1(op::Cast, in, Attrs{{"SrcT", t.dtype()}, {"DstT", dtype}, {"Truncate", false}});
}

Tensor to_array(const Value& v, std::optional<DType> dtype) {
  if (v.is_ndarray()) return dtype ? cast(tensor(v), *dtype) : tensor(v);
  Shape shape;
  bool shape_set = false;
  std::vector<Piece> pieces;
  discover(v, 0, shape, shape_set, pieces);
  DType dt = dtype ? *dtype : discovered_dtype(pieces);
  if (pieces.size() == 1 && pieces[0].t.shape() == shape) return cast(pieces[0].t, dt);
  Tensor out(dt, shape);
  int64_t offset = 0;
  for (const Piece& p : pieces) {
    Tensor part = cast(p.t, dt);
    int64_t n = part.num_elements();
    if (dt == DType::String) {
      const std::string* src = part.data<std::string>();
      std::string* dst = out.data<std::string>() + offset;
      for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
    } else if (n > 0) {
      std::memcpy(static_cast<char*>(out.raw_data()) + static_cast<size_t>(offset) * dtype_size(dt), part.raw_data(),
                  static_cast<size_t>(n) * dtype_size(dt));
    }
    offset += n;
  }
  return out;
}

numpy::Operand operand_of(const Tensor& t) {
  numpy::Operand o{t.dtype(), t.rank() == 0};
  if (o.scalar && t.dtype() != DType::String) {
    Value x = item(t, 0);
    if (x.is_float()) {
      o.float_value = x.as_float();
    } else {
      o.int_value = x.as_int();
    }
  }
  return o;
}

Value item(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DType::Float32: return Value(static_cast<double>(t.data<float>()[i]));
    case DType::Float64: return Value(t.data<double>()[i]);
    case DType::BFloat16: return Value(static_cast<double>(static_cast<float>(t.data<bfloat16>()[i])));
    case DType::Int32: return Value(static_cast<int64_t>(t.data<int32_t>()[i]));
    case DType::Int64: return Value(t.data<int64_t>()[i]);
    case DType::Int8: return Value(static_cast<int64_t>(t.data<int8_t>()[i]));
    case DType::UInt8: return Value(static_cast<int64_t>(t.data<uint8_t>()[i]));
    case DType::Bool: return Value(t.data<bool>()[i]);
    case DType::String: return scalar(Tensor::scalar<std::string>(t.data<std::string>()[i]));
    case DType::Variant: break;
  }
  throw TypeError("a TensorList (variant) tensor has no NumPy value");
}

namespace {

Value tolist_at(const Tensor& t, int axis, int64_t offset, int64_t stride) {
  if (axis == t.rank()) return item(t, offset);
  int64_t n = t.shape().dim(axis);
  int64_t inner = n == 0 ? 0 : stride / n;
  std::vector<Value> items;
  items.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) items.push_back(tolist_at(t, axis + 1, offset + i * inner, inner));
  return Value::list(std::move(items));
}

}  // namespace

Value tolist(const Tensor& t) { return tolist_at(t, 0, 0, t.num_elements()); }

std::string type_name(const Value& v) {
  if (!is_scalar(v)) return "numpy.ndarray";
  DType t = tensor(v).dtype();
  if (t == DType::String) return "bytes";
  if (t == DType::Bool) return "numpy.bool_";
  if (t == DType::BFloat16) return "bfloat16";
  return std::string("numpy.") + numpy::dtype_name(t);
}

std::string str(const Value& v) { return numpy_str(tensor(v)); }

std::string repr(const Value& v) { return is_scalar(v) ? numpy_str(tensor(v)) : numpy_array_repr(tensor(v)); }

bool truthy(const Value& v) {
  const Tensor& t = tensor(v);
  if (t.num_elements() > 1) {
    throw ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
  }
  if (t.num_elements() == 0) return false;  // NumPy 1.24 (with a DeprecationWarning)
  Value x = item(t, 0);
  if (x.is_ndarray()) return !tensor(x).data<std::string>()[0].empty();
  return ag::truthy(x);
}

size_t hash(const Value& v) {
  if (!is_scalar(v)) throw TypeError("unhashable type: 'numpy.ndarray'");
  const Tensor& t = tensor(v);
  if (t.dtype() == DType::String) return std::hash<std::string>{}(t.data<std::string>()[0]);
  return ag::hash(item(t, 0));
}

bool equal(const Value& a, const Value& b) {
  auto number = [](const Value& x) -> std::optional<Value> {
    if (x.is_ndarray()) {
      if (!is_scalar(x)) return std::nullopt;
      return item(tensor(x), 0);
    }
    return x;
  };
  if (a.is_ndarray() && b.is_ndarray() && !is_scalar(a) && !is_scalar(b)) return &a.as_ndarray() == &b.as_ndarray();
  std::optional<Value> x = number(a), y = number(b);
  if (!x || !y) return false;
  if (x->is_ndarray() || y->is_ndarray()) {
    // bytes: equal to bytes of the same content only.
    return x->is_ndarray() && y->is_ndarray() && tensor(*x).data<std::string>()[0] == tensor(*y).data<std::string>()[0];
  }
  return py_equal(*x, *y);
}

int64_t len(const Value& v) {
  if (is_scalar(v)) {
    if (tensor(v).dtype() == DType::String) return static_cast<int64_t>(tensor(v).data<std::string>()[0].size());
    throw TypeError("object of type '" + type_name(v) + "' has no len()");
  }
  const Tensor& t = tensor(v);
  if (t.rank() == 0) throw TypeError("len() of unsized object");
  return t.shape().dim(0);
}

std::vector<Value> iterate(const Value& v) {
  if (is_scalar(v)) throw TypeError("'" + type_name(v) + "' object is not iterable");
  const Tensor& t = tensor(v);
  if (t.rank() == 0) throw TypeError("iteration over a 0-d array");
  int64_t n = t.shape().dim(0);
  std::vector<Value> rows;
  rows.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) rows.push_back(ndarray::getitem(v, std::vector<IndexPart>{IndexPart(Value(i))}));
  return rows;
}

Value python_number(const Value& v) {
  const Tensor& t = tensor(v);
  if (t.num_elements() != 1) throw TypeError("only size-1 arrays can be converted to Python scalars");
  return item(t, 0);
}

}  // namespace ag::ndarray
