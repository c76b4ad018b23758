// The API around a generated library's header (runtime/api/embedding.h):
// views of an app's buffers, spans over results, every failure an ag::Error.
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "runtime/api/embedding.h"
#include "tests/unit/error_text.h"

using namespace ag;
using ag::test::error_text;

TEST_CASE("a TensorView of a span must hold as many elements as its shape") {
  std::vector<float> six(6, 1.0f);
  TensorView<float> v(six, {2, 3});
  CHECK(v.data() == six.data());
  BorrowedTensor b = borrow(v);
  CHECK(b.tensor().dtype() == DType::Float32);
  CHECK(b.tensor().data<float>() == six.data());
  CHECK(error_text([&] { TensorView<float> w(six, {4, 2}); }) ==
        "InvalidArgumentError: Expected 8 values for shape [4,2], got 6");
  CHECK(error_text([&] { TensorView<float> w(six, Shape({-1, 2})); }) ==
        "InvalidArgumentError: Expected ? values for shape [?,2], got 6");
}

TEST_CASE("elements reads a result's tensor, its dtype checked") {
  Value v = Tensor::from_vector<int32_t>({3}, {4, 5, 6});
  std::span<const int32_t> e = elements<int32_t>(v);
  CHECK(e.size() == 3);
  CHECK(e[2] == 6);
  CHECK(error_text([&] { (void)elements<float>(v); }) == "InvalidArgumentError: float32 expected, got int32");
  CHECK(error_text([] { (void)elements<float>(Value::tuple({1, 2})); }) ==
        "TypeError: Expected an eager tensor, got tuple");
  CHECK(error_text([] { (void)tensor_of(Value()); }) == "TypeError: Expected an eager tensor, got NoneType");
}

TEST_CASE("library_call lets only ag::Errors out") {
  CHECK(library_call([] { return 3; }) == 3);
  CHECK(error_text([] { library_call([]() -> int { throw ValueError("v"); }); }) == "ValueError: v");
  CHECK(error_text([] { library_call([] { throw std::bad_alloc(); }); }) == "MemoryError: ");
  CHECK(error_text([] { library_call([] { (void)std::vector<int>().at(3); }); }).rfind(
            "SystemError: internal error in the agc runtime: ", 0) == 0);
}
