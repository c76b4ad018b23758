// Sweep cases for the gamma and Poisson ops: the words each output reads
// (256 blocks reserved per output, doubles handed out last first), shapes
// (samples, then the parameter's), moments, the stateless forms' seed and
// shape check, RandomGammaGrad against the incomplete gamma function, and the error texts.
#include <doctest/doctest.h>

#include <cmath>

#include "runtime/ops/kernels/philox.h"
#include "runtime/ops/kernels/random_distributions.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("RandomGamma", "StatelessRandomGammaV2", "RandomGammaGrad", "RandomPoissonV2",
                "StatelessRandomPoisson");

namespace {

Attrs seeds(int64_t s, int64_t s2) { return Attrs{{"seed", s}, {"seed2", s2}}; }

/// Output k's generator: Philox(seed, seed2) 256 * k blocks on.
kernels::Philox4x32 output_gen(uint64_t seed, uint64_t seed2, uint64_t k) {
  kernels::Philox4x32 g(seed, seed2);
  g.skip(256 * k);
  return g;
}

/// The regularized lower incomplete gamma P(a, x): its series below a + 1,
/// Legendre's continued fraction (modified Lentz) above.
double gamma_p(double a, double x) {
  double front = std::exp(-x + a * std::log(x) - std::lgamma(a));
  if (x < a + 1) {
    double term = 1 / a, total = term;
    for (double n = a + 1; std::abs(term) > std::abs(total) * 1e-17; n += 1) total += (term *= x / n);
    return total * front;
  }
  double b = x + 1 - a, c = 1e300, d = 1 / b, h = d;
  for (int i = 1; i < 1000; ++i) {
    double an = -i * (i - a);
    b += 2;
    d = 1 / (an * d + b);
    c = b + an / c;
    h *= d * c;
    if (std::abs(d * c - 1) < 1e-17) break;
  }
  return 1 - front * h;
}

double mean_of(const Tensor& t, int64_t column, int64_t columns) {
  double s = 0;
  int64_t n = t.num_elements() / columns;
  for (int64_t j = 0; j < n; ++j) s += sweep::element(t, j * columns + column);
  return s / static_cast<double>(n);
}

}  // namespace

TEST_CASE("RandomGamma with alpha 1 is -log1p(-u) of each output's own block, u its second double") {
  Tensor alpha = Tensor::from_vector<double>({2}, {1.0, 1.0});
  Tensor g = run1("RandomGamma", {int32s({3}), alpha}, seeds(5, 6));
  CHECK(g.shape() == Shape{3, 2});
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      auto b = output_gen(5, 6, static_cast<uint64_t>(i * 3 + j)).next();
      double u = kernels::uint64_to_double(b[2], b[3]);
      CHECK(g.data<double>()[j * 2 + i] == -std::log1p(-u));
    }
  }
}

TEST_CASE("RandomGamma: shapes, dtypes, fresh draws per call, moments") {
  Tensor alpha = Tensor::from_vector<float>({2, 2}, {0.25f, 1.0f, 3.0f, 40.0f});
  Tensor a = run1("RandomGamma", {int32s({2, 3}), alpha}, seeds(1, 2));
  CHECK(a.shape() == Shape{2, 3, 2, 2});
  CHECK(a.dtype() == DType::Float32);
  Tensor big = run1("RandomGamma", {int32s({4000}), alpha}, seeds(3, 4));
  double want[] = {0.25, 1.0, 3.0, 40.0};
  for (int c = 0; c < 4; ++c) CHECK(mean_of(big, c, 4) == doctest::Approx(want[c]).epsilon(0.08));
  for (int64_t i = 0; i < big.num_elements(); ++i) CHECK(big.data<float>()[i] >= 0.0f);
  // One kernel, two calls: the second continues past the first's 3 * 256 blocks.
  Tensor one = Tensor::from_vector<double>({1}, {1.0});
  run1("RandomGamma", {int32s({3}), one}, seeds(21, 22));
  Tensor second = run1("RandomGamma", {int32s({3}), one}, seeds(21, 22));
  auto b = output_gen(21, 22, 3).next();
  CHECK(second.data<double>()[0] == -std::log1p(-kernels::uint64_to_double(b[2], b[3])));
  CHECK(run1("RandomGamma", {int32s({0}), one}, seeds(1, 1)).shape() == Shape{0, 1});
  CHECK(error_of("RandomGamma", {int32s({2}), Tensor::from_vector<int32_t>({1}, {2})}) ==
        "Value for attr 'T' of int32 is not in the list of allowed values: half, float, double\n\t; NodeDef: {{node "
        "RandomGamma}}");
  CHECK(error_of("RandomGamma", {int32s({-2}), one}) == "Dimension -2 must be >= 0");
}

