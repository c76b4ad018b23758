#include "runtime/batching/input_split.h"

#include <algorithm>

namespace ag::batching {

std::vector<int64_t> split_task_sizes(int64_t task_size, int64_t open_batch_remaining_slot,
                                      int64_t max_execution_batch_size) {
  const int64_t s = task_size, r = open_batch_remaining_slot, m = max_execution_batch_size;
  if (s <= r) return {s};
  // Counting the open batch's used rows as if they were part of this request
  // (t = s + used) makes every piece but the first a whole batch but the tail.
  const int64_t t = r == 0 ? s : s + m - r;
  const int64_t n = (t + m - 1) / m;
  std::vector<int64_t> sizes;
  sizes.reserve(static_cast<size_t>(n));
  sizes.push_back(r == 0 ? std::min(s, m) : std::min(r, s));
  for (int64_t i = 1; i + 1 < n; ++i) sizes.push_back(m);
  if (n >= 2) sizes.push_back(t % m == 0 ? m : t % m);
  return sizes;
}

}  // namespace ag::batching
