// Sweep cases for matrix_diag_ops.cpp and matrix_factor_ops.cpp: the
// diagonal ops against TF's band layout written out per element, the band
// part against its condition, and the factorizations by what they must
// satisfy (A·A⁻¹ = I, A·X = B, L·Lᵀ = A, Q·R = A with QᵀQ = I, the
// determinant by cofactor expansion); their error texts.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("MatrixDiagV3", "MatrixDiagPartV3", "MatrixSetDiagV3", "MatrixBandPart");
AG_SWEEP_COVERS("MatrixInverse", "MatrixDeterminant", "MatrixSolve", "Cholesky", "Qr");

namespace {

Attrs diag_align(const char* a) { return Attrs{{"align", std::string(a)}}; }

/// Where element t of diagonal d sits in its row of a band of width
/// max_len (TF's layout: left-aligned unless the alignment says right for
/// that side; the main diagonal is on both sides).
int64_t band_position(int64_t d, int64_t t, int64_t rows, int64_t cols, int64_t max_len, const std::string& a) {
  const int64_t len = std::min(rows + std::min<int64_t>(0, d), cols - std::max<int64_t>(0, d));
  const bool left = (d >= 0 && a.starts_with("LEFT")) || (d <= 0 && a.ends_with("LEFT"));
  return (left ? 0 : max_len - len) + t;
}

}  // namespace

TEST_CASE("MatrixDiagPartV3, MatrixDiagV3 and MatrixSetDiagV3 lay diagonals out as TF's band layout") {
  for (const char* a : {"RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"}) {
    for (int trial = 0; trial < 10; ++trial) {
      const int64_t batch = rnd(1, 2), rows = rnd(1, 4), cols = rnd(1, 4);
      const int64_t lo = rnd(-(rows - 1), cols - 1), hi = rnd(lo, cols - 1);
      Tensor x = sweep::random_tensor(DType::Float64, Shape{batch, rows, cols});
      const int64_t max_len = std::min(rows + std::min<int64_t>(hi, 0), cols - std::max<int64_t>(lo, 0));
      const int64_t count = hi - lo + 1;
      Tensor k = lo == hi ? Tensor::scalar(int32_t(lo)) : int32s({int32_t(lo), int32_t(hi)});
      Shape band = lo == hi ? Shape{batch, max_len} : Shape{batch, count, max_len};
      Tensor part = run1("MatrixDiagPartV3", {x, k, Tensor::scalar(-1.0)}, diag_align(a));
      REQUIRE(part.shape() == band);
      // Expected: padding everywhere, then each diagonal element at its place.
      Tensor want(DType::Float64, band);
      std::fill_n(want.data<double>(), want.num_elements(), -1.0);
      Tensor matrix(DType::Float64, x.shape());
      std::fill_n(matrix.data<double>(), matrix.num_elements(), 7.0);
      for (int64_t b = 0; b < batch; ++b) {
        for (int64_t j = 0; j < count; ++j) {
          const int64_t d = hi - j;
          for (int64_t r = 0; r < rows; ++r) {
            const int64_t c = r + d;
            if (c < 0 || c >= cols) continue;
            const int64_t t = d >= 0 ? r : c;
            const int64_t at = (b * count + j) * max_len + band_position(d, t, rows, cols, max_len, a);
            const int64_t m = (b * rows + r) * cols + c;
            want.data<double>()[at] = x.data<double>()[m];
            matrix.data<double>()[m] = x.data<double>()[m];
          }
        }
      }
      std::string what = std::string(a) + " " + x.shape().str() + " k=[" + std::to_string(lo) + "," + std::to_string(hi) + "]";
      sweep::expect_close(part, want, "MatrixDiagPartV3 " + what);
      // The band back on a matrix of 7s: what MatrixDiagV3 with padding 7 makes.
      Tensor built = run1("MatrixDiagV3", {part, k, Tensor::scalar(int32_t(rows)), Tensor::scalar(int32_t(cols)),
                                           Tensor::scalar(7.0)}, diag_align(a));
      sweep::expect_close(built, matrix, "MatrixDiagV3 " + what);
      // Set on a matrix of 7s: the same.
      Tensor sevens(DType::Float64, x.shape());
      std::fill_n(sevens.data<double>(), sevens.num_elements(), 7.0);
      sweep::expect_close(run1("MatrixSetDiagV3", {sevens, part, k}, diag_align(a)), matrix, "MatrixSetDiagV3 " + what);
    }
  }
  // A square diagonal matrix from a vector, its size inferred.
  Tensor eye = run1("MatrixDiagV3", {float64s({1, 2}, Shape{2}), Tensor::scalar(int32_t{0}), Tensor::scalar(int32_t{-1}),
                                     Tensor::scalar(int32_t{-1}), Tensor::scalar(0.0)});
  sweep::expect_close(eye, float64s({1, 0, 0, 2}, Shape{2, 2}), "diag of a vector");
  Tensor m = Tensor::zeros(DType::Float64, Shape{3, 3});
  CHECK(error_of("MatrixDiagPartV3", {m, int32s({1, 0}), Tensor::scalar(0.0)}) ==
        "lower_diag_index must not be larger than upper_diag_index: 1 > 0");
  CHECK(error_of("MatrixDiagPartV3", {m, Tensor::scalar(int32_t{3}), Tensor::scalar(0.0)}) ==
        "lower_diag_index is out of bound: 3. It must be between -3 and 3");
  CHECK(error_of("MatrixDiagPartV3", {m, int32s({0, 3}), Tensor::scalar(0.0)}) ==
        "upper_diag_index is out of bound: 3. It must be between -3 and 3");
  CHECK(error_of("MatrixDiagPartV3", {float64s({1}, Shape{1}), Tensor::scalar(int32_t{0}), Tensor::scalar(0.0)}) ==
        "input must be at least 2-dim, received shape: [1]");
}

