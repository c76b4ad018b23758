// The shared batch scheduler (TF's SharedBatchScheduler, B29): queues, one per
// BatchFunction op instance, and num_batch_threads workers that take eligible
// batches from them round-robin, each running one batch at a time.
//
// On a RealClock the workers are threads; an idle one sleeps until a request
// arrives or the earliest open batch times out (TF polls every 1 ms instead).
// On a VirtualClock there are no threads: workers are busy-until instants, and
// the scheduler runs batches in the thread that schedules a request or
// advances the clock, an idle worker taking an eligible batch at the earliest
// virtual instant it becomes eligible [E]; a batch occupies its worker for its
// simulated device time, and its callers get their results at its end.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "runtime/batching/batch_queue.h"
#include "runtime/batching/clock.h"

namespace ag::batching {

class BatchScheduler : private VirtualClock::Listener {
 public:
  /// `num_workers` >= 1 workers on `clock` (threads unless the clock is simulated).
  BatchScheduler(std::shared_ptr<Clock> clock, int num_workers);
  /// Runs every waiting request to completion, then stops the workers.
  ~BatchScheduler() override;
  BatchScheduler(const BatchScheduler&) = delete;
  BatchScheduler& operator=(const BatchScheduler&) = delete;

  Clock& clock() const { return *clock_; }
  int num_workers() const { return num_workers_; }

  /// A new queue; throws InvalidArgumentError for options TF refuses (B17).
  std::shared_ptr<BatchQueue> add_queue(QueueOptions options, BatchProcessor processor);
  /// Runs the queue's waiting requests to completion and forgets it.
  void remove_queue(const std::shared_ptr<BatchQueue>& queue);

  /// Enqueues a request of `size` rows on `queue` (see BatchQueue::schedule).
  void schedule(BatchQueue& queue, const std::shared_ptr<BatchCall>& call, std::vector<Tensor> inputs,
                std::vector<Tensor> captured, int64_t size);

 private:
  struct Delivery {
    int64_t at;
    uint64_t seq;  // ties broken by dispatch order
    std::function<void()> deliver;
    BatchQueue* queue;
  };

  bool take_locked(int64_t now, std::shared_ptr<BatchQueue>& queue, Batch& batch);
  std::optional<int64_t> next_eligible_locked() const;
  void worker_loop();
  // The virtual clock's side.
  std::optional<int64_t> next_event_us(int64_t now) override;
  void run_due(int64_t now) override;
  /// Delivers what is due and hands eligible batches to idle workers at `now`.
  void pump(int64_t now);
  /// Runs what waits in `only` (every queue when null) now, workers or not.
  void drain_virtual(BatchQueue* only);

  std::shared_ptr<Clock> clock_;
  VirtualClock* virtual_clock_ = nullptr;
  const int num_workers_;

  std::mutex mu_;
  std::condition_variable work_cv_;   // threads: a request arrived or a queue closed
  std::condition_variable drain_cv_;  // remove_queue: a batch finished
  std::vector<std::shared_ptr<BatchQueue>> queues_;
  size_t next_queue_ = 0;  // round-robin position
  bool stopping_ = false;
  std::vector<std::thread> threads_;
  // Virtual workers: the instant each becomes idle; results not yet delivered.
  std::vector<int64_t> busy_until_;
  std::vector<Delivery> deliveries_;
  uint64_t next_seq_ = 0;
  std::mutex pump_mu_;  // one pump at a time, so batches run in time order
};

}  // namespace ag::batching
