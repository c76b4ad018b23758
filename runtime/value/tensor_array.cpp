#include "runtime/value/tensor_array.h"

#include <algorithm>
#include <string>
#include <utility>

#include "runtime/core/tensor_list.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/tensor_shape_value.h"

namespace ag::tensor_array {
namespace {

TensorHandle apply(OpType op, std::vector<TensorHandle> in, const Attrs& attrs, std::string_view name = {}) {
  return apply_op1(op, in, attrs, name.empty() ? op.name() : name);
}

/// The eager rows of `t` (along axis 0), as tensors (Unpack).
std::vector<Value> rows_of(const Value& t) {
  TensorHandle h = to_tensor(t);
  std::vector<Value> rows;
  for (TensorHandle& r : apply_op(op::Unpack, std::span<const TensorHandle>(&h, 1), Attrs{{"axis", int64_t{0}}})) {
    rows.emplace_back(std::move(r));
  }
  return rows;
}

/// TensorShape's str(): "<unknown>" for an unknown rank, else "(None, 3)".
std::string shape_str(const Shape& s) { return s.rank_known() ? s.str() : "<unknown>"; }

/// An index argument of the eager implementation as a Python int.
int64_t eager_index(const Value& v) {
  if (!v.is_tensor()) return v.as_int();
  const TensorHandle& h = v.as_tensor();
  if (h.symbolic()) {
    throw TypeError("a TensorArray created eagerly cannot be used while a graph is traced; create it inside the "
                    "tf.function");
  }
  const Tensor& t = h.value();
  if (t.rank() == 0 && t.dtype() == DType::Int32) return t.scalar_value<int32_t>();
  if (t.rank() == 0 && t.dtype() == DType::Int64) return t.scalar_value<int64_t>();
  throw TypeError("TensorArray indices must be integer scalars, not " + str(v));
}

TensorHandle index_tensor(const Value& v) { return to_tensor(v, DType::Int32); }

/// convert_to_tensor(value, preferred_dtype=dtype).
TensorHandle element(const TensorArrayObj& ta, const Value& value) {
  if (value.is_tensor() || ta.dtype == DType::Variant) return to_tensor(value);
  return to_tensor_hint(value, ta.dtype);
}

/// _GraphTensorArrayV2._check_element_shape.
void check_element_shape(TensorArrayObj& ta, const Shape& shape) {
  if (!shape.is_compatible_with(ta.element_shape)) {
    throw ValueError("Inconsistent shapes: saw " + shape_str(shape) + " but expected " + shape_str(ta.element_shape) +
                     " ");
  }
  if (ta.infer_shape) ta.element_shape = merge_shapes(ta.element_shape, shape);
}

Attrs list_attrs(const TensorArrayObj& ta) {
  return Attrs{{"element_dtype", ta.dtype}, {"element_shape", ta.element_shape}};
}

std::shared_ptr<TensorArrayObj> copy_of(const TensorArrayObj& ta) { return std::make_shared<TensorArrayObj>(ta); }

/// The element dtype a read or stack needs: known by the first write.
DType known_dtype(const TensorArrayObj& ta) {
  if (ta.dtype == DType::Variant) {
    throw ValueError("the element type of this TensorArray is not known: nothing was appended to the list");
  }
  return ta.dtype;
}

// ---- eager (_EagerTensorArray)

/// _maybe_zero: element ix, or zeros of the element shape when unwritten.
TensorHandle maybe_zero(TensorArrayObj& ta, size_t ix) {
  std::optional<TensorHandle>& t = ta.items[ix];
  if (!t) {
    if (!ta.element_shape.fully_defined()) {
      throw ValueError("Cannot convert a partially known TensorShape " + shape_str(ta.element_shape) + " to a Tensor.");
    }
    t = TensorHandle(Tensor::zeros(ta.dtype, ta.element_shape));
  }
  return *t;
}

void eager_write(TensorArrayObj& ta, int64_t index, const Value& value) {
  if (index < 0) {
    throw OutOfRangeError("Writing to negative indices (index " + std::to_string(index) + ") is not allowed.");
  }
  auto size = static_cast<int64_t>(ta.items.size());
  if (index >= size) {
    if (!ta.dynamic_size) {
      throw OutOfRangeError("Tried to write to index " + std::to_string(index) +
                            " but array is not resizeable and size is: " + std::to_string(size) + " ");
    }
    ta.items.resize(static_cast<size_t>(index) + 1);
  }
  TensorHandle v = element(ta, value);
  if (ta.dtype == DType::Variant) ta.dtype = v.dtype();
  if (v.dtype() != ta.dtype) {
    throw InvalidArgumentError("TensorArray dtype is " + dtype_repr(ta.dtype) + " but Op is trying to write dtype " +
                               dtype_repr(v.dtype()) + " ");
  }
  if (!ta.element_shape.is_compatible_with(v.shape())) {
    throw ValueError("Incompatible shape for value (" + shape_str(v.shape()) + "), expected (" +
                     shape_str(ta.element_shape) + ")");
  }
  if (ta.infer_shape) ta.element_shape = merge_shapes(ta.element_shape, v.shape());
  ta.items[static_cast<size_t>(index)] = v;
}

Value eager_read(TensorArrayObj& ta, int64_t index) {
  if (index < 0) {
    throw OutOfRangeError("Reading from negative indices (index " + std::to_string(index) + ") is not allowed.");
  }
  if (index >= static_cast<int64_t>(ta.items.size())) {
    throw OutOfRangeError("Tried to read from index " + std::to_string(index) +
                          " but array size is: " + std::to_string(ta.items.size()) + " ");
  }
  auto ix = static_cast<size_t>(index);
  if (!ta.items[ix] &&
      std::find(ta.previously_read.begin(), ta.previously_read.end(), index) != ta.previously_read.end()) {
    throw InvalidArgumentError("Could not read index " + std::to_string(index) +
                               " twice because it was cleared after a previous read (perhaps try setting "
                               "clear_after_read = false?)");
  }
  TensorHandle t = maybe_zero(ta, ix);
  if (ta.clear_after_read) {
    ta.items[ix].reset();
    ta.previously_read.push_back(index);
  }
  return Value(std::move(t));
}

Value eager_stack(TensorArrayObj& ta, const std::vector<size_t>& indices) {
  std::vector<Value> items;
  for (size_t ix : indices) items.emplace_back(maybe_zero(ta, ix));
  if (items.empty()) {
    if (!ta.element_shape.fully_defined()) {
      throw ValueError("Cannot convert a partially known TensorShape " + shape_str(ta.element_shape) +
                       " to a Tensor.");
    }
    Shape s{0};
    for (int64_t d : ta.element_shape.dims()) s.push_back(d);
    return Value(Tensor::zeros(known_dtype(ta), s));
  }
  std::vector<TensorHandle> in;
  for (const Value& item : items) in.push_back(to_tensor(item));
  const auto n = static_cast<int64_t>(in.size());
  return Value(apply(op::Pack, std::move(in), Attrs{{"axis", int64_t{0}}, {"N", n}}, "stack"));
}

/// TensorShape.as_list() as Python prints it: "[2, 3]".
std::string as_list_str(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.dims().size(); ++i) {
    if (i > 0) out += ", ";
    out += s.dims()[i] < 0 ? "None" : std::to_string(s.dims()[i]);
  }
  return out + "]";
}

/// value.shape[1:]: unknown for an unknown rank, () for a scalar.
Shape trailing_shape(const Shape& s) {
  if (!s.rank_known()) return Shape::unknown_rank();
  return s.rank() == 0 ? Shape{} : Shape(s.dims().subspan(1));
}

/// [d] + rest (rest's rank is known).
Shape with_first(int64_t d, const Shape& rest) {
  Shape out{d};
  for (int64_t x : rest.dims()) out.push_back(x);
  return out;
}

/// The values of `lengths` when known while tracing (a Python sequence or a
/// concrete tensor), as TF's tensor_util.constant_value.
std::optional<std::vector<int64_t>> known_ints(const Value& v) {
  if (v.is_tensor()) {
    if (v.as_tensor().symbolic()) return std::nullopt;
    const Tensor& t = v.as_tensor().value();
    if (t.rank() != 1) return std::nullopt;
  }
  std::vector<int64_t> out;
  for (const Value& x : v.is_tensor() ? rows_of(v) : iterate(v)) out.push_back(eager_index(x));
  return out;
}

}  // namespace

