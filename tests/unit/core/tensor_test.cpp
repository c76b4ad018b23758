#include <doctest/doctest.h>

#include "runtime/core/tensor.h"

using namespace ag;

TEST_CASE("scalars are stored inline and copies share buffers") {
  Tensor s = Tensor::scalar<int32_t>(7);
  CHECK(s.defined());
  CHECK(s.rank() == 0);
  CHECK(s.scalar_value<int32_t>() == 7);
  Tensor s2 = s;
  CHECK_FALSE(s.shares_storage_with(s2));  // inline: nothing to share
  CHECK(s2.scalar_value<int32_t>() == 7);

  Tensor v = Tensor::from_vector<float>({2, 2}, {1, 2, 3, 4});
  CHECK(v.owns_storage_uniquely());
  Tensor v2 = v;
  CHECK(v.shares_storage_with(v2));
  CHECK_FALSE(v.owns_storage_uniquely());
  v2 = Tensor();
  CHECK(v.owns_storage_uniquely());
  CHECK(v.data<float>()[3] == 4);
}

TEST_CASE("string tensors own their strings") {
  Tensor t = Tensor::from_vector<std::string>({3}, {"a", "bb", std::string(100, 'c')});
  Tensor c = t.clone();
  CHECK(c.data<std::string>()[2].size() == 100);
  CHECK_FALSE(c.shares_storage_with(t));
  Tensor s = Tensor::scalar<std::string>("hello");
  CHECK(s.scalar_value<std::string>() == "hello");
}

TEST_CASE("reshape keeps the elements and checks the count") {
  Tensor v = Tensor::from_vector<int64_t>({6}, {0, 1, 2, 3, 4, 5});
  Tensor r = v.reshaped({2, 3});
  CHECK(r.shape() == Shape({2, 3}));
  CHECK(r.shares_storage_with(v));
  CHECK_THROWS_AS(v.reshaped({4}), InvalidArgumentError);
  CHECK_THROWS_AS(Tensor::from_vector<int32_t>({2}, {1, 2, 3}), InvalidArgumentError);
  CHECK_THROWS_AS(Tensor(DType::Float32, Shape{kUnknownDim}), InvalidArgumentError);
}

TEST_CASE("zero-size tensors and zeros") {
  Tensor e(DType::Float32, Shape{0, 3});
  CHECK(e.num_elements() == 0);
  Tensor z = Tensor::zeros(DType::Int64, {3});
  CHECK(z.data<int64_t>()[2] == 0);
  Tensor b = Tensor::zeros(DType::Bool, {2});
  CHECK(b.data<bool>()[0] == false);
}

TEST_CASE("tensors keep scalars inline and shapes of rank past the inline dims intact") {
  // A Tensor is copied on every call: it stays one cache line on 64-bit ABIs.
  static_assert(sizeof(void*) != 8 || sizeof(Tensor) <= 72);
  Tensor s = Tensor::scalar<double>(2.5);
  CHECK(s.owns_storage_uniquely());
  CHECK(s.dtype() == DType::Float64);  // the dtype shares the Shape's padding
  Tensor s2;
  s2 = s;
  CHECK(s2.dtype() == DType::Float64);
  CHECK(s2.defined());
  CHECK(s2.scalar_value<double>() == 2.5);

  Tensor v5 = Tensor::zeros(DType::Int32, Shape{1, 2, 1, 2, 3});
  Tensor v8 = Tensor::zeros(DType::Int8, Shape{1, 1, 1, 1, 1, 1, 2, 2});
  Tensor four = Tensor::zeros(DType::Bool, Shape{2, 2, 1, 1});
  for (const Tensor* src : {&v5, &v8, &four, &s}) {
    Tensor copy = *src;
    CHECK(copy.shape() == src->shape());
    CHECK(copy.dtype() == src->dtype());
    Tensor target = v8;
    target = *src;
    CHECK(target.shape() == src->shape());
    CHECK(target.dtype() == src->dtype());
    CHECK(target.num_elements() == src->num_elements());
    Tensor moved = std::move(copy);
    CHECK(moved.shape() == src->shape());
    CHECK(moved.dtype() == src->dtype());
    Tensor target2 = s;
    target2 = std::move(moved);
    CHECK(target2.shape() == src->shape());
    CHECK(target2.dtype() == src->dtype());
    Tensor a = *src, b = four;
    swap(a, b);
    CHECK(a.shape() == four.shape());
    CHECK(a.dtype() == DType::Bool);
    CHECK(b.shape() == src->shape());
    CHECK(b.dtype() == src->dtype());
  }
  Tensor r = v5.reshaped({3, 2, 2, 1, 1, 1});
  CHECK(r.rank() == 6);
  CHECK(r.shares_storage_with(v5));
  CHECK(r.clone().shape() == r.shape());
}

TEST_CASE("buffer_stats counts the tensor storage held, and its peak since a reset") {
  reset_buffer_peak();
  const BufferStats start = buffer_stats();
  CHECK(start.peak == start.current);
  {
    Tensor a(DType::Float32, Shape{1000});
    Tensor b(DType::Float64, Shape{500});
    const BufferStats held = buffer_stats();
    // At least the elements, plus a header and alignment each.
    CHECK(held.current - start.current >= 8000);
    CHECK(held.current - start.current < 8000 + 2 * 256);
    CHECK(held.peak == held.current);
    Tensor shared = a;  // a second reference allocates nothing
    CHECK(buffer_stats().current == held.current);
  }
  const BufferStats after = buffer_stats();
  CHECK(after.current == start.current);
  CHECK(after.peak - start.current >= 8000);
  reset_buffer_peak();
  CHECK(buffer_stats().peak == start.current);
}
