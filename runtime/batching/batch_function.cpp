#include "runtime/batching/batch_function.h"

#include <sstream>

#include "runtime/batching/batch_tensors.h"
#include "runtime/core/error.h"

namespace ag::batching {

BatchFunction::BatchFunction(BatchFunctionOptions options, Fn fn, std::shared_ptr<Clock> clock,
                             std::shared_ptr<BatchScheduler> scheduler)
    : options_(std::move(options)), fn_(std::move(fn)), clock_(std::move(clock)), scheduler_(std::move(scheduler)) {
  validate_allowed_batch_sizes(options_);
}

BatchFunction::~BatchFunction() {
  std::shared_ptr<BatchQueue> queue;
  std::shared_ptr<BatchScheduler> scheduler;
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue = queue_;
    scheduler = scheduler_;
  }
  if (queue) scheduler->remove_queue(queue);
}

std::shared_ptr<BatchScheduler> BatchFunction::scheduler() const {
  std::lock_guard<std::mutex> lock(mu_);
  return scheduler_;
}

BatchQueue& BatchFunction::queue() {
  std::lock_guard<std::mutex> lock(mu_);
  if (queue_) return *queue_;
  // TF creates the batch resource at the first execution; when the queue's
  // options are refused, nothing is created and every call fails the same way.
  QueueOptions q = queue_options_for(options_);
  validate_queue_options(q);
  if (!scheduler_) scheduler_ = std::make_shared<BatchScheduler>(clock_, options_.num_batch_threads);
  queue_ = scheduler_->add_queue(std::move(q), [this](Batch&& b, int64_t t) { return process(std::move(b), t); });
  return *queue_;
}

namespace {

/// B18's listing: " - {input} has shape {shape}\n" per input.
std::string describe_inputs(const BatchFunctionOptions& o, const std::vector<Tensor>& inputs) {
  std::ostringstream out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string name = i < o.input_names.size() ? o.input_names[i] : "in_tensors_" + std::to_string(i);
    out << " - " << name << " has shape " << inputs[i].shape().debug_string() << "\n";
  }
  return out.str();
}

}  // namespace

void BatchFunction::check_inputs(const std::vector<Tensor>& inputs) const {
  if (inputs.empty()) throw InvalidArgumentError("BatchFunction needs at least one batched input");
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i < options_.input_is_resource.size() && options_.input_is_resource[i]) {
      throw InvalidArgumentError("BatchFunction cannot take resource inputs but input " + std::to_string(i) +
                                 " is a resource.");
    }
  }
  for (const Tensor& t : inputs) {
    if (t.rank() == 0) {
      throw InvalidArgumentError(
          "Batching input tensors must have at least one dimension.\nBelow are the input tensors: \n" +
          describe_inputs(options_, inputs));
    }
    if (inputs.size() >= 2 && t.shape().dim(0) != inputs[0].shape().dim(0)) {
      throw InvalidArgumentError(
          "Batching input tensors supplied in a given op invocation must have equal 0th-dimension size.\nBelow are "
          "the input tensors: \n" +
          describe_inputs(options_, inputs));
    }
  }
}

std::shared_ptr<BatchCall> BatchFunction::call(std::vector<Tensor> inputs, std::vector<Tensor> captured) {
  BatchQueue& q = queue();
  check_inputs(inputs);
  const int64_t size = inputs[0].shape().dim(0);
  auto call = std::make_shared<BatchCall>(scheduler_->clock().now_us());
  if (size == 0) {
    // An empty request never reaches the queue: each output is a [0] tensor,
    // whatever the function's real output rank (TF does the same).
    std::vector<Tensor> outputs;
    for (DType d : options_.output_dtypes) outputs.emplace_back(d, Shape{0});
    call->complete_now(std::move(outputs));
    return call;
  }
  scheduler_->schedule(q, call, std::move(inputs), std::move(captured), size);
  return call;
}

BatchRun BatchFunction::process(Batch&& batch, int64_t dispatch_us) {
  auto outcomes = std::make_shared<std::vector<PieceOutcome>>(batch.pieces.size());
  BatchCallRecord record;
  std::exception_ptr error;
  try {
    const size_t num_inputs = batch.pieces[0].inputs.size();
    for (const BatchPiece& p : batch.pieces) {
      if (p.inputs.size() != num_inputs) throw InvalidArgumentError("Batching inputs must have equal number of edges");
    }
    const int64_t padded = padded_batch_size(batch.size, options_.allowed_batch_sizes);
    record.padded_batch = padded;
    std::vector<Tensor> arguments;
    for (size_t i = 0; i < num_inputs; ++i) {
      std::vector<Tensor> parts;
      for (const BatchPiece& p : batch.pieces) parts.push_back(p.inputs[i]);
      if (padded > batch.size) {
        // Padding rows repeat row 0 of the first task's tensor.
        Tensor row = slice_rows(batch.pieces[0].inputs[i], 0, 1);
        for (int64_t r = batch.size; r < padded; ++r) parts.push_back(row);
      }
      arguments.push_back(concat_rows(parts));
    }
    for (const Tensor& t : batch.pieces.back().captured) arguments.push_back(t);
    for (const Tensor& t : arguments) record.h2d_bytes += static_cast<int64_t>(t.byte_size());

    std::vector<Tensor> outputs = fn_(arguments);
    for (const Tensor& t : outputs) record.d2h_bytes += static_cast<int64_t>(t.byte_size());
    if (!options_.output_dtypes.empty() && outputs.size() != options_.output_dtypes.size()) {
      throw InternalError("Wrong number of batched output tensors");
    }
    for (const Tensor& out : outputs) {
      if (out.rank() == 0) throw FailedPreconditionError("Batched output tensor has 0 dimensions");
      if (out.shape().dim(0) != padded) {
        throw FailedPreconditionError(
            "Batched output tensor's 0th dimension does not equal the sum of the 0th dimension sizes of the input "
            "tensors");
      }
    }
    int64_t offset = 0;
    for (size_t p = 0; p < batch.pieces.size(); ++p) {
      for (const Tensor& out : outputs) (*outcomes)[p].outputs.push_back(slice_rows(out, offset, batch.pieces[p].size));
      offset += batch.pieces[p].size;
    }
    if (cost_hook_) record.device_time_us = cost_hook_(BatchCost{arguments, outputs, padded});
  } catch (...) {
    error = std::current_exception();
  }
  for (PieceOutcome& o : *outcomes) {
    if (error) {
      o.outputs.clear();
      o.error = error;
    }
    o.record = record;
    o.dispatch_us = dispatch_us;
  }
  BatchRun run;
  run.device_time_us = record.device_time_us;
  run.deliver = [outcomes, pieces = std::make_shared<std::vector<BatchPiece>>(std::move(batch.pieces))] {
    for (size_t p = 0; p < pieces->size(); ++p) {
      (*pieces)[p].call->finish_piece((*pieces)[p].index, std::move((*outcomes)[p]));
    }
  };
  return run;
}

}  // namespace ag::batching
