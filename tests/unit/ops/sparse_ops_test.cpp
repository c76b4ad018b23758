// Sweep cases for sparse_ops.cpp: each op against a hand-computed result on
// a small sparse tensor, and TF's index-validation texts.
#include <doctest/doctest.h>

#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("SparseToDense", "SparseTensorDenseMatMul", "SparseReorder", "SparseAdd", "SparseTensorDenseAdd",
                "SparseReduceSum");

namespace {

Tensor ix(std::vector<int64_t> v) { return Tensor::from_vector<int64_t>({static_cast<int64_t>(v.size() / 2), 2}, v); }
Tensor i64(std::vector<int64_t> v) { return Tensor::from_vector<int64_t>({static_cast<int64_t>(v.size())}, v); }
Tensor f32(std::vector<float> v, Shape s) { return Tensor::from_vector<float>(s, v); }
std::vector<float> floats(const Tensor& t) { return {t.data<float>(), t.data<float>() + t.num_elements()}; }

}  // namespace

TEST_CASE("SparseToDense scatters values over the default and validates indices") {
  Tensor d = run1("SparseToDense", {ix({0, 1, 1, 0}), i64({2, 3}), f32({5, 6}, Shape{2}), Tensor::scalar<float>(-1)});
  CHECK(floats(d) == std::vector<float>{-1, 5, -1, 6, -1, -1});
  CHECK(error_of("SparseToDense", {ix({0, 2, 0, 1}), i64({2, 3}), f32({5, 6}, Shape{2}), Tensor::scalar<float>(0)}) ==
        "indices[1] = [0,1] is out of order. Many sparse ops require sorted indices.\n"
        "    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n");
  CHECK(error_of("SparseToDense", {ix({0, 1, 0, 1}), i64({2, 3}), f32({5, 6}, Shape{2}), Tensor::scalar<float>(0)}) ==
        "indices[1] = [0,1] is repeated");
  CHECK(error_of("SparseToDense", {ix({0, 1, 2, 0}), i64({2, 3}), f32({5, 6}, Shape{2}), Tensor::scalar<float>(0)}) ==
        "indices[1] = [2,0] is out of bounds: need 0 <= index < [2,3]");
}

TEST_CASE("SparseTensorDenseMatMul with and without adjoints") {
  Tensor a_ix = ix({0, 1, 1, 0}), a_v = f32({2, 3}, Shape{2}), a_s = i64({2, 2});
  Tensor b = f32({1, 2, 3, 4}, Shape{2, 2});
  CHECK(floats(run1("SparseTensorDenseMatMul", {a_ix, a_v, a_s, b})) == std::vector<float>{6, 8, 3, 6});
  CHECK(floats(run1("SparseTensorDenseMatMul", {a_ix, a_v, a_s, b}, Attrs{{"adjoint_a", true}})) ==
        std::vector<float>{9, 12, 2, 4});
  CHECK(floats(run1("SparseTensorDenseMatMul", {a_ix, a_v, a_s, b}, Attrs{{"adjoint_b", true}})) ==
        std::vector<float>{4, 8, 3, 9});
}

TEST_CASE("SparseReorder, SparseAdd, SparseTensorDenseAdd and SparseReduceSum") {
  auto r = runv("SparseReorder", {ix({1, 0, 0, 1}), f32({1, 2}, Shape{2}), i64({2, 2})});
  CHECK(std::vector<int64_t>(r[0].data<int64_t>(), r[0].data<int64_t>() + 4) == std::vector<int64_t>{0, 1, 1, 0});
  CHECK(floats(r[1]) == std::vector<float>{2, 1});
  auto s = runv("SparseAdd", {ix({0, 0, 1, 1}), f32({1, 2}, Shape{2}), i64({2, 2}), ix({0, 0, 0, 1}),
                              f32({-1, 4}, Shape{2}), i64({2, 2}), Tensor::scalar<float>(0.5f)});
  // [0,0]: 1 + -1 = 0 is below the threshold and dropped.
  CHECK(floats(s[1]) == std::vector<float>{4, 2});
  Tensor d = run1("SparseTensorDenseAdd", {ix({0, 1}), f32({5}, Shape{1}), i64({2, 2}), f32({1, 1, 1, 1}, Shape{2, 2})});
  CHECK(floats(d) == std::vector<float>{1, 6, 1, 1});
  Tensor sum = run1("SparseReduceSum", {ix({0, 0, 1, 1, 1, 0}), f32({1, 2, 3}, Shape{3}), i64({2, 2}), int32s({0})});
  CHECK(floats(sum) == std::vector<float>{4, 2});
}
