// One BatchFunction invocation as its caller sees it: the pieces it was cut
// into (one unless large-batch splitting cut it, B24), each finished by the
// batch that ran it, and the result, returned only once every piece finished:
// the pieces' outputs concatenated in order, or the first error of any piece.
// Also the per-call record of TPU_EMULATOR.md's B46.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <vector>

#include "runtime/core/tensor.h"

namespace ag::batching {

/// What one call cost (B46). For a call cut into several pieces, times and
/// bytes add up over the batches its pieces ran in, padded_batch adds up
/// their padded sizes, and queue_wait_us is the wait of its last piece [E].
struct BatchCallRecord {
  /// T_call(P) of its batch, from the function's cost hook (0 without one).
  double device_time_us = 0;
  /// Bytes of the batch's padded inputs (and captured tensors) / outputs.
  int64_t h2d_bytes = 0;
  int64_t d2h_bytes = 0;
  /// P: the batch's row count after padding.
  int64_t padded_batch = 0;
  /// Dispatch time of its batch minus the call's arrival, on the scheduler's clock.
  int64_t queue_wait_us = 0;

  /// Combines another piece's (or call's) record into this one, as above.
  void add(const BatchCallRecord& other);
};

/// The BatchFunction calls this thread waited on since
/// reset_thread_batch_calls(): how many, and their records combined
/// (BatchCallRecord::add). What `agc serve` reports per request; fixed-size, so
/// a thread that never resets it holds no more than one record.
struct ThreadBatchCalls {
  int64_t calls = 0;
  BatchCallRecord record;
};
ThreadBatchCalls thread_batch_calls();
void reset_thread_batch_calls();
void add_thread_batch_call(const BatchCallRecord& record);

/// What a batch reports to each of its pieces.
struct PieceOutcome {
  std::vector<Tensor> outputs;  // this piece's rows of every output
  std::exception_ptr error;     // or the batch's error (B28)
  BatchCallRecord record;       // the batch's cost (finish_piece sets its queue_wait_us)
  int64_t dispatch_us = 0;      // when a worker took the batch
};

class BatchCall {
 public:
  /// A call that arrived at `arrival_us`.
  explicit BatchCall(int64_t arrival_us) : arrival_us_(arrival_us) {}

  int64_t arrival_us() const { return arrival_us_; }
  /// Set once, before any piece can run.
  void expect_pieces(size_t n);
  /// Finishes piece `index`; the last one completes the call and wakes waiters.
  void finish_piece(size_t index, PieceOutcome outcome);
  /// Completes a call that never reached a queue (an empty request, B19).
  void complete_now(std::vector<Tensor> outputs);

  bool done() const;
  /// Blocks until done; returns the outputs or throws the call's error.
  std::vector<Tensor> wait();
  /// Blocks until done or `timeout` passed; true if done.
  bool wait_for(std::chrono::milliseconds timeout);
  /// The outputs or the error of a finished call (done() must hold).
  std::vector<Tensor> result() const;
  BatchCallRecord record() const;

 private:
  void complete_locked();

  const int64_t arrival_us_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  size_t remaining_ = 0;
  std::vector<std::vector<Tensor>> piece_outputs_;
  std::exception_ptr error_;
  BatchCallRecord record_;
  std::vector<Tensor> outputs_;
  bool done_ = false;
};

}  // namespace ag::batching
