// How a request larger than the open batch's room is cut (TF's
// InputSplitMetadata, B24): the first piece fills the open batch, the middle
// ones are full execution batches, the last takes the rest.
#pragma once

#include <cstdint>
#include <vector>

namespace ag::batching {

/// The piece sizes of a request of `task_size` rows when the open batch has
/// `open_batch_remaining_slot` free rows and a batch holds at most
/// `max_execution_batch_size`: (10, 3, 4) -> [3, 4, 3]; (30, 0, 11) -> [11, 11, 8].
std::vector<int64_t> split_task_sizes(int64_t task_size, int64_t open_batch_remaining_slot,
                                      int64_t max_execution_batch_size);

}  // namespace ag::batching
