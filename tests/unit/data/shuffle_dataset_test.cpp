// Dataset.shuffle against TF's order: the expected sequences were computed by
// tests/e2e/reference/tf_shuffle.py, a Python rendering of TF's kernels
// (Philox4x32-10, SingleSampleAdapter, the seed generators and the shuffle
// buffer) written independently of agc's C++.
#include <doctest/doctest.h>

#include <algorithm>

#include "runtime/data/datasets.h"
#include "tests/unit/data/support.h"

using namespace ag;
using namespace ag::data;
using ag::data::test::ints;

namespace {

constexpr int64_t kDefaultGraphSeed = 87654321;  // TF's seed when only the op seed is given

}  // namespace

TEST_CASE("a reshuffling dataset draws each pass's seeds from its seed generator, in TF's order") {
  DatasetPtr s = shuffle_dataset(range_dataset(0, 10, 1, DType::Int64), 4, kDefaultGraphSeed, 7, true);
  CHECK(ints(s) == std::vector<int64_t>{0, 4, 2, 3, 5, 6, 1, 8, 7, 9});
  CHECK(ints(s) == std::vector<int64_t>{1, 3, 0, 4, 6, 5, 7, 8, 9, 2});
}

TEST_CASE("a fixed-seed shuffle repeats its order; a buffer larger than the input is fine") {
  DatasetPtr s = shuffle_dataset(range_dataset(0, 10, 1, DType::Int64), 10, kDefaultGraphSeed, 7, false);
  CHECK(ints(s) == std::vector<int64_t>{7, 2, 0, 9, 8, 4, 5, 1, 6, 3});
  CHECK(ints(s) == std::vector<int64_t>{7, 2, 0, 9, 8, 4, 5, 1, 6, 3});
  DatasetPtr big = shuffle_dataset(range_dataset(0, 6, 1, DType::Int64), 1000000, 5, 1, true);
  CHECK(ints(big) == std::vector<int64_t>{0, 3, 1, 5, 4, 2});
}

TEST_CASE("unseeded shuffles are permutations; a non-positive buffer is TF's error") {
  DatasetPtr s = shuffle_dataset(range_dataset(0, 50, 1, DType::Int64), 7, 0, 0, true);
  std::vector<int64_t> got = ints(s);
  std::sort(got.begin(), got.end());
  CHECK(got == ints(range_dataset(0, 50, 1, DType::Int64)));
  CHECK_THROWS_WITH_AS(shuffle_dataset(range_dataset(0, 3, 1, DType::Int64), 0, 1, 2, true),
                       "buffer_size must be greater than zero.", InvalidArgumentError);
}
