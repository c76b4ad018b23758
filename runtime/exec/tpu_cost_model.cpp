// Section 8's formulas, each stated before the code that applies it.
#include "runtime/exec/tpu_cost_model.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "runtime/core/error.h"

namespace ag::tpu {
namespace {

int64_t round_up(int64_t x, int64_t multiple) { return (x + multiple - 1) / multiple * multiple; }

/// x·y, InvalidArgumentError on int64 overflow (an array no HBM could hold).
int64_t checked_mul(int64_t x, int64_t y) {
  int64_t r;
  if (__builtin_mul_overflow(x, y, &r)) throw InvalidArgumentError("TPU array size overflows int64");
  return r;
}

double ceil_to(double x, double multiple) { return std::ceil(x / multiple) * multiple; }

int64_t item_size(DType dtype) {
  if (has_object_elements(dtype)) {
    throw InvalidArgumentError(std::string("TPU arrays cannot hold ") + dtype_name(dtype) + " elements");
  }
  return static_cast<int64_t>(dtype_size(dtype));
}

double tiled_bytes_sum(const OpCost& op, const TpuHardware& hw) {
  double bytes = 0;
  for (const ArraySpec& a : op.inputs) bytes += static_cast<double>(hbm_tiled_bytes(a.dtype, a.shape, hw));
  for (const ArraySpec& a : op.outputs) bytes += static_cast<double>(hbm_tiled_bytes(a.dtype, a.shape, hw));
  return bytes;
}

double largest_elements(const OpCost& op) {
  int64_t most = 0;
  for (const ArraySpec& a : op.inputs) most = std::max(most, a.shape.num_elements());
  for (const ArraySpec& a : op.outputs) most = std::max(most, a.shape.num_elements());
  return static_cast<double>(most);
}

}  // namespace

int64_t hbm_tiled_bytes(DType dtype, const Shape& shape, const TpuHardware& hw) {
  const int64_t itemsize = item_size(dtype);
  if (!shape.fully_defined()) {
    throw InvalidArgumentError("TPU arrays have static shapes; got " + shape.debug_string());
  }
  const int64_t elements = shape.num_elements();
  if (elements == 0) return 0;
  const int rank = shape.rank();
  // Rank 0 and 1: XLA's "less wasteful linear-like format" (S9), here whole
  // 512-byte units [E].
  if (rank <= 1) return round_up(checked_mul(elements, itemsize), 512);
  // The row tile: 8 rows of 32-bit, scaled so a tile row stays 4 bytes wide
  // per lane (16 for bf16, 32 for int8); small second-minor dims use the
  // compact T/4 and T/2 tiles (S9's (2,128) and (4,128) for 32-bit).
  const int64_t row_tile = itemsize == 2 ? hw.sixteen_bit_row_tile : std::max<int64_t>(1, 8 * 4 / itemsize);
  const int64_t rows = shape.dim(rank - 2);
  int64_t padded_rows;
  if (rows <= row_tile / 4) padded_rows = std::max<int64_t>(1, row_tile / 4);
  else if (rows <= row_tile / 2) padded_rows = row_tile / 2;
  else padded_rows = round_up(rows, row_tile);
  const int64_t padded_cols = round_up(shape.dim(rank - 1), 128);
  int64_t bytes = checked_mul(checked_mul(padded_rows, padded_cols), itemsize);
  for (int i = 0; i < rank - 2; ++i) bytes = checked_mul(bytes, shape.dim(i));
  return bytes;
}

int64_t transfer_bytes(const ArraySpec& array, bool io_shape_optimization, const TpuHardware& hw) {
  // B45: with the optimization a rank >= 2 tensor is reshaped to rank 1 on the
  // host, so it crosses as a flat array; for rank <= 1 both are the same.
  if (io_shape_optimization && array.shape.rank() >= 2) {
    return hbm_tiled_bytes(array.dtype, Shape{array.shape.num_elements()}, hw);
  }
  return hbm_tiled_bytes(array.dtype, array.shape, hw);
}

MxuRate mxu_rate_for(DType dtype, kernels::F32MatmulPrecision precision) {
  switch (dtype) {
    case DType::BFloat16:
      return MxuRate::Bf16;
    case DType::Int8:
      return MxuRate::Int8;
    case DType::Float32:
      return precision == kernels::F32MatmulPrecision::Highest ? MxuRate::F32Highest : MxuRate::F32Default;
    default:
      throw InvalidArgumentError(std::string("the TPU's MXU does not multiply ") + dtype_name(dtype));
  }
}

double mxu_ops_per_second(MxuRate rate, const TpuHardware& hw) {
  switch (rate) {
    case MxuRate::Bf16:
    case MxuRate::F32Default:  // operands rounded to bf16 (B32): the bf16 rate
      return hw.peak_bf16_flops;
    case MxuRate::F32Highest:
      return hw.peak_bf16_flops / hw.f32_highest_slowdown;
    case MxuRate::Int8:
      return hw.peak_int8_ops;
  }
  throw InternalError("unknown MxuRate");
}

double effective_flops(const ContractionDims& d) {
  // The MXU takes 8-row by 128-deep blocks of the left operand against
  // 128×128 blocks of the right: M pads to 8, K and N to 128 (S14).
  return 2 * d.b * ceil_to(d.m, 8) * ceil_to(d.k, 128) * ceil_to(d.n, 128);
}

double op_device_seconds(const OpCost& op, const TpuHardware& hw) {
  switch (op.kind) {
    case CostKind::Free:
    case CostKind::ControlFlow:
      return 0;
    case CostKind::Contraction:
      return std::max(effective_flops(op.contraction) / mxu_ops_per_second(op.rate, hw),
                      tiled_bytes_sum(op, hw) / hw.hbm_bytes_per_s);
    case CostKind::Elementwise:
      return std::max(largest_elements(op) / hw.vpu_elems_per_s, tiled_bytes_sum(op, hw) / hw.hbm_bytes_per_s);
    case CostKind::DataMovement:
      return tiled_bytes_sum(op, hw) / hw.hbm_bytes_per_s;
    case CostKind::Host:
      throw InternalError("a host op has no TPU device time");
    case CostKind::Unset:
      throw InternalError("an op without a cost decision reached the TPU cost model");
  }
  throw InternalError("unknown CostKind");
}

double program_device_seconds(std::span<const double> op_seconds, int num_cores_per_replica) {
  if (num_cores_per_replica < 1) throw InvalidArgumentError("num_cores_per_replica must be >= 1");
  double sum = 0;
  for (double t : op_seconds) sum += t;
  return sum / num_cores_per_replica;
}

CallCost call_cost(std::span<const ArraySpec> inputs, std::span<const ArraySpec> outputs, double device_seconds,
                   bool io_shape_optimization, double overhead_us, const TpuHardware& hw) {
  CallCost c;
  for (const ArraySpec& a : inputs) c.h2d_bytes += transfer_bytes(a, io_shape_optimization, hw);
  for (const ArraySpec& a : outputs) c.d2h_bytes += transfer_bytes(a, io_shape_optimization, hw);
  c.h2d_seconds = static_cast<double>(c.h2d_bytes) / hw.pcie_bytes_per_s;
  c.d2h_seconds = static_cast<double>(c.d2h_bytes) / hw.pcie_bytes_per_s;
  c.device_seconds = device_seconds;
  c.overhead_seconds = overhead_us * 1e-6;
  return c;
}

int64_t check_hbm_capacity(std::span<const ArraySpec> resident, const TpuHardware& hw) {
  int64_t need = 0;
  for (const ArraySpec& a : resident) {
    if (__builtin_add_overflow(need, hbm_tiled_bytes(a.dtype, a.shape, hw), &need)) {
      throw InvalidArgumentError("TPU array size overflows int64");
    }
  }
  if (need > hw.hbm_bytes) {
    throw ResourceExhaustedError("TPU HBM capacity exceeded: " + std::to_string(need) + " bytes needed, " +
                                 std::to_string(hw.hbm_bytes) + " bytes available");
  }
  return need;
}

}  // namespace ag::tpu