Value create(DType dtype, const Value& size, bool dynamic_size, const Value& clear_after_read, bool infer_shape,
             const Value& element_shape) {
  auto ta = std::make_shared<TensorArrayObj>();
  ta->dtype = dtype;
  ta->dynamic_size = dynamic_size;
  ta->infer_shape = infer_shape;
  ta->element_shape = shape_from_value(element_shape);
  if (current_graph() != nullptr) {
    if (size.is_none()) throw ValueError("Size must be provided if flow is not provided");
    ta->size = size;
    ta->flow = apply(op::TensorListReserve, {index_tensor(size)}, list_attrs(*ta), "TensorArrayV2");
  } else {
    if (size.is_none()) throw ValueError("Size must be declared for TensorArrays when eager execution is enabled.");
    int64_t n = eager_index(size);
    ta->items.resize(static_cast<size_t>(std::max<int64_t>(n, 0)));
    ta->clear_after_read = clear_after_read.is_none() ? true : truthy(clear_after_read);
  }
  return Value::tensor_array(std::move(ta));
}

Value with_flow(const Value& ta, TensorHandle flow) {
  auto out = copy_of(ta.as_tensor_array());
  out->flow = std::move(flow);
  return Value::tensor_array(std::move(out));
}

Value write(const Value& v, const Value& index, const Value& value) {
  TensorArrayObj& ta = v.as_tensor_array();
  if (!ta.graph()) {
    eager_write(ta, eager_index(index), value);
    return v;
  }
  TensorHandle item = element(ta, value);
  check_element_shape(ta, item.shape());
  TensorHandle flow = apply(op::TensorListSetItem, {*ta.flow, index_tensor(index), item},
                            Attrs{{"resize_if_index_out_of_bounds", ta.dynamic_size}});
  Value out = with_flow(v, flow);
  if (ta.dtype == DType::Variant) out.as_tensor_array().dtype = item.dtype();
  return out;
}

