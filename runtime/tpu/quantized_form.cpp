#include "runtime/tpu/quantized_form.h"

#include <algorithm>
#include <cmath>

#include "runtime/core/error.h"
#include "runtime/core/proto/xla_data.pb.h"
#include "runtime/tpu/function_def_edit.h"
#include "runtime/tpu/quantized_matmul.h"

namespace ag::tpu {
namespace {

using tensorflow::FunctionDef;
constexpr DType kF64 = DType::Float64;

Tensor vector_f64(const std::vector<double>& v) {
  return Tensor::from_vector<double>(Shape{static_cast<int64_t>(v.size())}, v);
}

int64_t channels(const QuantizedWeight& w) { return w.values.shape().dim(w.values.rank() - 1); }

/// Σ of each output channel's weights (all dims but the last) times
/// `zero_point`: the zero point's share of that channel's int32 sums.
Tensor zero_point_share(const QuantizedWeight& w, int32_t zero_point) {
  const int64_t n = channels(w);
  std::vector<int32_t> share(static_cast<size_t>(n), 0);
  const int8_t* v = w.values.data<int8_t>();
  for (int64_t i = 0; i < w.values.num_elements(); ++i) share[static_cast<size_t>(i % n)] += zero_point * v[i];
  return Tensor::from_vector<int32_t>(Shape{n}, share);
}

std::vector<double> weight_scales(const QuantizedWeight& w) {
  std::vector<double> out;
  for (int64_t j = 0; j < channels(w); ++j) out.push_back(w.scale(j));
  return out;
}

/// The weights' scale as a float32 scalar, or a vector over the last dim.
Tensor weight_scale_tensor(const QuantizedWeight& w) {
  if (w.params.size() == 1) return Tensor::scalar<float>(w.params[0].scale);
  std::vector<float> s;
  for (const QuantParams& p : w.params) s.push_back(p.scale);
  return Tensor::from_vector<float>(Shape{static_cast<int64_t>(s.size())}, s);
}

std::string f64(NodeEmitter& e, double v) { return e.constant(Tensor::scalar<double>(v)); }

/// round(y) half away from zero, y float64: sign(y) · floor(|y| + 0.5),
/// exact for every float64 that is a float32 quotient's.
std::string round_half_away(NodeEmitter& e, const std::string& y) {
  return e.binary("Mul", e.unary("Sign", y, kF64),
                  e.unary("Floor", e.binary("AddV2", e.unary("Abs", y, kF64), f64(e, 0.5), kF64), kF64), kF64);
}

std::string clamp(NodeEmitter& e, const std::string& x, double lo, double hi) {
  return e.binary("Maximum", e.binary("Minimum", x, f64(e, hi), kF64), f64(e, lo), kF64);
}

/// x (float64) quantized with `scale` and `zero_point` (float64 scalars) to int8 (B41).
std::string quantize(NodeEmitter& e, const std::string& x, const std::string& scale, const std::string& zero_point) {
  std::string q = round_half_away(e, e.binary("RealDiv", x, scale, kF64));
  return e.cast(clamp(e, e.binary("AddV2", q, zero_point, kF64), kActivationQMin, kActivationQMax), kF64, DType::Int8);
}

tensorflow::AttrValue string_attr(const std::string& s) {
  tensorflow::AttrValue v;
  v.set_s(s);
  return v;
}

Tensor ints(const std::vector<int32_t>& v, Shape shape) { return Tensor::from_vector<int32_t>(std::move(shape), v); }

/// The activation `xq` (int8) times the target's int8 weights `w`, summed
/// in int32; `zero_point` (an int8 scalar) is what a convolution pads with.
std::string product(NodeEmitter& e, const Target& t, std::string xq, const std::string& zero_point,
                    const std::string& w) {
  const std::map<std::string, tensorflow::AttrValue> operands = {{"LhsT", type_attr(DType::Int8)},
                                                                 {"RhsT", type_attr(DType::Int8)},
                                                                 {"preferred_element_type", type_attr(DType::Int32)},
                                                                 {"precision_config", string_attr("")}};
  if (t.kind == QuantRole::Dot) {
    if (t.transpose_x) {
      xq = e.op("Transpose", {xq, e.constant(ints({1, 0}, Shape{2}))},
                {{"T", type_attr(DType::Int8)}, {"Tperm", type_attr(DType::Int32)}});
    }
    xla::DotDimensionNumbers dn;
    dn.add_lhs_contracting_dimensions(t.activation_rank - 1);
    dn.add_rhs_contracting_dimensions(0);
    auto attrs = operands;
    attrs["dimension_numbers"] = string_attr(dn.SerializeAsString());
    return e.op("XlaDotV2", {xq, w}, attrs);
  }
  const ConvWindowForm& win = t.window;
  const int spatial = static_cast<int>(win.strides.size());
  if (std::any_of(win.pads.begin(), win.pads.end(), [](const auto& p) { return p[0] != 0 || p[1] != 0; })) {
    // Padded with the zero point (real 0), so the convolution pads nothing.
    std::vector<int32_t> pads = {0, 0};
    for (const auto& p : win.pads) pads.push_back(static_cast<int32_t>(p[0])), pads.push_back(static_cast<int32_t>(p[1]));
    pads.push_back(0);
    pads.push_back(0);
    xq = e.op("PadV2", {xq, e.constant(ints(pads, Shape{spatial + 2, 2})), zero_point},
              {{"T", type_attr(DType::Int8)}, {"Tpaddings", type_attr(DType::Int32)}});
  }
  xla::ConvolutionDimensionNumbers dn;  // channels last over spatial..., in, out
  dn.set_input_batch_dimension(0);
  dn.set_input_feature_dimension(spatial + 1);
  dn.set_kernel_input_feature_dimension(spatial);
  dn.set_kernel_output_feature_dimension(spatial + 1);
  dn.set_output_batch_dimension(0);
  dn.set_output_feature_dimension(spatial + 1);
  for (int d = 1; d <= spatial; ++d) {
    dn.add_input_spatial_dimensions(d);
    dn.add_kernel_spatial_dimensions(d - 1);
    dn.add_output_spatial_dimensions(d);
  }
  auto attrs = operands;
  attrs["dimension_numbers"] = string_attr(dn.SerializeAsString());
  attrs["Tindices"] = type_attr(DType::Int32);
  attrs["batch_group_count"].set_i(1);
  auto per_dim = [&](const std::vector<int64_t>& v) {
    std::vector<int32_t> out(v.begin(), v.end());
    return e.constant(ints(out, Shape{spatial}));
  };
  return e.op("XlaConvV2",
              {xq, w, per_dim(win.strides), e.constant(ints(std::vector<int32_t>(static_cast<size_t>(2 * spatial), 0), Shape{spatial, 2})),
               per_dim(std::vector<int64_t>(static_cast<size_t>(spatial), 1)), per_dim(win.dilations),
               e.constant(Tensor::scalar<int32_t>(static_cast<int32_t>(win.groups)))},
              attrs);
}

/// What the target's op reads as its activation now: a target rewritten
/// before it may have replaced it.
std::string activation_of(const FunctionDef& f, const Target& t) {
  return find_node(f, t.node)->input(t.kind == QuantRole::Gather ? 1 : 0);
}

}  // namespace

float QuantizedWeight::scale(int64_t channel) const {
  return params[params.size() == 1 ? 0 : static_cast<size_t>(channel)].scale;
}

QuantizedWeight quantize_weight(const Target& t, bool per_channel) {
  if (per_channel && t.kind != QuantRole::Gather) {
    std::vector<QuantParams> params = per_channel_weight_params(t.weight, -1);
    return {quantize_per_channel(t.weight, params, -1), params};
  }
  QuantParams p = weight_params(t.weight);
  return {quantize(t.weight, p, kWeightQMin, kWeightQMax), {p}};
}

void emit_static(FunctionDef& f, const Target& t, const QuantizedWeight& w, QuantParams in, QuantParams out) {
  NodeEmitter e(f, t.node + "/quantized");
  std::string x = e.cast(activation_of(f, t), DType::Float32, kF64);
  std::string xq = quantize(e, x, f64(e, in.scale), f64(e, in.zero_point));
  std::string zero_point = e.constant(Tensor::scalar<int8_t>(static_cast<int8_t>(in.zero_point)));
  std::string acc = product(e, t, xq, zero_point, e.constant(w.values, "weight"));
  acc = e.binary("Sub", acc, e.constant(zero_point_share(w, in.zero_point), "zero_point_share"), DType::Int32);
  if (t.bias.defined()) {
    const int64_t n = t.bias.shape().dim(0);
    std::vector<int32_t> bias(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) bias[static_cast<size_t>(j)] = quantize_bias(t.bias.data<float>()[j], in.scale, w.scale(j));
    acc = e.binary("AddV2", acc, e.constant(Tensor::from_vector<int32_t>(Shape{n}, bias), "bias"), DType::Int32);
  }
  // s_in · s_w[j] / s_out per output channel, in double as quantized_matmul's requantize.
  std::vector<double> ratios;
  for (int64_t j = 0; j < channels(w); ++j) ratios.push_back(in.scale * static_cast<double>(w.scale(j)) / out.scale);
  std::string scaled = e.binary("Mul", e.cast(acc, DType::Int32, kF64), e.constant(vector_f64(ratios), "scale"), kF64);
  // A fused Relu clamps at real 0 (the zero point), a Relu6 at real 6 too.
  double lo = kActivationQMin, hi = kActivationQMax;
  if (t.activation == QuantRole::Relu || t.activation == QuantRole::Relu6) lo = std::max(lo, double(out.zero_point));
  if (t.activation == QuantRole::Relu6) {
    hi = std::min(hi, double(out.zero_point) + std::round(6.0 / static_cast<double>(out.scale)));
  }
  std::string q = clamp(e, e.binary("AddV2", round_half_away(e, scaled), f64(e, out.zero_point), kF64), lo, hi);
  std::string real = e.binary("Mul", e.binary("Sub", q, f64(e, out.zero_point), kF64), f64(e, out.scale), kF64);
  replace_uses(f, t.output, e.cast(real, kF64, DType::Float32));
}

void emit_dynamic(FunctionDef& f, const Target& t, const QuantizedWeight& w) {
  NodeEmitter e(f, t.node + "/quantized");
  std::string x = e.cast(activation_of(f, t), DType::Float32, kF64);
  tensorflow::AttrValue no;
  no.set_b(false);
  std::string flat = e.reshape(x, e.constant(ints({-1}, Shape{1})), kF64);
  std::string axis = e.constant(Tensor::scalar<int32_t>(0));
  auto reduce = [&](const char* type) {
    return e.op(type, {flat, axis}, {{"T", type_attr(kF64)}, {"Tidx", type_attr(DType::Int32)}, {"keep_dims", no}});
  };
  std::string lo = e.binary("Minimum", reduce("Min"), f64(e, 0), kF64);
  std::string hi = e.binary("Maximum", reduce("Max"), f64(e, 0), kF64);
  std::string range = e.binary("Sub", hi, lo, kF64);
  std::string empty = e.op("Equal", {range, f64(e, 0)}, {{"T", type_attr(kF64)}, {"incompatible_shape_error", no}});
  auto select = [&](const std::string& when_empty, const std::string& otherwise) {
    return e.op("SelectV2", {empty, when_empty, otherwise}, {{"T", type_attr(kF64)}});
  };
  std::string scale = select(f64(e, 1), e.binary("RealDiv", range, f64(e, 255), kF64));
  std::string zero_point = select(
      f64(e, 0), clamp(e, round_half_away(e, e.binary("Sub", f64(e, -128), e.binary("RealDiv", lo, scale, kF64), kF64)),
                       kActivationQMin, kActivationQMax));
  std::string xq = quantize(e, x, scale, zero_point);
  std::string acc = product(e, t, xq, e.cast(zero_point, kF64, DType::Int8), e.constant(w.values, "weight"));
  // The zero point is a tensor here: its share is zero_point · Σ w per channel.
  std::string share = e.binary("Mul", e.cast(zero_point, kF64, DType::Int32),
                               e.constant(zero_point_share(w, 1), "weight_sums"), DType::Int32);
  acc = e.binary("Sub", acc, share, DType::Int32);
  std::string real = e.binary("Mul", e.cast(acc, DType::Int32, kF64),
                              e.binary("Mul", scale, e.constant(vector_f64(weight_scales(w)), "weight_scale"), kF64),
                              kF64);
  replace_uses(f, t.output, e.cast(real, kF64, DType::Float32));
}

void emit_weight_only(FunctionDef& f, const Target& t, const QuantizedWeight& w) {
  NodeEmitter e(f, t.node + "/quantized");
  std::string real = e.binary("Mul", e.cast(e.constant(w.values, "weight"), DType::Int8, DType::Float32),
                              e.constant(weight_scale_tensor(w), "weight_scale"), DType::Float32);
  if (t.depthwise_filter_shape.rank_known()) {  // quantized as [KH, KW, 1, C·M], read as [KH, KW, C, M]
    std::vector<int32_t> dims;
    for (int64_t d : t.depthwise_filter_shape.dims()) dims.push_back(static_cast<int32_t>(d));
    real = e.reshape(real, e.constant(ints(dims, Shape{static_cast<int64_t>(dims.size())})), DType::Float32);
  }
  tensorflow::NodeDef& node = *find_node(f, t.node);
  std::string old = node.input(1);
  node.set_input(1, real);
  // The weights were taken as the product reads them, transposed if it transposed them.
  for (const char* transpose : {"transpose_b", "adj_y"}) {
    if (node.attr().count(transpose)) (*node.mutable_attr())[transpose].set_b(false);
  }
  if (!is_arg(old)) remove_if_unused(f, node_of(old));
}

void emit_gather(FunctionDef& f, const Target& t, const QuantizedWeight& w) {
  NodeEmitter e(f, t.node + "/quantized");
  tensorflow::NodeDef& node = *find_node(f, t.node);
  std::string old = node.input(0);
  node.set_input(0, e.constant(w.values, "table"));
  (*node.mutable_attr())["Tparams"] = type_attr(DType::Int8);
  const std::string rows = output_ref(node);
  std::string cast = e.cast(rows, DType::Int8, DType::Float32);
  std::string real = e.binary("Mul", cast, e.constant(weight_scale_tensor(w), "table_scale"), DType::Float32);
  replace_uses(f, rows, real, node_of(cast));
  if (!is_arg(old)) remove_if_unused(f, node_of(old));
}

}  // namespace ag::tpu
