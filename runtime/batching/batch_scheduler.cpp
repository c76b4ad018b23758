#include "runtime/batching/batch_scheduler.h"

#include <algorithm>
#include <cmath>

#include "runtime/core/error.h"

namespace ag::batching {

BatchScheduler::BatchScheduler(std::shared_ptr<Clock> clock, int num_workers)
    : clock_(std::move(clock)), num_workers_(std::max(1, num_workers)) {
  if (clock_->simulated()) {
    virtual_clock_ = dynamic_cast<VirtualClock*>(clock_.get());
    if (!virtual_clock_) throw InternalError("a simulated clock that is not a VirtualClock");
    busy_until_.assign(static_cast<size_t>(num_workers_), 0);
    virtual_clock_->subscribe(this);
    return;
  }
  if (!dynamic_cast<RealClock*>(clock_.get())) throw InternalError("a batch scheduler needs a RealClock or VirtualClock");
  for (int i = 0; i < num_workers_; ++i) threads_.emplace_back([this] { worker_loop(); });
}

BatchScheduler::~BatchScheduler() {
  if (virtual_clock_) {
    virtual_clock_->unsubscribe(this);
    drain_virtual(nullptr);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    for (auto& q : queues_) q->close();
  }
  work_cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

std::shared_ptr<BatchQueue> BatchScheduler::add_queue(QueueOptions options, BatchProcessor processor) {
  validate_queue_options(options);
  auto queue = std::make_shared<BatchQueue>(std::move(options), std::move(processor));
  std::lock_guard<std::mutex> lock(mu_);
  queues_.push_back(queue);
  return queue;
}

void BatchScheduler::remove_queue(const std::shared_ptr<BatchQueue>& queue) {
  if (virtual_clock_) {
    drain_virtual(queue.get());
  } else {
    std::unique_lock<std::mutex> lock(mu_);
    queue->close();
    work_cv_.notify_all();
    drain_cv_.wait(lock, [&] { return queue->drained() && queue->running == 0; });
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto it = std::find(queues_.begin(), queues_.end(), queue);
  if (it == queues_.end()) return;
  size_t at = static_cast<size_t>(it - queues_.begin());
  queues_.erase(it);
  if (next_queue_ > at) --next_queue_;
  if (next_queue_ >= queues_.size()) next_queue_ = 0;
}

void BatchScheduler::schedule(BatchQueue& queue, const std::shared_ptr<BatchCall>& call, std::vector<Tensor> inputs,
                              std::vector<Tensor> captured, int64_t size) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue.schedule(call, std::move(inputs), std::move(captured), size, clock_->now_us());
  }
  if (virtual_clock_) {
    pump(clock_->now_us());  // another thread may have advanced the clock meanwhile
  } else {
    work_cv_.notify_all();
  }
}

bool BatchScheduler::take_locked(int64_t now, std::shared_ptr<BatchQueue>& queue, Batch& batch) {
  const size_t n = queues_.size();
  for (size_t tried = 0; tried < n; ++tried) {
    std::shared_ptr<BatchQueue>& q = queues_[next_queue_ % n];
    next_queue_ = (next_queue_ + 1) % n;
    if (std::optional<Batch> b = q->take_eligible(now)) {
      queue = q;
      batch = std::move(*b);
      ++queue->running;
      return true;
    }
  }
  return false;
}

std::optional<int64_t> BatchScheduler::next_eligible_locked() const {
  std::optional<int64_t> next;
  for (const auto& q : queues_) {
    std::optional<int64_t> t = q->next_eligible_us();
    if (t && (!next || *t < *next)) next = t;
  }
  return next;
}

void BatchScheduler::worker_loop() {
  auto* real = static_cast<RealClock*>(clock_.get());
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    std::shared_ptr<BatchQueue> queue;
    Batch batch;
    const int64_t now = clock_->now_us();
    if (take_locked(now, queue, batch)) {
      lock.unlock();
      BatchRun run = queue->processor()(std::move(batch), now);
      run.deliver();
      lock.lock();
      --queue->running;
      drain_cv_.notify_all();
      continue;
    }
    std::optional<int64_t> next = next_eligible_locked();
    if (stopping_ && !next) return;
    if (next) {
      work_cv_.wait_until(lock, real->to_time_point(*next));
    } else {
      work_cv_.wait(lock);
    }
  }
}

