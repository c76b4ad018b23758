// Sweep cases for segment_ops.cpp: the sorted and unsorted segment
// reductions and DenseBincount against naive loops over random data and ids
// (empty segments, negative ids, rank-2 ids included); their error texts.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin", "SegmentProd");
AG_SWEEP_COVERS("UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd");
AG_SWEEP_COVERS("DenseBincount");

namespace {

/// The reduction `op` names ("SegmentMax" -> "Max") over the values of one
/// segment; `empty` when it has none.
double combine_segment(const std::string& op, const std::vector<double>& v, double empty, bool integer) {
  if (v.empty()) return empty;
  if (op.ends_with("Sum")) return std::accumulate(v.begin(), v.end(), 0.0);
  if (op.ends_with("Prod")) return std::accumulate(v.begin(), v.end(), 1.0, std::multiplies<>());
  if (op.ends_with("Max")) return *std::max_element(v.begin(), v.end());
  if (op.ends_with("Min")) return *std::min_element(v.begin(), v.end());
  double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  return integer ? std::trunc(mean) : mean;
}

/// The naive segment reduction of `data` (one row per id along its first
/// dim) into `rows` rows; negative ids are dropped. An empty segment gives 0
/// (1 for Prod), or unsorted the type's lowest (Max) or highest (Min) value.
Tensor segment_reference(const std::string& op, const Tensor& data, const std::vector<int64_t>& ids, int64_t rows, bool sorted) {
  Shape out_shape{rows};
  int64_t inner = 1;
  for (int d = 1; d < data.rank(); ++d) {
    out_shape.push_back(data.shape().dim(d));
    inner *= data.shape().dim(d);
  }
  double empty = op.ends_with("Prod") ? 1 : 0;
  if (!sorted && (op.ends_with("Max") || op.ends_with("Min"))) {
    dispatch_dtype(data.dtype(), [&]<class T>() {
      if constexpr (std::is_arithmetic_v<T>) {
        empty = static_cast<double>(op.ends_with("Max") ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max());
      }
    });
  }
  Tensor out(data.dtype(), out_shape);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t q = 0; q < inner; ++q) {
      std::vector<double> vals;
      for (size_t j = 0; j < ids.size(); ++j) {
        if (ids[j] == r) vals.push_back(sweep::element(data, static_cast<int64_t>(j) * inner + q));
      }
      put(out, r * inner + q, combine_segment(op, vals, empty, is_integer(data.dtype())));
    }
  }
  return out;
}

Tensor segment_ids(const std::vector<int64_t>& ids, Shape s) {
  std::vector<int32_t> v(ids.begin(), ids.end());
  return Tensor::from_vector(s, v);
}

}  // namespace

TEST_CASE("the sorted segment reductions match a naive loop, an absent id giving 0 (1 for Prod)") {
  for (const char* op : {"SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin", "SegmentProd"}) {
    for (DType dt : {DType::Float32, DType::Float64, DType::Int32}) {
      for (int trial = 0; trial < 12; ++trial) {
        const int64_t n = rnd(0, 6);
        Shape s{n};
        for (int d = 0, r = static_cast<int>(rnd(0, 2)); d < r; ++d) s.push_back(rnd(1, 3));
        Tensor data = sweep::random_tensor(dt, s, -3, 3);
        std::vector<int64_t> ids;
        int64_t id = rnd(0, 2);
        for (int64_t j = 0; j < n; ++j) {
          ids.push_back(id);
          id += rnd(0, 2);  // repeats and gaps
        }
        const int64_t rows = n > 0 ? ids.back() + 1 : 0;
        Tensor got = run1(op, {data, segment_ids(ids, Shape{n})});
        std::string what = std::string(op) + " " + dtype_name(dt) + " " + s.str();
        sweep::expect_close(got, segment_reference(op, data, ids, rows, true), what, 1e-5, 1e-5);
      }
    }
  }
  Tensor data = float64s({1, 2, 3, 4, 5, 6}, Shape{3, 2});
  CHECK(error_of("SegmentSum", {data, int32s({0, 2, 1})}) == "segment ids are not increasing");
  CHECK(error_of("SegmentSum", {data, int32s({-1, 0, 1})}) == "segment ids must be >= 0");
  CHECK(error_of("SegmentSum", {data, int32s({0, 1})}) == "segment_ids should be the same size as dimension 0 of input.");
  CHECK(error_of("SegmentSum", {data, int32s({0, 0, 1, 1}, Shape{2, 2})}) == "segment_ids should be a vector.");
}

