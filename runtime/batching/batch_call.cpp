#include "runtime/batching/batch_call.h"

#include <algorithm>

#include "runtime/batching/batch_tensors.h"
#include "runtime/core/error.h"

namespace ag::batching {

void BatchCall::expect_pieces(size_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  remaining_ = n;
  piece_outputs_.assign(n, {});
}

void BatchCall::finish_piece(size_t index, PieceOutcome outcome) {
  std::lock_guard<std::mutex> lock(mu_);
  if (done_ || index >= piece_outputs_.size() || remaining_ == 0) throw InternalError("a batch piece finished twice");
  // The first error wins, as TF's ThreadSafeStatus keeps the first non-OK status.
  if (outcome.error && !error_) error_ = outcome.error;
  piece_outputs_[index] = std::move(outcome.outputs);
  outcome.record.queue_wait_us = outcome.dispatch_us - arrival_us_;
  record_.add(outcome.record);
  if (--remaining_ == 0) complete_locked();
}

void BatchCall::complete_locked() {
  if (!error_) {
    if (piece_outputs_.size() == 1) {
      outputs_ = std::move(piece_outputs_[0]);
    } else {
      // A split request's outputs: its pieces' rows in order (B24).
      try {
        for (size_t o = 0; o < piece_outputs_[0].size(); ++o) {
          std::vector<Tensor> parts;
          for (auto& p : piece_outputs_) parts.push_back(p.at(o));
          outputs_.push_back(concat_rows(parts));
        }
      } catch (...) {
        error_ = std::current_exception();
        outputs_.clear();
      }
    }
  }
  piece_outputs_.clear();
  done_ = true;
  cv_.notify_all();
}

void BatchCall::complete_now(std::vector<Tensor> outputs) {
  std::lock_guard<std::mutex> lock(mu_);
  outputs_ = std::move(outputs);
  done_ = true;
  cv_.notify_all();
}

bool BatchCall::done() const {
  std::lock_guard<std::mutex> lock(mu_);
  return done_;
}

std::vector<Tensor> BatchCall::wait() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return done_; });
  if (error_) std::rethrow_exception(error_);
  return outputs_;
}

bool BatchCall::wait_for(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return done_; });
}

std::vector<Tensor> BatchCall::result() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!done_) throw InternalError("the result of a batched call that has not finished");
  if (error_) std::rethrow_exception(error_);
  return outputs_;
}

namespace {
thread_local ThreadBatchCalls t_calls;
}  // namespace

ThreadBatchCalls thread_batch_calls() { return t_calls; }
void reset_thread_batch_calls() { t_calls = ThreadBatchCalls{}; }
void add_thread_batch_call(const BatchCallRecord& r) {
  ++t_calls.calls;
  t_calls.record.add(r);
}

void BatchCallRecord::add(const BatchCallRecord& r) {
  device_time_us += r.device_time_us;
  h2d_bytes += r.h2d_bytes;
  d2h_bytes += r.d2h_bytes;
  padded_batch += r.padded_batch;
  queue_wait_us = std::max(queue_wait_us, r.queue_wait_us);
}

BatchCallRecord BatchCall::record() const {
  std::lock_guard<std::mutex> lock(mu_);
  return record_;
}

}  // namespace ag::batching
