// tf.* functions on shapes and arrays, reductions, tf.range, tf.print; the
// reduction rows' shared implementations (the row names the op).
#include "runtime/api/ragged_dispatch.h"
#include "runtime/api/binding.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/kernels/broadcast.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/nest.h"
#include "runtime/value/pformat.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/tensor_array.h"
#include "runtime/value/tensor_shape_value.h"
#include "runtime/value/variable_value.h"

namespace ag::tf {
namespace {

using namespace common;

// The reduction axes: every axis when None (a constant when the rank is
// known, else range(rank(x)) as TF builds it).
TensorHandle reduction_axes(const TensorHandle& x, const Value& axis) {
  if (!axis.is_none()) return index_tensor(axis);
  Shape s = x.shape();
  if (s.rank_known()) {
    std::vector<int64_t> all(static_cast<size_t>(s.rank()));
    for (int i = 0; i < s.rank(); ++i) all[static_cast<size_t>(i)] = i;
    return int32_vector(all);
  }
  TensorHandle r = apply(op::Rank, {x}, "Rank");
  return apply(op::Range, {TensorHandle(Tensor::scalar<int32_t>(0)), r, TensorHandle(Tensor::scalar<int32_t>(1))},
               "range");
}

Value reduce(OpType op, const Value& x, const Value& axis, bool keepdims, std::string_view name) {
  auto dense = [&](const Value& v, const Value& a) { return reduce(op, v, a, false, name); };
  if (std::optional<Value> r = ragged_reduce(op, x, axis, keepdims, dense)) return *r;
  TensorHandle t = to_tensor(x);
  return Value(apply(op, {t, reduction_axes(t, axis)}, name, Attrs{{"keep_dims", keepdims}}));
}

// Any, All: the input as bool.
Value reduce_logical(OpType op, const Value& x, const Value& axis, bool keepdims, std::string_view name) {
  return Value(apply(op, {to_tensor(x, DType::Bool), reduction_axes(to_tensor(x), axis)}, name,
                     Attrs{{"keep_dims", keepdims}}));
}

// ArgMax, ArgMin: axis None is 0.
Value arg_reduce(OpType op, const Value& x, const Value& axis, DType output_type, std::string_view name) {
  TensorHandle a = axis.is_none() ? TensorHandle(Tensor::scalar<int32_t>(0)) : index_tensor(axis);
  return Value(apply(op, {to_tensor(x), a}, name, Attrs{{"output_type", output_type}}));
}

Shape shape_of(const Value& v) {
  if (std::optional<Shape> s = tensor_shape_of(v)) return shape_of(tensor_shape_dims_for_conversion(*s));
  std::vector<int64_t> dims;
  // An int (NumPy's too), or a sequence of them (a list, a tuple, a 1-D NumPy array).
  if (v.is_int() || (v.is_ndarray() && v.as_ndarray().data.rank() == 0)) {
    dims.push_back(v.as_int());
  } else {
    for (const Value& d : iterate(v)) dims.push_back(d.as_int());
  }
  for (int64_t d : dims) {
    if (d < 0) throw InvalidArgumentError("Dimension " + std::to_string(d) + " must be >= 0");
  }
  return Shape(std::span<const int64_t>(dims));
}

Value filled(const Value& shape_v, DType dtype, int one, std::string_view name) {
  // TF's zeros/ones: a shape that is a tensor, or a list holding one (packed
  // as "zeros/packed"), makes a Fill named after the scope; a static shape a
  // constant.
  if (shape_v.is_tensor() || holds_tensor(shape_v)) {
    OpScope scope(name);
    TensorHandle shape = index_tensor(shape_v);
    TensorHandle value = constant_handle(literal_to_tensor(Value(one), dtype), "Const");
    return Value(apply(op::Fill, {shape, value}, scope.op_name()));
  }
  Shape s = shape_of(shape_v);
  Tensor t = Tensor::zeros(dtype, s);
  if (one) {
    dispatch_dtype(dtype, [&]<class T>() {
      T* d = t.data<T>();
      T v;
      if constexpr (std::is_same_v<T, std::string>) {
        throw InvalidArgumentError("ones of a string tensor is not supported");
      } else if constexpr (std::is_same_v<T, bfloat16>) {
        v = bfloat16(1.0f);
      } else {
        v = static_cast<T>(1);
      }
      for (int64_t i = 0; i < t.num_elements(); ++i) d[i] = v;
    });
  }
  if (Graph* g = current_graph()) return Value(g->constant(t, name));
  return Value(std::move(t));
}

std::vector<TensorHandle> convert_all(const Value& values) {
  std::optional<DType> dt;
  for (const Value& v : values.items()) {
    if (v.is_tensor()) {
      dt = v.as_tensor().dtype();
      break;
    }
  }
  std::vector<TensorHandle> out;
  for (const Value& v : values.items()) {
    if (!dt) dt = to_tensor(v).dtype();
    out.push_back(to_tensor(v, dt));
  }
  return out;
}

// tf.shape/size/rank of a statically known tensor while tracing is a constant.
Value static_or_op(OpType op, const TensorHandle& t, const Attrs& attrs, std::optional<Tensor> known,
                   std::string_view name) {
  if (Graph* g = current_graph(); g != nullptr && known) return Value(g->constant(*known, name));
  return Value(apply(op, {t}, name, attrs));
}

Tensor int_tensor(DType dt, const std::vector<int64_t>& v, bool scalar) {
  Shape s = scalar ? Shape{} : Shape{static_cast<int64_t>(v.size())};
  if (dt == DType::Int64) {
    return scalar ? Tensor::scalar<int64_t>(v[0]) : Tensor::from_vector<int64_t>(s, v);
  }
  std::vector<int32_t> w(v.begin(), v.end());
  return scalar ? Tensor::scalar<int32_t>(w[0]) : Tensor::from_vector<int32_t>(s, w);
}

}  // namespace

Value reshape(const Value& x, const Value& shape, std::string_view name) {
  return Value(apply(op::Reshape, {to_tensor(x), index_tensor(shape)}, name));
}

Value transpose(const Value& x, const Value& perm, std::string_view name) {
  TensorHandle t = to_tensor(x);
  TensorHandle p = perm.is_none() ? TensorHandle(Tensor()) : index_tensor(perm);
  if (perm.is_none()) {
    Shape s = t.shape();
    if (!s.rank_known()) throw UnimplementedError("tf.transpose without perm needs a tensor of known rank");
    std::vector<int64_t> rev(static_cast<size_t>(s.rank()));
    for (int i = 0; i < s.rank(); ++i) rev[static_cast<size_t>(i)] = s.rank() - 1 - i;
    p = int32_vector(rev);
  }
  return Value(apply(op::Transpose, {t, p}, name));
}

Value matmul(const Value& a, const Value& b, bool transpose_a, bool transpose_b, std::string_view name) {
  TensorHandle ta = to_tensor(a);
  TensorHandle tb = to_tensor(b, ta.dtype());
  // TF's math_ops.matmul: BatchMatMul only for a rank above 2 (or unknown);
  // MatMul otherwise, whose shape rule rejects a vector.
  auto batched = [](const TensorHandle& t) { return !t.shape().rank_known() || t.shape().rank() > 2; };
  if (!batched(ta) && !batched(tb)) {
    return Value(apply(op::MatMul, {ta, tb}, name,
                       Attrs{{"transpose_a", transpose_a}, {"transpose_b", transpose_b}}));
  }
  return Value(apply(op::BatchMatMulV2, {ta, tb}, name, Attrs{{"adj_x", transpose_a}, {"adj_y", transpose_b}}));
}

#define AG_TF_REDUCTION(fn, reduction, op_type)                                         \
  Value fn(const Value& x, const Value& axis, bool keepdims, std::string_view name) { \
    return reduction(op::op_type, x, axis, keepdims, name);                         \
  }
AG_TF_REDUCTION(reduce_sum, reduce, Sum)
AG_TF_REDUCTION(reduce_mean, reduce, Mean)
AG_TF_REDUCTION(reduce_max, reduce, Max)
AG_TF_REDUCTION(reduce_min, reduce, Min)
AG_TF_REDUCTION(reduce_prod, reduce, Prod)
AG_TF_REDUCTION(reduce_any, reduce_logical, Any)
AG_TF_REDUCTION(reduce_all, reduce_logical, All)
#undef AG_TF_REDUCTION

Value argmax(const Value& x, const Value& axis, DType output_type, std::string_view name) {
  return arg_reduce(op::ArgMax, x, axis, output_type, name);
}

Value argmin(const Value& x, const Value& axis, DType output_type, std::string_view name) {
  return arg_reduce(op::ArgMin, x, axis, output_type, name);
}

Value range(const Value& start_v, const Value& limit_v, const Value& delta_v, OptDType dtype, std::string_view name) {
  Value start = start_v, limit = limit_v;
  if (limit.is_none()) {
    limit = start;
    start = Value(0);
  }
  // As math_ops.range: Python numbers convert at `dtype`; tensors are cast to
  // it below.
  auto convert = [&](const Value& v) { return v.is_tensor() ? v.as_tensor() : to_tensor(v, dtype); };
  TensorHandle s = convert(start), l = convert(limit), d = convert(delta_v);
  DType dt = DType::Int32;
  if (dtype) {
    dt = *dtype;
  } else {
    auto level = [](DType t) {
      switch (t) {
        case DType::Int32: return 0;
        case DType::Int64: return 1;
        case DType::Float32: return 2;
        case DType::Float64: return 3;
        default: throw TypeError(std::string("tf.range does not support dtype ") + dtype_name(t));
      }
    };
    const DType order[] = {DType::Int32, DType::Int64, DType::Float32, DType::Float64};
    dt = order[std::max({level(s.dtype()), level(l.dtype()), level(d.dtype())})];
  }
  auto as = [&](const TensorHandle& t) { return cast(Value(t), dt).as_tensor(); };
  return Value(apply(op::Range, {as(s), as(l), as(d)}, name, Attrs{{"Tidx", dt}}));
}

Value ones(const Value& shape, DType dtype, std::string_view name) { return filled(shape, dtype, 1, name); }
Value zeros(const Value& shape, DType dtype, std::string_view name) { return filled(shape, dtype, 0, name); }

Value fill(const Value& dims, const Value& value, std::string_view name) {
  return Value(apply(op::Fill, {index_tensor(dims), to_tensor(value)}, name));
}

Value ones_like(const Value& x, std::string_view name) { return Value(apply(op::OnesLike, {to_tensor(x)}, name)); }
Value zeros_like(const Value& x, std::string_view name) { return Value(apply(op::ZerosLike, {to_tensor(x)}, name)); }

Value concat(const Value& values, const Value& axis, std::string_view name) {
  if (std::optional<Value> r = ragged_concat(values, axis, name)) return *r;
  std::vector<TensorHandle> in = convert_all(values);
  if (in.size() == 1) return Value(apply(op::Identity, {in[0]}, name));
  int64_t n = static_cast<int64_t>(in.size());
  in.push_back(index_tensor(axis));
  return Value(apply(op::ConcatV2, std::move(in), name, Attrs{{"N", n}}));
}

Value add_n(const Value& inputs, std::string_view name) {
  if (!(inputs.is_list() || inputs.is_tuple()) || inputs.items().empty()) {
    throw ValueError("inputs must be a list of at least one Tensor/IndexedSlices with the same dtype and shape");
  }
  std::vector<TensorHandle> in = convert_all(inputs);
  if (in.size() == 1) return Value(apply(op::Identity, {in[0]}, name));
  auto n = static_cast<int64_t>(in.size());
  return Value(apply(op::AddN, std::move(in), name, Attrs{{"N", n}}));
}

Value stack(const Value& values, const Value& axis, std::string_view name) {
  // A list a staged loop carried as a TensorArray stacks as one (AutoGraph's list_stack).
  if (values.is_tensor_array() && axis.is_int() && axis.as_int() == 0) return tensor_array::stack(values);
  std::vector<TensorHandle> in = convert_all(values);
  int64_t n = static_cast<int64_t>(in.size());
  return Value(apply(op::Pack, std::move(in), name, Attrs{{"axis", axis.as_int()}, {"N", n}}));
}

Value unstack(const Value& value, const Value& num, int64_t axis, std::string_view name) {
  TensorHandle t = to_tensor(value);
  Attrs attrs{{"axis", axis}};
  if (!num.is_none()) attrs.set("num", num.as_int());
  std::vector<Value> out;
  for (TensorHandle& h : apply_op(op::Unpack, std::span<const TensorHandle>(&t, 1), attrs, name)) {
    out.emplace_back(std::move(h));
  }
  return Value::list(std::move(out));
}

Value shape(const Value& x, DType out_type, std::string_view name) {
  TensorHandle t = to_tensor(x);
  std::optional<Tensor> known;
  if (t.shape().fully_defined()) {
    std::vector<int64_t> dims(t.shape().dims().begin(), t.shape().dims().end());
    known = int_tensor(out_type, dims, false);
  }
  return static_or_op(op::Shape, t, Attrs{{"out_type", out_type}}, known, name);
}

Value size(const Value& x, DType out_type, std::string_view name) {
  TensorHandle t = to_tensor(x);
  std::optional<Tensor> known;
  if (t.shape().fully_defined()) known = int_tensor(out_type, {t.shape().num_elements()}, true);
  return static_or_op(op::Size, t, Attrs{{"out_type", out_type}}, known, name);
}

Value rank(const Value& x, std::string_view name) {
  TensorHandle t = to_tensor(x);
  std::optional<Tensor> known;
  if (t.shape().rank_known()) known = Tensor::scalar<int32_t>(t.shape().rank());
  return static_or_op(op::Rank, t, {}, known, name);
}

void print(const std::vector<Value>& inputs, std::string_view sep, std::string_view end, int64_t summarize,
           std::string_view output_stream) {
  // TF's print_v2: one scalar string tensor prints as it is; otherwise each
  // input becomes a piece of a StringFormat template: a str itself, anything
  // else pprint.pformat of its structure with a placeholder for each tensor
  // (a variable prints its value), the quotes pformat gave them removed.
  auto is_tensor = [](const Value& v) { return v.is_tensor() || v.is_variable(); };
  auto format = [&]() -> TensorHandle {
    if (inputs.size() == 1 && inputs[0].is_tensor() && inputs[0].as_tensor().dtype() == DType::String &&
        inputs[0].as_tensor().shape().rank() == 0) {
      return inputs[0].as_tensor();
    }
    // The placeholder is "{}" unless the inputs' text holds it.
    std::string text;
    for (const Value& in : inputs) {
      text += " " + pformat(nest::map_structure(in, [&](const Value& x) { return is_tensor(x) ? Value("") : x; }));
    }
    std::string placeholder = "{}";
    for (int digit = 0; text.find(placeholder) != std::string::npos; digit = (digit + 1) % 10) {
      placeholder += std::to_string(digit);
    }
    std::string tmpl;
    std::vector<TensorHandle> tensors;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (i > 0) tmpl += sep;
      Value with_placeholders = nest::map_structure(inputs[i], [&](const Value& x) {
        if (!is_tensor(x)) return x;
        tensors.push_back(x.is_variable() ? variable_value::read(x) : x.as_tensor());
        return Value(placeholder);
      });
      tmpl += inputs[i].is_str() ? inputs[i].as_str() : pformat(with_placeholders);
    }
    const std::string quoted = "'" + placeholder + "'";
    for (size_t at = tmpl.find(quoted); at != std::string::npos; at = tmpl.find(quoted, at + placeholder.size())) {
      tmpl.replace(at, quoted.size(), placeholder);
    }
    return apply(op::StringFormat, tensors, "StringFormat",
                 Attrs{{"template", tmpl}, {"placeholder", placeholder}, {"summarize", summarize}});
  };
  TensorHandle formatted = format();
  apply_op(op::PrintV2, std::span<const TensorHandle>(&formatted, 1),
           Attrs{{"output_stream", std::string(output_stream)}, {"end", std::string(end)}}, "PrintV2");
}