TEST_CASE("MatrixBandPart keeps num_lower subdiagonals and num_upper superdiagonals, all of one side when negative") {
  for (int trial = 0; trial < 20; ++trial) {
    const int64_t rows = rnd(1, 5), cols = rnd(1, 5);
    Tensor x = sweep::random_tensor(DType::Float32, Shape{2, rows, cols});
    const int64_t lower = rnd(-1, rows), upper = rnd(-1, cols);
    Tensor got = run1("MatrixBandPart", {x, Tensor::scalar(lower), Tensor::scalar(upper)});
    Tensor want(DType::Float32, x.shape());
    for (int64_t i = 0; i < x.num_elements(); ++i) {
      const int64_t r = (i / cols) % rows, c = i % cols;
      const bool keep = (lower < 0 || r - c <= lower) && (upper < 0 || c - r <= upper);
      want.data<float>()[i] = keep ? x.data<float>()[i] : 0.0f;
    }
    sweep::expect_close(got, want, "MatrixBandPart " + std::to_string(lower) + " " + std::to_string(upper));
  }
  Tensor x = Tensor::zeros(DType::Float32, Shape{3, 3});
  CHECK(error_of("MatrixBandPart", {x, Tensor::scalar(int64_t{5}), Tensor::scalar(int64_t{0})}) ==
        "num_lower must be negative or less or equal to number of rows (3) got: 5");
}

namespace {

/// A well-conditioned n × n matrix: random, plus n on the diagonal.
Tensor well_conditioned(int64_t batch, int64_t n) {
  Tensor a = sweep::random_tensor(DType::Float64, Shape{batch, n, n}, -1, 1);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < n; ++i) a.data<double>()[(b * n + i) * n + i] += static_cast<double>(n);
  }
  return a;
}

/// C = A·B (or Aᵀ·B) per batch, naive.
std::vector<double> product(const Tensor& a, const Tensor& b, int64_t batch, int64_t m, int64_t k, int64_t n,
                            bool transpose_a = false) {
  std::vector<double> c(static_cast<size_t>(batch * m * n), 0);
  for (int64_t p = 0; p < batch; ++p) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        for (int64_t q = 0; q < k; ++q) {
          const double x = transpose_a ? a.data<double>()[(p * k + q) * m + i] : a.data<double>()[(p * m + i) * k + q];
          c[static_cast<size_t>((p * m + i) * n + j)] += x * b.data<double>()[(p * k + q) * n + j];
        }
      }
    }
  }
  return c;
}

double det_ref(std::vector<double> m, int64_t n) {
  if (n == 0) return 1;
  double d = 0;
  for (int64_t j = 0; j < n; ++j) {
    std::vector<double> minor;
    for (int64_t r = 1; r < n; ++r) {
      for (int64_t c = 0; c < n; ++c) {
        if (c != j) minor.push_back(m[static_cast<size_t>(r * n + c)]);
      }
    }
    d += (j % 2 ? -1 : 1) * m[static_cast<size_t>(j)] * det_ref(minor, n - 1);
  }
  return d;
}

}  // namespace

