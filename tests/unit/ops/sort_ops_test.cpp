// Sweep cases for sort_ops.cpp: TopKV2 against a stable sort (ties to the
// lower index), Unique against first appearances, LowerBound and UpperBound
// against counting; their error texts.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("TopKV2", "Unique", "LowerBound", "UpperBound");

TEST_CASE("TopKV2 gives each row's k largest, ties to the lower index") {
  for (DType dt : {DType::Float32, DType::Float64, DType::Int32, DType::BFloat16}) {
    for (int trial = 0; trial < 16; ++trial) {
      Shape s = sweep::random_shape(3, 5, false);
      if (s.rank() == 0) s = Shape{4};
      // Small integers: many ties.
      Tensor x = sweep::random_tensor(dt, s, -3, 3);
      if (is_floating(dt)) {
        for (int64_t i = 0; i < x.num_elements(); ++i) put(x, i, std::round(sweep::element(x, i)));
      }
      const int64_t cols = s.dim(s.rank() - 1), k = rnd(0, cols);
      std::vector<Tensor> out = runv("TopKV2", {x, Tensor::scalar(int32_t(k))}, Attrs{{"sorted", true}});
      const int64_t rows = x.num_elements() / cols;
      for (int64_t r = 0; r < rows; ++r) {
        std::vector<int64_t> order(static_cast<size_t>(cols));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          return sweep::element(x, r * cols + a) > sweep::element(x, r * cols + b);
        });
        for (int64_t j = 0; j < k; ++j) {
          INFO(dtype_name(dt) << " " << s.str() << " k=" << k << " row " << r << " place " << j);
          CHECK(out[1].data<int32_t>()[r * k + j] == order[static_cast<size_t>(j)]);
          CHECK(sweep::element(out[0], r * k + j) == sweep::element(x, r * cols + order[static_cast<size_t>(j)]));
        }
      }
    }
  }
  Tensor x = Tensor::from_vector<float>(Shape{3}, {1, 2, 3});
  CHECK(error_of("TopKV2", {x, Tensor::scalar(int32_t{4})}) == "input must have at least k columns. Had 3, needed 4");
  CHECK(error_of("TopKV2", {x, Tensor::scalar(int32_t{-1})}) == "Need k >= 0, got -1");
  std::vector<Tensor> i64 = runv("TopKV2", {x, Tensor::scalar(int32_t{2})}, Attrs{{"index_type", DType::Int64}});
  CHECK(i64[1].dtype() == DType::Int64);
  CHECK(i64[1].data<int64_t>()[0] == 2);
}

TEST_CASE("Unique keeps first appearances in order and maps each element to its value's place") {
  for (DType dt : {DType::Float32, DType::Int32, DType::String}) {
    for (int trial = 0; trial < 12; ++trial) {
      Tensor x = sweep::random_tensor(dt, Shape{rnd(0, 9)}, -3, 3);
      std::vector<Tensor> out = runv("Unique", {x});
      std::vector<int64_t> firsts;
      for (int64_t i = 0; i < x.num_elements(); ++i) {
        auto same = [&](int64_t j) {
          return dt == DType::String ? x.data<std::string>()[i] == x.data<std::string>()[j]
                                     : sweep::element(x, i) == sweep::element(x, j);
        };
        auto it = std::find_if(firsts.begin(), firsts.end(), same);
        const int64_t place = it - firsts.begin();
        if (it == firsts.end()) firsts.push_back(i);
        CHECK(out[1].data<int32_t>()[i] == place);
      }
      REQUIRE(out[0].num_elements() == static_cast<int64_t>(firsts.size()));
      for (size_t j = 0; j < firsts.size(); ++j) {
        if (dt == DType::String) CHECK(out[0].data<std::string>()[j] == x.data<std::string>()[firsts[j]]);
        else CHECK(sweep::element(out[0], static_cast<int64_t>(j)) == sweep::element(x, firsts[j]));
      }
    }
  }
  CHECK(error_of("Unique", {Tensor::zeros(DType::Float32, Shape{2, 2})}) == "unique expects a 1D vector.");
}

TEST_CASE("LowerBound and UpperBound count the row's elements below (or not above) each value") {
  for (DType dt : {DType::Float32, DType::Int32, DType::Float64}) {
    for (int trial = 0; trial < 12; ++trial) {
      const int64_t batch = rnd(1, 3), n = rnd(0, 6), m = rnd(0, 4);
      Tensor sorted = sweep::random_tensor(dt, Shape{batch, n}, -3, 3);
      for (int64_t b = 0; b < batch; ++b) {
        std::vector<double> row;
        for (int64_t j = 0; j < n; ++j) row.push_back(std::round(sweep::element(sorted, b * n + j)));
        std::sort(row.begin(), row.end());
        for (int64_t j = 0; j < n; ++j) put(sorted, b * n + j, row[static_cast<size_t>(j)]);
      }
      Tensor values = sweep::random_tensor(dt, Shape{batch, m}, -4, 4);
      for (int64_t i = 0; i < values.num_elements(); ++i) put(values, i, std::round(sweep::element(values, i)));
      Tensor lower = run1("LowerBound", {sorted, values});
      Tensor upper = run1("UpperBound", {sorted, values}, Attrs{{"out_type", DType::Int64}});
      for (int64_t b = 0; b < batch; ++b) {
        for (int64_t j = 0; j < m; ++j) {
          const double v = sweep::element(values, b * m + j);
          int64_t below = 0, not_above = 0;
          for (int64_t q = 0; q < n; ++q) {
            below += sweep::element(sorted, b * n + q) < v;
            not_above += sweep::element(sorted, b * n + q) <= v;
          }
          CHECK(lower.data<int32_t>()[b * m + j] == below);
          CHECK(upper.data<int64_t>()[b * m + j] == not_above);
        }
      }
    }
  }
  Tensor s = Tensor::zeros(DType::Float32, Shape{2, 3});
  CHECK(error_of("LowerBound", {s, Tensor::zeros(DType::Float32, Shape{3, 1})}) ==
        "Leading dim_size of both tensors must match.");
  CHECK(error_of("UpperBound", {Tensor::zeros(DType::Float32, Shape{3}), Tensor::zeros(DType::Float32, Shape{3})}) ==
        "sorted input argument must be a matrix");
}
