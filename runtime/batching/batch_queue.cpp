#include "runtime/batching/batch_queue.h"

#include <limits>

#include "runtime/batching/batch_tensors.h"
#include "runtime/batching/input_split.h"
#include "runtime/core/error.h"

namespace ag::batching {

BatchQueue::BatchQueue(QueueOptions options, BatchProcessor processor)
    : options_(std::move(options)), processor_(std::move(processor)) {
  batches_.emplace_back();
}

void BatchQueue::check_capacity(int64_t size) const {
  const QueueOptions& o = options_;
  if (size > o.input_batch_size_limit) {
    throw InvalidArgumentError("Task size " + std::to_string(size) + " is larger than maximum input batch size " +
                               std::to_string(o.input_batch_size_limit));
  }
  const int64_t n = num_enqueued_batches(), open = open_batch_size(), m = o.max_execution_batch_size;
  if (o.enable_large_batch_splitting) {
    const int64_t capacity = (o.max_enqueued_batches - n) * m + (m - open);
    if (size > capacity) {
      throw UnavailableError(
          "The batch scheduling queue to which this task was submitted is full; task size is " + std::to_string(size) +
          " but scheduling capacity is only " + std::to_string(capacity) +
          " (num_enqueued_batches=" + std::to_string(n) + ", max_enqueued_batches=" +
          std::to_string(o.max_enqueued_batches) + ", open_batch_size=" + std::to_string(open) +
          ", max_execution_batch_size=" + std::to_string(m) + ")");
    }
    return;
  }
  // TF keeps this looser check for models that relied on it: only a request
  // that overflows the open batch needs a free batch slot.
  if (open + size > o.input_batch_size_limit && n >= o.max_enqueued_batches) {
    throw UnavailableError("The batch scheduling queue to which this task was submitted is full; currently " +
                           std::to_string(n) + " batches enqueued and max_enqueued_batches is " +
                           std::to_string(o.max_enqueued_batches));
  }
}

void BatchQueue::schedule(const std::shared_ptr<BatchCall>& call, std::vector<Tensor> inputs,
                          std::vector<Tensor> captured, int64_t size, int64_t now) {
  check_capacity(size);
  const int64_t m = options_.max_execution_batch_size;
  const int64_t room = m - open_batch_size();
  std::vector<int64_t> sizes = size <= room || !options_.enable_large_batch_splitting
                                   ? std::vector<int64_t>{size}
                                   : split_task_sizes(size, room, m);
  call->expect_pieces(sizes.size());
  int64_t offset = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    BatchPiece piece;
    piece.call = call;
    piece.index = i;
    piece.size = sizes[i];
    piece.captured = captured;
    if (sizes.size() == 1) {
      piece.inputs = std::move(inputs);
    } else {
      for (const Tensor& t : inputs) piece.inputs.push_back(slice_rows(t, offset, sizes[i]));
    }
    offset += sizes[i];
    if (open_batch_size() + piece.size > m) start_new_batch();
    if (batches_.back().empty()) open_batch_start_us_ = now;
    batches_.back().size += piece.size;
    batches_.back().pieces.push_back(std::move(piece));
  }
}

bool BatchQueue::open_batch_eligible(int64_t now) const {
  const Batch& open = batches_.back();
  if (open.empty()) return false;
  return closed_ || open.size >= options_.max_execution_batch_size ||
         now >= open_batch_start_us_ + options_.batch_timeout_micros;
}

std::optional<Batch> BatchQueue::take_eligible(int64_t now) {
  if (batches_.size() == 1 && open_batch_eligible(now)) start_new_batch();
  if (batches_.size() < 2) return std::nullopt;
  Batch b = std::move(batches_.front());
  batches_.pop_front();
  return b;
}

std::optional<int64_t> BatchQueue::next_eligible_us() const {
  if (batches_.size() >= 2) return std::numeric_limits<int64_t>::min();
  const Batch& open = batches_.back();
  if (open.empty()) return std::nullopt;
  if (closed_ || open.size >= options_.max_execution_batch_size) return open_batch_start_us_;
  return open_batch_start_us_ + options_.batch_timeout_micros;
}

}  // namespace ag::batching