// ---- The reduction rows of tf_functions.def: one implementation per kind,
// the op from the row.
namespace impl {

Value reduce(const TfCall& c) {
  return tf::reduce(c.op(), c["input_tensor"], c["axis"], truthy(c["keepdims"]), c.node_name());
}

Value reduce_logical(const TfCall& c) {
  return tf::reduce_logical(c.op(), c["input_tensor"], c["axis"], truthy(c["keepdims"]), c.node_name());
}

Value arg_reduce(const TfCall& c) {
  const Value& t = c["output_type"];
  return tf::arg_reduce(c.op(), c["input"], c["axis"], t.is_none() ? DType::Int64 : require_dtype(t), c.node_name());
}

Value linspace(const TfCall& c) {
  // math_ops.linspace_nd: start and stop broadcast together; along `axis`,
  // start, then start + delta · i for i in [1, num - 1), then stop exactly,
  // delta = (stop - start) / max(num - 1, 1); sliced to num (0 or 1 values
  // when num is).
  NameScope scope(c.node_name());
  Value start(to_tensor(c["start"]));
  Value stop(to_tensor(c["stop"], start.as_tensor().dtype()));
  TensorHandle num_t = to_tensor(c["num"]);
  if (!is_integer(num_t.dtype())) throw TypeError("num must be an integer tensor; dtype=" + dtype_repr(num_t.dtype()));
  Value num_int = tf::cast(Value(num_t), DType::Int32);
  const Shape &s0 = start.as_tensor().shape(), &s1 = stop.as_tensor().shape();
  Shape both;
  if (!s0.fully_defined() || !s1.fully_defined() || !kernels::broadcast_static(s0, s1, both)) {
    if (s0.fully_defined() && s1.fully_defined()) {
      throw InvalidArgumentError("Incompatible shapes: " + s0.debug_string() + " vs. " + s1.debug_string());
    }
    throw UnimplementedError("tf.linspace needs start and stop of known shapes");
  }
  std::vector<int64_t> dims(both.dims().begin(), both.dims().end());
  start = tf::broadcast_to(start, Value(int32_vector(dims)));
  stop = tf::broadcast_to(stop, Value(int32_vector(dims)));
  const int64_t ndims = static_cast<int64_t>(dims.size()) + 1;
  int64_t axis = ag::api::int_arg(c["axis"], "axis");
  if (axis < -ndims || axis >= ndims) {
    throw InvalidArgumentError("Expected axis in the range [" + std::to_string(-ndims) + ", " + std::to_string(ndims) +
                               "), but got " + std::to_string(axis));
  }
  if (axis < 0) axis += ndims;
  Value first = tf::expand_dims(start, Value(axis));
  Value last = tf::expand_dims(stop, Value(axis));
  Value num_fill = tf::maximum(num_int - Value(2), Value(0));
  Value n_steps = tf::maximum(num_int - Value(1), Value(1));
  Value delta = (last - first) / tf::cast(n_steps, last.as_tensor().dtype());
  first = tf::cast(first, delta.as_tensor().dtype());
  last = tf::cast(last, delta.as_tensor().dtype());
  Value range_end = tf::where(num_int >= Value(0), n_steps, Value(-1));
  Value steps = tf::cast(tf::range(Value(1), range_end, Value(1), DType::Int64), delta.as_tensor().dtype());
  // [1, ..., num_fill at axis, ..., 1]
  std::vector<Value> steps_shape(static_cast<size_t>(ndims), Value(1));
  steps_shape[static_cast<size_t>(axis)] = tf::reshape(num_fill, Value::list());
  Value res = first + delta * tf::reshape(steps, tf::stack(Value::list(steps_shape)));
  Value joined = tf::concat(Value::list({first, res, last}), Value(axis));
  // The size: the shape with num at axis (a constant when num is known, so a
  // traced result keeps its static shape).
  std::vector<Value> size;
  for (int64_t d = 0; d < ndims; ++d) {
    if (d == axis) size.push_back(num_t.symbolic() ? tf::reshape(num_int, Value::list()) : Value(array::int_at(num_t.value(), 0)));
    else size.emplace_back(dims[static_cast<size_t>(d < axis ? d : d - 1)]);
  }
  TensorHandle begin = int32_vector(std::vector<int64_t>(static_cast<size_t>(ndims), 0));
  return Value(apply(op::Slice, {joined.as_tensor(), begin, to_tensor(Value::list(size), DType::Int32)}, "Slice"));
}

Value meshgrid(const TfCall& c) {
  // array_ops.meshgrid: each input reshaped to lie along its own axis (the
  // first two swapped for "xy" indexing) and multiplied by ones of the full
  // grid's shape.
  const std::vector<Value>& args = c["args"].items();
  const Value& kwargs = c["kwargs"];
  std::string indexing = "xy";
  std::string name = "meshgrid";
  for (const auto& [k, v] : kwargs.as_dict().entries) {
    const std::string& key = k.as_str();
    if (key == "indexing") indexing = ag::api::str_arg(v, "indexing");
    else if (key == "name") name = ag::api::str_arg(v, "name");
    else throw TypeError("'" + key + "' is an invalid keyword argument for this function");
  }
  if (indexing != "xy" && indexing != "ij") {
    throw ValueError("Argument `indexing` parameter must be either 'xy' or 'ij', got '" + indexing + "'");
  }
  NameScope scope(name);
  const size_t n = args.size();
  if (n == 0) return Value::list();
  std::vector<Value> output, shapes;
  for (size_t i = 0; i < n; ++i) {
    std::vector<Value> shape(n, Value(1));
    shape[i] = Value(-1);
    output.push_back(tf::reshape(Value(to_tensor(args[i])), Value::tuple(shape)));
    shapes.push_back(tf::size(args[i]));
  }
  DType dtype = to_tensor(args[0]).dtype();
  if (indexing == "xy" && n > 1) {
    std::vector<Value> s0(n, Value(1)), s1(n, Value(1));
    s0[1] = Value(-1);
    s1[0] = Value(-1);
    output[0] = tf::reshape(output[0], Value::tuple(s0));
    output[1] = tf::reshape(output[1], Value::tuple(s1));
    std::swap(shapes[0], shapes[1]);
  }
  Value mult = tf::ones(tf::stack(Value::list(shapes)), dtype);
  std::vector<Value> grids;
  for (const Value& x : output) grids.push_back(x * mult);
  return Value::list(grids);
}

}  // namespace impl

}  // namespace ag::tf
