// Quantization's ops (see quantization_ops.h): XlaDotV2 and XlaConvV2 for
// the products of a quantized model, CustomAggregator for its calibration.
#include "runtime/ops/quantization_ops.h"

#include <mutex>
#include <string>
#include <vector>

#include "runtime/core/proto/xla_data.pb.h"
#include "runtime/ops/families.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/kernels/conv.h"
#include "runtime/ops/kernels/conv_nd.h"
#include "runtime/ops/kernels/int8_gemm.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

std::mutex& observer_mutex() {
  static std::mutex m;
  return m;
}

CalibrationObserver& current_observer() {
  static CalibrationObserver observer;
  return observer;
}

/// XlaDotV2's product as agc runs it: lhs [batch..., M, K] · rhs [batch...,
/// K, N], the batch dims leading and equal, one contracted dim each; without
/// batch dims lhs may have any rank >= 1 ([M..., K] · [K, N] -> [M..., N], a
/// dense layer over a sequence). Other dimension numbers XLA allows are
/// UnimplementedError. Returns the number of batch dims.
int dot_batch_dims(const Attrs& attrs, int lhs_rank, int rhs_rank) {
  xla::DotDimensionNumbers dn;
  if (!dn.ParseFromString(attrs.get_or<std::string>("dimension_numbers", ""))) {
    throw InvalidArgumentError("XlaDotV2: dimension_numbers is not a serialized xla.DotDimensionNumbers");
  }
  const int batch = dn.lhs_batch_dimensions_size();
  const bool lhs_ok = batch == 0 ? lhs_rank >= 1 : lhs_rank == batch + 2;
  bool ok = dn.rhs_batch_dimensions_size() == batch && dn.lhs_contracting_dimensions_size() == 1 &&
            dn.rhs_contracting_dimensions_size() == 1 && lhs_ok && rhs_rank == batch + 2 &&
            dn.lhs_contracting_dimensions(0) == lhs_rank - 1 && dn.rhs_contracting_dimensions(0) == batch;
  for (int i = 0; ok && i < batch; ++i) ok = dn.lhs_batch_dimensions(i) == i && dn.rhs_batch_dimensions(i) == i;
  if (!ok) {
    throw UnimplementedError("agc runs XlaDotV2 only as [batch..., M, K] x [batch..., K, N] (leading batch dims, "
                             "lhs's last and rhs's first non-batch dim contracted) or [M..., K] x [K, N]; got "
                             "dimension_numbers " + dn.ShortDebugString() + " for operands of rank " +
                             std::to_string(lhs_rank) + " and " + std::to_string(rhs_rank));
  }
  return batch;
}

std::vector<TensorSpec> infer_xla_dot(const InferContext& c) {
  const DType lt = c.inputs[0].dtype, rt = c.inputs[1].dtype;
  const DType out = c.attrs.get_or<DType>("preferred_element_type", lt);
  const bool int8 = lt == DType::Int8 && rt == DType::Int8 && out == DType::Int32;
  const bool f32 = lt == DType::Float32 && rt == DType::Float32 && out == DType::Float32;
  if (!int8 && !f32) {
    throw UnimplementedError(std::string("agc runs XlaDotV2 on int8 operands into int32 and float32 into float32; got ") +
                             dtype_name(lt) + " x " + dtype_name(rt) + " into " + dtype_name(out));
  }
  const Shape& a = c.inputs[0].shape;
  const Shape& b = c.inputs[1].shape;
  if (!a.rank_known() || !b.rank_known()) return {{out, Shape::unknown_rank()}};
  const int batch = dot_batch_dims(c.attrs, a.rank(), b.rank());
  std::vector<int64_t> dims(a.dims().begin(), a.dims().end() - 1);
  dims.push_back(b.dim(batch + 1));
  const int64_t ka = a.dim(a.rank() - 1), kb = b.dim(batch);
  bool mismatch = ka >= 0 && kb >= 0 && ka != kb;
  for (int i = 0; i < batch; ++i) mismatch = mismatch || (a.dim(i) >= 0 && b.dim(i) >= 0 && a.dim(i) != b.dim(i));
  if (mismatch) {
    throw InvalidArgumentError("XlaDotV2: operand shapes do not agree: lhs " + a.debug_string() + ", rhs " +
                               b.debug_string());
  }
  return {{out, Shape(dims)}};
}

