// FusedScalar: a straight-line program of scalar (rank-0) ops run as one
// node, with any number of results. Loop bodies over scalar counters (after
// If-conversion, fizzbuzz's is ~20 ops) otherwise pay a kernel dispatch, an
// output allocation check and a slot per op for one element of work.
// Attributes:
//   ops      TF op names in evaluation order ("FloorMod", "Equal", "SelectV2", ...)
//   operands three register indices per op (-1 where the op has fewer operands):
//            registers 0..n_inputs-1 are the inputs, n_inputs+k the result of ops[k]
//   results  the registers the node outputs, in output order
// Inputs and outputs are rank-0 tensors of int32, int64, float32, float64 or bool.
//
// The kernel runs a ScalarProgram, which a While whose cond and body are only
// scalar ops also runs directly (the whole loop in one program, see
// control_flow_ops.cpp): it is compiled once and interprets typed
// instructions over a register file of ScalarReg.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "runtime/core/dtype.h"

namespace ag {

class Attrs;
class OpRegistry;
class Tensor;

inline constexpr int kFusedScalarMaxOps = 64;
inline constexpr int kFusedScalarMaxInputs = 32;

/// The result dtype of scalar op `op` on operands of dtypes `in`, or false
/// when FusedScalar cannot run it (unknown op, wrong arity or dtype).
bool fused_scalar_result(std::string_view op, std::span<const DType> in, DType& out);

/// True for the dtypes a ScalarProgram register holds.
bool scalar_program_dtype(DType t);

/// One register: holds one value of its register's dtype.
union ScalarReg {
  int32_t i32;
  int64_t i64;
  float f32;
  double f64;
  bool b;
};

/// A compiled program over typed scalar registers: ops of the FusedScalar
/// set, register moves, and the jumps a loop needs. Built once, then run any
/// number of times (concurrently: run() only reads the program).
class ScalarProgram {
 public:
  ScalarProgram();
  ~ScalarProgram();
  ScalarProgram(ScalarProgram&&) noexcept;
  ScalarProgram& operator=(ScalarProgram&&) noexcept;

  // ---- building
  /// A new register of dtype `t` that the caller fills (an input, a loop variable).
  int add_register(DType t);
  /// A register holding `value` (a one-element tensor of a register dtype),
  /// written by init(): constants are read like any register, never loaded
  /// from a tensor per run.
  int add_constant(const Tensor& value);
  /// Appends TF op `op` on `operands`; returns its result register, or -1
  /// when the program cannot run it (unknown op, arity or dtypes).
  int add_op(std::string_view op, std::span<const int> operands);
  /// Appends a FusedScalar node's program (its attributes) on `inputs`;
  /// returns its result registers. InvalidArgumentError when malformed.
  std::vector<int> add_fused(const Attrs& attrs, std::span<const int> inputs);
  /// Appends dst = src (same dtype).
  void add_move(int dst, int src);
  /// Appends: stop the program unless bool register `cond` holds.
  void add_exit_unless(int cond);
  /// Appends: stop the program when int64 register `counter` is 0, else decrement it.
  void add_count_down(int counter);
  /// Appends a jump to instruction `target` (a position from size()).
  void add_jump(size_t target);
  /// Number of instructions so far (the position of the next one).
  size_t size() const;
  /// Makes the instruction at or after position `begin` that computes `reg`
  /// write register `target` instead, and later reads of `reg` read `target`,
  /// when no later instruction reads or writes `target` (so its old value is
  /// dead there): saves the move of a loop body's result into its loop
  /// variable. Returns false, changing nothing, otherwise.
  bool write_into(int reg, int target, size_t begin);

  // ---- running
  size_t num_registers() const;
  DType dtype(int reg) const;
  /// Writes the constants into `regs` (num_registers() of them).
  void init(ScalarReg* regs) const;
  /// Runs from the first instruction until the end or an exit. Throws the
  /// ops' errors (InvalidArgumentError "Integer division by zero").
  void run(ScalarReg* regs) const;

  /// Copies the element of one-element tensor `t` (a register dtype) into `r`,
  /// and back.
  static void load(ScalarReg& r, const Tensor& t);
  static void store(Tensor& t, const ScalarReg& r);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Registers FusedScalar (called by register_math_ops).
void register_fused_scalar_op(OpRegistry& reg);

}  // namespace ag
