// BatchFunction's kernel: one batching::BatchFunction (TF's BatchResource,
// runtime/batching/) per node, created with the kernel, whose function runs
// the node's graph; calls from concurrent runs of the plan wait in its queue
// and share batches. It runs on the real clock: a served model's requests
// are batched by time (tests drive batching/ directly on a virtual clock).
#include "runtime/batching/batch_function.h"
#include "runtime/core/error.h"
#include "runtime/exec/exec_ops.h"
#include "runtime/exec/plan.h"
#include "runtime/exec/tpu_emulator.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

batching::BatchFunctionOptions options_of(const KernelSpec& s) {
  batching::BatchFunctionOptions o;
  o.num_batch_threads = static_cast<int>(s.attrs.get_or<int64_t>("num_batch_threads", 1));
  o.max_batch_size = s.attrs.get_or<int64_t>("max_batch_size", 1);
  o.batch_timeout_micros = s.attrs.get_or<int64_t>("batch_timeout_micros", 0);
  o.max_enqueued_batches = s.attrs.get_or<int64_t>("max_enqueued_batches", 10);
  o.allowed_batch_sizes = s.attrs.get_or<std::vector<int64_t>>("allowed_batch_sizes", {});
  o.enable_large_batch_splitting = s.attrs.get_or<bool>("enable_large_batch_splitting", false);
  for (const TensorSpec& out : s.outputs) o.output_dtypes.push_back(out.dtype);
  return o;
}

Kernel batch_function_kernel(const KernelSpec& s) {
  if (s.subgraphs.size() != 1) throw InternalError("BatchFunction is compiled without its function's graph");
  auto body = std::make_shared<const Plan>(compile_plan(*s.subgraphs[0], s.backend));
  const auto captured = static_cast<size_t>(s.attrs.get_or<int64_t>("num_captured", 0));
  // A batch runs on a worker thread, its TPU calls' costs summed there: the
  // cost hook charges the batch T_call(P) once (B46).
  auto batch = std::make_shared<batching::BatchFunction>(
      options_of(s),
      [body](const std::vector<Tensor>& args) {
        tpu::reset_thread_tpu_cost();
        return body->run(args);
      },
      std::make_shared<batching::RealClock>());
  batch->set_cost_hook([](const batching::BatchCost&) { return tpu::thread_tpu_cost().cost.total_seconds() * 1e6; });
  return [batch, captured](KernelContext& k) {
    const size_t batched = k.inputs.size() - captured;
    std::vector<Tensor> in, caps;
    for (size_t i = 0; i < k.inputs.size(); ++i) (i < batched ? in : caps).push_back(k.input(i));
    std::shared_ptr<batching::BatchCall> call = batch->call(std::move(in), std::move(caps));
    std::vector<Tensor> out = call->wait();
    batching::add_thread_batch_call(call->record());
    for (size_t i = 0; i < out.size() && i < k.outputs.size(); ++i) k.set_output(i, std::move(out[i]));
  };
}

}  // namespace

void register_batch_function_kernel(OpRegistry& reg) { reg.extend(op::BatchFunction).cpu(batch_function_kernel); }

}  // namespace ag
