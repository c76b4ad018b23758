// A compiled graph: a flat array of instructions in node order, each a kernel
// prepared once with the slot indices of its inputs and outputs. Running a plan
// binds the placeholders to the arguments and calls the kernels; nothing on
// that path hashes, formats strings or allocates per node.
//
// Arguments are not copied into slots: for one run, the instruction inputs
// that read an argument point at the caller's tensor (no reference counting),
// and are pointed back at their slots when the run ends.
//
// Slots keep their tensors between runs, so KernelContext::allocate_output
// finds last call's buffer and reuses it (plan-owned storage: multi-MB
// intermediates are not returned to the OS on every call). A slot whose value
// is dead (its last consumer ran) is handed to a later node's output of the
// same type, so buffers are also reused within a run (as ggml-alloc does).
// Each concurrent run borrows its own RunState from the plan's pool; each
// thread keeps the last state it returned in a thread-local cache, so a
// thread calling one plan over and over touches no atomic to borrow it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "runtime/ops/op_def.h"

namespace ag {

class Graph;

/// One node's execution: its prepared kernel and where its operands live.
struct Instr {
  Kernel kernel;
  uint32_t in_begin = 0;   // into Plan::input_slots / RunState::in_ptrs
  uint32_t in_count = 0;
  uint32_t out_begin = 0;  // first of out_count consecutive slots
  uint32_t out_count = 0;
  uint32_t node_id = 0;  // the graph node it came from (errors, dumps)
};

/// The mutable part of one run: every slot's tensor and, per instruction
/// input, a pointer to its slot (fixed when the state is made).
struct RunState {
  std::vector<Tensor> slots;
  std::vector<const Tensor*> in_ptrs;
};

class Plan;

/// A RunState borrowed from a plan's pool for one run (or one While loop);
/// returned when destroyed.
class StateLease {
 public:
  StateLease(const Plan& plan);  // NOLINT(google-explicit-constructor)
  ~StateLease();
  StateLease(const StateLease&) = delete;
  StateLease& operator=(const StateLease&) = delete;
  RunState& operator*() const { return *state_; }
  RunState* operator->() const { return state_; }

 private:
  const Plan& plan_;
  RunState* state_;
};

class Plan {
 public:
  Plan();
  ~Plan();
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;

  /// Runs the plan on `args` (one per graph input, in Graph::inputs() order)
  /// and returns the graph's outputs. Thread-safe: many threads may run one plan.
  std::vector<Tensor> run(std::span<const Tensor> args) const;
  /// The same, with arguments by pointer and results written into `outputs`
  /// (num_outputs() tensors). With `swap_outputs` (nested runs: If), results
  /// are swapped with what `outputs` held, so the plan reuses those buffers
  /// next time; otherwise copied (the plan keeps its buffer for next call).
  void run(std::span<const Tensor* const> args, std::span<Tensor> outputs, bool swap_outputs = false) const;
  /// run(args, outputs) for arguments the caller has already checked against
  /// arg_specs() (a ConcreteFunction's cache hit): no checks repeated.
  void run_checked(std::span<const Tensor* const> args, std::span<Tensor> outputs) const;

  /// InvalidArgumentError unless `args` match the graph's inputs in number,
  /// dtype and shape.
  void check_args(std::span<const Tensor* const> args) const;

  // ---- low level, for control-flow kernels that run a plan many times
  /// Runs the instructions on a state whose argument slots are bound.
  void execute(RunState& s) const;
  /// Drops the references the argument slots hold (the caller's tensors).
  void unbind(RunState& s) const;
  uint32_t arg_slot(size_t i) const { return arg_slots_[i]; }
  uint32_t output_slot(size_t i) const { return output_slots_[i]; }
  /// Indices into RunState::in_ptrs of the instruction inputs that read `slot`
  /// (a While points the cond's argument reads straight at the loop variables).
  std::vector<uint32_t> readers_of(uint32_t slot) const;
  /// True when an instruction writes `slot` (not an argument or a constant).
  bool is_computed_slot(uint32_t slot) const { return computed_[slot]; }

  size_t num_args() const { return arg_specs_.size(); }
  size_t num_outputs() const { return output_slots_.size(); }
  const std::vector<TensorSpec>& arg_specs() const { return arg_specs_; }
  const std::vector<TensorSpec>& output_specs() const { return output_specs_; }
  size_t num_instrs() const { return instrs_.size(); }
  size_t num_slots() const { return num_slots_; }

  /// One line per instruction: "add = AddV2(s0, s1) -> s2" (debugging).
  std::string dump() const;

 private:
  friend Plan compile_plan(const Graph& g, Backend backend);
  friend class StateLease;
  struct Pool;
  struct ThreadCache;
  /// The plan's state pool: retired (its states freed) when the plan is
  /// destroyed or assigned over, so Plan's own moves can be the defaults.
  class PoolHandle : public std::shared_ptr<Pool> {
   public:
    explicit PoolHandle(std::shared_ptr<Pool> p) : std::shared_ptr<Pool>(std::move(p)) {}
    PoolHandle(PoolHandle&&) noexcept = default;
    PoolHandle& operator=(PoolHandle&& o) noexcept {
      if (this != &o) {
        retire();
        std::shared_ptr<Pool>::operator=(std::move(o));
      }
      return *this;
    }
    ~PoolHandle() { retire(); }

   private:
    void retire() noexcept;  // executor.cpp, where Pool is complete
  };
  static ThreadCache& thread_cache();

  RunState* acquire() const;
  void give_back(RunState* s) const;
  std::unique_ptr<RunState> make_state() const;
  void run_unchecked(std::span<const Tensor* const> args, std::span<Tensor> outputs, bool swap_outputs) const;

  std::vector<Instr> instrs_;
  std::vector<uint32_t> input_slots_;  // per instruction input
  std::vector<uint32_t> arg_slots_;
  // The instruction inputs (indices into in_ptrs) reading argument i are
  // arg_readers_[arg_readers_begin_[i] .. arg_readers_begin_[i + 1]).
  std::vector<uint32_t> arg_readers_begin_;
  std::vector<uint32_t> arg_readers_;
  std::vector<int32_t> output_arg_;  // per output: the argument it returns as is, or -1
  std::vector<uint32_t> output_slots_;
  std::vector<TensorSpec> arg_specs_;
  std::vector<TensorSpec> output_specs_;
  std::vector<std::pair<uint32_t, Tensor>> constants_;  // filled into each new state
  std::vector<std::string> instr_names_;                // "name = Op" per instruction (dump)
  std::vector<bool> computed_;                          // per slot
  std::vector<bool> swappable_;                         // per output: computed, not returned twice
  uint32_t num_slots_ = 0;
  // Shared with the threads' caches, which may outlive the plan (a cache
  // holding a retired pool never uses it again: see Pool::retire).
  PoolHandle pool_;
};

/// Compiles `g` (as it is: compile() in compile.h optimizes first): prepares
/// every node's kernel from `backend`'s factories once (If/While compile their
/// subgraphs here, for the same backend), lays out slots with liveness so
/// dead values' buffers are reused, and binds Graph::inputs() to the arguments.
Plan compile_plan(const Graph& g, Backend backend = Backend::Cpu);

}  // namespace ag
