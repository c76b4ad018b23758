// The tf.math functions TF writes in Python over other ops (math_ops.py,
// clip_ops.py, nn_impl.py, bincount_ops.py, embedding_ops.py): each is that composition, under
// the name scope TF opens, so a traced graph holds the nodes TF's would
// ("clip_by_value/Minimum", then "clip_by_value" itself). Their rows are in
// tf_functions.def; the plain op rows (tf.math.lgamma, tf.truncatediv, ...)
// need no code.
#include <string>
#include <vector>

#include "runtime/api/binding.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/tensor_shape_value.h"

namespace ag::tf::impl {
namespace {

using namespace common;

/// Python's `{type(v)}` in a message: "<class 'int'>".
std::string python_type(const Value& v) { return "<class '" + v.type_name() + "'>"; }

/// TensorShape.merge_with's check that clipping kept `values`' shape (TF
/// forbids a bound that broadcasts the result larger).
void check_same_shape(const Value& values, const Value& result) {
  const Shape& a = values.as_tensor().shape();
  const Shape& b = result.as_tensor().shape();
  if (!a.is_compatible_with(b)) {
    throw ValueError("Shapes " + str(tensor_shape(a)) + " and " + str(tensor_shape(b)) +
                     " are not compatible");
  }
}

/// A list or tuple argument's items (clip_by_global_norm's t_list, ...).
const std::vector<Value>& sequence_arg(const Value& v, const char* what) {
  if (!v.is_list() && !v.is_tuple()) {
    throw TypeError(std::string("`") + what + "` should be a sequence of tensors. Received " + python_type(v) + ".");
  }
  return v.items();
}

/// math_ops.reduce_variance in a scope of its own.
Value variance(const Value& x, const Value& axis, bool keepdims) {
  Value t = tensor_arg(x);
  Value means = tf::reduce_mean(t, axis, true);
  DType dt = means.as_tensor().dtype();
  if (is_integer(dt)) {
    throw TypeError("Input must be either real or complex. Received integer type " + str(dtype_value(dt)) + ".");
  }
  return tf::reduce_mean(tf::square(t - means), axis, keepdims);
}

/// clip_ops.global_norm: sqrt(2 · Σ l2_loss(t)) over the tensors that are not None.
Value global_norm_of(const std::vector<Value>& t_list, std::string_view name) {
  NameScope scope(name);
  std::vector<Value> halves;
  for (const Value& t : t_list) {
    if (!t.is_none()) halves.push_back(tf::l2_loss(tensor_arg(t)));
  }
  Value half = tf::reduce_sum(tf::stack(Value::list(halves)));
  Value two = tf::constant(Value(2.0), half.as_tensor().dtype());
  return tf::sqrt(half * two, "global_norm");
}

/// math_ops._unsorted_segment_N: the entries per segment, at least 1, shaped
/// to broadcast against data's slices.
Value segment_sizes(const Value& data, const Value& ids, const Value& n) {
  DType dt = data.as_tensor().dtype();
  const Shape& ds = data.as_tensor().shape();
  const Shape& is = ids.as_tensor().shape();
  if (!ds.rank_known() || !is.rank_known()) {
    throw UnimplementedError("unsorted_segment_mean and unsorted_segment_sqrt_n need data and segment_ids of known rank");
  }
  Value ones = tf::ones(tf::shape(ids), dt);
  Value sizes(apply(op::UnsortedSegmentSum, {ones.as_tensor(), ids.as_tensor(), n.as_tensor()}, "UnsortedSegmentSum"));
  std::vector<Value> ones_dims(static_cast<size_t>(ds.rank() - is.rank()), Value(1));
  Value shape = tf::concat(Value::list({tf::reshape(n, Value::list({Value(1)})),
                                        tf::constant(Value::list(ones_dims), n.as_tensor().dtype())}),
                           Value(0));
  return tf::maximum(tf::reshape(sizes, shape), Value(1));
}

/// math_ops.unsorted_segment_mean and _sqrt_n: the segment sums over the
/// entries per segment, or over its square root.
Value unsorted_segment_scaled(const TfCall& c, bool sqrt_n) {
  NameScope scope(c.node_name());
  Value data = tensor_arg(c["data"]);
  Value ids(index_tensor(c["segment_ids"]));
  Value n(index_tensor(c["num_segments"]));
  Value sizes = segment_sizes(data, ids, n);
  Value summed(apply(op::UnsortedSegmentSum, {data.as_tensor(), ids.as_tensor(), n.as_tensor()}, "UnsortedSegmentSum"));
  return summed / (sqrt_n ? tf::sqrt(sizes) : sizes);
}

}  // namespace

Value accumulate_n(const TfCall& c) {
  const Value& inputs = c["inputs"];
  auto input_error = [] {
    return ValueError("inputs must be a list of at least one Tensor with the same dtype and shape");
  };
  if (!(inputs.is_list() || inputs.is_tuple()) || inputs.items().empty()) throw input_error();
  std::vector<Value> ts;
  for (const Value& v : inputs.items()) ts.push_back(tensor_arg(v));
  Shape shape = c["shape"].is_none() ? Shape::unknown_rank() : shape_from_value(c["shape"]);
  for (const Value& t : ts) {
    if (t.as_tensor().dtype() != ts[0].as_tensor().dtype()) throw input_error();
    if (!shape.is_compatible_with(t.as_tensor().shape())) {
      throw ValueError("Shapes " + str(tensor_shape(shape)) + " and " + str(tensor_shape(t.as_tensor().shape())) +
                       " are not compatible");
    }
    if (!shape.rank_known()) shape = t.as_tensor().shape();
  }
  const Value& dtype = c["tensor_dtype"];
  if (!dtype.is_none() && require_dtype(dtype) != ts[0].as_tensor().dtype()) {
    throw TypeError("The `tensor_dtype` argument is " + str(dtype) + ", but `input` is of type " +
                    str(dtype_value(ts[0].as_tensor().dtype())) + ". These must be equal. Try casting the input to "
                    "the desired type.");
  }
  const bool named = !c["name"].is_none();
  if (ts.size() == 1) return named ? tf::identity(ts[0], c.node_name()) : ts[0];
  return tf::add_n(Value::list(ts), named ? c.node_name() : hint::add_n);
}

Value logical_xor(const TfCall& c) {
  // (x | y) & ~(x & y), the last op named after the function.
  Value x = c["x"], y = c["y"];
  return tf::logical_and(tf::logical_or(x, y), tf::logical_not(tf::logical_and(x, y)), c.node_name());
}

Value count_nonzero(const TfCall& c) {
  NameScope scope(c.node_name());
  Value x = tensor_arg(c["input"]);
  Value zero = tf::zeros(Value::list(), x.as_tensor().dtype());
  Value nonzero = tf::cast(tf::not_equal(x, zero), DType::Int64);
  DType dtype = c["dtype"].is_none() ? DType::Int64 : require_dtype(c["dtype"]);
  return tf::cast(tf::reduce_sum(nonzero, c["axis"], truthy(c["keepdims"])), dtype);
}

Value reduce_logsumexp(const TfCall& c) {
  // log(Σ exp(x - m)) + m, m the max where it is finite (0 elsewhere), held
  // constant for the gradient.
  NameScope scope(c.node_name());
  Value x = tensor_arg(c["input_tensor"]);
  const bool keepdims = truthy(c["keepdims"]);
  Value raw_max = tf::reduce_max(x, c["axis"], true);
  Value finite_max = tf::where(tf::is_finite(raw_max), raw_max, tf::zeros_like(raw_max, "ZerosLike"), "Select");
  Value m = tf::stop_gradient(finite_max);
  Value result = tf::log(tf::reduce_sum(tf::exp(tf::subtract(x, m)), c["axis"], keepdims));
  if (!keepdims) m = tf::reshape(m, tf::shape(result));
  return tf::add(result, m, scope.self());
}

Value reduce_variance(const TfCall& c) {
  NameScope scope(c.node_name());
  return variance(c["input_tensor"], c["axis"], truthy(c["keepdims"]));
}

Value reduce_std(const TfCall& c) {
  NameScope scope(c.node_name());
  Value v;
  {
    NameScope inner(hint::reduce_variance);
    v = variance(c["input_tensor"], c["axis"], truthy(c["keepdims"]));
  }
  return tf::sqrt(v);
}

Value clip_by_value(const TfCall& c) {
  NameScope scope(c.node_name());
  Value values = tensor_arg(c["t"]);
  Value t_min = tf::minimum(values, c["clip_value_max"]);
  check_same_shape(values, t_min);
  Value t_max = tf::maximum(t_min, c["clip_value_min"], scope.self());
  check_same_shape(values, t_max);
  return t_max;
}

namespace {

/// clip_ops.clip_by_norm: t · clip_norm / max(‖t‖, clip_norm), the norm over
/// `axes`; where the norm is 0 the square root is taken of 1 instead (no NaN
/// gradient). The caller opens the name scope; `name` is its result's.
Value clip_by_norm_of(const Value& t, const Value& clip_norm, const Value& axes, std::string_view name) {
  Value values = tensor_arg(t);
  Value l2sum = tf::reduce_sum(values * values, axes, true);
  Value pred = l2sum > Value(0);
  Value l2sum_safe = tf::where(pred, l2sum, tf::ones_like(l2sum));
  Value l2norm = tf::where(pred, tf::sqrt(l2sum_safe), l2sum);
  Value intermediate = values * clip_norm;
  check_same_shape(values, intermediate);
  return tf::identity(intermediate / tf::maximum(l2norm, clip_norm), name);
}

}  // namespace

Value clip_by_norm(const TfCall& c) {
  NameScope scope(c.node_name());
  return clip_by_norm_of(c["t"], c["clip_norm"], c["axes"], scope.self());
}

Value embedding_lookup(const TfCall& c) {
  // embedding_ops.embedding_lookup_v2: one table is a gather of its rows; a
  // list of tables (shards of one) splits the ids with the "div" strategy,
  // contiguous ranges of ids per shard, the first num_ids % shards shards one
  // id longer. Then each row is clipped to max_norm when given.
  const Value& params = c["params"];
  if (params.is_none()) throw ValueError("params must be specified");
  if ((params.is_list() || params.is_tuple()) && params.items().empty()) throw ValueError("Need at least one param");
  // Only a list is shards: a tuple is one table, as TF converts it.
  std::vector<Value> shards = params.is_list() ? params.items() : std::vector<Value>{params};
  NameScope scope(c.node_name());
  Value ids = tf::convert_to_tensor(c["ids"]);
  Value table = shards[0], index = ids;
  if (shards.size() > 1) {
    // Row `id` is row new_id of shard p, that is row offset[p] + new_id of
    // the shards concatenated.
    std::vector<Value> offsets;
    int64_t total = 0;
    for (Value& shard : shards) {
      shard = tensor_arg(shard);
      const Shape& s = shard.as_tensor().shape();
      if (!s.rank_known() || s.rank() == 0 || s.dim(0) < 0) {
        throw UnimplementedError("tf.nn.embedding_lookup over shards of unknown size is not supported");
      }
      offsets.push_back(Value(total));
      total += s.dim(0);
    }
    const DType index_type = ids.as_tensor().dtype();
    const int64_t n = static_cast<int64_t>(shards.size()), per = total / n, extras = total % n;
    auto k = [&](int64_t v) { return tf::constant(Value(v), index_type); };
    Value p = tf::maximum(tf::floordiv(ids, k(per + 1)), tf::floordiv(tf::subtract(ids, k(extras)), k(per)));
    Value new_id = tf::where(tf::less(p, k(extras)), tf::floormod(ids, k(per + 1)),
                             tf::floormod(tf::subtract(ids, k(extras)), k(per)));
    table = tf::concat(Value::list(shards), Value(0));
    index = tf::add(tf::gather(tf::constant(Value::list(std::move(offsets)), index_type), p), new_id);
  }
  Value result = tf::gather(table, index, Value(), 0, scope.self());
  if (!c["max_norm"].is_none()) {
    // The norm of each row: the axes past the ids' (a range tensor when a
    // rank is known only at run time, as TF's _clip).
    const Shape& ids_shape = ids.as_tensor().shape();
    const Shape& rows_shape = result.as_tensor().shape();
    Value axes;
    if (ids_shape.rank_known() && rows_shape.rank_known()) {
      std::vector<Value> list;
      for (int64_t a = ids_shape.rank(); a < rows_shape.rank(); ++a) list.push_back(Value(a));
      axes = Value::list(std::move(list));
    } else {
      axes = tf::range(tf::rank(ids), tf::rank(result));
    }
    NameScope clip("clip_by_norm");
    result = clip_by_norm_of(result, c["max_norm"], axes, clip.self());
  }
  return tf::identity(result);
}

Value global_norm(const TfCall& c) { return global_norm_of(sequence_arg(c["t_list"], "t_list"), c.node_name()); }

Value clip_by_global_norm(const TfCall& c) {
  const std::vector<Value>& t_list = sequence_arg(c["t_list"], "t_list");
  Value use_norm = c["use_norm"].is_none() ? global_norm_of(t_list, c["name"].is_none() ? hint::global_norm : c.node_name())
                                           : tensor_arg(c["use_norm"]);
  NameScope scope(c.node_name());
  const Value& clip_norm = c["clip_norm"];
  DType dt = use_norm.as_tensor().dtype();
  Value scale_for_finite = clip_norm * tf::minimum(Value(1.0) / use_norm, tf::constant(Value(1.0), dt) / clip_norm);
  // A no-op for a finite norm; NaN for an infinite or NaN one.
  Value scale = scale_for_finite + (use_norm - use_norm);
  std::vector<Value> clipped;
  for (size_t i = 0; i < t_list.size(); ++i) {
    if (t_list[i].is_none()) {
      clipped.push_back(Value());
      continue;
    }
    // identity(v * scale, name="%s_%d" % (scope, i)): under the scope, "<scope>/<scope>/_0".
    std::string name(scope.self());
    name += "_" + std::to_string(i);
    clipped.push_back(tf::identity(tensor_arg(t_list[i]) * scale, name));
  }
  return Value::tuple({Value::list(clipped), use_norm});
}

Value gelu(const TfCall& c) {
  // TF's nn_ops.gelu: 0.5 x (1 + erf(x / sqrt(2))), or with approximate the
  // tanh form, under the "Gelu" scope.
  NameScope scope(c.node_name());
  Value x = tensor_arg(c["features"]);
  const DType dt = x.as_tensor().dtype();
  if (!is_floating(dt)) {
    throw ValueError("`features.dtype` must be a floating point tensor.Received:features.dtype=" + str(dtype_value(dt)));
  }
  if (truthy(c["approximate"])) {
    Value coeff = tf::cast(Value(0.044715), dt);
    return Value(0.5) * x * (Value(1.0) + tf::tanh(Value(0.7978845608028654) * (x + coeff * tf::pow(x, Value(3)))));
  }
  return Value(0.5) * x * (Value(1.0) + tf::erf(x / tf::cast(Value(1.4142135623730951), dt)));
}

Value silu(const TfCall& c) {
  // TF's nn.silu / nn.swish: x * sigmoid(beta x), beta cast to x's dtype.
  Value x = tensor_arg(c["features"]);
  Value beta = tf::cast(tensor_arg(c["beta"]), x.as_tensor().dtype());
  return x * tf::sigmoid(beta * x);
}

Value l2_normalize(const TfCall& c) {
  const Value& axis = c["axis"].is_none() ? c["dim"] : c["axis"];
  NameScope scope(c.node_name());
  Value x = tensor_arg(c["x"]);
  Value square_sum = tf::reduce_sum(tf::square(x), axis, true);
  Value x_inv_norm = tf::rsqrt(tf::maximum(square_sum, c["epsilon"]));
  return tf::multiply(x, x_inv_norm, scope.self());
}

Value moments(const TfCall& c) {
  // The mean, and the mean squared difference from it (held constant for the
  // gradient), over `axes`.
  NameScope scope(c.node_name());
  Value y = tensor_arg(c["x"]);
  const Value& axes = c["axes"];
  Value mean = tf::reduce_mean(y, axes, true, "mean");
  Value variance = tf::reduce_mean(tf::squared_difference(y, tf::stop_gradient(mean)), axes, true, "variance");
  if (!truthy(c["keepdims"])) {
    mean = tf::squeeze(mean, axes);
    variance = tf::squeeze(variance, axes);
  }
  return Value::tuple({mean, variance});
}

// The segment rows: the row's op on data and ids (int32 unless a tensor says otherwise).
Value segment_reduction(const TfCall& c) {
  return Value(apply(c.op(), {to_tensor(c["data"]), index_tensor(c["segment_ids"])}, c.node_name()));
}

Value unsorted_segment_reduction(const TfCall& c) {
  return Value(apply(c.op(), {to_tensor(c["data"]), index_tensor(c["segment_ids"]), index_tensor(c["num_segments"])},
                     c.node_name()));
}

Value unsorted_segment_mean(const TfCall& c) { return unsorted_segment_scaled(c, false); }
Value unsorted_segment_sqrt_n(const TfCall& c) { return unsorted_segment_scaled(c, true); }

Value bincount(const TfCall& c) {
  // bincount_ops.bincount: the bins up to max(arr) + 1, at least minlength
  // and at most maxlength long (values past maxlength skipped), per row for
  // axis=-1; counts of `dtype`, or sums of the weights.
  NameScope scope(c["name"].is_none() ? std::string_view("bincount") : c.node_name());
  Value arr = tensor_arg(c["arr"]);
  Value weights = c["weights"].is_none() ? Value() : tensor_arg(c["weights"]);
  const bool binary = truthy(c["binary_output"]);
  if (!weights.is_none() && binary) {
    throw ValueError("Arguments `binary_output` and `weights` are mutually exclusive. Please specify only one.");
  }
  if (!is_integer(arr.as_tensor().dtype())) arr = tf::cast(arr, DType::Int32);
  const int64_t axis = c["axis"].is_none() ? 0 : ag::api::int_arg(c["axis"], "axis");
  if (axis != 0 && axis != -1) {
    throw ValueError("Unsupported value for argument axis=" + std::to_string(axis) + ". Only 0 and -1 are currently supported.");
  }
  DType idx = arr.as_tensor().dtype();
  Value nonempty = tf::size(arr) > Value(0);
  Value output_size = tf::cast(nonempty, idx) * (tf::reduce_max(arr) + Value(1));
  if (!c["minlength"].is_none()) output_size = tf::maximum(tf::constant(c["minlength"], idx, "minlength"), output_size);
  if (!c["maxlength"].is_none()) output_size = tf::minimum(tf::constant(c["maxlength"], idx, "maxlength"), output_size);
  if (axis == 0) {
    if (!weights.is_none()) weights = tf::reshape(weights, Value::list({Value(-1)}));
    arr = tf::reshape(arr, Value::list({Value(-1)}));
  }
  if (weights.is_none()) weights = tf::constant(Value::list(), require_dtype(c["dtype"]));
  return Value(apply(c.op(), {arr.as_tensor(), output_size.as_tensor(), weights.as_tensor()}, "DenseBincount",
                     Attrs{{"binary_output", binary}}));
}

Value polyval(const TfCall& c) {
  // Horner's rule: p = coeffs[0]; p = c + p · x for the rest.
  const Value& coeffs = c["coeffs"];
  if (!coeffs.is_list()) throw ValueError("Argument coeffs must be list type. Received type " + python_type(coeffs) + ".");
  NameScope scope(c.node_name());
  Value x = tensor_arg(c["x"]);
  if (coeffs.items().empty()) return tf::zeros_like(x, scope.self());
  std::vector<Value> cs;
  for (const Value& k : coeffs.items()) cs.push_back(tensor_arg(k));
  Value p = cs[0];
  for (size_t i = 1; i < cs.size(); ++i) p = cs[i] + p * x;
  return p;
}

Value scoped_unary(const TfCall& c) {
  // A Python wrapper opening a name scope around its op (math_ops.erfinv,
  // special_math_ops.bessel_i0e: "bessel_i0e/BesselI0e").
  NameScope scope(c.node_name());
  return tf::unary_op(c.op(), c["x"], c.op().name());
}

Value divide_no_nan(const TfCall& c) {
  // math_ops.div_no_nan: a literal x takes y's dtype; integers divide as
  // floats (the truediv table); 0 where y is 0.
  NameScope scope(c.node_name());
  const Value& xv = c["x"];
  const Value& yv = c["y"];
  const bool literal_x = !xv.is_tensor() && yv.is_tensor();
  TensorHandle x = literal_x ? to_tensor(xv, yv.as_tensor().dtype()) : to_tensor(xv);
  TensorHandle y = literal_x ? yv.as_tensor() : to_tensor_hint(yv, x.dtype());
  if (x.dtype() != y.dtype()) {
    throw TypeError("`x` and `y` must have the same dtype, got tf." + dtype_repr(x.dtype()) + " != tf." +
                    dtype_repr(y.dtype()) + ".");
  }
  if (is_integer(x.dtype())) {
    DType to = x.dtype() == DType::Int8 || x.dtype() == DType::UInt8 ? DType::Float32 : DType::Float64;
    x = tf::cast(Value(x), to).as_tensor();
    y = tf::cast(Value(y), to).as_tensor();
  }
  return Value(apply(op::DivNoNan, {x, y}, scope.self()));
}

}  // namespace ag::tf::impl
