// An elementwise op's scalar semantic, instantiated once per dtype it takes
// (kernels/elementwise_def_of.h builds it from the op's functor): the one
// definition from which its CPU kernel, a fused loop's step over a block of
// elements and a scalar program's instruction all derive. No Eigen here:
// the fused kernels and the scalar interpreter include this, not the functors.
#pragma once

#include <array>
#include <cstdint>

#include "runtime/core/dtype.h"

namespace ag {

/// One register of a scalar program: a value of its register's dtype.
union ScalarReg {
  int32_t i32;
  int64_t i64;
  float f32;
  double f64;
  bool b;
};

/// True for the dtypes a ScalarReg holds.
constexpr bool scalar_register_dtype(DType t) {
  return t == DType::Int32 || t == DType::Int64 || t == DType::Float32 || t == DType::Float64 || t == DType::Bool;
}

struct ScalarIns;
/// Runs the instruction at `pc` on register file `r`. An op's step computes
/// and then runs the next instruction itself (a tail call: the interpreter
/// is threaded through the steps); a control instruction returns the next
/// instruction to the driver loop, or nullptr to stop.
using ScalarStep = const ScalarIns* (*)(ScalarReg* r, const ScalarIns* pc);

/// One instruction: its step, destination and up to three operand registers;
/// `jump` is a control instruction's relative target.
struct ScalarIns {
  ScalarStep step = nullptr;
  uint16_t dst = 0, a = 0, b = 0, c = 0;
  int32_t jump = 0;
};

/// out[i] = f(in[0][i], in[1][i], ...) for i < n over contiguous arrays of
/// the operand dtype (a Select's condition: bool); `out` may alias an input.
/// Throws the op's errors (integer division by zero) before writing.
using BlockFn = void (*)(const void* const* in, void* out, int64_t n);
/// Throws the op's error if the failing input's n values would make it fail.
using CheckFn = void (*)(const void* values, int64_t n);

struct ElementwiseDef {
  int arity = 0;         // 1, 2, or 3 (Select: condition, then, else)
  TypeMask dtypes = 0;   // operand dtypes (a Select's values)
  bool bool_result = false;  // comparisons give bool; else the operand dtype
  /// Per operand dtype (nullptr where not defined).
  std::array<BlockFn, kNumDTypes> block{};
  std::array<ScalarStep, kNumDTypes> scalar{};
  std::array<CheckFn, kNumDTypes> check{};  // null: never fails on that dtype

  DType result(DType operand) const { return bool_result ? DType::Bool : operand; }
  bool takes(DType t) const { return static_cast<size_t>(t) < kNumDTypes && (dtypes & bit(t)) != 0; }
  BlockFn block_for(DType t) const { return takes(t) ? block[static_cast<size_t>(t)] : nullptr; }
  ScalarStep scalar_for(DType t) const { return takes(t) ? scalar[static_cast<size_t>(t)] : nullptr; }
};

}  // namespace ag
