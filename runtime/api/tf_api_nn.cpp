// tf.nn.* ops: softmax, log_softmax, conv2d, bias_add, max/avg pooling, with
// TF's Python argument handling (nn_ops.py) on top of the registered kernels;
// the softmax and pooling rows' shared implementations (the row names the op),
// and the cross-entropy and fused_batch_norm rows (nn_ops.py, nn_impl.py).
#include "runtime/api/binding.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/value/convert.h"

namespace ag::tf {
namespace {

using namespace common;

// nn_ops._get_sequence: an int or 1/2/4 ints to the 4 of NHWC.
std::vector<int64_t> four_of(const Value& v, const char* name, const std::string& data_format) {
  std::vector<int64_t> in;
  if (v.is_int() || v.is_bool()) {
    in.push_back(v.as_int());
  } else {
    for (const Value& x : iterate(v)) in.push_back(x.as_int());
  }
  bool nchw = data_format.rfind("NC", 0) == 0;
  if (in.size() == 1 || in.size() == 2) {
    int64_t h = in[0], w = in.size() == 2 ? in[1] : in[0];
    return nchw ? std::vector<int64_t>{1, 1, h, w} : std::vector<int64_t>{1, h, w, 1};
  }
  if (in.size() == 4) return in;
  throw ValueError(std::string(name) + " should be of length 1, 2 or 4 but was " + std::to_string(in.size()));
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
  attrs.set("dilations", dilations.is_none() ? std::vector<int64_t>{1, 1, 1, 1} : four_of(dilations, "dilations", data_format));
  if (padding.is_str()) {
    attrs.set("padding", padding.as_str());
  } else {
    // Explicit padding: [[0, 0], [top, bottom], [left, right], [0, 0]].
    std::vector<int64_t> pads;
    for (const Value& pair : iterate(padding)) {
      for (const Value& p : iterate(pair)) pads.push_back(p.as_int());
    }
    attrs.set("padding", std::string("EXPLICIT"));
    attrs.set("explicit_paddings", pads);
  }
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

}  // namespace ag::tf
