// The tf.* functions that select, order or search elements (array_ops.py,
// sort_ops.py, nn_ops.py): tf.boolean_mask and tf.sequence_mask (TF's
// compositions, under their name scopes), tf.unique, tf.math.top_k (TopKV2,
// ties to the lower index), tf.sort and tf.argsort (top_k of the values, or of
// their negation for ascending order), tf.searchsorted (LowerBound/UpperBound
// on rows).
#include <string>
#include <vector>

#include "runtime/api/binding.h"
#include "runtime/api/named_tuple.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/value/convert.h"
#include "runtime/value/tensor_shape_value.h"

namespace ag::tf::impl {
namespace {

using namespace common;

Value ints(std::initializer_list<int64_t> v) {
  std::vector<Value> items;
  for (int64_t i : v) items.emplace_back(i);
  return Value::list(items);
}

/// dims [from, to) of t's shape as an int32 vector: constants when known,
/// else sliced from tf.shape(t).
Value dims_of(const Value& t, int from, int to) {
  const Shape& s = t.as_tensor().shape();
  bool known = true;
  std::vector<Value> dims;
  for (int d = from; d < to; ++d) {
    known = known && s.dim(d) >= 0;
    dims.emplace_back(s.dim(d));
  }
  if (known) return tf::constant(Value::list(dims), DType::Int32);
  TensorHandle shape = tf::shape(t).as_tensor();
  return Value(apply(op::Slice, {shape, int32_vector({from}), int32_vector({to - from})}, "Slice"));
}

/// The top-k rows (values, indices) of `x` along its last axis.
std::vector<Value> top_k_of(const Value& x, const Value& k, bool sorted, DType index_type, std::string_view name) {
  TensorHandle in[2] = {x.as_tensor(), index_tensor(k)};
  std::vector<TensorHandle> out =
      apply_op(op::TopKV2, in, Attrs{{"sorted", sorted}, {"index_type", index_type}}, name.empty() ? "TopKV2" : name);
  return {Value(out[0]), Value(out[1])};
}

/// sort_ops._descending_sort: top_k over `axis`, moved last and back when it is not.
Value descending_sort(const Value& values, int64_t axis, bool return_argsort) {
  const Shape& s = values.as_tensor().shape();
  if (!s.rank_known()) throw UnimplementedError("tf.sort needs values of known rank");
  const int64_t rank = s.rank();
  if (axis < -rank || axis >= rank) {
    throw InvalidArgumentError("Expected axis in the range [" + std::to_string(-rank) + ", " + std::to_string(rank) +
                               "), but got " + std::to_string(axis));
  }
  if (axis < 0) axis += rank;
  Value k = s.dim(static_cast<int>(axis)) >= 0 ? Value(s.dim(static_cast<int>(axis)))
                                               : tf::reshape(dims_of(values, static_cast<int>(axis), static_cast<int>(axis) + 1), Value::list());
  Value input = values, transposition;
  if (axis != rank - 1) {
    // Swap the axis and the last one (its own inverse).
    std::vector<Value> perm;
    for (int64_t d = 0; d < rank; ++d) perm.emplace_back(d == axis ? rank - 1 : d == rank - 1 ? axis : d);
    transposition = tf::constant(Value::list(perm), DType::Int32, "transposition");
    input = tf::transpose(values, transposition);
  }
  std::vector<Value> top = top_k_of(input, k, true, DType::Int32, {});
  Value result = return_argsort ? top[1] : top[0];
  return transposition.is_none() ? result : tf::transpose(result, transposition);
}

/// sort_ops._sort_or_argsort: ascending order sorts a order-reversing map of
/// the values (the negation; for integers -x - 1, for unsigned max - x, which
/// cannot overflow) and maps the result back.
Value sort_or_argsort(const TfCall& c, bool return_argsort) {
  NameScope scope(c.node_name());
  const Value& direction = c["direction"];
  const std::string dir = direction.is_str() ? direction.as_str() : str(direction);
  if (dir != "ASCENDING" && dir != "DESCENDING") {
    throw ValueError("Argument `direction` should be one of ASCENDING, DESCENDING. Received: direction=" + dir);
  }
  const Value& axis_v = c["axis"];
  if (!axis_v.is_int()) throw ValueError("Argument `axis` must be a constant scalar. Received: axis=" + str(axis_v) + ".");
  const int64_t axis = axis_v.as_int();
  Value values = tensor_arg(c["values"]);
  if (dir == "DESCENDING") return descending_sort(values, axis, return_argsort);
  DType dt = values.as_tensor().dtype();
  if (dt == DType::UInt8) {
    Value offset = tf::constant(Value(255), dt);
    Value sorted = descending_sort(offset - values, axis, return_argsort);
    return return_argsort ? sorted : offset - sorted;
  }
  if (is_integer(dt)) {
    Value sorted = descending_sort(-values - Value(1), axis, return_argsort);
    return return_argsort ? sorted : -sorted - Value(1);
  }
  Value sorted = descending_sort(-values, axis, return_argsort);
  return return_argsort ? sorted : -sorted;
}

/// array_ops.boolean_mask: the dims [axis, axis + rank(mask)) of the tensor
/// flattened into one, and the positions where the flattened mask is true
/// gathered from it.
Value masked(const Value& tensor_v, const Value& mask_v, int64_t axis) {
  Value t = tensor_arg(tensor_v);
  Value mask = tensor_arg(mask_v);
  const Shape& ms = mask.as_tensor().shape();
  const Shape& ts = t.as_tensor().shape();
  if (!ms.rank_known()) {
    throw ValueError("Number of mask dimensions must be specified, even if some dimensions are None.  E.g. shape=[None] "
                     "is ok, but shape=None is not.");
  }
  if (ms.rank() == 0) throw ValueError("mask cannot be scalar.");
  if (!ts.rank_known()) throw UnimplementedError("tf.boolean_mask needs a tensor of known rank");
  const int64_t nd = ms.rank();
  if (axis < 0) axis += ts.rank();
  Shape covered;
  for (int64_t d = axis; d < axis + nd && d < ts.rank(); ++d) covered.push_back(ts.dim(static_cast<int>(d)));
  if (!covered.is_compatible_with(ms)) {
    throw ValueError("Shapes " + str(tensor_shape(covered)) + " and " + str(tensor_shape(ms)) + " are incompatible");
  }
  const int a = static_cast<int>(axis), b = static_cast<int>(axis + nd);
  Value target;
  if (ts.fully_defined()) {
    std::vector<Value> dims;
    for (int d = 0; d < a; ++d) dims.emplace_back(ts.dim(d));
    dims.emplace_back(array::dims_product(ts, a, b));
    for (int d = b; d < ts.rank(); ++d) dims.emplace_back(ts.dim(d));
    target = Value::list(dims);
  } else {
    Value leading = tf::reduce_prod(dims_of(t, a, b), Value::list({Value(0)}), true);
    target = tf::concat(Value::list({dims_of(t, 0, a), leading, dims_of(t, b, ts.rank())}), Value(0));
  }
  Value flat = tf::reshape(t, target);
  Value flat_mask = tf::reshape(mask, ints({-1}));
  Value indices = tf::squeeze(tf::where(flat_mask), ints({1}));
  return tf::gather(flat, indices, Value(axis));
}

/// array_ops.sequence_mask: range(maxlen) < lengths[..., None], true for the
/// first `length` places of each row; maxlen None: the largest length.
Value sequence_mask_of(const Value& lengths_v, const Value& maxlen_v) {
  Value lengths = tensor_arg(lengths_v);
  Value maxlen;
  if (maxlen_v.is_none()) {
    maxlen = tf::reduce_max(lengths);
    maxlen = tf::maximum(tf::constant(Value(0), maxlen.as_tensor().dtype()), maxlen);
  } else {
    maxlen = tensor_arg(maxlen_v);
  }
  const Shape& ms = maxlen.as_tensor().shape();
  if (ms.rank_known() && ms.rank() != 0) {
    throw ValueError("Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = " + str(maxlen) + ".");
  }
  DType dt = maxlen.as_tensor().dtype();
  Value row = tf::range(tf::constant(Value(0), dt), maxlen, tf::constant(Value(1), dt));
  return row < tf::cast(tf::expand_dims(lengths, Value(-1)), dt);
}

}  // namespace

Value boolean_mask(const TfCall& c) {
  NameScope scope(c.node_name());
  return masked(c["tensor"], c["mask"], c["axis"].is_none() ? 0 : ag::api::int_arg(c["axis"], "axis"));
}

Value sequence_mask(const TfCall& c) {
  NameScope scope(c.node_name());
  Value result = sequence_mask_of(c["lengths"], c["maxlen"]);
  const Value& dtype = c["dtype"];
  if (dtype.is_none() || require_dtype(dtype) == DType::Bool) return result;
  return tf::cast(result, require_dtype(dtype));
}

Value repeat(const TfCall& c) {
  // array_ops.repeat_with_axis: each slice along `axis` repeated its count of
  // times: a scalar count tiles a new axis and folds it in; counts per slice
  // tile to the largest count and keep, per slice, a sequence mask's worth.
  Value data = tensor_arg(c["input"]);
  const Value& axis_v = c["axis"];
  if (axis_v.is_none()) data = tf::reshape(data, ints({-1}));
  if (!axis_v.is_none() && !axis_v.is_int()) throw TypeError("axis must be an int; got " + axis_v.type_name());
  int64_t axis = axis_v.is_none() ? 0 : axis_v.as_int();
  NameScope scope(c.node_name());
  Value repeats = tensor_arg(c["repeats"]);
  DType rt = repeats.as_tensor().dtype();
  if (!is_integer(rt)) throw TypeError("repeats must be an integer tensor; dtype=" + dtype_repr(rt));
  repeats = tf::cast(repeats, DType::Int32);
  const Shape& rs = repeats.as_tensor().shape();
  if (rs.rank_known() && rs.rank() > 1) throw ValueError("Shape " + rs.str() + " must have rank at most 1");
  if (data.as_tensor().shape().rank() == 0) data = tf::stack(Value::list({data}));
  const Shape& ds = data.as_tensor().shape();
  if (!ds.rank_known()) throw UnimplementedError("tf.repeat needs an input of known rank");
  const int64_t nd = ds.rank();
  if (axis < -nd || axis >= nd) {
    throw ValueError("axis=" + std::to_string(axis) + " out of bounds: expected " + std::to_string(-nd) + "<=axis<" +
                     std::to_string(nd));
  }
  if (axis < 0) axis += nd;
  const int a = static_cast<int>(axis);
  if (rs.rank_known() && rs.rank() == 1 && rs.dim(0) >= 0 && ds.dim(a) >= 0 && rs.dim(0) != ds.dim(a)) {
    throw ValueError("Dimensions " + std::to_string(ds.dim(a)) + " and " + std::to_string(rs.dim(0)) + " are not compatible");
  }
  // Multiples and shapes as Python ints where their values are known now (a
  // traced result keeps its static shape, as TF's does).
  auto tile_axis = [&](const Value& x, int at, const Value& multiple) {
    const TensorHandle& h = multiple.as_tensor();
    std::vector<Value> m(static_cast<size_t>(x.as_tensor().shape().rank()), Value(1));
    m[static_cast<size_t>(at)] = h.symbolic() ? multiple : Value(array::int_at(h.value(), 0));
    return tf::tile(x, h.symbolic() ? tf::stack(Value::list(m)) : Value::list(m));
  };
  Value result_shape;
  if (ds.fully_defined()) {
    std::vector<Value> dims;
    for (int d = 0; d < nd; ++d) dims.emplace_back(d == a ? int64_t{-1} : ds.dim(d));
    result_shape = Value::list(dims);
  } else {
    result_shape = tf::concat(Value::list({dims_of(data, 0, a), ints({-1}), dims_of(data, a + 1, static_cast<int>(nd))}),
                              Value(0));
  }
  if (rs.rank_known() && rs.rank() == 0) {
    Value tiled = tile_axis(tf::expand_dims(data, Value(axis + 1)), a + 1, repeats);
    return tf::reshape(tiled, result_shape);
  }
  if (!rs.rank_known() || rs.rank() != axis + 1) {
    Value target = tf::concat(Value::list({dims_of(data, 0, a + 1 - rs.rank()), tf::shape(repeats)}), Value(0));
    repeats = tf::broadcast_to(repeats, target);
  }
  Value max_repeat = tf::maximum(Value(0), tf::reduce_max(repeats));
  Value mask = sequence_mask_of(repeats, max_repeat);
  Value tiled = tile_axis(tf::expand_dims(data, Value(axis + 1)), a + 1, max_repeat);
  Value kept = masked(tiled, mask, 0);
  return axis == 0 ? kept : tf::reshape(kept, result_shape);
}

Value unique(const TfCall& c) {
  const Value& out_idx = c["out_idx"];
  TensorHandle x = to_tensor(c["x"]);
  std::vector<TensorHandle> out = apply_op(c.op(), std::span<const TensorHandle>(&x, 1),
                                           Attrs{{"out_idx", out_idx.is_none() ? DType::Int32 : require_dtype(out_idx)}},
                                           c.node_name());
  return named_tuple("Unique", {"y", "idx"}, {Value(out[0]), Value(out[1])});
}

Value top_k(const TfCall& c) {
  const Value& index_type = c["index_type"];
  std::vector<Value> out = top_k_of(tensor_arg(c["input"]), c["k"], truthy(c["sorted"]),
                                    index_type.is_none() ? DType::Int32 : require_dtype(index_type), c.node_name());
  return named_tuple("TopKV2", {"values", "indices"}, std::move(out));
}

Value sort(const TfCall& c) { return sort_or_argsort(c, false); }
Value argsort(const TfCall& c) { return sort_or_argsort(c, true); }

Value searchsorted(const TfCall& c) {
  // Both flattened to rows over their last dim, searched row by row (the
  // node named `name`), and the result shaped as the values.
  Value sorted = tensor_arg(c["sorted_sequence"]);
  Value values = tensor_arg(c["values"]);
  const Shape& ss = sorted.as_tensor().shape();
  const Shape& vs = values.as_tensor().shape();
  if (!ss.rank_known() || !vs.rank_known() || ss.rank() < 1 || vs.rank() < 1) {
    throw UnimplementedError("tf.searchsorted needs a sorted_sequence and values of known rank, at least 1");
  }
  Value rows_sorted = tf::reshape(sorted, tf::concat(Value::list({ints({-1}), dims_of(sorted, ss.rank() - 1, ss.rank())}), Value(0)));
  Value rows_values = tf::reshape(values, tf::concat(Value::list({ints({-1}), dims_of(values, vs.rank() - 1, vs.rank())}), Value(0)));
  const Value& side_v = c["side"];
  const std::string side = side_v.is_str() ? side_v.as_str() : str(side_v);
  if (side != "left" && side != "right") {
    throw ValueError("Argument `side` must be either 'right' or 'left'. Received: `side` = " + side + ".");
  }
  const Value& out_type = c["out_type"];
  TensorHandle in[2] = {rows_sorted.as_tensor(), rows_values.as_tensor()};
  TensorHandle out = apply_op1(side == "right" ? op::UpperBound : op::LowerBound, in,
                               Attrs{{"out_type", out_type.is_none() ? DType::Int32 : require_dtype(out_type)}},
                               c.node_name());
  return tf::reshape(Value(out), tf::shape(values));
}

}  // namespace ag::tf::impl
