// B24: the piece sizes of a request cut by large-batch splitting, with the
// vectors of TF's input_split_metadata_test.
#include <doctest/doctest.h>

#include "runtime/batching/input_split.h"

using ag::batching::split_task_sizes;
using V = std::vector<int64_t>;

TEST_CASE("a request is cut to fill the open batch, then whole batches, then the rest") {
  CHECK(split_task_sizes(10, 3, 4) == V{3, 4, 3});
  CHECK(split_task_sizes(20, 5, 6) == V{5, 6, 6, 3});
  CHECK(split_task_sizes(30, 0, 11) == V{11, 11, 8});
  CHECK(split_task_sizes(5, 1, 1) == V{1, 1, 1, 1, 1});
  CHECK(split_task_sizes(5, 6, 8) == V{5});
}

TEST_CASE("pieces add up to the request and none exceeds the batch") {
  for (int64_t m = 1; m <= 7; ++m) {
    for (int64_t r = 0; r <= m; ++r) {
      for (int64_t s = 1; s <= 30; ++s) {
        V sizes = split_task_sizes(s, r, m);
        int64_t sum = 0;
        for (int64_t x : sizes) {
          CHECK(x > 0);
          CHECK(x <= m);
          sum += x;
        }
        CHECK(sum == s);
        if (s > r && r > 0) CHECK(sizes[0] == r);
      }
    }
  }
}
