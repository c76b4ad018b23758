// BatchFunction's attributes and the queue options derived from them, with
// TensorFlow's two validation points: the op's construction (allowed sizes,
// batch_kernels.cc, B16) and the queue's creation at first execution
// (SharedBatchScheduler::AddQueue, B17). Texts are TF's, word for word.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/dtype.h"

namespace ag::batching {

/// The attributes of one BatchFunction op (tf.raw_ops.BatchFunction).
struct BatchFunctionOptions {
  /// Workers of the op's scheduler; <= 0 selects TF's adaptive scheduler,
  /// which the emulator runs as one FIFO worker (B17 [E]).
  int num_batch_threads = 1;
  /// L: the largest request ("input_batch_size_limit").
  int64_t max_batch_size = 1;
  int64_t batch_timeout_micros = 0;
  int64_t max_enqueued_batches = 10;
  std::vector<int64_t> allowed_batch_sizes;
  bool enable_large_batch_splitting = false;
  /// The op's input edges as TF prints them ("x", "producer:1"), for B18's
  /// listing; input i is named "in_tensors_i" when this is shorter.
  std::vector<std::string> input_names;
  /// Which inputs are resource handles (B18: refused at first execution).
  std::vector<bool> input_is_resource;
  /// Tout: the dtype of every output (an empty request returns one [0]-shaped
  /// tensor per output, B19).
  std::vector<DType> output_dtypes;
};

/// Throws InvalidArgumentError unless allowed_batch_sizes increases strictly
/// and, with splitting off, ends at max_batch_size (B16).
void validate_allowed_batch_sizes(const BatchFunctionOptions& o);

/// What a queue of the shared batch scheduler is created with.
struct QueueOptions {
  int64_t input_batch_size_limit = 0;      // L
  int64_t max_execution_batch_size = 0;    // M
  int64_t batch_timeout_micros = 0;
  int64_t max_enqueued_batches = 0;
  std::vector<int64_t> allowed_batch_sizes;
  bool enable_large_batch_splitting = false;
};

/// The queue options BatchResource derives: M is the last allowed size when
/// splitting is on and the list is non-empty, else L; with splitting off a
/// max_enqueued_batches of 0 is rewritten to 1, as TF keeps old models running.
QueueOptions queue_options_for(const BatchFunctionOptions& o);

/// Throws InvalidArgumentError for the options AddQueue refuses (B17).
void validate_queue_options(const QueueOptions& q);

/// The smallest allowed size >= `batch_size`; `batch_size` itself when the
/// list is empty or every allowed size is smaller (TF logs that case, B25).
int64_t padded_batch_size(int64_t batch_size, const std::vector<int64_t>& allowed_batch_sizes);

}  // namespace ag::batching
