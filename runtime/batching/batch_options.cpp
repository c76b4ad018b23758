#include "runtime/batching/batch_options.h"

#include "runtime/core/error.h"

namespace ag::batching {

void validate_allowed_batch_sizes(const BatchFunctionOptions& o) {
  const auto& sizes = o.allowed_batch_sizes;
  int64_t last = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i > 0 && sizes[i] <= last) {
      throw InvalidArgumentError("allowed_batch_sizes entries must be monotonically increasing");
    }
    if (!o.enable_large_batch_splitting && i + 1 == sizes.size() && sizes[i] != o.max_batch_size) {
      throw InvalidArgumentError(
          "final entry in allowed_batch_sizes must equal max_batch_size when enable_large_batch_splitting is False");
    }
    last = sizes[i];
  }
}

QueueOptions queue_options_for(const BatchFunctionOptions& o) {
  QueueOptions q;
  q.input_batch_size_limit = o.max_batch_size;
  q.batch_timeout_micros = o.batch_timeout_micros;
  q.max_enqueued_batches = o.max_enqueued_batches;
  q.enable_large_batch_splitting = o.enable_large_batch_splitting;
  q.allowed_batch_sizes = o.allowed_batch_sizes;
  q.max_execution_batch_size = o.enable_large_batch_splitting && !o.allowed_batch_sizes.empty()
                                   ? o.allowed_batch_sizes.back()
                                   : o.max_batch_size;
  if (!q.enable_large_batch_splitting && q.max_enqueued_batches == 0) q.max_enqueued_batches = 1;
  return q;
}

void validate_queue_options(const QueueOptions& q) {
  // TF tests these for 0 (the attributes are int32; negative sizes are not
  // caught here in TF either, and fail later as task-size errors).
  if (q.input_batch_size_limit == 0) {
    throw InvalidArgumentError("input_batch_size_limit must be positive; was 0");
  }
  if (q.batch_timeout_micros < 0) {
    throw InvalidArgumentError("batch_timeout_micros must be non-negative; was " +
                               std::to_string(q.batch_timeout_micros));
  }
  if (q.max_enqueued_batches == 0) {
    throw InvalidArgumentError("max_enqueued_batches must be positive; was 0");
  }
  if (q.enable_large_batch_splitting && q.input_batch_size_limit < q.max_execution_batch_size) {
    // TF appends its three arguments without separators (StrCat of a bool and two ints).
    throw InvalidArgumentError(
        "When enable_large_batch_splitting is true, input_batch_size_limit must be greater than or equal to "
        "max_execution_batch_size.1" +
        std::to_string(q.input_batch_size_limit) + std::to_string(q.max_execution_batch_size));
  }
}

int64_t padded_batch_size(int64_t batch_size, const std::vector<int64_t>& allowed_batch_sizes) {
  for (int64_t s : allowed_batch_sizes) {
    if (s >= batch_size) return s;
  }
  return batch_size;
}

}  // namespace ag::batching
