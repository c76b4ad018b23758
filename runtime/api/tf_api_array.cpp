// tf.* functions on shapes and arrays, reductions, tf.range, tf.print; the
// reduction rows' shared implementations (the row names the op).
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
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
  if (shape_v.is_tensor()) {
    Tensor value = literal_to_tensor(Value(one), dtype);
    return Value(apply(op::Fill, {index_tensor(shape_v), TensorHandle(value)}, name));
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
  bool two_d = ta.shape().rank() == 2 && tb.shape().rank() == 2;
  if (two_d) {
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
  TensorHandle s = to_tensor(start, dtype), l = to_tensor(limit, dtype), d = to_tensor(delta_v, dtype);
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
  std::string tmpl;
  std::vector<TensorHandle> tensors;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i > 0) tmpl += sep;
    if (inputs[i].is_tensor()) {
      tmpl += "{}";
      tensors.push_back(inputs[i].as_tensor());
    } else if (inputs[i].is_variable()) {
      // A variable prints its value, as TF's does.
      tmpl += "{}";
      tensors.push_back(variable_value::read(inputs[i]));
    } else {
      tmpl += str(inputs[i]);
    }
  }
  TensorHandle formatted = apply(op::StringFormat, tensors, "StringFormat",
      Attrs{{"template", tmpl}, {"placeholder", std::string("{}")}, {"summarize", summarize}});
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

}  // namespace impl

}  // namespace ag::tf