std::optional<int64_t> BatchScheduler::next_event_us(int64_t now) {
  std::lock_guard<std::mutex> lock(mu_);
  std::optional<int64_t> next;
  auto consider = [&](int64_t t) {
    if (t > now && (!next || t < *next)) next = t;
  };
  for (int64_t t : busy_until_) consider(t);
  for (const Delivery& d : deliveries_) consider(d.at);
  if (std::optional<int64_t> t = next_eligible_locked()) consider(*t);
  return next;
}

void BatchScheduler::run_due(int64_t now) { pump(now); }

void BatchScheduler::pump(int64_t now) {
  std::lock_guard<std::mutex> pumping(pump_mu_);
  for (;;) {
    std::vector<Delivery> due;
    std::shared_ptr<BatchQueue> queue;
    Batch batch;
    size_t worker = 0;
    bool took = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      // Results of batches that ended by now, in the order the batches ended.
      auto split = std::stable_partition(deliveries_.begin(), deliveries_.end(),
                                         [&](const Delivery& d) { return d.at > now; });
      due.assign(std::make_move_iterator(split), std::make_move_iterator(deliveries_.end()));
      deliveries_.erase(split, deliveries_.end());
      std::sort(due.begin(), due.end(),
                [](const Delivery& a, const Delivery& b) { return a.at != b.at ? a.at < b.at : a.seq < b.seq; });
      for (Delivery& d : due) --d.queue->running;
      if (due.empty()) {
        auto idle = std::find_if(busy_until_.begin(), busy_until_.end(), [&](int64_t t) { return t <= now; });
        if (idle != busy_until_.end() && take_locked(now, queue, batch)) {
          worker = static_cast<size_t>(idle - busy_until_.begin());
          took = true;
        }
      }
    }
    if (!due.empty()) {
      for (Delivery& d : due) d.deliver();
      continue;
    }
    if (!took) return;
    BatchRun run = queue->processor()(std::move(batch), now);
    const int64_t end = now + static_cast<int64_t>(std::ceil(std::max(0.0, run.device_time_us)));
    std::lock_guard<std::mutex> lock(mu_);
    busy_until_[worker] = end;
    deliveries_.push_back({end, next_seq_++, std::move(run.deliver), queue.get()});
  }
}

void BatchScheduler::drain_virtual(BatchQueue* only) {
  std::lock_guard<std::mutex> pumping(pump_mu_);
  for (;;) {
    std::vector<Delivery> pending;
    std::shared_ptr<BatchQueue> queue;
    Batch batch;
    bool took = false;
    int64_t now;
    {
      std::lock_guard<std::mutex> lock(mu_);
      now = clock_->now_us();
      for (auto& q : queues_) {
        if (only && q.get() != only) continue;
        q->close();
        if (std::optional<Batch> b = q->take_eligible(now)) {
          queue = q;
          batch = std::move(*b);
          took = true;
          break;
        }
      }
      if (!took) {
        auto split = std::stable_partition(deliveries_.begin(), deliveries_.end(),
                                           [&](const Delivery& d) { return only && d.queue != only; });
        pending.assign(std::make_move_iterator(split), std::make_move_iterator(deliveries_.end()));
        deliveries_.erase(split, deliveries_.end());
        for (Delivery& d : pending) --d.queue->running;
      }
    }
    if (took) {
      BatchRun run = queue->processor()(std::move(batch), now);
      run.deliver();
      continue;
    }
    std::sort(pending.begin(), pending.end(),
              [](const Delivery& a, const Delivery& b) { return a.at != b.at ? a.at < b.at : a.seq < b.seq; });
    for (Delivery& d : pending) d.deliver();
    return;
  }
}

}  // namespace ag::batching