TEST_CASE("RandomPoissonV2: Knuth's count below rate 10, shapes, output dtypes, moments") {
  // Rate 3: the number of uniforms (second double of a block first) whose product stays above exp(-3).
  Tensor rate = Tensor::from_vector<double>({1}, {3.0});
  Tensor p = run1("RandomPoissonV2", {int32s({4}), rate}, Attrs{{"seed", int64_t{7}}, {"seed2", int64_t{8}}, {"dtype", DType::Int32}});
  CHECK(p.shape() == Shape{4, 1});
  for (int64_t j = 0; j < 4; ++j) {
    kernels::Philox4x32 g = output_gen(7, 8, static_cast<uint64_t>(j));
    kernels::UniformDoubleBuffer uniform;
    double prod = 1, x = 0;
    while ((prod *= uniform(g)) > std::exp(-3.0)) x += 1;
    CHECK(p.data<int32_t>()[j] == static_cast<int32_t>(x));
  }
  Tensor rates = Tensor::from_vector<float>({3}, {0.0f, 4.5f, 60.0f});
  Tensor big = run1("RandomPoissonV2", {int32s({5000}), rates}, Attrs{{"seed", int64_t{9}}, {"dtype", DType::Float64}});
  CHECK(big.shape() == Shape{5000, 3});
  CHECK(mean_of(big, 0, 3) == 0.0);
  CHECK(mean_of(big, 1, 3) == doctest::Approx(4.5).epsilon(0.05));
  CHECK(mean_of(big, 2, 3) == doctest::Approx(60.0).epsilon(0.02));
  double var = 0;
  for (int64_t j = 0; j < 5000; ++j) var += std::pow(big.data<double>()[j * 3 + 2] - 60.0, 2);
  CHECK(var / 5000 == doctest::Approx(60.0).epsilon(0.1));
  Tensor i64 = run1("RandomPoissonV2", {int32s({2}), Tensor::from_vector<int32_t>({1}, {20})}, Attrs{{"seed", int64_t{1}}});
  CHECK(i64.dtype() == DType::Int64);
  CHECK(error_of("RandomPoissonV2", {int32s({2}), rate}, Attrs{{"dtype", DType::Bool}}) ==
        "Value for attr 'dtype' of bool is not in the list of allowed values: half, float, double, int32, int64\n\t; "
        "NodeDef: {{node RandomPoissonV2}}");
}

TEST_CASE("RandomPoissonV2 with a rate past the output type's largest value ends: +inf, or an error for integers") {
  // Found by ops_fuzz: rate 1e300 into int32 samples drew forever, every
  // sample past int32's range being drawn again.
  Tensor huge = Tensor::from_vector<double>({2}, {1e300, 5.0});
  CHECK(error_of("RandomPoissonV2", {int32s({3}), huge}, Attrs{{"seed", int64_t{1}}, {"dtype", DType::Int32}}) ==
        "agc cannot draw an integer Poisson sample for rate 1e+300: its samples exceed int32's largest value");
  Tensor f = run1("RandomPoissonV2", {int32s({3}), huge}, Attrs{{"seed", int64_t{1}}, {"dtype", DType::Float32}});
  for (int64_t j = 0; j < 3; ++j) {
    CHECK(f.data<float>()[j * 2] == INFINITY);
    CHECK(f.data<float>()[j * 2 + 1] < 100.0f);
  }
}

TEST_CASE("stateless gamma and Poisson: the seed fixes the numbers, the shape ends with the parameter's") {
  Tensor seed = Tensor::from_vector<int64_t>({2}, {12, 34});
  Tensor alpha = Tensor::from_vector<float>({2}, {0.5f, 1.5f});
  Tensor a = run1("StatelessRandomGammaV2", {int32s({4, 2}), seed, alpha});
  Tensor b = run1("StatelessRandomGammaV2", {int32s({4, 2}), seed, alpha});
  CHECK(a.shape() == Shape{4, 2});
  for (int64_t i = 0; i < 8; ++i) CHECK(a.data<float>()[i] == b.data<float>()[i]);
  Tensor lam = Tensor::from_vector<float>({2}, {5.0f, 15.0f});
  Tensor p = run1("StatelessRandomPoisson", {int32s({3, 2}), seed, lam}, Attrs{{"dtype", DType::Int32}});
  CHECK(p.shape() == Shape{3, 2});
  CHECK(error_of("StatelessRandomPoisson", {int32s({3, 2}), seed, Tensor::from_vector<float>({3}, {1, 2, 3})},
                 Attrs{{"dtype", DType::Int32}}) == "Shape passed in must end with broadcasted shape.");
  // An empty output is not filled, so lam's shape is not checked (StatelessRandomOpBase).
  CHECK(run1("StatelessRandomPoisson", {int32s({0, 2}), seed, Tensor::from_vector<float>({3}, {1, 2, 3})},
             Attrs{{"dtype", DType::Int32}}).shape() == Shape{0, 2});
  CHECK(error_of("StatelessRandomGammaV2", {int32s({2}), Tensor::from_vector<int64_t>({3}, {1, 2, 3}), alpha}) ==
        "seed must have shape [2], not [3]");
}

TEST_CASE("RandomGammaGrad is d sample / d alpha at a fixed CDF (by differences of P(alpha, x))") {
  double as[] = {0.5, 2.0, 7.0};
  double xs[] = {0.3, 1.7, 8.2};
  Tensor alpha = Tensor::from_vector<double>({3}, {as[0], as[1], as[2]});
  Tensor x = Tensor::from_vector<double>({2, 3}, {xs[0], xs[1], xs[2], 1.0, 2.0, 3.0});
  Tensor d = run1("RandomGammaGrad", {alpha, x});
  CHECK(d.shape() == Shape{2, 3});
  for (int i = 0; i < 3; ++i) {
    double a = as[i], v = xs[i], h = 1e-6;
    double dp_da = (gamma_p(a + h, v) - gamma_p(a - h, v)) / (2 * h);
    double dp_dx = std::exp((a - 1) * std::log(v) - v - std::lgamma(a));
    CHECK(d.data<double>()[i] == doctest::Approx(-dp_da / dp_dx).epsilon(1e-5));
  }
}
