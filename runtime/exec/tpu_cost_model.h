// The emulated TPU v5e's clock (TPU_EMULATOR.md section 8): the chip's
// constants, an array's tiled size in HBM, a roofline time per op, the time
// of one TPU call with its PCIe transfers, and the HBM capacity check (B47).
// Inputs are plain (dtype, shape, contraction dims), no graph: the converter
// describes each node with an OpCost and sums.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "runtime/core/dtype.h"
#include "runtime/core/shape.h"
#include "runtime/ops/kernels/bf16_gemm.h"
#include "runtime/ops/op_def.h"

namespace ag::tpu {

/// One v5e chip's figures (section 8's table; S13 the chip page, S14 the
/// scaling book). Rates are per second.
struct TpuHardware {
  int tensor_cores = 1;
  int mxus = 4;                           // each 128×128
  double clock_hz = 1.5e9;
  double peak_bf16_flops = 197e12;        // 4·128·128·2·1.5e9 ≈ 1.966e14
  double peak_int8_ops = 394e12;          // twice bf16
  int64_t hbm_bytes = 17179869184;        // 16 GiB
  double hbm_bytes_per_s = 819e9;
  double pcie_bytes_per_s = 1.5e10;       // host↔chip, each way
  int64_t vmem_bytes = 128ll << 20;
  double vpu_elems_per_s = 3.072e12;      // 8·128 lanes · 2 ALUs · 1.5e9 [E]
  double ici_bytes_per_s_per_link = 5e10; // one way (S13: 1600 Gbps per chip)
  /// f32 at HIGHEST runs several bf16 passes: P_bf16 / 6 [E].
  double f32_highest_slowdown = 6;
  /// Rows of a 16-bit array's HBM tile: 16 as newer chips' T(16,128)(2,1)
  /// layouts show; S9 documents 8 (section 9 leaves it configurable).
  int sixteen_bit_row_tile = 16;
};

/// The v5e's figures.
inline constexpr TpuHardware kTpuV5e{};

/// An array as the TPU holds it.
struct ArraySpec {
  DType dtype = DType::Float32;
  Shape shape;
};

/// Bytes `dtype[shape]` takes in HBM under XLA's tiled layout (S9, S10):
/// rank >= 2 pads the minor dim to a multiple of 128 and the second-minor to
/// the row tile T = 8·(4/itemsize) (8 for 32-bit, 16 for bf16, 32 for int8),
/// with the compact tiles T/4 for d <= T/4 and T/2 for d <= T/2; leading dims
/// stay. Rank 0 and 1 take a multiple of 512 bytes [E]. An array with no
/// elements takes 0 bytes [E]. Examples: f32[3,5] -> 2048, f32[1,10] -> 1024,
/// f32[8,10] -> 4096, f32[10,300] -> 24576, f32[2,3,5] -> 4096, f32[80] -> 512.
/// The shape must be fully defined (XLA's shapes are static) and the dtype
/// fixed-size, else InvalidArgumentError. `hw` sets the 16-bit row tile.
int64_t hbm_tiled_bytes(DType dtype, const Shape& shape, const TpuHardware& hw = kTpuV5e);

/// The bytes a boundary tensor crosses PCIe with: its tiled size, or with IO
/// shape optimization (B45) that of its flattening to rank 1.
int64_t transfer_bytes(const ArraySpec& array, bool io_shape_optimization, const TpuHardware& hw = kTpuV5e);

/// What the MXU multiplies in: the operands' dtype after the bf16 and
/// quantization rewrites, and for float32 the precision option (B32).
enum class MxuRate { Bf16, F32Default, F32Highest, Int8 };

/// The MXU rate for operands of `dtype` (Float32, BFloat16 or Int8; others are
/// InvalidArgumentError) at `precision`.
MxuRate mxu_rate_for(DType dtype, kernels::F32MatmulPrecision precision);

/// Operations per second the MXU reaches at `rate`.
double mxu_ops_per_second(MxuRate rate, const TpuHardware& hw = kTpuV5e);

/// One op inside a TPU program, described without the graph: its cost kind
/// (the op's CostFacts), its contraction dims when it is one, the MXU rate,
/// and its operands and results.
struct OpCost {
  CostKind kind = CostKind::Unset;
  ContractionDims contraction;
  MxuRate rate = MxuRate::Bf16;
  std::vector<ArraySpec> inputs;
  std::vector<ArraySpec> outputs;
};

/// The MXU's padded work for a contraction: 2·b·ceil8(M)·ceil128(K)·ceil128(N)
/// (it consumes 8×128 by 128×128 blocks).
double effective_flops(const ContractionDims& dims);

/// Seconds `op` keeps the chip busy, a roofline (S14) with no fusion:
/// Contraction max(F_eff / rate, bytes / B_hbm); Elementwise (reductions too)
/// max(E / R_vpu, bytes / B_hbm) with E the largest array's elements;
/// DataMovement bytes / B_hbm; Free and ControlFlow 0 (a control-flow op's
/// subgraphs are charged op by op). Bytes is the sum of the tiled sizes of
/// inputs and outputs. Host (not a TPU op) and Unset are InternalError.
double op_device_seconds(const OpCost& op, const TpuHardware& hw = kTpuV5e);

/// A TPU program's time from its ops' times: their sum, split evenly over
/// `num_cores_per_replica` cores when XLA sharding is set (ideal SPMD [E]).
double program_device_seconds(std::span<const double> op_seconds, int num_cores_per_replica = 1);

/// One TPU call: T_h2d + T_dev + T_d2h + overhead.
struct CallCost {
  double h2d_seconds = 0, device_seconds = 0, d2h_seconds = 0, overhead_seconds = 0;
  int64_t h2d_bytes = 0, d2h_bytes = 0;
  double total_seconds() const { return h2d_seconds + device_seconds + d2h_seconds + overhead_seconds; }
};

/// The cost of one call whose program takes `device_seconds`: each input
/// crosses PCIe in, each output out, transfer_bytes() at B_pcie each;
/// `overhead_us` is the tpu_call_overhead_us option (default 0 [E]).
CallCost call_cost(std::span<const ArraySpec> inputs, std::span<const ArraySpec> outputs, double device_seconds,
                   bool io_shape_optimization, double overhead_us = 0, const TpuHardware& hw = kTpuV5e);

/// B47: the tiled bytes of the arrays resident in HBM (variables, constants);
/// ResourceExhaustedError "TPU HBM capacity exceeded: {need} bytes needed,
/// 17179869184 bytes available" when they exceed the chip's HBM. Returns the
/// bytes needed.
int64_t check_hbm_capacity(std::span<const ArraySpec> resident, const TpuHardware& hw = kTpuV5e);

}  // namespace ag::tpu