TEST_CASE("the unsorted segment reductions match a naive loop, dropping negative ids") {
  for (const char* op : {"UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd"}) {
    for (DType dt : {DType::Float32, DType::Float64, DType::Int32}) {
      for (int trial = 0; trial < 12; ++trial) {
        // ids of rank 1 or 2 over the first dims of data.
        Shape ids_shape{rnd(0, 4)};
        if (rnd(0, 1)) ids_shape.push_back(rnd(1, 3));
        Shape s = ids_shape;
        for (int d = 0, r = static_cast<int>(rnd(0, 2)); d < r; ++d) s.push_back(rnd(1, 3));
        Tensor data = sweep::random_tensor(dt, s, -3, 3);
        const int64_t rows = rnd(0, 4);
        std::vector<int64_t> ids;
        for (int64_t j = 0; j < ids_shape.num_elements(); ++j) ids.push_back(rows == 0 ? -1 : rnd(-1, rows - 1));
        Tensor got = run1(op, {data, segment_ids(ids, ids_shape), Tensor::scalar(int32_t(rows))});
        // The reference's rows: the flattened ids over the data's leading dims.
        Shape flat{ids_shape.num_elements()};
        for (int d = ids_shape.rank(); d < s.rank(); ++d) flat.push_back(s.dim(d));
        Tensor want = segment_reference(op, data.reshaped(flat), ids, rows, false);
        std::string what = std::string(op) + " " + dtype_name(dt) + " " + s.str() + " ids " + ids_shape.str();
        sweep::expect_close(got, want, what, 1e-5, 1e-5);
      }
    }
  }
  Tensor data = float64s({1, 2, 3, 4, 5, 6, 7, 8}, Shape{4, 2});
  CHECK(error_of("UnsortedSegmentSum", {data, int32s({0, 3, 1, 0}), Tensor::scalar(int32_t{3})}) ==
        "segment_ids[1] = 3 is out of range [0, 3)");
  CHECK(error_of("UnsortedSegmentMax", {data, int32s({0, 1, 1}), Tensor::scalar(int32_t{3})}) ==
        "data.shape = [4,2] does not start with segment_ids.shape = [3]");
  CHECK(error_of("UnsortedSegmentMin", {data, int32s({0, 1, 1, 0}), Tensor::scalar(int32_t{-1})}) ==
        "Input num_segments == -1 must not be negative.");
}

TEST_CASE("DenseBincount counts (or sums weights of) each value below size, per row for a matrix") {
  Tensor arr = int32s({1, 1, 2, 5, 0});
  sweep::expect_close(run1("DenseBincount", {arr, Tensor::scalar(int32_t{4}), Tensor::from_vector<int32_t>(Shape{0}, {})}),
                      int32s({1, 2, 1, 0}), "counts, 5 skipped");
  Tensor w = float64s({0.5, 1.5, 2, 7, 1}, Shape{5});
  sweep::expect_close(run1("DenseBincount", {arr, Tensor::scalar(int32_t{3}), w}), float64s({1, 2, 2}, Shape{3}), "weights");
  sweep::expect_close(run1("DenseBincount", {arr, Tensor::scalar(int32_t{3}), Tensor::from_vector<float>(Shape{0}, {})},
                           Attrs{{"binary_output", true}}),
                      Tensor::from_vector<float>(Shape{3}, {1, 1, 1}), "binary");
  Tensor rows = int32s({1, 2, 3, 0, 0, 0, 1, 2}, Shape{2, 4});
  sweep::expect_close(run1("DenseBincount", {rows, Tensor::scalar(int32_t{4}), Tensor::from_vector<int32_t>(Shape{0}, {})}),
                      int32s({1, 1, 1, 1, 2, 1, 1, 0}, Shape{2, 4}), "per row");
  CHECK(error_of("DenseBincount", {int32s({1, -1}), Tensor::scalar(int32_t{3}), Tensor::from_vector<int32_t>(Shape{0}, {})}) ==
        "Input arr must be non-negative!");
  CHECK(error_of("DenseBincount", {int32s({1, 2}), Tensor::scalar(int32_t{-5}), Tensor::from_vector<int32_t>(Shape{0}, {})}) ==
        "size (-5) must be non-negative");
  CHECK(error_of("DenseBincount", {int32s({1, 2}), Tensor::scalar(int32_t{3}), float64s({1}, Shape{1})}) ==
        "`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case it acts as all weights equal "
        "to 1.");
}
