// One queue of the shared batch scheduler (TF's internal::Queue): a deque of
// batches whose last one is open. Requests join the open batch, or close it
// and start another (B23), or are cut into pieces that fill the open batch
// and whole new ones (B24); a queue refuses requests beyond its limits (B20-B22).
// A closed batch is eligible at once; the open one when full or timed out.
// Not synchronized: its scheduler calls it under the scheduler's lock.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "runtime/batching/batch.h"
#include "runtime/batching/batch_options.h"

namespace ag::batching {

/// What a batch's run reports to the scheduler: its simulated device time (a
/// worker on a virtual clock stays busy that long) and the delivery of its
/// pieces' outcomes (on a virtual clock, at the batch's virtual end).
struct BatchRun {
  double device_time_us = 0;
  std::function<void()> deliver;
};

/// Runs one batch taken at `dispatch_us`; never throws (errors go to its pieces).
using BatchProcessor = std::function<BatchRun(Batch&&, int64_t dispatch_us)>;

class BatchQueue {
 public:
  BatchQueue(QueueOptions options, BatchProcessor processor);

  const QueueOptions& options() const { return options_; }
  const BatchProcessor& processor() const { return processor_; }

  /// Adds a request of `size` rows at time `now`, cut into pieces when it does
  /// not fit; throws InvalidArgumentError (B20) or UnavailableError (B21, B22).
  void schedule(const std::shared_ptr<BatchCall>& call, std::vector<Tensor> inputs, std::vector<Tensor> captured,
                int64_t size, int64_t now);

  /// The oldest eligible batch, leaving the deque (closing the open batch
  /// first if it is eligible); none when nothing is eligible at `now`.
  std::optional<Batch> take_eligible(int64_t now);
  /// The earliest instant a batch of this queue is (or was) eligible: the
  /// open batch's first arrival plus the timeout, or that arrival when the
  /// batch is full or the queue closed, or any past instant when a closed
  /// batch waits; none when the queue holds no request.
  std::optional<int64_t> next_eligible_us() const;

  /// Batches in the deque, the open one included (TF's num_enqueued_batches).
  int64_t num_enqueued_batches() const { return static_cast<int64_t>(batches_.size()); }
  int64_t open_batch_size() const { return batches_.back().size; }
  /// Makes the open batch eligible from now on (the queue is being removed).
  void close() { closed_ = true; }
  bool closed() const { return closed_; }
  /// No request waits in it.
  bool drained() const { return batches_.size() == 1 && batches_.back().empty(); }

  int running = 0;  // batches taken and not yet finished (scheduler bookkeeping)

 private:
  void check_capacity(int64_t size) const;
  bool open_batch_eligible(int64_t now) const;
  void start_new_batch() { batches_.emplace_back(); }

  QueueOptions options_;
  BatchProcessor processor_;
  std::deque<Batch> batches_;
  int64_t open_batch_start_us_ = 0;
  bool closed_ = false;
};

}  // namespace ag::batching