Value read(const Value& v, const Value& index) {
  TensorArrayObj& ta = v.as_tensor_array();
  if (!ta.graph()) return eager_read(ta, eager_index(index));
  known_dtype(ta);
  return Value(apply(op::TensorListGetItem, {*ta.flow, index_tensor(index)}, list_attrs(ta)));
}

Value stack(const Value& v) {
  TensorArrayObj& ta = v.as_tensor_array();
  if (!ta.graph()) {
    std::vector<size_t> all(ta.items.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    return eager_stack(ta, all);
  }
  known_dtype(ta);
  int64_t num_elements = -1;
  if (!ta.dynamic_size && ta.size.is_int()) num_elements = ta.size.as_int();
  Attrs attrs = list_attrs(ta);
  attrs.set("num_elements", num_elements);
  return Value(apply(op::TensorListStack, {*ta.flow}, attrs));
}

Value gather(const Value& v, const Value& indices) {
  TensorArrayObj& ta = v.as_tensor_array();
  if (!ta.graph()) {
    std::vector<size_t> picked;
    for (const Value& i : indices.is_tensor() ? rows_of(indices) : iterate(indices)) {
      int64_t k = eager_index(i);
      if (k < 0 || k >= static_cast<int64_t>(ta.items.size())) {
        throw OutOfRangeError("Tried to read from index " + std::to_string(k) +
                              " but array size is: " + std::to_string(ta.items.size()) + " ");
      }
      picked.push_back(static_cast<size_t>(k));
    }
    return eager_stack(ta, picked);
  }
  known_dtype(ta);
  return Value(apply(op::TensorListGather, {*ta.flow, index_tensor(indices)}, list_attrs(ta)));
}

Value unstack(const Value& v, const Value& value) {
  TensorArrayObj& ta = v.as_tensor_array();
  TensorHandle t = element(ta, value);
  if (ta.dtype == DType::Variant) ta.dtype = t.dtype();
  if (!ta.graph()) {
    std::vector<Value> rows = rows_of(Value(t));
    if (rows.size() > ta.items.size() && !ta.dynamic_size) {
      throw ValueError("Cannot unstack " + std::to_string(rows.size()) + " tensors into a TensorArray of static size " +
                       std::to_string(ta.items.size()));
    }
    ta.items.clear();
    for (const Value& r : rows) ta.items.emplace_back(r.as_tensor());
    return v;
  }
  const Shape& s = t.shape();
  Shape elem = s.rank_known() && s.rank() >= 1 ? Shape(s.dims().subspan(1)) : Shape::unknown_rank();
  check_element_shape(ta, elem);
  return with_flow(v, apply(op::TensorListFromTensor, {t}, Attrs{{"element_shape", elem}}));
}

Value concat(const Value& v) {
  TensorArrayObj& ta = v.as_tensor_array();
  if (!ta.graph()) {
    std::vector<TensorHandle> in;
    for (size_t i = 0; i < ta.items.size(); ++i) in.push_back(maybe_zero(ta, i));
    // array_ops.concat of one tensor is its identity.
    if (in.size() == 1) return Value(apply(op::Identity, {in[0]}, {}, "concat"));
    const auto n = static_cast<int64_t>(in.size());
    in.emplace_back(Tensor::scalar<int32_t>(0));
    try {
      return Value(apply(op::ConcatV2, std::move(in), Attrs{{"N", n}}, "concat"));
    } catch (const OpError&) {
      for (size_t i = 0; i < ta.items.size(); ++i) {
        if (ta.items[i]->shape().rank() == 0) {
          throw InvalidArgumentError("Concat saw a scalar shape at index " + std::to_string(i) +
                                     " but requires at least vectors.");
        }
      }
      throw;
    }
  }
  known_dtype(ta);
  Shape elem = Shape::unknown_rank();
  if (ta.element_shape.rank_known()) elem = with_first(kUnknownDim, trailing_shape(ta.element_shape));
  // leading_dims empty, as TF's Python passes it.
  std::vector<TensorHandle> in{*ta.flow, TensorHandle(Tensor(DType::Int64, Shape{0}))};
  return Value(apply_op(op::TensorListConcatV2, in, Attrs{{"element_dtype", ta.dtype}, {"element_shape", elem}},
                        "TensorListConcatV2")[0]);
}

Value split(const Value& v, const Value& value, const Value& lengths) {
  TensorArrayObj& ta = v.as_tensor_array();
  // TF only logs a dtype mismatch here (_check_dtypes); later ops fail on it.
  TensorHandle t = element(ta, value);
  if (ta.dtype == DType::Variant) ta.dtype = t.dtype();
  if (!ta.graph()) {
    TensorHandle len = to_tensor(lengths);
    const Shape& ls = len.shape();
    const Shape& vs = t.shape();
    if (ls.rank() != 1) {
      throw InvalidArgumentError("Expected lengths to be a vector, received shape: " + as_list_str(ls) + " ");
    }
    if (vs.rank() == 0) {
      throw InvalidArgumentError("Expected value to be at least a vector, but received shape: " + as_list_str(vs) +
                                 " ");
    }
    int64_t sum = 0;
    std::vector<int64_t> ls_values = *known_ints(Value(len));
    for (int64_t x : ls_values) sum += x;
    if (sum != vs.dim(0)) {
      throw InvalidArgumentError("Expected sum of lengths to be equal to values.shape[0], but sum of lengths is " +
                                 std::to_string(sum) + " and value's shape is: " + as_list_str(vs) + " ");
    }
    if (!ta.dynamic_size && ls.dim(0) != static_cast<int64_t>(ta.items.size())) {
      throw InvalidArgumentError("TensorArray's size is not equal to the size of lengths (" +
                                 std::to_string(ta.items.size()) + " vs. " + std::to_string(ls.dim(0)) +
                                 "), and the TensorArray is not marked as dynamically resizeable.");
    }
    TensorHandle in[3] = {t, len, TensorHandle(Tensor::scalar<int32_t>(0))};
    std::vector<TensorHandle> pieces =
        apply_op(op::SplitV, in, Attrs{{"num_split", ls.dim(0)}}, "split");
    ta.items.assign(pieces.begin(), pieces.end());
    return v;
  }
  TensorHandle len = to_tensor(lengths);
  if (len.dtype() != DType::Int64) {
    len = apply(op::Cast, {len}, Attrs{{"SrcT", len.dtype()}, {"DstT", DType::Int64}, {"Truncate", false}}, "Cast");
  }
  std::optional<std::vector<int64_t>> known = known_ints(lengths);
  if (t.shape().rank_known() && known && !known->empty() &&
      std::all_of(known->begin(), known->end(), [&](int64_t x) { return x == known->front(); })) {
    check_element_shape(ta, with_first(known->front(), trailing_shape(t.shape())));
  }
  return with_flow(v, apply(op::TensorListSplit, {t, len}, Attrs{{"element_shape", ta.element_shape}}));
}

Value scatter(const Value& v, const Value& indices, const Value& value) {
  TensorArrayObj& ta = v.as_tensor_array();
  if (!ta.graph()) {
    std::vector<Value> ix = indices.is_tensor() ? rows_of(indices) : iterate(indices);
    std::vector<Value> rows = rows_of(value);
    for (size_t i = 0; i < std::min(ix.size(), rows.size()); ++i) eager_write(ta, eager_index(ix[i]), rows[i]);
    return v;
  }
  TensorHandle t = element(ta, value);
  check_element_shape(ta, trailing_shape(t.shape()));
  TensorHandle flow = apply(op::TensorListScatterIntoExistingList, {*ta.flow, t, index_tensor(indices)}, {});
  Value out = with_flow(v, flow);
  if (ta.dtype == DType::Variant) out.as_tensor_array().dtype = t.dtype();
  return out;
}

Value close(const Value& v) {
  TensorArrayObj& ta = v.as_tensor_array();
  if (!ta.graph()) ta.items.clear();
  return Value();
}

Value size(const Value& v) {
  TensorArrayObj& ta = v.as_tensor_array();
  if (!ta.graph()) return Value(Tensor::scalar<int32_t>(static_cast<int32_t>(ta.items.size())));
  if (!ta.dynamic_size && !ta.size.is_none()) return Value(to_tensor(ta.size, DType::Int32));
  return Value(apply(op::TensorListLength, {*ta.flow}, {}));
}

Value identity(const Value& v) {
  TensorArrayObj& ta = v.as_tensor_array();
  if (!ta.graph()) return v;
  return with_flow(v, apply(op::Identity, {*ta.flow}, {}));
}

Value append(const Value& v, const Value& value) {
  TensorArrayObj& ta = v.as_tensor_array();
  if (!ta.graph()) {
    eager_write(ta, static_cast<int64_t>(ta.items.size()), value);
    return v;
  }
  TensorHandle item = element(ta, value);
  check_element_shape(ta, item.shape());
  Value out = with_flow(v, apply(op::TensorListPushBack, {*ta.flow, item}, {}));
  out.as_tensor_array().dynamic_size = true;
  if (ta.dtype == DType::Variant) out.as_tensor_array().dtype = item.dtype();
  return out;
}

std::pair<Value, Value> pop(const Value& v) {
  TensorArrayObj& ta = v.as_tensor_array();
  if (!ta.graph()) {
    if (ta.items.empty()) throw IndexError("pop from empty list");
    TensorHandle last = maybe_zero(ta, ta.items.size() - 1);
    ta.items.pop_back();
    return {v, Value(std::move(last))};
  }
  known_dtype(ta);
  std::vector<TensorHandle> in{*ta.flow};
  std::vector<TensorHandle> outs = apply_op(op::TensorListPopBack, in, list_attrs(ta), "TensorListPopBack");
  return {with_flow(v, outs[0]), Value(outs[1])};
}

Value getattr(const Value& v, std::string_view name) {
  TensorArrayObj& ta = v.as_tensor_array();
  auto method = [&](const char* n, auto fn) {
    return Value::callable(n, [v, fn](std::vector<Value> args, Kwargs kwargs) -> Value {
      for (auto& [k, x] : kwargs) {
        if (k != "name") args.push_back(x);  // index=, value=, indices= in order
      }
      return fn(v, args);
    });
  };
  auto arg = [](const std::vector<Value>& a, size_t i, const char* what) -> const Value& {
    if (i >= a.size()) throw TypeError(std::string("TensorArray method missing required argument: '") + what + "'");
    return a[i];
  };
  if (name == "write") return method("write", [arg](const Value& t, const std::vector<Value>& a) { return write(t, arg(a, 0, "index"), arg(a, 1, "value")); });
  if (name == "read") return method("read", [arg](const Value& t, const std::vector<Value>& a) { return read(t, arg(a, 0, "index")); });
  if (name == "stack") return method("stack", [](const Value& t, const std::vector<Value>&) { return stack(t); });
  if (name == "gather") return method("gather", [arg](const Value& t, const std::vector<Value>& a) { return gather(t, arg(a, 0, "indices")); });
  if (name == "unstack") return method("unstack", [arg](const Value& t, const std::vector<Value>& a) { return unstack(t, arg(a, 0, "value")); });
  if (name == "concat") return method("concat", [](const Value& t, const std::vector<Value>&) { return concat(t); });
  if (name == "split") return method("split", [arg](const Value& t, const std::vector<Value>& a) { return split(t, arg(a, 0, "value"), arg(a, 1, "lengths")); });
  if (name == "scatter") return method("scatter", [arg](const Value& t, const std::vector<Value>& a) { return scatter(t, arg(a, 0, "indices"), arg(a, 1, "value")); });
  if (name == "close") return method("close", [](const Value& t, const std::vector<Value>&) { return close(t); });
  if (name == "size") return method("size", [](const Value& t, const std::vector<Value>&) { return size(t); });
  if (name == "identity") return method("identity", [](const Value& t, const std::vector<Value>&) { return identity(t); });
  if (name == "dtype") return dtype_value(ta.dtype);
  if (name == "dynamic_size") return Value(ta.dynamic_size);
  if (name == "flow") return ta.graph() ? Value(*ta.flow) : Value(Tensor::scalar<int32_t>(0));
  if (name == "element_shape") return tensor_shape(ta.element_shape);
  throw AttributeError("'TensorArray' object has no attribute '" + std::string(name) + "'");
}

}  // namespace ag::tensor_array
