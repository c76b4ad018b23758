// The runtime side of one BatchFunction op instance (TF's BatchResource):
// per-call input checks (B18, B19), one queue on a shared batch scheduler
// created at first execution (B17), and the run of each batch: the tasks'
// inputs concatenated along dim 0 and padded to an allowed size with copies
// of row 0 of the first task (B25), one call of the function on them plus the
// last task's captured tensors (B26), and every output split back by task
// (B27); any error of the batch goes to each of its tasks (B28).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/batching/batch_call.h"
#include "runtime/batching/batch_options.h"
#include "runtime/batching/batch_scheduler.h"
#include "runtime/batching/clock.h"
#include "runtime/core/tensor.h"

namespace ag::batching {

/// What the cost hook sees of one batch: the function's arguments (padded,
/// captured tensors last), its outputs and the padded row count P.
struct BatchCost {
  const std::vector<Tensor>& arguments;
  const std::vector<Tensor>& outputs;
  int64_t padded_batch;
};

class BatchFunction {
 public:
  /// The batched computation (later a traced graph): batched inputs, then
  /// captured tensors, in; batched outputs out.
  using Fn = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;
  /// T_call(P) in microseconds for one batch (TPU_EMULATOR.md section 8).
  using CostHook = std::function<double(const BatchCost&)>;

  /// Checks allowed_batch_sizes as the op's construction does (B16). The queue
  /// goes on `scheduler` when given (queues of one scheduler share its
  /// workers round-robin), else on a scheduler of its own with
  /// num_batch_threads workers (one when <= 0) on `clock`.
  BatchFunction(BatchFunctionOptions options, Fn fn, std::shared_ptr<Clock> clock,
                std::shared_ptr<BatchScheduler> scheduler = nullptr);
  /// Runs every waiting request to completion first.
  ~BatchFunction();
  BatchFunction(const BatchFunction&) = delete;
  BatchFunction& operator=(const BatchFunction&) = delete;

  /// Sets the hook that prices each batch (before the first call).
  void set_cost_hook(CostHook hook) { cost_hook_ = std::move(hook); }

  /// Submits one request and returns at once; the call finishes when its
  /// batch (all its pieces' batches) ran. Throws the per-call errors: queue
  /// creation (B17), resource inputs and shapes (B18), size and capacity (B20-B22).
  std::shared_ptr<BatchCall> call(std::vector<Tensor> inputs, std::vector<Tensor> captured = {});
  /// call() and wait for the outputs (needs workers that run by themselves:
  /// a real clock, or a virtual one advanced by another thread).
  std::vector<Tensor> run(std::vector<Tensor> inputs, std::vector<Tensor> captured = {}) {
    return call(std::move(inputs), std::move(captured))->wait();
  }

  const BatchFunctionOptions& options() const { return options_; }
  /// The scheduler running this function's queue (created at first execution).
  std::shared_ptr<BatchScheduler> scheduler() const;

 private:
  /// The queue, created (and its options checked) at the first call.
  BatchQueue& queue();
  void check_inputs(const std::vector<Tensor>& inputs) const;
  BatchRun process(Batch&& batch, int64_t dispatch_us);

  const BatchFunctionOptions options_;
  const Fn fn_;
  CostHook cost_hook_;
  std::shared_ptr<Clock> clock_;
  mutable std::mutex mu_;  // guards scheduler_ and queue_ while they are created
  std::shared_ptr<BatchScheduler> scheduler_;
  std::shared_ptr<BatchQueue> queue_;
};

}  // namespace ag::batching
