// Sweep cases for the random ops beyond uniform and normal: TruncatedNormal,
// RandomShuffle, Multinomial, the stateless ops (TF's GenerateKey), and the
// Generator's Stateful* ops (state advance of 256 blocks per element).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "runtime/core/variable.h"
#include "runtime/ops/kernels/philox.h"
#include "runtime/ops/kernels/random_distributions.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("TruncatedNormal", "RandomShuffle", "Multinomial", "StatelessRandomUniform", "StatelessRandomNormal",
                "StatelessTruncatedNormal", "StatelessRandomUniformInt", "StatelessRandomUniformFullInt",
                "StatelessMultinomial", "StatefulUniform", "StatefulStandardNormalV2", "StatefulTruncatedNormal",
                "StatefulUniformFullInt", "StatefulUniformInt");

namespace {

Tensor shape_of(std::vector<int32_t> d) { return int32s(d); }
Tensor seed_of(int64_t a, int64_t b) { return Tensor::from_vector<int64_t>({2}, {a, b}); }

}  // namespace

TEST_CASE("TruncatedNormal's first group is the in-range normals of the same words") {
  Attrs a{{"dtype", DType::Float32}, {"seed", int64_t{17}}, {"seed2", int64_t{4}}};
  Tensor n = run1("RandomStandardNormal", {shape_of({4})}, a);
  Tensor t = run1("TruncatedNormal", {shape_of({4})}, a);
  std::vector<float> in_range;
  for (int i = 0; i < 4; ++i) {
    if (std::abs(n.data<float>()[i]) < 2.0f) in_range.push_back(n.data<float>()[i]);
  }
  for (size_t i = 0; i < in_range.size(); ++i) CHECK(t.data<float>()[i] == in_range[i]);
  Tensor big = run1("TruncatedNormal", {shape_of({64, 33})}, Attrs{{"dtype", DType::Float64}, {"seed", int64_t{3}}});
  for (int64_t i = 0; i < big.num_elements(); ++i) CHECK(std::abs(big.data<double>()[i]) < 2.0);
}

