// Python's len, indexing, slicing and `in` on Values, with Python's error
// texts ("list index out of range", KeyError of the key's repr, ...). A
// tensor indexed with ints and slices becomes TF's StridedSlice.
#include <algorithm>
#include <limits>
#include <optional>

#include "runtime/value/set_value.h"
#include "runtime/value/convert.h"
#include "runtime/value/bytes_value.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/object_model.h"
#include "runtime/value/tensor_shape_value.h"
#include "runtime/value/symbolic_dispatch.h"
#include "runtime/value/value.h"
#include "runtime/value/iteration.h"
#include "runtime/value/variable_value.h"

namespace ag {
namespace {

// UTF-8 code point boundaries: Python indexes str by code point.
std::vector<size_t> code_points(const std::string& s) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  return starts;
}

bool ascii(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

const char* seq_word(const Value& v) { return v.is_str() ? "string" : (v.is_list() ? "list" : "tuple"); }

int64_t index_value(const Value& v, const Value& key) {
  if (key.is_index()) return key.as_int();
  if (v.is_str()) throw TypeError("string indices must be integers, not '" + key.type_name() + "'");
  throw TypeError(std::string(seq_word(v)) + " indices must be integers or slices, not " + key.type_name());
}

int64_t slice_part(const Value& v) {
  if (v.is_index()) return v.as_int();
  throw TypeError("slice indices must be integers or None or have an __index__ method");
}

}  // namespace

Value slice_object(const SliceSpec& s) {
  Value o = Value::object("slice");
  o.as_object().attrs = {{"start", s.start}, {"stop", s.stop}, {"step", s.step}};
  return o;
}

std::optional<SliceSpec> as_slice(const Value& v) {
  if (!v.is_object() || v.as_object().class_name != "slice" || v.as_object().attrs.size() != 3) return std::nullopt;
  const auto& a = v.as_object().attrs;
  return SliceSpec{a[0].second, a[1].second, a[2].second};
}

SliceRange slice_indices(int64_t n, const SliceSpec& s) {
  int64_t step = s.step.is_none() ? 1 : slice_part(s.step);
  if (step == 0) throw ValueError("slice step cannot be zero");
  if (step == std::numeric_limits<int64_t>::min()) step = -std::numeric_limits<int64_t>::max();
  int64_t lower = step < 0 ? -1 : 0;
  int64_t upper = step < 0 ? n - 1 : n;
  auto clamp = [&](const Value& part, int64_t dflt) {
    if (part.is_none()) return dflt;
    int64_t i = slice_part(part);
    if (i < 0) {
      i = i < -n ? lower : i + n;
      return std::max(i, lower);
    }
    return std::min(i, upper);
  };
  int64_t start = clamp(s.start, step < 0 ? upper : lower);
  int64_t stop = clamp(s.stop, step < 0 ? lower : upper);
  int64_t count = 0;
  if (step > 0 && start < stop) count = (stop - start - 1) / step + 1;
  if (step < 0 && stop < start) count = (start - stop - 1) / (-step) + 1;
  return {start, stop, step, count};
}

namespace {

// ---- Tensors: TF's _slice_helper for ints and slices.
[[noreturn]] void symbolic_iteration() {
  throw OperatorNotAllowedInGraphError(
      "Iterating over a symbolic `tf.Tensor` is not allowed. You can attempt the following resolutions to the "
      "problem: If you are running in Graph mode, use Eager execution mode or decorate this function with "
      "@tf.function. If you are using AutoGraph, you can try decorating this function with @tf.function. If that "
      "does not work, then you may be using an unsupported feature or your source code may not be visible to "
      "AutoGraph. See https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/"
      "reference/limitations.md#access-to-source-code for more information.");
}

constexpr const char* kSliceTypeError =
    "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 tensors are "
    "valid indices";

/// TF's _slice_helper: per subscript a begin, end and stride (Python ints,
/// or scalar int32/int64 tensors: an index `x[i]`, a slice bound `x[i:j]`),
/// stacked into the three vectors StridedSlice takes, inside the name scope
/// "strided_slice" ("strided_slice/stack", "strided_slice/stack_1", ...).
struct SliceBuilder {
  std::vector<Value> begin, end, strides;
  int64_t begin_mask = 0, end_mask = 0, ellipsis_mask = 0, shrink_mask = 0, new_axis_mask = 0;

