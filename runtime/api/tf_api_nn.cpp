// tf.nn.* ops: softmax, log_softmax, conv2d, bias_add, max/avg pooling, with
// TF's Python argument handling (nn_ops.py) on top of the registered kernels;
// the softmax and pooling rows' shared implementations (the row names the op),
// the cross-entropy and fused_batch_norm rows (nn_ops.py, nn_impl.py), and
// the 1-D convolutions and pools, the transposed convolutions and the generic
// max_pool/avg_pool as TF composes them from the 2-D ops.
#include "runtime/api/binding.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/value/convert.h"

namespace ag::tf {
namespace {

using namespace common;

/// nn_ops._get_sequence: a window attribute (ksize, strides, dilations) of
/// an op over n spatial dims from None (all 1), an int, or a sequence of 1,
/// n or n + 2 ints; the batch and channel dims (channel_index 1 or n + 1)
/// get 1.
std::vector<int64_t> get_sequence(const Value& v, int n, int channel_index, const char* name) {
  std::vector<int64_t> in;
  if (v.is_none()) return std::vector<int64_t>(static_cast<size_t>(n + 2), 1);
  if (v.is_int() || v.is_bool()) {
    in.push_back(v.as_int());
  } else {
    for (const Value& x : iterate(v)) in.push_back(x.as_int());
  }
  const size_t len = in.size();
  if (len == static_cast<size_t>(n + 2)) return in;
  if (len == 1) {
    in.assign(static_cast<size_t>(n), in[0]);
  } else if (len != static_cast<size_t>(n)) {
    throw ValueError(std::string(name) + " should be of length 1, " + std::to_string(n) + " or " + std::to_string(n + 2) +
                     " but was " + std::to_string(len));
  }
  std::vector<int64_t> out{1};
  if (channel_index == 1) out.push_back(1);
  out.insert(out.end(), in.begin(), in.end());
  if (channel_index != 1) out.push_back(1);
  return out;
}

/// The 4 of an NHWC or NCHW op (data_format starting "NC": channels second).
std::vector<int64_t> four_of(const Value& v, const char* name, const std::string& data_format) {
  return get_sequence(v, 2, data_format.rfind("NC", 0) == 0 ? 1 : 3, name);
}

/// nn_ops.convert_padding: "SAME"/"VALID" as they are; a list of
/// `expected` [before, after] pairs is EXPLICIT with those paddings.
std::pair<std::string, std::vector<int64_t>> convert_padding(const Value& padding, size_t expected = 4) {
  if (padding.is_str()) {
    if (padding.as_str() == "EXPLICIT") {
      throw ValueError("'EXPLICIT' is not a valid value for `padding`. To use explicit padding, `padding` must be a list.");
    }
    return {padding.as_str(), {}};
  }
  if (!padding.is_list() && !padding.is_tuple()) return {ag::api::str_arg(padding, "padding"), {}};
  std::vector<int64_t> pads;
  const std::vector<Value>& pairs = padding.items();
  for (size_t i = 0; i < pairs.size(); ++i) {
    const Value& pair = pairs[i];
    if (!pair.is_list() && !pair.is_tuple()) {
      throw ValueError("When `padding` is a list, each element of `padding` must be a list/tuple of size 2. Received: "
                       "padding=" + repr(padding) + " with element at index " + std::to_string(i) + " of type <class '" +
                       pair.type_name() + "'>");
    }
    if (pair.items().size() != 2) {
      throw ValueError("When `padding` is a list, each element of `padding` must be a list/tuple of size 2. Received: "
                       "padding=" + repr(padding) + " with element at index " + std::to_string(i) + " of size " +
                       std::to_string(pair.items().size()));
    }
    for (const Value& p : pair.items()) pads.push_back(p.as_int());
  }
  if (pairs.size() != expected) {
    throw ValueError("When padding is a list, it must be of size " + std::to_string(expected) + ". Received: padding=" +
                     repr(padding) + " of size " + std::to_string(pairs.size()));
  }
  return {"EXPLICIT", pads};
}

Value softmax_like(OpType op, const Value& logits, const Value& axis, std::string_view name) {
  TensorHandle t = to_tensor(logits);
  int64_t ax = axis.is_none() ? -1 : axis.as_int();
  Shape s = t.shape();
  if (ax == -1 || (s.rank_known() && ax == s.rank() - 1)) return Value(apply(op, {t}, name));
  if (!s.rank_known()) throw UnimplementedError(std::string("tf.nn.") + std::string(op.name()) + " over a non-last axis needs a known rank");
  int rank = s.rank();
  if (ax < -rank || ax >= rank) {
    throw InvalidArgumentError("`axis` must be in the range [" + std::to_string(-rank) + ", " + std::to_string(rank) +
                               "). Received: axis=" + std::to_string(ax));
  }
  if (ax < 0) ax += rank;
  // nn_ops._wrap_2d_function: swap the axis with the last one, apply, swap back.
  std::vector<int32_t> perm(static_cast<size_t>(rank));
  for (int i = 0; i < rank; ++i) perm[static_cast<size_t>(i)] = i;
  std::swap(perm[static_cast<size_t>(ax)], perm[static_cast<size_t>(rank - 1)]);
  TensorHandle p(Tensor::from_vector<int32_t>({rank}, perm));
  TensorHandle moved = apply(op::Transpose, {t, p}, "transpose");
  TensorHandle out = apply(op, {moved}, name);
  return Value(apply(op::Transpose, {out, p}, "transpose_1"));
}

Value pool(OpType op, std::string_view name, const Value& input, const Value& ksize, const Value& strides,
           const std::string& padding, const std::string& data_format) {
  return Value(apply(op, {to_tensor(input)}, name,
                     Attrs{{"ksize", four_of(ksize, "ksize", data_format)},
                           {"strides", four_of(strides, "strides", data_format)},
                           {"padding", padding},
                           {"data_format", data_format}}));
}

}  // namespace

Value softmax(const Value& logits, const Value& axis, std::string_view name) {
  return softmax_like(op::Softmax, logits, axis, name);
}
Value log_softmax(const Value& logits, const Value& axis, std::string_view name) {
  return softmax_like(op::LogSoftmax, logits, axis, name);
}

namespace {

/// Conv2D or DepthwiseConv2dNative: their attrs are the same.
Value convolution(OpType op, const Value& input, const Value& filters, const Value& strides, const Value& padding,
                  const std::string& data_format, const Value& dilations, std::string_view name) {
  TensorHandle x = to_tensor(input);
  TensorHandle f = to_tensor(filters, x.dtype());
  Attrs attrs{{"strides", four_of(strides, "strides", data_format)}, {"data_format", data_format}};
  attrs.set("dilations", four_of(dilations, "dilations", data_format));
  auto [pad, explicit_pads] = convert_padding(padding);
  attrs.set("padding", pad);
  if (pad == "EXPLICIT") attrs.set("explicit_paddings", explicit_pads);
  return Value(apply(op, {x, f}, name, attrs));
}

}  // namespace

Value conv2d(const Value& input, const Value& filters, const Value& strides, const Value& padding,
             const std::string& data_format, const Value& dilations, std::string_view name) {
  return convolution(op::Conv2D, input, filters, strides, padding, data_format, dilations, name);
}

Value depthwise_conv2d(const Value& input, const Value& filter, const Value& strides, const Value& padding,
                       const std::string& data_format, const Value& dilations, std::string_view name) {
  return convolution(op::DepthwiseConv2dNative, input, filter, strides, padding, data_format, dilations, name);
}

Value bias_add(const Value& value, const Value& bias, const std::string& data_format, std::string_view name) {
  TensorHandle v = to_tensor(value);
  return Value(apply(op::BiasAdd, {v, to_tensor(bias, v.dtype())}, name, Attrs{{"data_format", data_format}}));
}

Value max_pool2d(const Value& input, const Value& ksize, const Value& strides, const std::string& padding,
                 const std::string& data_format, std::string_view name) {
  return pool(op::MaxPool, name, input, ksize, strides, padding, data_format);
}

Value avg_pool2d(const Value& input, const Value& ksize, const Value& strides, const std::string& padding,
                 const std::string& data_format, std::string_view name) {
  return pool(op::AvgPool, name, input, ksize, strides, padding, data_format);
}

// ---- The softmax and pooling rows of tf_functions.def: the op from the row.
namespace impl {

Value softmax(const TfCall& c) { return tf::softmax_like(c.op(), c["logits"], c["axis"], c.node_name()); }

/// The logits' (or labels') dims but the last, as an int32 tensor: static
/// when known, else sliced from the run-time shape.
TensorHandle leading_dims(const TensorHandle& t) {
  const Shape& s = t.shape();
  if (s.fully_defined()) return int32_vector(std::vector<int64_t>(s.dims().begin(), s.dims().end() - 1));
  TensorHandle shape = apply(op::Shape, {t}, "Shape", Attrs{{"out_type", DType::Int32}});
  return apply(op::Slice, {shape, int32_vector({0}), int32_vector({s.rank() - 1})}, "Slice");
}

/// t reshaped to [-1, last dim] (nn_ops._flatten_outer_dims).
TensorHandle flatten_outer(const TensorHandle& t) {
  const Shape& s = t.shape();
  TensorHandle last = s.dim(s.rank() - 1) >= 0
                          ? int32_vector({-1, s.dim(s.rank() - 1)})
                          : apply(op::ConcatV2,
                                  {int32_vector({-1}),
                                   apply(op::Slice, {apply(op::Shape, {t}, "Shape", Attrs{{"out_type", DType::Int32}}),
                                                     int32_vector({s.rank() - 1}), int32_vector({1})},
                                         "Slice"),
                                   TensorHandle(Tensor::scalar(int32_t{0}))},
                                  "concat");
  return apply(op::Reshape, {t, last}, "Reshape");
}

/// tf.nn.softmax_cross_entropy_with_logits(labels, logits, axis=-1) (TF's v2):
/// labels take the logits' dtype and get a gradient too; `axis` is moved
/// last and the outer dims flattened around the 2-D op.
Value softmax_cross_entropy_with_logits(const TfCall& c) {
  TensorHandle logits = to_tensor(c["logits"]);
  TensorHandle labels = to_tensor(c["labels"]);
  if (labels.dtype() != logits.dtype()) {
    labels = apply(op::Cast, {labels}, "Cast", Attrs{{"SrcT", labels.dtype()}, {"DstT", logits.dtype()}, {"Truncate", false}});
  }
  const Shape& s = logits.shape();
  if (!s.rank_known()) throw UnimplementedError("tf.nn.softmax_cross_entropy_with_logits needs the logits' rank");
  const int rank = s.rank();
  int64_t axis = ag::api::int_arg(c["axis"], "axis");
  if (axis < -rank || axis >= rank) {
    throw InvalidArgumentError("`axis` must be in the range [" + std::to_string(-rank) + ", " + std::to_string(rank) +
                               "). Received: axis=" + std::to_string(axis));
  }
  if (axis < 0) axis += rank;
  if (axis != rank - 1) {
    // nn_ops._move_dim_to_end.
    std::vector<int64_t> perm;
    for (int i = 0; i < rank; ++i) {
      if (i != axis) perm.push_back(i);
    }
    perm.push_back(axis);
    logits = apply(op::Transpose, {logits, int32_vector(perm)}, "transpose");
    labels = apply(op::Transpose, {labels, int32_vector(perm)}, "transpose_1");
  }
  if (rank == 2) {
    return Value(apply_op(op::SoftmaxCrossEntropyWithLogits, std::vector<TensorHandle>{logits, labels}, {}, c.node_name())[0]);
  }
  TensorHandle out_shape = leading_dims(logits);
  TensorHandle cost = apply_op(op::SoftmaxCrossEntropyWithLogits,
                               std::vector<TensorHandle>{flatten_outer(logits), flatten_outer(labels)}, {}, c.node_name())[0];
  return Value(apply(op::Reshape, {cost, out_shape}, "Reshape_2"));
}

/// tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits): labels of
/// rank logits' rank - 1, checked statically in TF's words; other ranks than
/// 2 are flattened around the op.
Value sparse_softmax_cross_entropy_with_logits(const TfCall& c) {
  TensorHandle labels = to_tensor(c["labels"]);
  TensorHandle logits = to_tensor(c["logits"]);
  const Shape& ls = labels.shape();
  const Shape& xs = logits.shape();
  if (xs.rank_known() && xs.rank() == 0) {
    throw ValueError("Logits cannot be scalars - received shape " + xs.str() + ".");
  }
  if (xs.rank_known() && ls.rank_known()) {
    if (ls.rank() != xs.rank() - 1) {
      throw ValueError("Rank mismatch: Rank of labels (received " + std::to_string(ls.rank()) +
                       ") should equal rank of logits minus 1 (received " + std::to_string(xs.rank()) + ").");
    }
    for (int d = 0; d < ls.rank(); ++d) {
      if (ls.dim(d) >= 0 && xs.dim(d) >= 0 && ls.dim(d) != xs.dim(d)) {
        throw ValueError("Shape mismatch: The shape of labels (received " + ls.str() +
                         ") should equal the shape of logits except for the last dimension (received " + xs.str() + ").");
      }
    }
  }
  if (!xs.rank_known()) throw UnimplementedError("tf.nn.sparse_softmax_cross_entropy_with_logits needs the logits' rank");
  if (xs.rank() == 2) {
    return Value(apply_op(op::SparseSoftmaxCrossEntropyWithLogits, std::vector<TensorHandle>{logits, labels}, {},
                          c.node_name())[0]);
  }
  TensorHandle out_shape = leading_dims(logits);
  TensorHandle flat_labels = apply(op::Reshape, {labels, int32_vector({-1})}, "Reshape_1");
  TensorHandle cost = apply_op(op::SparseSoftmaxCrossEntropyWithLogits,
                               std::vector<TensorHandle>{flatten_outer(logits), flat_labels}, {}, c.node_name())[0];
  return Value(apply(op::Reshape, {cost, out_shape}, "Reshape_2"));
}

/// tf.nn.fused_batch_norm(...) -> (y, running_mean, running_var), as
/// nn_impl.fused_batch_norm: mean and variance may be None only in training
/// with exponential_avg_factor 1 (then empty), and epsilon is at least 1.001e-5.
Value fused_batch_norm(const TfCall& c) {
  const bool training = truthy(c["is_training"]);
  const Value& factor_v = c["exponential_avg_factor"];
  const double factor = factor_v.is_float() ? factor_v.as_float() : static_cast<double>(factor_v.as_int());
  if ((!training || factor != 1.0) && (c["mean"].is_none() || c["variance"].is_none())) {
    throw ValueError("Both `mean` and `variance` must be a 1D tensor when is_training is False or "
                     "exponential_avg_factor != 1.0. Received: mean " + ag::repr(c["mean"]) + " and variance " +
                     ag::repr(c["variance"]));
  }
  TensorHandle x = to_tensor(c["x"]);
  TensorHandle scale = to_tensor(c["scale"]);
  TensorHandle offset = to_tensor(c["offset"], scale.dtype());
  TensorHandle empty(Tensor(scale.dtype(), Shape{0}));
  TensorHandle mean = c["mean"].is_none() ? empty : to_tensor(c["mean"], scale.dtype());
  TensorHandle variance = c["variance"].is_none() ? empty : to_tensor(c["variance"], scale.dtype());
  const Value& eps_v = c["epsilon"];
  double epsilon = eps_v.is_float() ? eps_v.as_float() : static_cast<double>(eps_v.as_int());
  epsilon = std::max(epsilon, 1.001e-5);
  std::vector<TensorHandle> out =
      apply_op(op::FusedBatchNormV3, std::vector<TensorHandle>{x, scale, offset, mean, variance},
               Attrs{{"epsilon", epsilon},
                     {"exponential_avg_factor", factor},
                     {"data_format", ag::api::str_arg(c["data_format"], "data_format")},
                     {"is_training", training}},
               c.node_name());
  return Value::tuple({Value(out[0]), Value(out[1]), Value(out[2])});
}

Value pool2d(const TfCall& c) {
  return tf::pool(c.op(), c.node_name(), c["input"], c["ksize"], c["strides"],
                  ag::api::str_arg(c["padding"], "padding"), ag::api::str_arg(c["data_format"], "data_format"));
}

}  // namespace impl

// ---- The 1-D convolutions and pools as TF composes them (nn_ops.py): the
// 2-D op over the input with a height of 1 (ExpandDims), squeezed back out,
// under the function's name scope; the 2-D node takes the scope's name.
namespace {

/// A 1-D function's data_format: "NWC" (or NHWC) puts the channels last and
/// the new height before the width; "NCW" (or NCHW) the channels second.
struct Format1d {
  std::string format2d;
  int channel_index;
  bool channels_last() const { return channel_index == 2; }
};

Format1d format_1d(const Value& data_format, bool accept_2d_names) {
  const std::string f = data_format.is_none() ? "NWC" : ag::api::str_arg(data_format, "data_format");
  if (f == "NWC" || (accept_2d_names && f == "NHWC")) return {"NHWC", 2};
  if (f == "NCW" || (accept_2d_names && f == "NCHW")) return {"NCHW", 1};
  throw ValueError("`data_format` must be 'NWC' or 'NCW'. Received: data_format=" + f);
}

/// [1] + _get_sequence(v, 1, ...): a 1-D attribute as the 2-D op's 4.
std::vector<int64_t> sequence_1d(const Value& v, int channel_index, const char* name) {
  std::vector<int64_t> s = get_sequence(v, 1, channel_index, name);
  s.insert(s.begin(), 1);
  return s;
}

/// A pool's padding string. MaxPool takes explicit pads in TF, which agc's
/// pools do not; AvgPool takes a string only (a list is TF's TypeError).
std::string pool_padding(const Value& padding, bool is_max, const char* fn) {
  if (is_max && (padding.is_list() || padding.is_tuple())) {
    throw UnimplementedError(std::string("tf.nn.") + fn + " with explicit padding is not supported");
  }
  return ag::api::str_arg(padding, "padding");
}

/// max_pool1d / avg_pool1d (op MaxPool or AvgPool) under scope `name`. As
/// TF's, data_format is not checked: "NWC" is NHWC over a new height at
/// dim 1, anything else NCHW at dim 2 (which the CPU's pools refuse).
Value pool_1d(OpType op, std::string_view name, const Value& input, const Value& ksize, const Value& strides,
              const Value& padding, const Value& data_format) {
  const bool is_max = op == op::MaxPool;
  NameScope scope(name);
  const std::string format = data_format.is_none() ? "NWC" : ag::api::str_arg(data_format, "data_format");
  const int channel_index = format.rfind("NC", 0) == 0 ? 1 : 2;
  std::vector<int64_t> k = sequence_1d(ksize, channel_index, "ksize");
  std::vector<int64_t> s = sequence_1d(strides, channel_index, "strides");
  const std::string pad = pool_padding(padding, is_max, is_max ? "max_pool1d" : "avg_pool1d");
  const bool nwc = format == "NWC";
  const int64_t expanding_dim = nwc ? 1 : 2;
  Value x = tf::expand_dims(input, Value(expanding_dim));
  Value y(apply(op, {x.as_tensor()}, scope.self(),
                Attrs{{"ksize", k}, {"strides", s}, {"padding", pad}, {"data_format", std::string(nwc ? "NHWC" : "NCHW")}}));
  return tf::squeeze(y, Value(expanding_dim));
}

}  // namespace

namespace impl {

/// tf.nn.conv1d (nn_ops.conv1d): input [batch, width, channels] as
/// [batch, 1, width, channels], filter [width, in, out] as [1, width, in,
/// out]: "conv1d/ExpandDims", "conv1d/ExpandDims_1", the Conv2D "conv1d",
/// "conv1d/Squeeze".
Value conv1d(const TfCall& c) {
  NameScope scope(c.node_name());
  Format1d f = format_1d(c["data_format"], true);
  const int64_t spatial_start_dim = f.channels_last() ? -3 : -2;
  std::vector<int64_t> strides = sequence_1d(c["stride"], f.channel_index, "stride");
  std::vector<int64_t> dilations = sequence_1d(c["dilations"], f.channel_index, "dilations");
  Value x = tf::expand_dims(c["input"], Value(spatial_start_dim));
  Value w = tf::expand_dims(c["filters"], Value(int64_t{0}));
  const Shape& xs = x.as_tensor().shape();
  if (xs.rank_known() && xs.rank() > 4) {
    throw UnimplementedError("tf.nn.conv1d over an input with more than one batch dimension is not supported (its rank is " +
                             std::to_string(xs.rank() - 1) + ")");
  }
  Value y(apply(op::Conv2D, {x.as_tensor(), w.as_tensor()}, scope.self(),
                Attrs{{"strides", strides},
                      {"padding", ag::api::str_arg(c["padding"], "padding")},
                      {"data_format", f.format2d},
                      {"dilations", dilations}}));
  return tf::squeeze(y, Value::list({Value(spatial_start_dim)}));
}

/// tf.nn.conv2d_transpose (nn_ops.conv2d_transpose_v2): Conv2DBackpropInput
/// of output_shape, the filter [h, w, out, in] and the input as the
/// gradient, named after the "conv2d_transpose" scope.
Value conv2d_transpose(const TfCall& c) {
  NameScope scope(c.node_name());
  const std::string format = c["data_format"].is_none() ? "NHWC" : ag::api::str_arg(c["data_format"], "data_format");
  const int channel_index = format.rfind("NC", 0) == 0 ? 1 : 3;
  Attrs attrs{{"strides", get_sequence(c["strides"], 2, channel_index, "strides")},
              {"dilations", get_sequence(c["dilations"], 2, channel_index, "dilations")},
              {"data_format", format}};
  auto [pad, explicit_pads] = convert_padding(c["padding"]);
  attrs.set("padding", pad);
  if (pad == "EXPLICIT") attrs.set("explicit_paddings", explicit_pads);
  TensorHandle sizes = index_tensor(c["output_shape"]);
  TensorHandle dy = to_tensor(c["input"]);
  TensorHandle w = to_tensor(c["filters"], dy.dtype());
  return Value(apply(op::Conv2DBackpropInput, {sizes, w, dy}, scope.self(), attrs));
}

/// tf.nn.conv1d_transpose (nn_ops.conv1d_transpose): conv2d_transpose with
/// a height of 1: the input and filter expanded, output_shape with a 1
/// inserted (a ConcatV2, "concat"), the result squeezed.
Value conv1d_transpose(const TfCall& c) {
  NameScope scope(c.node_name());
  Format1d f = format_1d(c["data_format"], false);
  const int64_t spatial_start_dim = f.channels_last() ? 1 : 2;
  std::vector<int64_t> strides = sequence_1d(c["strides"], f.channel_index, "stride");
  std::vector<int64_t> dilations = sequence_1d(c["dilations"], f.channel_index, "dilations");
  Value x = tf::expand_dims(c["input"], Value(spatial_start_dim));
  Value w = tf::expand_dims(c["filters"], Value(int64_t{0}));
  // list(output_shape) unless it is a tensor; then [:d] + [1] + [d:].
  Value shape = c["output_shape"];
  if (!shape.is_tensor()) shape = Value::list(iterate(shape));
  Value sizes = tf::concat(Value::list({getslice(shape, SliceSpec{Value(), Value(spatial_start_dim), Value()}),
                                        Value::list({Value(int64_t{1})}),
                                        getslice(shape, SliceSpec{Value(spatial_start_dim), Value(), Value()})}),
                           Value(int64_t{0}));
  TensorHandle dy = x.as_tensor();
  Value y(apply(op::Conv2DBackpropInput, {sizes.as_tensor(), to_tensor(w, dy.dtype()), dy}, scope.self(),
                Attrs{{"strides", strides},
                      {"padding", ag::api::str_arg(c["padding"], "padding")},
                      {"data_format", f.format2d},
                      {"dilations", dilations}}));
  return tf::squeeze(y, Value(spatial_start_dim));
}

/// tf.nn.max_pool1d / avg_pool1d: the row's op, named after its scope
/// ("MaxPool1d", "AvgPool1D").
Value pool1d(const TfCall& c) {
  return tf::pool_1d(c.op(), c.node_name(), c["input"], c["ksize"], c["strides"], c["padding"], c["data_format"]);
}

/// tf.nn.max_pool / avg_pool (nn_ops.max_pool_v2, avg_pool_v2): the rank of
/// the input picks the 1-D function, the 2-D op (max_pool2d's "MaxPool2d"
/// scope; avg_pool's own "AvgPool" node) or the 3-D op, which agc lacks.
Value pool_nd(const TfCall& c) {
  const bool is_max = c.op() == op::MaxPool;
  TensorHandle x = to_tensor(c["input"]);
  const Shape& s = x.shape();
  if (!s.rank_known()) throw ValueError("Cannot take the length of shape with unknown rank.");
  const int n = s.rank() - 2;
  if (n < 1 || n > 3) {
    throw ValueError("`input.shape.rank` must be 3, 4 or 5. Received: input.shape=" + s.str() + " of rank " +
                     std::to_string(n + 2) + ".");
  }
  const Value& format = c["data_format"];
  const int channel_index =
      format.is_none() ? n + 1 : (ag::api::str_arg(format, "data_format").rfind("NC", 0) == 0 ? 1 : n + 1);
  std::vector<int64_t> ksize = get_sequence(c["ksize"], n, channel_index, "ksize");
  std::vector<int64_t> strides = get_sequence(c["strides"], n, channel_index, "strides");
  const bool explicit_pads = c["padding"].is_list() || c["padding"].is_tuple();
  if (is_max && explicit_pads && n == 3) {
    throw ValueError("Explicit padding is not supported with an input tensor of rank 5. Received: padding=" +
                     repr(c["padding"]));
  }
  auto ints = [](const std::vector<int64_t>& v) {
    std::vector<Value> items;
    for (int64_t i : v) items.emplace_back(i);
    return Value::list(std::move(items));
  };
  const bool named = !c["name"].is_none();
  if (n == 1) {
    return tf::pool_1d(c.op(), named ? c.node_name() : (is_max ? hint::max_pool1d : hint::avg_pool1d), Value(x),
                       ints(ksize), ints(strides), c["padding"], format);
  }
  if (n == 3) {
    throw UnimplementedError(std::string("tf.nn.") + (is_max ? "max_pool" : "avg_pool") +
                             " over 3 spatial dimensions (rank-5 input) needs " + (is_max ? "MaxPool3D" : "AvgPool3D") +
                             ", which agc does not have yet");
  }
  const std::string fmt = format.is_none() ? "NHWC" : ag::api::str_arg(format, "data_format");
  return tf::pool(c.op(), named ? c.node_name() : (is_max ? hint::max_pool2d : std::string_view("AvgPool")), Value(x),
                  ints(ksize), ints(strides), pool_padding(c["padding"], is_max, is_max ? "max_pool" : "avg_pool"), fmt);
}

}  // namespace impl

}  // namespace ag::tf
