// tf.nn.* ops: softmax, log_softmax, conv2d, bias_add, max/avg pooling, with
// TF's Python argument handling (nn_ops.py) on top of the registered kernels;
// the softmax and pooling rows' shared implementations (the row names the op).
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

Value conv2d(const Value& input, const Value& filters, const Value& strides, const Value& padding,
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
  return Value(apply(op::Conv2D, {x, f}, name, attrs));
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

Value pool2d(const TfCall& c) {
  return tf::pool(c.op(), c.node_name(), c["input"], c["ksize"], c["strides"],
                  ag::api::str_arg(c["padding"], "padding"), ag::api::str_arg(c["data_format"], "data_format"));
}

}  // namespace impl

}  // namespace ag::tf
