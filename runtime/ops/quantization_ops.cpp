// Quantization's ops (see quantization_ops.h): XlaDotV2 for the products of
// a quantized model, CustomAggregator for its calibration.
#include "runtime/ops/quantization_ops.h"

#include <mutex>
#include <string>
#include <vector>

#include "runtime/core/proto/xla_data.pb.h"
#include "runtime/ops/families.h"
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
/// K, N], the batch dims leading and equal, one contracted dim each. Other
/// dimension numbers XLA allows are UnimplementedError.
struct DotLayout {
  int batch = 0;  // number of leading batch dims
};

DotLayout dot_layout(const Attrs& attrs, int lhs_rank, int rhs_rank) {
  xla::DotDimensionNumbers dn;
  if (!dn.ParseFromString(attrs.get_or<std::string>("dimension_numbers", ""))) {
    throw InvalidArgumentError("XlaDotV2: dimension_numbers is not a serialized xla.DotDimensionNumbers");
  }
  const int batch = dn.lhs_batch_dimensions_size();
  bool ok = dn.rhs_batch_dimensions_size() == batch && dn.lhs_contracting_dimensions_size() == 1 &&
            dn.rhs_contracting_dimensions_size() == 1 && lhs_rank == batch + 2 && rhs_rank == batch + 2 &&
            dn.lhs_contracting_dimensions(0) == lhs_rank - 1 && dn.rhs_contracting_dimensions(0) == batch;
  for (int i = 0; ok && i < batch; ++i) ok = dn.lhs_batch_dimensions(i) == i && dn.rhs_batch_dimensions(i) == i;
  if (!ok) {
    throw UnimplementedError("agc runs XlaDotV2 only as [batch..., M, K] x [batch..., K, N] (leading batch dims, "
                             "lhs's last and rhs's first non-batch dim contracted); got dimension_numbers " +
                             dn.ShortDebugString() + " for operands of rank " + std::to_string(lhs_rank) + " and " +
                             std::to_string(rhs_rank));
  }
  return {batch};
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
  const int batch = dot_layout(c.attrs, a.rank(), b.rank()).batch;
  std::vector<int64_t> dims;
  for (int i = 0; i < batch; ++i) dims.push_back(a.dim(i));
  dims.push_back(a.dim(batch));
  dims.push_back(b.dim(batch + 1));
  const int64_t ka = a.dim(batch + 1), kb = b.dim(batch);
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
  if (!a.rank_known() || a.rank() < 2 || !y.rank_known() || y.rank() != a.rank()) return {-1, -1, -1, -1};
  double batch = 1;
  for (int i = 0; i + 2 < y.rank(); ++i) batch *= static_cast<double>(y.dim(i));
  return {batch, static_cast<double>(y.dim(y.rank() - 2)), static_cast<double>(a.dim(a.rank() - 1)),
          static_cast<double>(y.dim(y.rank() - 1))};
}

Kernel xla_dot_kernel(const KernelSpec& s) {
  const bool int8 = s.inputs[0].dtype == DType::Int8;
  const Attrs& attrs = s.attrs;
  return [int8, attrs](KernelContext& k) {
    const Tensor& a = k.input(0);
    const Tensor& b = k.input(1);
    const int batch_dims = dot_layout(attrs, a.rank(), b.rank()).batch;
    int64_t batch = 1;
    for (int i = 0; i < batch_dims; ++i) {
      if (a.shape().dim(i) != b.shape().dim(i)) {
        throw InvalidArgumentError("XlaDotV2: batch dims differ: lhs " + a.shape().debug_string() + ", rhs " +
                                   b.shape().debug_string());
      }
      batch *= a.shape().dim(i);
    }
    const int64_t m = a.shape().dim(batch_dims), kk = a.shape().dim(batch_dims + 1);
    const int64_t n = b.shape().dim(batch_dims + 1);
    if (b.shape().dim(batch_dims) != kk) {
      throw InvalidArgumentError("XlaDotV2: contracted dims differ: lhs " + a.shape().debug_string() + ", rhs " +
                                 b.shape().debug_string());
    }
    std::vector<int64_t> dims(a.shape().dims().begin(), a.shape().dims().begin() + batch_dims);
    dims.push_back(m);
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