TEST_CASE("MatrixInverse, MatrixSolve and MatrixDeterminant agree with their definitions") {
  for (int trial = 0; trial < 8; ++trial) {
    const int64_t batch = rnd(1, 3), n = rnd(0, 4), k = rnd(1, 3);
    Tensor a = well_conditioned(batch, n);
    Tensor inv = run1("MatrixInverse", {a});
    std::vector<double> id = product(a, inv, batch, n, n, n);
    for (int64_t i = 0; i < batch * n * n; ++i) {
      CHECK(id[static_cast<size_t>(i)] == doctest::Approx((i % (n * n)) % (n + 1) == 0 ? 1.0 : 0.0).scale(1));
    }
    Tensor rhs = sweep::random_tensor(DType::Float64, Shape{batch, n, k});
    Tensor x = run1("MatrixSolve", {a, rhs});
    std::vector<double> back = product(a, x, batch, n, n, k);
    for (int64_t i = 0; i < rhs.num_elements(); ++i) CHECK(back[static_cast<size_t>(i)] == doctest::Approx(rhs.data<double>()[i]));
    // adjoint: Aᵀ·X = B
    Tensor xt = run1("MatrixSolve", {a, rhs}, Attrs{{"adjoint", true}});
    std::vector<double> back_t = product(a, xt, batch, n, n, k, true);
    for (int64_t i = 0; i < rhs.num_elements(); ++i) CHECK(back_t[static_cast<size_t>(i)] == doctest::Approx(rhs.data<double>()[i]));
    Tensor det = run1("MatrixDeterminant", {a});
    REQUIRE(det.shape() == Shape{batch});
    for (int64_t b = 0; b < batch; ++b) {
      std::vector<double> m(a.data<double>() + b * n * n, a.data<double>() + (b + 1) * n * n);
      CHECK(det.data<double>()[b] == doctest::Approx(det_ref(m, n)));
    }
  }
  // The sign from the pivots' permutation, the magnitude through log|det| (TF's SLogDet).
  Tensor f = Tensor::from_vector<float>(Shape{2, 2}, {1, 2, 3, 4});
  CHECK(run1("MatrixDeterminant", {f}).scalar_value<float>() == doctest::Approx(-2.0f).epsilon(1e-6));
  Tensor swap = float64s({0, 1, 1, 0}, Shape{2, 2});
  CHECK(run1("MatrixDeterminant", {swap}).scalar_value<double>() == -1.0);
  Tensor singular = float64s({1, 2, 2, 4}, Shape{2, 2});
  CHECK(run1("MatrixDeterminant", {singular}).scalar_value<double>() == 0.0);
  CHECK(error_of("MatrixInverse", {singular}) == "Input is not invertible.");
  CHECK(error_of("MatrixSolve", {singular, float64s({1, 1}, Shape{2, 1})}) == "Input matrix is not invertible.");
  CHECK(error_of("MatrixInverse", {float64s({1, 2}, Shape{1, 2})}) == "Input matrix must be square.");
  CHECK(error_of("MatrixSolve", {float64s({1, 0, 0, 1}, Shape{2, 2}), float64s({1, 1, 1}, Shape{3, 1})}) ==
        "Input matrix and right-hand side must have the same number of rows.");
}

TEST_CASE("Cholesky gives the lower factor of a positive definite matrix, and refuses others") {
  for (int trial = 0; trial < 8; ++trial) {
    const int64_t batch = rnd(1, 2), n = rnd(1, 4);
    Tensor r = sweep::random_tensor(DType::Float64, Shape{batch, n, n}, -1, 1);
    // A = RᵀR + n·I: positive definite.
    std::vector<double> spd = product(r, r, batch, n, n, n, true);
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t i = 0; i < n; ++i) spd[static_cast<size_t>((b * n + i) * n + i)] += static_cast<double>(n);
    }
    Tensor a = Tensor::from_vector(Shape{batch, n, n}, spd);
    Tensor l = run1("Cholesky", {a});
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          double s = 0;
          for (int64_t q = 0; q < n; ++q) s += l.data<double>()[(b * n + i) * n + q] * l.data<double>()[(b * n + j) * n + q];
          CHECK(s == doctest::Approx(spd[static_cast<size_t>((b * n + i) * n + j)]));
          if (j > i) CHECK(l.data<double>()[(b * n + i) * n + j] == 0.0);
        }
      }
    }
  }
  CHECK(error_of("Cholesky", {float64s({1, 2, 2, 1}, Shape{2, 2})}) ==
        "Cholesky decomposition was not successful. The input might not be valid.");
}

TEST_CASE("Qr factors a matrix into orthonormal columns and an upper triangle, reduced or full") {
  for (bool full : {false, true}) {
    for (int trial = 0; trial < 8; ++trial) {
      const int64_t m = rnd(1, 5), n = rnd(1, 5), p = std::min(m, n);
      Tensor a = sweep::random_tensor(DType::Float64, Shape{2, m, n}, -1, 1);
      std::vector<Tensor> qr = runv("Qr", {a}, Attrs{{"full_matrices", full}});
      const int64_t qc = full ? m : p;
      REQUIRE(qr[0].shape() == Shape{2, m, qc});
      REQUIRE(qr[1].shape() == Shape{2, qc, n});
      std::vector<double> back = product(qr[0], qr[1], 2, m, qc, n);
      for (int64_t i = 0; i < a.num_elements(); ++i) CHECK(back[static_cast<size_t>(i)] == doctest::Approx(a.data<double>()[i]));
      std::vector<double> qtq = product(qr[0], qr[0], 2, qc, m, qc, true);
      for (int64_t i = 0; i < 2 * qc * qc; ++i) {
        CHECK(qtq[static_cast<size_t>(i)] == doctest::Approx((i % (qc * qc)) % (qc + 1) == 0 ? 1.0 : 0.0).scale(1));
      }
      for (int64_t b = 0; b < 2; ++b) {
        for (int64_t i = 0; i < qc; ++i) {
          for (int64_t j = 0; j < std::min(i, n); ++j) CHECK(qr[1].data<double>()[(b * qc + i) * n + j] == 0.0);
        }
      }
    }
  }
}