ContractionDims xla_dot_dims(const InferContext& c, std::span<const TensorSpec> out) {
  const Shape& a = c.inputs[0].shape;
  const Shape& y = out[0].shape;
  if (!a.rank_known() || a.rank() < 1 || !y.rank_known() || y.rank() != a.rank()) return {-1, -1, -1, -1};
  // Batch and free dims alike multiply the product's rows.
  double rows = 1;
  for (int i = 0; i + 1 < y.rank(); ++i) rows *= static_cast<double>(y.dim(i));
  return {1, rows, static_cast<double>(a.dim(a.rank() - 1)), static_cast<double>(y.dim(y.rank() - 1))};
}

Kernel xla_dot_kernel(const KernelSpec& s) {
  const bool int8 = s.inputs[0].dtype == DType::Int8;
  const Attrs& attrs = s.attrs;
  return [int8, attrs](KernelContext& k) {
    const Tensor& a = k.input(0);
    const Tensor& b = k.input(1);
    const int batch_dims = dot_batch_dims(attrs, a.rank(), b.rank());
    int64_t batch = 1;
    for (int i = 0; i < batch_dims; ++i) {
      if (a.shape().dim(i) != b.shape().dim(i)) {
        throw InvalidArgumentError("XlaDotV2: batch dims differ: lhs " + a.shape().debug_string() + ", rhs " +
                                   b.shape().debug_string());
      }
      batch *= a.shape().dim(i);
    }
    const int64_t kk = a.shape().dim(a.rank() - 1);
    const int64_t m = batch == 0 ? 0 : a.num_elements() / std::max<int64_t>(kk, 1) / batch;
    const int64_t n = b.shape().dim(batch_dims + 1);
    if (b.shape().dim(batch_dims) != kk) {
      throw InvalidArgumentError("XlaDotV2: contracted dims differ: lhs " + a.shape().debug_string() + ", rhs " +
                                 b.shape().debug_string());
    }
    std::vector<int64_t> dims(a.shape().dims().begin(), a.shape().dims().end() - 1);
    dims.push_back(n);
    Tensor out(int8 ? DType::Int32 : DType::Float32, Shape(dims));
    for (int64_t p = 0; p < batch; ++p) {
      if (int8) {
        kernels::int8_gemm(a.data<int8_t>() + p * m * kk, b.data<int8_t>() + p * kk * n,
                           out.data<int32_t>() + p * m * n, m, n, kk, kk, n, n, 0, 2);
        continue;
      }
      // float32 in float32, rows of b in order, as XLA's CPU dot sums them.
      const float* x = a.data<float>() + p * m * kk;
      const float* y = b.data<float>() + p * kk * n;
      float* z = out.data<float>() + p * m * n;
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) z[i * n + j] = 0.0f;
        for (int64_t r = 0; r < kk; ++r) {
          const float xv = x[i * kk + r];
          for (int64_t j = 0; j < n; ++j) z[i * n + j] += xv * y[r * n + j];
        }
      }
    }
    k.set_output(0, std::move(out));
  };
}

// ---- XlaConvV2(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation,
// feature_group_count) -> preferred_element_type: XLA's general convolution.