TEST_CASE("RandomShuffle permutes rows and keeps a single row") {
  Tensor m = Tensor::from_vector<int32_t>({5, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor s = run1("RandomShuffle", {m}, Attrs{{"seed", int64_t{1}}, {"seed2", int64_t{2}}});
  std::vector<int32_t> firsts;
  for (int i = 0; i < 5; ++i) {
    CHECK(s.data<int32_t>()[2 * i + 1] == s.data<int32_t>()[2 * i] + 1);
    firsts.push_back(s.data<int32_t>()[2 * i]);
  }
  std::sort(firsts.begin(), firsts.end());
  CHECK(firsts == std::vector<int32_t>{0, 2, 4, 6, 8});
  Tensor one = Tensor::from_vector<float>({1, 3}, {1, 2, 3});
  CHECK(run1("RandomShuffle", {one}).shape() == Shape{1, 3});
}

TEST_CASE("Multinomial samples classes by their unnormalized CDF") {
  Tensor logits = Tensor::from_vector<float>({2, 3}, {-INFINITY, -INFINITY, 0.0f, 0.0f, -1e30f, -INFINITY});
  Tensor c = run1("Multinomial", {logits, Tensor::scalar<int32_t>(6)}, Attrs{{"seed", int64_t{4}}, {"output_dtype", DType::Int32}});
  CHECK(c.shape() == Shape{2, 6});
  for (int i = 0; i < 6; ++i) {
    CHECK(c.data<int32_t>()[i] == 2);
    CHECK(c.data<int32_t>()[6 + i] == 0);
  }
  CHECK(error_of("Multinomial", {Tensor::from_vector<float>({2}, {1, 2}), Tensor::scalar<int32_t>(1)}) ==
        "logits should be a matrix, got shape [2]");
  CHECK(error_of("Multinomial", {Tensor::from_vector<float>({1, 2}, {1, 2}), Tensor::scalar<int32_t>(-1)}) ==
        "num_samples should be non-negative, got -1");
}

TEST_CASE("stateless ops derive key and counter from the seed (GenerateKey)") {
  // The words the stateless ops draw: one Philox block of (seed, fixed key) mixed.
  kernels::Philox4x32 mixer({1, 0, 2, 0}, {0x3ec8f720u, 0x02461e29u});
  auto mix = mixer.next();
  kernels::Philox4x32 gen({0, 0, mix[2], mix[3]}, {mix[0], mix[1]});
  auto block = gen.next();
  Tensor w = run1("StatelessRandomUniformFullInt", {shape_of({4}), seed_of(1, 2)}, Attrs{{"dtype", DType::Int32}});
  Tensor u = run1("StatelessRandomUniform", {shape_of({4}), seed_of(1, 2)}, Attrs{{"dtype", DType::Float32}});
  for (int i = 0; i < 4; ++i) {
    CHECK(static_cast<uint32_t>(w.data<int32_t>()[i]) == block[static_cast<size_t>(i)]);
    CHECK(u.data<float>()[i] == kernels::uint32_to_float(block[static_cast<size_t>(i)]));
  }
  // The guide's stateless_normal(seed=[1, 2]) starts 0.5441101, 0.20738031.
  Tensor n = run1("StatelessRandomNormal", {shape_of({2}), Tensor::from_vector<int32_t>({2}, {1, 2})},
                  Attrs{{"dtype", DType::Float32}});
  CHECK(n.data<float>()[0] == doctest::Approx(0.5441101).epsilon(1e-6));
  CHECK(n.data<float>()[1] == doctest::Approx(0.20738031).epsilon(1e-6));
  Tensor i = run1("StatelessRandomUniformInt", {shape_of({100}), seed_of(3, 4), Tensor::scalar<int64_t>(-2),
                                                Tensor::scalar<int64_t>(3)});
  for (int64_t k = 0; k < 100; ++k) CHECK((i.data<int64_t>()[k] >= -2 && i.data<int64_t>()[k] < 3));
  CHECK(error_of("StatelessRandomUniform", {shape_of({2}), Tensor::from_vector<int64_t>({3}, {1, 2, 3})},
                 Attrs{{"dtype", DType::Float32}}) == "seed must have shape [2], not [3]");
  Tensor t = run1("StatelessTruncatedNormal", {shape_of({2}), seed_of(1, 2)}, Attrs{{"dtype", DType::Float32}});
  CHECK(t.data<float>()[0] == doctest::Approx(0.5441101).epsilon(1e-6));
  Tensor c = run1("StatelessMultinomial", {Tensor::from_vector<float>({1, 2}, {0.0f, -1e30f}), Tensor::scalar<int32_t>(3),
                                           seed_of(1, 2)});
  CHECK(c.dtype() == DType::Int64);
  CHECK(c.data<int64_t>()[2] == 0);
}

TEST_CASE("Stateful ops draw from the state variable and move its counter on") {
  auto var = Variable::create(Tensor::from_vector<int64_t>({3}, {1234, 0, 0}), "StateVar");
  Attrs a{{"var", var->id()}, {"dtype", DType::Float32}};
  Tensor philox = Tensor::scalar<int64_t>(1);  // TF's algorithm input: RNG_ALG_PHILOX
  Tensor n = run1("StatefulStandardNormalV2", {philox, shape_of({2, 3})}, a);
  // The Generator docstring: from_seed(1234).normal((2, 3)) starts 0.9356609, 1.0854305.
  CHECK(n.data<float>()[0] == doctest::Approx(0.9356609).epsilon(1e-6));
  CHECK(n.data<float>()[1] == doctest::Approx(1.0854305).epsilon(1e-6));
  CHECK(var->read().data<int64_t>()[0] == 1234 + 6 * 256);
  Tensor u = run1("StatefulUniform", {philox, shape_of({5})}, a);
  CHECK(var->read().data<int64_t>()[0] == 1234 + 11 * 256);
  for (int i = 0; i < 5; ++i) CHECK((u.data<float>()[i] >= 0.0f && u.data<float>()[i] < 1.0f));
  Tensor t = run1("StatefulTruncatedNormal", {philox, shape_of({7})}, a);
  for (int i = 0; i < 7; ++i) CHECK(std::abs(t.data<float>()[i]) < 2.0f);
  Tensor f = run1("StatefulUniformFullInt", {philox, shape_of({2})}, Attrs{{"var", var->id()}, {"dtype", DType::Int64}});
  CHECK(f.dtype() == DType::Int64);
  Tensor i = run1("StatefulUniformInt", {philox, shape_of({50}), Tensor::scalar<int32_t>(3), Tensor::scalar<int32_t>(6)},
                  Attrs{{"var", var->id()}});
  for (int k = 0; k < 50; ++k) CHECK((i.data<int32_t>()[k] >= 3 && i.data<int32_t>()[k] < 6));
  CHECK(error_of("StatefulUniformInt", {philox, shape_of({1}), Tensor::scalar<int32_t>(6), Tensor::scalar<int32_t>(6)},
                 Attrs{{"var", var->id()}}) == "Need minval < maxval, got 6 >= 6");
  // Auto-select is Philox; ThreeFry (2) is not agc's.
  CHECK(run1("StatefulUniform", {Tensor::scalar<int64_t>(3), shape_of({2})}, a).num_elements() == 2);
  CHECK(error_of("StatefulUniform", {Tensor::scalar<int64_t>(2), shape_of({2})}, a) == "Unsupported algorithm id: 2");
}
