// ScalarProgram: a compiled program over typed scalar registers, what a
// FusedScalar node runs, and what a While over scalars runs whole
// (scalar_while.h). Its instructions are the ops' own scalar steps
// (ElementwiseDef::scalar: each op's semantic, instantiated per dtype where
// the op is defined) plus register moves and the jumps a loop needs. The
// interpreter is threaded through the steps: each op's step computes and
// jumps to the next instruction's step itself; control instructions return
// to a driver loop, so the native stack stays bounded whatever the compiler
// does with those tail calls.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "runtime/ops/elementwise_def.h"

namespace ag {

class Graph;
class Tensor;
struct OpDef;
struct TensorSpec;

/// Whether a value of this spec fits one register: a known scalar of a
/// register dtype.
bool scalar_register_spec(const TensorSpec& s);

class ScalarProgram {
 public:
  ScalarProgram();
  ~ScalarProgram();
  ScalarProgram(ScalarProgram&&) noexcept;
  ScalarProgram& operator=(ScalarProgram&&) noexcept;

  // ---- building
  /// A new register of dtype `t` (a scalar_register_dtype) that the caller
  /// fills: an input, a loop variable.
  int add_register(DType t);
  /// A register holding `value` (a one-element tensor of a register dtype),
  /// written by init(): constants are read like any register.
  int add_constant(const Tensor& value);
  /// Appends op `op` on `operands`; returns its result register, or -1 when
  /// the op has no scalar step for the operands' dtypes.
  int add_op(const OpDef& op, std::span<const int> operands);
  /// Appends graph `g`'s nodes, its inputs (Graph::inputs()) being registers
  /// `args`: Consts become constants, Identity forwards, a fused node's body
  /// is appended in its place. Returns the registers of g's outputs, or
  /// nullopt when a node is not a pure scalar op with a scalar step.
  std::optional<std::vector<int>> add_graph(const Graph& g, std::span<const int> args);
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

}  // namespace ag
