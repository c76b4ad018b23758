// The TPU emulator (TPU_EMULATOR.md sections 1, 3 and 8): the device a
// converted model's TPUPartitionedCall runs its function on. Like XLA, it
// compiles the function per distinct argument dtypes and shapes, just before
// the first run with them (B11): the graph specialized to those static
// shapes; every op checked TPU-compatible, no string or variant tensors
// (B10); the inputs XLA needs as compile-time constants folded, or TF's
// error (B12); the variables it reads checked against the chip's HBM
// (B47). The program then runs on the CPU with the TPU's numerics (MatMul's
// bfloat16 operands and float32 sums; the rest as the VPU's float32), and
// each call is charged the cost model's device and transfer time.
#pragma once

#include <cstdint>

#include "runtime/exec/tpu_cost_model.h"
#include "runtime/ops/registry.h"

namespace ag::tpu {

/// What the emulator has done in this process: programs compiled (B11's
/// tpu_compile_count), calls run, and the last call's cost (B46's record
/// without the batching fields).
struct TpuStats {
  int64_t compile_count = 0;
  int64_t calls = 0;
  CallCost last_call;
  double total_device_seconds = 0;
};
TpuStats tpu_stats();
/// Forgets every compiled program's count and the calls (tests).
void reset_tpu_stats();

/// The TPU calls this thread ran since reset_thread_tpu_cost(): how many,
/// and their costs summed (B46's device time and bytes of one request, or
/// of one batch on a batching worker).
struct ThreadTpuCost {
  int64_t calls = 0;
  CallCost cost;
};
ThreadTpuCost thread_tpu_cost();
void reset_thread_tpu_cost();

/// Registers TPUPartitionedCall's kernel (exec/register_builtin_ops).
void register_tpu_emulator_kernels(OpRegistry& reg);

}  // namespace ag::tpu