  /// _check_index: a Python int, or a tensor of an index dtype that is not a vector.
  static Value checked_index(const Value& v) {
    if (v.is_int() || v.is_bool()) return Value(v.as_int());
    if (v.is_tensor()) {
      const TensorHandle& t = v.as_tensor();
      bool vector = t.shape().rank_known() && t.shape().rank() == 1;
      if ((t.dtype() == DType::Int32 || t.dtype() == DType::Int64) && !vector) return v;
    }
    throw TypeError(std::string(kSliceTypeError) + ", got " + repr(v));
  }

  void push(Value b, Value e, Value s) {
    begin.push_back(std::move(b));
    end.push_back(std::move(e));
    strides.push_back(std::move(s));
  }
  int64_t next_bit() const { return int64_t{1} << begin.size(); }

  void add_tensor_index(const Value& v) {
    Value i = checked_index(v);
    shrink_mask |= next_bit();
    push(i, i + Value(1), Value(1));
  }
  void add_index(int64_t i) {
    if (i < INT32_MIN || i >= INT32_MAX) {
      throw ValueError("tensor index " + std::to_string(i) + " is out of int32 range");
    }
    shrink_mask |= next_bit();
    push(Value(i), Value(i + 1), Value(1));
  }
  void add_ellipsis() {
    ellipsis_mask |= next_bit();  // a second one: the op's "Multiple ellipses" error
    push(Value(0), Value(0), Value(1));
  }
  void add_newaxis() {
    new_axis_mask |= next_bit();
    push(Value(0), Value(0), Value(1));
  }
  void add_slice(const SliceSpec& s) {
    // A bound beyond int32 is clamped: StridedSlice clamps it anyway.
    auto part = [](const Value& v) {
      Value p = checked_index(v);
      if (p.is_tensor()) return p;
      return Value(std::clamp<int64_t>(p.as_int(), INT32_MIN, INT32_MAX));
    };
    if (s.start.is_none()) begin_mask |= next_bit();
    if (s.stop.is_none()) end_mask |= next_bit();
    Value step = s.step.is_none() ? Value(1) : part(s.step);
    if (step.is_int() && step.as_int() == 0) throw ValueError("slice step cannot be zero");
    push(s.start.is_none() ? Value(0) : part(s.start), s.stop.is_none() ? Value(0) : part(s.stop), step);
  }

  /// array_ops.stack of one list: a constant of Python ints (int32), else
  /// the items auto-packed.
  static TensorHandle stack(const std::vector<Value>& v) {
    bool tensors = std::any_of(v.begin(), v.end(), [](const Value& x) { return x.is_tensor(); });
    if (tensors) return autopack(Value::list(v), std::nullopt, "stack");
    std::vector<int32_t> ints;
    for (const Value& x : v) ints.push_back(static_cast<int32_t>(x.as_int()));
    return constant_handle(Tensor::from_vector<int32_t>({static_cast<int64_t>(v.size())}, ints), "stack");
  }