/// XlaConvV2's convolution as agc runs it: channels-last input over a
/// spatial..., in, out filter into channels last (XLA's b01f_01io->b01f, or
/// b012f_012io->b012f), zero padding, window strides, filter dilation and
/// feature groups, over 2 or 3 spatial dims. Other layouts, input dilation
/// and batch groups are UnimplementedError. Returns the spatial rank.
int check_conv_layout(const Attrs& attrs) {
  xla::ConvolutionDimensionNumbers dn;
  if (!dn.ParseFromString(attrs.get_or<std::string>("dimension_numbers", ""))) {
    throw InvalidArgumentError("XlaConvV2: dimension_numbers is not a serialized xla.ConvolutionDimensionNumbers");
  }
  auto dims = [](const google::protobuf::RepeatedField<int64_t>& r) { return std::vector<int64_t>(r.begin(), r.end()); };
  const int s = dn.input_spatial_dimensions_size();
  std::vector<int64_t> spatial, kernel_spatial;
  for (int i = 0; i < s; ++i) spatial.push_back(i + 1), kernel_spatial.push_back(i);
  const bool channels_last = (s == 2 || s == 3) && dn.input_batch_dimension() == 0 && dn.input_feature_dimension() == s + 1 &&
                             dims(dn.input_spatial_dimensions()) == spatial && dn.kernel_input_feature_dimension() == s &&
                             dn.kernel_output_feature_dimension() == s + 1 &&
                             dims(dn.kernel_spatial_dimensions()) == kernel_spatial && dn.output_batch_dimension() == 0 &&
                             dn.output_feature_dimension() == s + 1 && dims(dn.output_spatial_dimensions()) == spatial;
  if (!channels_last) {
    throw UnimplementedError("agc runs XlaConvV2 only on channels-last inputs (NHWC, NDHWC) over spatial..., in, out "
                             "filters; got dimension_numbers " + dn.ShortDebugString());
  }
  if (attrs.get_or<int64_t>("batch_group_count", 1) != 1) {
    throw UnimplementedError("agc runs XlaConvV2 only with batch_group_count 1");
  }
  return s;
}

/// XlaConvV2's window inputs (2..6) for `s` spatial dims: [s] strides,
/// [s, 2] padding, [s] dilations, and the group count.
struct ConvWindow {
  std::vector<int64_t> strides, pad_lo, pad_hi, rhs_dilation;
  int64_t groups = 1;
};

ConvWindow xla_conv_window(int s, const Tensor& strides, const Tensor& padding, const Tensor& lhs_dilation,
                           const Tensor& rhs_dilation, const Tensor& groups) {
  auto check = [](const Tensor& t, const Shape& want, const char* name) {
    if (t.shape() != want) {
      throw InvalidArgumentError(std::string("XlaConvV2: ") + name + " must have shape " + want.debug_string() +
                                 ", got " + t.shape().debug_string());
    }
  };
  check(strides, Shape{s}, "window_strides");
  check(padding, Shape{s, 2}, "padding");
  check(lhs_dilation, Shape{s}, "lhs_dilation");
  check(rhs_dilation, Shape{s}, "rhs_dilation");
  check(groups, Shape{}, "feature_group_count");
  ConvWindow w;
  for (int d = 0; d < s; ++d) {
    w.strides.push_back(array::int_at(strides, d));
    w.pad_lo.push_back(array::int_at(padding, 2 * d));
    w.pad_hi.push_back(array::int_at(padding, 2 * d + 1));
    w.rhs_dilation.push_back(array::int_at(rhs_dilation, d));
    if (w.strides.back() < 1 || w.rhs_dilation.back() < 1 || w.pad_lo.back() < 0 || w.pad_hi.back() < 0) {
      throw InvalidArgumentError("XlaConvV2: window strides and dilations must be positive and padding "
                                 "non-negative");
    }
    if (array::int_at(lhs_dilation, d) != 1) throw UnimplementedError("agc runs XlaConvV2 only with lhs_dilation 1");
  }
  w.groups = array::int_at(groups, 0);
  return w;
}

