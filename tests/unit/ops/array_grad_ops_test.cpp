// Sweep cases for the array ops that gradients apply (slice_ops.cpp,
// gather_ops.cpp): Slice, StridedSliceGrad and ScatterNd against naive loops;
// their error texts. (UnsortedSegmentSum: segment_ops_test.cpp.)
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("Slice", "StridedSliceGrad", "ScatterNd");

namespace {

Tensor slice_ints(std::vector<int32_t> v) { return Tensor::from_vector(Shape{static_cast<int64_t>(v.size())}, v); }
Tensor slice_ints(std::vector<int32_t> v, Shape s) { return Tensor::from_vector(s, v); }
Tensor slice_doubles(std::vector<double> v, Shape s) { return Tensor::from_vector(s, v); }

}  // namespace

TEST_CASE("Slice takes begin and size per dim, -1 to the end") {
  for (DType dt : {DType::Float32, DType::Float64, DType::Int32, DType::Int64, DType::BFloat16, DType::UInt8}) {
    for (int trial = 0; trial < 20; ++trial) {
      Shape s = sweep::random_shape(4, 5, false);
      if (s.rank() == 0) s = Shape{3};
      Tensor in = sweep::random_tensor(dt, s);
      std::vector<int32_t> begin, size;
      Shape out_shape;
      for (int d = 0; d < s.rank(); ++d) {
        int64_t b = rnd(0, s.dim(d));
        bool rest = rnd(0, 3) == 0;
        int64_t n = rest ? s.dim(d) - b : rnd(0, s.dim(d) - b);
        begin.push_back(static_cast<int32_t>(b));
        size.push_back(rest ? -1 : static_cast<int32_t>(n));
        out_shape.push_back(n);
      }
      Tensor want(dt, out_shape);
      std::vector<int64_t> idx(static_cast<size_t>(s.rank()));
      for (int64_t i = 0; i < want.num_elements(); ++i) {
        int64_t rem = i, src = 0, stride = 1;
        for (int d = s.rank() - 1; d >= 0; --d) {
          int64_t k = rem % out_shape.dim(d);
          rem /= out_shape.dim(d);
          src += (k + begin[static_cast<size_t>(d)]) * stride;
          stride *= s.dim(d);
        }
        put(want, i, sweep::element(in, src));
      }
      sweep::expect_close(run1("Slice", {in, slice_ints(begin), slice_ints(size)}), want, "Slice " + s.str());
    }
  }
  Tensor x = sweep::random_tensor(DType::Float32, Shape{3, 4});
  CHECK(error_of("Slice", {x, slice_ints({1}), slice_ints({1})}) ==
        "Expected begin and size arguments to be 1-D tensors of size 2, but got shapes [1] and [1] instead.");
  CHECK(error_of("Slice", {x, slice_ints({4, 0}), slice_ints({0, 1})}) == "Expected begin[0] in [0, 3], but got 4");
  CHECK(error_of("Slice", {x, slice_ints({1, 1}), slice_ints({1, 4})}) == "Expected size[1] in [0, 3], but got 4");
  // The shape rule knows the output shape from constant begin and size.
  CHECK(run1("Slice", {x, slice_ints({1, 1}), slice_ints({-1, 2})}).shape().str() == "(2, 2)");
}

TEST_CASE("StridedSliceGrad writes dy where StridedSlice reads, zeros elsewhere") {
  // x[1::2, ::-1] of a [4, 3]: rows 1 and 3, columns reversed.
  Attrs masks{{"begin_mask", int64_t{2}}, {"end_mask", int64_t{3}}};
  Tensor dy = slice_doubles({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  Tensor got = run1("StridedSliceGrad", {slice_ints({4, 3}), slice_ints({1, 0}), slice_ints({0, 0}), slice_ints({2, -1}), dy}, masks);
  sweep::expect_close(got, slice_doubles({0, 0, 0, 3, 2, 1, 0, 0, 0, 6, 5, 4}, Shape{4, 3}), "StridedSliceGrad");
  // Round trip: StridedSlice of the result gives dy back, on random subscripts of a [4, 5].
  Tensor x = sweep::random_tensor(DType::Float64, Shape{4, 5});
  Attrs shrink{{"shrink_axis_mask", int64_t{1}}, {"end_mask", int64_t{2}}, {"new_axis_mask", int64_t{4}}};
  Tensor sliced = run1("StridedSlice", {x, slice_ints({2, 0, 0}), slice_ints({3, 0, 0}), slice_ints({1, 1, 1})}, shrink);
  CHECK(sliced.shape().str() == "(5, 1)");
  Tensor back = run1("StridedSliceGrad", {slice_ints({4, 5}), slice_ints({2, 0, 0}), slice_ints({3, 0, 0}), slice_ints({1, 1, 1}), sliced}, shrink);
  for (int64_t i = 0; i < 20; ++i) CHECK(sweep::element(back, i) == (i / 5 == 2 ? sweep::element(x, i) : 0.0));
  CHECK(error_of("StridedSliceGrad", {slice_ints({4, 3}), slice_ints({1, 0}), slice_ints({0, 0}), slice_ints({2, -1}), slice_doubles({1, 2}, Shape{2})},
                 masks) == "shape of dy was [2] instead of [2,3]");
}

TEST_CASE("ScatterNd sums updates into zeros at index tuples") {
  Tensor updates = slice_doubles({1, 2, 3, 4, 5, 6}, Shape{3, 2});
  Tensor got = run1("ScatterNd", {slice_ints({1, 3, 1}, Shape{3, 1}), updates, slice_ints({4, 2})});
  sweep::expect_close(got, slice_doubles({0, 0, 6, 8, 0, 0, 3, 4}, Shape{4, 2}), "ScatterNd rows");
  Tensor elems = run1("ScatterNd", {slice_ints({0, 1, 2, 0}, Shape{2, 2}), slice_doubles({7, 9}, Shape{2}), slice_ints({3, 2})});
  sweep::expect_close(elems, slice_doubles({0, 7, 0, 0, 9, 0}, Shape{3, 2}), "ScatterNd elements");
  CHECK(error_of("ScatterNd", {slice_ints({1, 4, 1}, Shape{3, 1}), updates, slice_ints({4, 2})}) ==
        "indices[1] = [4] does not index into shape [4,2]");
}