  Value apply(const TensorHandle& x) const {
    OpScope scope("strided_slice");
    TensorHandle in[4] = {x, stack(begin), stack(end), stack(strides)};
    // Any int64 vector makes all three int64 (TF casts the others).
    if (in[1].dtype() == DType::Int64 || in[2].dtype() == DType::Int64 || in[3].dtype() == DType::Int64) {
      for (int k = 1; k < 4; ++k) {
        if (in[k].dtype() == DType::Int64) continue;
        TensorHandle from[1] = {in[k]};
        in[k] = apply_op1(op::Cast, from, Attrs{{"SrcT", in[k].dtype()}, {"DstT", DType::Int64}, {"Truncate", false}},
                          "Cast");
      }
    }
    Attrs attrs{{"begin_mask", begin_mask}, {"end_mask", end_mask}, {"ellipsis_mask", ellipsis_mask},
                {"new_axis_mask", new_axis_mask}, {"shrink_axis_mask", shrink_mask}};
    return Value(apply_op1(op::StridedSlice, in, attrs, scope.op_name()));
  }
};

}  // namespace

int64_t len(const Value& v) {
  switch (v.kind()) {
    case Kind::Str: {
      const std::string& s = v.as_str();
      return ascii(s) ? static_cast<int64_t>(s.size()) : static_cast<int64_t>(code_points(s).size());
    }
    case Kind::List:
    case Kind::Tuple: return static_cast<int64_t>(v.items().size());
    case Kind::Dict: return static_cast<int64_t>(v.as_dict().size());
    case Kind::Tensor: {
      const TensorHandle& t = v.as_tensor();
      if (t.symbolic()) {
        throw TypeError("len is not well defined for a symbolic Tensor (" + t.output().name() +
                        "). Please call `x.shape` rather than `len(x)` for shape information.");
      }
      if (t.value().rank() == 0) throw TypeError("Scalar tensor has no `len()`");
      return t.value().shape().dim(0);
    }
    case Kind::NDArray: return ndarray::len(v);
    case Kind::Set: return static_cast<int64_t>(v.as_set().size());
    default: break;
  }
  if (std::optional<Value> m = special_method(v, "__len__")) {
    Value n = (*m)({}, {});
    if (!n.is_int() && !n.is_bool()) {
      throw TypeError("'" + n.type_name() + "' object cannot be interpreted as an integer");
    }
    if (n.as_int() < 0) throw ValueError("__len__() should return >= 0");
    return n.as_int();
  }
  throw TypeError("object of type '" + v.type_name() + "' has no len()");
}

Value getitem(const Value& v, const Value& key) {
  // A variable slices its value (TF's _SliceHelperVar).
  if (v.is_variable()) return getitem(Value(variable_value::read(v)), key);
  switch (v.kind()) {
    case Kind::List:
    case Kind::Tuple: {
      const std::vector<Value>& items = v.items();
      int64_t n = static_cast<int64_t>(items.size());
      int64_t i = index_value(v, key);
      if (i < 0) i += n;
      if (i < 0 || i >= n) throw IndexError(std::string(seq_word(v)) + " index out of range");
      return items[static_cast<size_t>(i)];
    }
    case Kind::Str: {
      const std::string& s = v.as_str();
      int64_t i = index_value(v, key);
      if (ascii(s)) {
        int64_t n = static_cast<int64_t>(s.size());
        if (i < 0) i += n;
        if (i < 0 || i >= n) throw IndexError("string index out of range");
        return Value(std::string(1, s[static_cast<size_t>(i)]));
      }
      std::vector<size_t> cp = code_points(s);
      int64_t n = static_cast<int64_t>(cp.size());
      if (i < 0) i += n;
      if (i < 0 || i >= n) throw IndexError("string index out of range");
      size_t b = cp[static_cast<size_t>(i)];
      size_t e = static_cast<size_t>(i + 1) < cp.size() ? cp[static_cast<size_t>(i + 1)] : s.size();
      return Value(s.substr(b, e - b));
    }
    case Kind::Dict: return v.as_dict().subscript(key);
    case Kind::NDArray:
    case Kind::Tensor: {
      std::vector<IndexPart> parts;
      if (key.is_tuple()) {
        for (const Value& p : key.items()) parts.emplace_back(p);
      } else {
        parts.emplace_back(key);
      }
      return getitem(v, parts);
    }
    default: break;
  }
  if (std::optional<Value> m = special_method(v, "__getitem__")) return (*m)({key}, {});
  throw TypeError("'" + v.type_name() + "' object is not subscriptable");
}

namespace {

/// A subscript replayed by the layer Keras makes of it: args are the
/// tensor and the key as Python hands it to __getitem__ (slices as slice
/// objects, several parts as a tuple).
Value getitem_again(std::vector<Value> args, Kwargs) {
  std::vector<IndexPart> parts;
  auto add = [&](const Value& k) {
    if (std::optional<SliceSpec> s = as_slice(k)) parts.emplace_back(*s);
    else parts.emplace_back(k);
  };
  const Value& key = args.at(1);
  if (key.is_tuple()) {
    for (const Value& k : key.items()) add(k);
  } else {
    add(key);
  }
  return getitem(args.at(0), parts);
}

/// Keras's dispatch of a subscript of a KerasTensor (tf.__operators__.getitem).
std::optional<Value> dispatch_getitem(const Value& v, const std::vector<IndexPart>& parts) {
  if (!v.is_tensor() || !v.as_tensor().symbolic()) return std::nullopt;
  std::vector<Value> keys;
  for (const IndexPart& part : parts) {
    const SliceSpec* s = std::get_if<SliceSpec>(&part);
    keys.push_back(s ? slice_object(*s) : std::get<Value>(part));
  }
  Value key = keys.size() == 1 ? keys[0] : Value::tuple(std::move(keys));
  return symbolic_dispatch("__operators__.getitem", getitem_again, {v, key}, {});
}

}  // namespace

Value getitem(const Value& v, const std::vector<IndexPart>& parts) {
  if (bytes_value::is_bytes(v)) return bytes_value::getitem(v, parts);
  if (v.is_ndarray()) return ndarray::getitem(v, parts);
  if (!v.is_tensor()) {
    if (parts.size() == 1) {
      if (const SliceSpec* s = std::get_if<SliceSpec>(&parts[0])) return getslice(v, *s);
      return getitem(v, std::get<Value>(parts[0]));
    }
    // An object's __getitem__ takes the tuple of keys, slices as slice objects.
    if (std::optional<Value> m = special_method(v, "__getitem__")) {
      std::vector<Value> keys;
      for (const IndexPart& part : parts) {
        const SliceSpec* s = std::get_if<SliceSpec>(&part);
        keys.push_back(s ? slice_object(*s) : std::get<Value>(part));
      }
      return (*m)({Value::tuple(std::move(keys))}, {});
    }
    throw TypeError(std::string(v.is_str() || v.is_list() || v.is_tuple() ? seq_word(v) : v.type_name().c_str()) +
                    " indices must be integers or slices, not tuple");
  }
  if (std::optional<Value> d = dispatch_getitem(v, parts)) return *d;
  SliceBuilder sb;
  for (const IndexPart& part : parts) {
    if (const SliceSpec* s = std::get_if<SliceSpec>(&part)) {
      sb.add_slice(*s);
      continue;
    }
    const Value& p = std::get<Value>(part);
    if (p.is_index()) {
      sb.add_index(p.as_int());
    } else if (p.is_tensor()) {
      sb.add_tensor_index(p);
    } else if (p.is_none()) {
      sb.add_newaxis();
    } else if (p.is_ellipsis()) {
      sb.add_ellipsis();
    } else {
      throw TypeError(std::string(kSliceTypeError) + ", got " + repr(p));
    }
  }
  return sb.apply(v.as_tensor());
}

Value getslice(const Value& v, const SliceSpec& s) {
  if (std::optional<Shape> shape = tensor_shape_of(v)) {
    if (!shape->rank_known()) {
      // TF: the rank is known only when both bounds are, and not negative.
      if (!s.step.is_none()) throw ValueError("Steps are not yet handled");
      int64_t start = s.start.is_none() ? 0 : slice_part(s.start);
      if (s.stop.is_none() || start < 0 || slice_part(s.stop) < 0) return tensor_shape(Shape::unknown_rank());
      return tensor_shape(Shape::unknown_dims(static_cast<int>(std::max<int64_t>(slice_part(s.stop) - start, 0))));
    }
    SliceRange r = slice_indices(shape->rank(), s);
    Shape out;
    for (int64_t k = 0, i = r.start; k < r.count; ++k, i += r.step) out.push_back(shape->dim(static_cast<int>(i)));
    return tensor_shape(out);
  }
  if (v.is_tensor()) {
    if (std::optional<Value> d = dispatch_getitem(v, {s})) return *d;
    SliceBuilder sb;
    sb.add_slice(s);
    return sb.apply(v.as_tensor());
  }
  if (v.is_ndarray()) return getitem(v, {IndexPart(s)});
  if (v.is_str()) {
    const std::string& str = v.as_str();
    bool a = ascii(str);
    std::vector<size_t> cp = a ? std::vector<size_t>{} : code_points(str);
    int64_t n = a ? static_cast<int64_t>(str.size()) : static_cast<int64_t>(cp.size());
    SliceRange r = slice_indices(n, s);
    std::string out;
    for (int64_t k = 0, i = r.start; k < r.count; ++k, i += r.step) {
      if (a) {
        out += str[static_cast<size_t>(i)];
      } else {
        size_t b = cp[static_cast<size_t>(i)];
        size_t e = static_cast<size_t>(i + 1) < cp.size() ? cp[static_cast<size_t>(i + 1)] : str.size();
        out.append(str, b, e - b);
      }
    }
    return Value(std::move(out));
  }
  if (v.is_list() || v.is_tuple()) {
    const std::vector<Value>& items = v.items();
    SliceRange r = slice_indices(static_cast<int64_t>(items.size()), s);
    std::vector<Value> out;
    out.reserve(static_cast<size_t>(r.count));
    for (int64_t k = 0, i = r.start; k < r.count; ++k, i += r.step) out.push_back(items[static_cast<size_t>(i)]);
    return v.is_list() ? Value::list(std::move(out)) : Value::tuple(std::move(out));
  }
  // A native class's slicing (a RaggedTensor's rt[1:]): Python passes a
  // slice object to __getitem__; agc has none, so such classes define
  // __getslice__(start, stop, step).
  if (std::optional<Value> m = special_method(v, "__getslice__")) return (*m)({s.start, s.stop, s.step}, {});
  throw TypeError("'" + v.type_name() + "' object is not subscriptable");
}

namespace {

/// The type name Python's item assignment errors print: CPython's tp_name,
/// the full path for EagerTensor, a C extension type.
std::string item_type_name(const Value& v) {
  std::string name = v.type_name();
  return name == "EagerTensor" ? "tensorflow.python.framework.ops.EagerTensor" : name;
}

}  // namespace

void setitem(const Value& v, const Value& key, Value x) {
  if (v.is_list()) {
    std::vector<Value>& items = v.items();
    int64_t n = static_cast<int64_t>(items.size());
    int64_t i = index_value(v, key);
    if (i < 0) i += n;
    if (i < 0 || i >= n) throw IndexError("list assignment index out of range");
    items[static_cast<size_t>(i)] = std::move(x);
    return;
  }
  if (v.is_dict()) {
    v.as_dict().set(key, std::move(x));
    return;
  }
  if (v.is_ndarray()) {
    std::vector<IndexPart> parts;
    if (key.is_tuple()) {
      for (const Value& p : key.items()) parts.emplace_back(p);
    } else {
      parts.emplace_back(key);
    }
    ndarray::setitem(v, parts, x);
    return;
  }
  if (std::optional<Value> m = special_method(v, "__setitem__")) {
    (*m)({key, std::move(x)}, {});
    return;
  }
  throw TypeError("'" + item_type_name(v) + "' object does not support item assignment");
}

void setitem(const Value& v, const std::vector<IndexPart>& parts, Value x) {
  if (v.is_ndarray()) {
    ndarray::setitem(v, parts, x);
    return;
  }
  if (parts.size() == 1 && std::holds_alternative<Value>(parts[0])) {
    setitem(v, std::get<Value>(parts[0]), std::move(x));
    return;
  }
  if (v.is_list() && parts.size() == 1) {
    // list[start:stop:step] = iterable, as Python assigns a slice.
    const SliceSpec& s = std::get<SliceSpec>(parts[0]);
    std::vector<Value>& items = v.items();
    std::vector<Value> src = iterate(x);
    SliceRange r = slice_indices(static_cast<int64_t>(items.size()), s);
    if (r.step == 1) {
      int64_t stop = std::max(r.start, r.stop);
      items.erase(items.begin() + r.start, items.begin() + stop);
      items.insert(items.begin() + r.start, src.begin(), src.end());
      return;
    }
    if (static_cast<int64_t>(src.size()) != r.count) {
      throw ValueError("attempt to assign sequence of size " + std::to_string(src.size()) +
                       " to extended slice of size " + std::to_string(r.count));
    }
    for (int64_t k = 0, i = r.start; k < r.count; ++k, i += r.step) items[static_cast<size_t>(i)] = src[static_cast<size_t>(k)];
    return;
  }
  if (v.is_list()) throw TypeError("list indices must be integers or slices, not tuple");
  throw TypeError("'" + item_type_name(v) + "' object does not support item assignment");
}

void delitem(const Value& v, const Value& key) {
  if (v.is_list()) {
    std::vector<Value>& items = v.items();
    int64_t n = static_cast<int64_t>(items.size());
    int64_t i = index_value(v, key);
    if (i < 0) i += n;
    if (i < 0 || i >= n) throw IndexError("list assignment index out of range");
    items.erase(items.begin() + i);
    return;
  }
  if (v.is_dict()) {
    v.as_dict().erase(key);
    return;
  }
  if (std::optional<Value> m = special_method(v, "__delitem__")) {
    (*m)({key}, {});
    return;
  }
  throw TypeError("'" + item_type_name(v) + "' object doesn't support item deletion");
}

bool contains(const Value& container, const Value& item) {
  switch (container.kind()) {
    case Kind::List:
    case Kind::Tuple:
      for (const Value& x : container.items()) {
        if (x.is(item) || (!x.is_tensor() && !item.is_tensor() && py_equal(x, item))) return true;
      }
      return false;
    case Kind::Str:
      if (!item.is_str()) {
        throw TypeError("'in <string>' requires string as left operand, not " + item.type_name());
      }
      return container.as_str().find(item.as_str()) != std::string::npos;
    case Kind::Dict: return container.as_dict().find(item) >= 0;
    case Kind::Set: return container.as_set().contains(item);
    case Kind::NDArray: {
      if (bytes_value::is_bytes(container)) return bytes_value::contains(container, item);
      // NumPy's __contains__: (a == item).any().
      Value eq = container == item;
      if (!eq.is_ndarray()) return truthy(eq);
      const Tensor& t = ndarray::tensor(eq);
      return std::any_of(t.data<bool>(), t.data<bool>() + t.num_elements(), [](bool b) { return b; });
    }
    default: break;
  }
  if (std::optional<Value> m = special_method(container, "__contains__")) return truthy((*m)({item}, {}));
  if (special_method(container, "__iter__")) return contains(Value::tuple(iterate(container)), item);
  throw TypeError("argument of type '" + container.type_name() + "' is not iterable");
}

std::vector<Value> iterate(const Value& v) {
  switch (v.kind()) {
    case Kind::List:
    case Kind::Tuple: return v.items();
    case Kind::Str: {
      const std::string& s = v.as_str();
      std::vector<size_t> cp = code_points(s);
      std::vector<Value> out;
      for (size_t k = 0; k < cp.size(); ++k) {
        size_t e = k + 1 < cp.size() ? cp[k + 1] : s.size();
        out.emplace_back(s.substr(cp[k], e - cp[k]));
      }
      return out;
    }
    case Kind::Dict: {
      std::vector<Value> out;
      for (const auto& [k, x] : v.as_dict().entries) out.push_back(k);
      return out;
    }
    case Kind::Tensor: {
      if (v.as_tensor().symbolic()) symbolic_iteration();
      int64_t n = len(v);
      std::vector<Value> out;
      for (int64_t i = 0; i < n; ++i) out.push_back(getitem(v, Value(i)));
      return out;
    }
    case Kind::NDArray: return bytes_value::is_bytes(v) ? bytes_value::iterate(v) : ndarray::iterate(v);
    case Kind::Set: return v.as_set().items();
    default: break;
  }
  // __iter__ returning something iterable (a list, a tuple, an iterator
  // object): the elements are taken at once, as everywhere here.
  if (special_method(v, "__iter__")) {
    std::vector<Value> out;
    for (const Value& x : Iteration(v)) out.push_back(x);
    return out;
  }
  throw TypeError("'" + v.type_name() + "' object is not iterable");
}

}  // namespace ag
