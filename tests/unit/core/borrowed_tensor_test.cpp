// Tensors over an app's elements for the length of a call: no copy while
// borrowed, nothing written into them, and nothing left pointing into them
// after the borrow ends.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/core/borrowed_tensor.h"
#include "tests/unit/error_text.h"

using namespace ag;
using ag::test::error_text;

TEST_CASE("a borrowed tensor reads the caller's elements in place") {
  std::vector<float> mine = {1, 2, 3, 4, 5, 6};
  BorrowedTensor b(DType::Float32, {2, 3}, mine.data());
  CHECK(b.tensor().data<float>() == mine.data());
  CHECK(b.tensor().shape() == Shape({2, 3}));
  CHECK(b.tensor().span<float>()[5] == 6);
  // Never written in place: a kernel's output gets storage of its own.
  CHECK_FALSE(b.tensor().owns_storage_uniquely());
}

TEST_CASE("a tensor still sharing the elements when the borrow ends gets its own copy") {
  std::vector<float> mine = {1, 2, 3};
  Tensor kept, dropped;
  BufferStats before = buffer_stats();
  {
    BorrowedTensor b(DType::Float32, {3}, mine.data());
    kept = b.tensor();
    CHECK(kept.data<float>() == mine.data());
    CHECK(buffer_stats().current == before.current);  // borrowed: nothing allocated
  }
  CHECK(kept.data<float>() != mine.data());
  mine.assign({7, 7, 7});
  CHECK(kept.span<float>()[0] == 1);
  CHECK(kept.span<float>()[2] == 3);
  // Now an ordinary tensor: it may be written in place when alone.
  CHECK(kept.owns_storage_uniquely());
  CHECK(buffer_stats().current > before.current);
  kept = Tensor();
  CHECK(buffer_stats().current == before.current);
  {
    // Nothing kept: nothing copied.
    BorrowedTensor b(DType::Float32, {3}, mine.data());
    dropped = b.tensor();
    dropped = Tensor();
  }
  CHECK(buffer_stats().current == before.current);
}

TEST_CASE("strings are borrowed and copied as objects") {
  std::vector<std::string> mine = {"a", std::string(100, 'b')};
  Tensor kept;
  {
    BorrowedTensor b(DType::String, {2}, mine.data());
    kept = b.tensor();
  }
  mine[1] = "changed";
  CHECK(kept.span<std::string>()[1] == std::string(100, 'b'));
}

TEST_CASE("scalars and empty tensors are copied, and bad shapes are errors") {
  int32_t one = 5;
  Tensor s;
  {
    BorrowedTensor b(DType::Int32, {}, &one);
    s = b.tensor();
  }
  one = 6;
  CHECK(s.scalar_value<int32_t>() == 5);
  BorrowedTensor empty(DType::Float32, {0, 3}, nullptr);
  CHECK(empty.tensor().num_elements() == 0);
  CHECK(error_text([] { BorrowedTensor b(DType::Float32, Shape({-1, 3}), nullptr); }) ==
        "InvalidArgumentError: Cannot create a tensor of shape [?,3]: every dimension must be known");
  CHECK(error_text([] { BorrowedTensor b(DType::Float32, {2}, nullptr); }) ==
        "InvalidArgumentError: Null data for the 2 elements of a tensor of shape [2]");
}

TEST_CASE("span checks the element type") {
  Tensor t = Tensor::from_vector<int32_t>({2}, {1, 2});
  CHECK(t.span<int32_t>().size() == 2);
  CHECK(error_text([&] { (void)t.span<float>(); }) == "InvalidArgumentError: float32 expected, got int32");
}