/// The convolution's geometry for input `in` and filter `f` (rank s + 2),
/// checked as XLA's shape inference does; 2-D as 3-D with a unit first dim.
kernels::ConvNdGeom conv_geom(int s, const Shape& in, const Shape& f, const ConvWindow& w) {
  if (in.rank() != s + 2 || f.rank() != s + 2) {
    throw InvalidArgumentError("XlaConvV2: operands must be " + std::to_string(s + 2) + "-D, got " + in.debug_string() +
                               " and " + f.debug_string());
  }
  if (w.groups < 1 || in.dim(s + 1) != f.dim(s) * w.groups || f.dim(s + 1) % w.groups != 0) {
    throw InvalidArgumentError("XlaConvV2: input features " + std::to_string(in.dim(s + 1)) + " and filter " +
                               f.debug_string() + " do not match feature_group_count " + std::to_string(w.groups));
  }
  kernels::ConvNdGeom g;
  g.batch = in.dim(0);
  g.channels = in.dim(s + 1);
  g.filter_channels = f.dim(s);
  g.out_channels = f.dim(s + 1);
  const int first = 3 - s;  // a 2-D window is a 3-D one with a unit first dim
  for (int d = 0; d < 3; ++d) {
    const size_t u = static_cast<size_t>(d);
    if (d < first) {
      g.in[u] = g.k[u] = g.out[u] = g.stride[u] = g.dil[u] = 1;
      continue;
    }
    const size_t i = static_cast<size_t>(d - first);
    const kernels::WindowDim wd = kernels::window_dim(in.dim(d - first + 1), f.dim(d - first), w.strides[i], w.rhs_dilation[i],
                                                      kernels::Padding::Explicit, w.pad_lo[i], w.pad_hi[i]);
    g.in[u] = in.dim(d - first + 1);
    g.k[u] = f.dim(d - first);
    g.stride[u] = w.strides[i];
    g.dil[u] = w.rhs_dilation[i];
    g.out[u] = wd.out;
    g.pad[u] = wd.pad_before;
  }
  return g;
}

Shape conv_out_shape(int s, const kernels::ConvNdGeom& g) {
  std::vector<int64_t> dims{g.batch};
  for (int d = 3 - s; d < 3; ++d) dims.push_back(g.out[static_cast<size_t>(d)]);
  dims.push_back(g.out_channels);
  return Shape(dims);
}

std::vector<TensorSpec> infer_xla_conv(const InferContext& c) {
  const DType lt = c.inputs[0].dtype, rt = c.inputs[1].dtype;
  const DType out = c.attrs.get_or<DType>("preferred_element_type", lt);
  const bool int8 = lt == DType::Int8 && rt == DType::Int8 && out == DType::Int32;
  const bool f32 = lt == DType::Float32 && rt == DType::Float32 && out == DType::Float32;
  if (!int8 && !f32) {
    throw UnimplementedError(std::string("agc runs XlaConvV2 on int8 operands into int32 and float32 into float32; "
                                         "got ") + dtype_name(lt) + " x " + dtype_name(rt) + " into " + dtype_name(out));
  }
  const int s = check_conv_layout(c.attrs);
  const Shape& in = c.inputs[0].shape;
  const Shape& f = c.inputs[1].shape;
  Shape y = Shape::unknown_dims(s + 2);
  if (in.rank_known()) y.set_dim(0, in.dim(0));
  if (f.rank_known() && f.rank() == s + 2) y.set_dim(s + 1, f.dim(s + 1));
  const Tensor* strides = c.constant(2);
  const Tensor* padding = c.constant(3);
  const Tensor* lhs_dilation = c.constant(4);
  const Tensor* rhs_dilation = c.constant(5);
  const Tensor* groups = c.constant(6);
  if (in.fully_defined() && f.fully_defined() && strides && padding && lhs_dilation && rhs_dilation && groups) {
    y = conv_out_shape(s, conv_geom(s, in, f, xla_conv_window(s, *strides, *padding, *lhs_dilation, *rhs_dilation, *groups)));
  }
  return {{out, y}};
}

/// The product the patch rows make: [positions, patch] · [patch, out channels].
ContractionDims xla_conv_dims(const InferContext& c, std::span<const TensorSpec> out) {
  const Shape& f = c.inputs[1].shape;
  const Shape& y = out[0].shape;
  if (!f.rank_known() || !y.rank_known() || f.rank() != y.rank() || f.rank() < 3) return {1, -1, -1, -1};
  double positions = 1, patch = 1;
  for (int i = 0; i + 1 < y.rank(); ++i) positions *= static_cast<double>(y.dim(i));
  for (int i = 0; i + 1 < f.rank(); ++i) patch *= static_cast<double>(f.dim(i));
  return {1, positions, patch, static_cast<double>(f.dim(f.rank() - 1))};
}

