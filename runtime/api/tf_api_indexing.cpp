// tf.* functions on indexing and layout: expand_dims, squeeze, split, tile,
// pad, gather, gather_nd, one_hot, cumsum, cumprod, and tf.slice's row.
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/value/convert.h"

namespace ag::tf {
namespace {

using namespace common;

std::vector<int64_t> int_list(const Value& v) {
  std::vector<int64_t> out;
  if (v.is_int() || v.is_bool()) {
    out.push_back(v.as_int());
    return out;
  }
  for (const Value& x : iterate(v)) out.push_back(x.as_int());
  return out;
}

}  // namespace

Value expand_dims(const Value& x, const Value& axis, std::string_view name) {
  if (axis.is_none()) throw ValueError("Must specify an axis argument to tf.expand_dims()");
  return Value(apply(op::ExpandDims, {to_tensor(x), index_tensor(axis)}, name));
}

Value squeeze(const Value& x, const Value& axis, std::string_view name) {
  Attrs attrs;
  if (!axis.is_none()) attrs.set("squeeze_dims", int_list(axis));
  return Value(apply(op::Squeeze, {to_tensor(x)}, name, attrs));
}

Value split(const Value& value, const Value& num_or_size_splits, const Value& axis, const Value& num,
            std::string_view name) {
  TensorHandle t = to_tensor(value);
  std::vector<TensorHandle> pieces;
  if (num_or_size_splits.is_int()) {
    TensorHandle in[2] = {index_tensor(axis), t};
    pieces = apply_op(op::Split, in, Attrs{{"num_split", num_or_size_splits.as_int()}}, name);
  } else {
    TensorHandle sizes = index_tensor(num_or_size_splits);
    Attrs attrs;
    if (!num.is_none()) attrs.set("num_split", num.as_int());
    TensorHandle in[3] = {t, sizes, index_tensor(axis)};
    pieces = apply_op(op::SplitV, in, attrs, name);
  }
  std::vector<Value> out;
  for (TensorHandle& p : pieces) out.emplace_back(std::move(p));
  return Value::list(std::move(out));
}

Value tile(const Value& x, const Value& multiples, std::string_view name) {
  return Value(apply(op::Tile, {to_tensor(x), index_tensor(multiples)}, name));
}

Value pad(const Value& x, const Value& paddings, const std::string& mode, const Value& constant_values,
          std::string_view name) {
  std::string m;
  for (char c : mode) m += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  TensorHandle t = to_tensor(x);
  TensorHandle p = index_tensor(paddings);
  if (m == "REFLECT" || m == "SYMMETRIC") return Value(apply(op::MirrorPad, {t, p}, name, Attrs{{"mode", m}}));
  if (m != "CONSTANT") {
    throw ValueError("Value of argument `mode` expected to be one of \"CONSTANT\", \"REFLECT\", or \"SYMMETRIC\". "
                     "Received `mode` = " + mode);
  }
  bool zero = !constant_values.is_tensor() && constant_values.is_number() && constant_values.as_float() == 0.0;
  if (zero) return Value(apply(op::Pad, {t, p}, name));
  return Value(apply(op::PadV2, {t, p, to_tensor(constant_values, t.dtype())}, name));
}

Value broadcast_to(const Value& x, const Value& shape, std::string_view name) {
  return Value(apply(op::BroadcastTo, {to_tensor(x), index_tensor(shape)}, name));
}

Value gather(const Value& params, const Value& indices, const Value& axis, int64_t batch_dims, std::string_view name) {
  Value ax = axis.is_none() ? Value(batch_dims) : axis;
  return Value(apply(op::GatherV2, {to_tensor(params), index_tensor(indices), index_tensor(ax)}, name,
                     Attrs{{"batch_dims", batch_dims}}));
}

Value gather_nd(const Value& params, const Value& indices, std::string_view name) {
  return Value(apply(op::GatherNd, {to_tensor(params), index_tensor(indices)}, name));
}

Value one_hot(const Value& indices, const Value& depth, const Value& on_value, const Value& off_value, int64_t axis,
              OptDType dtype, std::string_view name) {
  // array_ops.one_hot: the dtype from `dtype`, else from on/off values, else float32.
  DType dt = DType::Float32;
  if (dtype) {
    dt = *dtype;
  } else if (!on_value.is_none()) {
    dt = to_tensor(on_value).dtype();
  } else if (!off_value.is_none()) {
    dt = to_tensor(off_value).dtype();
  }
  TensorHandle on = on_value.is_none() ? to_tensor(Value(1), dt) : to_tensor(on_value, dt);
  TensorHandle off = off_value.is_none() ? to_tensor(Value(0), dt) : to_tensor(off_value, dt);
  return Value(apply(op::OneHot, {index_tensor(indices), index_tensor(depth), on, off}, name,
                     Attrs{{"axis", axis}}));
}

Value cumsum(const Value& x, const Value& axis, bool exclusive, bool reverse, std::string_view name) {
  return Value(apply(op::Cumsum, {to_tensor(x), index_tensor(axis)}, name,
                     Attrs{{"exclusive", exclusive}, {"reverse", reverse}}));
}

Value cumprod(const Value& x, const Value& axis, bool exclusive, bool reverse, std::string_view name) {
  return Value(apply(op::Cumprod, {to_tensor(x), index_tensor(axis)}, name,
                     Attrs{{"exclusive", exclusive}, {"reverse", reverse}}));
}

// ---- Rows of tf_functions.def implemented here.
namespace impl {

/// tf.slice(input_, begin, size): the Slice op; begin and size lists become
/// int32 tensors (array_ops.slice converts them as TF converts op inputs).
Value slice(const TfCall& c) {
  return Value(apply(op::Slice, {to_tensor(c["input_"]), index_tensor(c["begin"]), index_tensor(c["size"])},
                     c.node_name()));
}

}  // namespace impl

}  // namespace ag::tf