Kernel xla_conv_kernel(const KernelSpec& s) {
  const bool int8 = s.inputs[0].dtype == DType::Int8;
  const int spatial = check_conv_layout(s.attrs);
  return [int8, spatial](KernelContext& k) {
    const Tensor& in = k.input(0);
    const Tensor& f = k.input(1);
    const kernels::ConvNdGeom g =
        conv_geom(spatial, in.shape(), f.shape(),
                  xla_conv_window(spatial, k.input(2), k.input(3), k.input(4), k.input(5), k.input(6)));
    Tensor& out = k.allocate_output(0, int8 ? DType::Int32 : DType::Float32, conv_out_shape(spatial, g));
    // Zero-padded operands' patch rows times each group's filter columns.
    if (int8) {
      kernels::conv_nd_forward(in.data<int8_t>(), f.data<int8_t>(), out.data<int32_t>(), g,
                               [](const int8_t* a, const int8_t* b, int32_t* c, int64_t m, int64_t n, int64_t kk,
                                  int64_t lda, int64_t ldb, int64_t ldc) {
                                 kernels::int8_gemm(a, b, c, m, n, kk, lda, ldb, ldc, 0, 2);
                               });
    } else {
      kernels::conv_nd_forward(in.data<float>(), f.data<float>(), out.data<float>(), g, kernels::FloatGemm{});
    }
  };
}

}  // namespace

CalibrationObserver set_calibration_observer(CalibrationObserver observer) {
  std::lock_guard<std::mutex> lock(observer_mutex());
  CalibrationObserver old = std::move(current_observer());
  current_observer() = std::move(observer);
  return old;
}

void register_quantization_ops(OpRegistry& reg) {
  // XlaDotV2(lhs: LhsT, rhs: RhsT) -> preferred_element_type; attrs
  // dimension_numbers (serialized xla.DotDimensionNumbers), precision_config.
  // The quantized model's int8 products (TPU_EMULATOR.md B41): exact int32 sums.
  reg.op("XlaDotV2")
      .tf_signature("lhs: LhsT, rhs: RhsT -> output: preferred_element_type")
      .inputs(2)
      .infer(infer_xla_dot)
      .cpu(xla_dot_kernel)
      .cost(CostKind::Contraction, xla_dot_dims)
      .tpu()
      .not_differentiable();
  // XlaConvV2(lhs: LhsT, rhs: RhsT, window_strides, padding, lhs_dilation,
  // rhs_dilation, feature_group_count: Tindices) -> preferred_element_type;
  // attrs dimension_numbers (serialized xla.ConvolutionDimensionNumbers),
  // precision_config, batch_group_count. The quantized model's int8
  // convolutions, exact int32 sums; the window inputs are XLA constants.
  reg.op("XlaConvV2")
      .tf_signature("lhs: LhsT, rhs: RhsT, window_strides: Tindices, padding: Tindices, lhs_dilation: Tindices, "
                    "rhs_dilation: Tindices, feature_group_count: Tindices -> output: preferred_element_type")
      .inputs(7)
      .infer(infer_xla_conv)
      .cpu(xla_conv_kernel)
      .cost(CostKind::Contraction, xla_conv_dims)
      .tpu({2, 3, 4, 5, 6})
      .not_differentiable();
  // CustomAggregator(input: float) -> output: float; attr id. The identity a
  // calibration run threads each quantizable op's input and output through;
  // stateful, so no pass folds, merges or prunes it.
  reg.op("CustomAggregator")
      .tf_signature("input: float -> output: float")
      .inputs(1)
      .stateful()
      .infer([](const InferContext& c) {
        if (c.inputs[0].dtype != DType::Float32) {
          throw InvalidArgumentError(std::string("CustomAggregator takes float32, got ") +
                                     dtype_name(c.inputs[0].dtype));
        }
        return std::vector<TensorSpec>{c.inputs[0]};
      })
      .cpu([](const KernelSpec& s) {
        std::string id = s.attrs.get_or<std::string>("id", "");
        return Kernel([id](KernelContext& k) {
          {
            std::lock_guard<std::mutex> lock(observer_mutex());
            if (current_observer()) current_observer()(id, k.input(0));
          }
          k.set_output(0, k.input(0));
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("calibration statistics are collected on the host")
      .not_differentiable();
}

}  // namespace ag
