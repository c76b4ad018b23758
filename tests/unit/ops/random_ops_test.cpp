// Sweep cases for random_ops.cpp: Philox4x32-10 against the Random123 known
// answers, determinism per (seed, seed2), fresh numbers on every run of one
// prepared kernel, moments of each distribution, shapes and TF's error texts.
#include <doctest/doctest.h>

#include <cmath>

#include "runtime/core/tensor_format.h"
#include "runtime/ops/eager.h"
#include "runtime/ops/kernels/philox.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("RandomUniform", "RandomStandardNormal", "RandomUniformInt");

namespace {

/// A prepared kernel run several times, as the executor runs a graph node.
struct Prepared {
  std::vector<TensorSpec> in, out;
  Attrs attrs;
  Kernel kernel;
  Prepared(std::string_view op, const std::vector<Tensor>& inputs, Attrs a) : attrs(std::move(a)) {
    std::vector<const Tensor*> consts;
    for (const Tensor& t : inputs) {
      in.push_back({t.dtype(), t.shape()});
      consts.push_back(&t);
    }
    const OpDef& def = OpRegistry::global().get(OpType{op});
    out = infer_outputs(def, in, attrs, consts);
    kernel = def.cpu()(KernelSpec{op, in, out, attrs});
  }
  Tensor run(const std::vector<Tensor>& inputs) {
    std::vector<const Tensor*> ptrs;
    for (const Tensor& t : inputs) ptrs.push_back(&t);
    std::vector<Tensor> outputs(1);
    KernelContext ctx{ptrs, outputs};
    kernel(ctx);
    return outputs[0];
  }
};

Tensor shape_tensor(const Shape& s) {
  std::vector<int32_t> d(s.dims().begin(), s.dims().end());
  return Tensor::from_vector<int32_t>({static_cast<int64_t>(d.size())}, d);
}

Attrs seeded(DType t, int64_t seed, int64_t seed2) {
  return Attrs{{"dtype", t}, {"seed", seed}, {"seed2", seed2}};
}

bool same(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || !(a.shape() == b.shape())) return false;
  for (int64_t i = 0; i < a.num_elements(); ++i) {
    if (sweep::element(a, i) != sweep::element(b, i)) return false;
  }
  return true;
}

void moments(const Tensor& t, double& mean, double& var) {
  double s = 0, s2 = 0;
  int64_t n = t.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    double x = sweep::element(t, i);
    s += x;
    s2 += x * x;
  }
  mean = s / static_cast<double>(n);
  var = s2 / static_cast<double>(n) - mean * mean;
}

}  // namespace

TEST_CASE("Philox4x32-10 matches the Random123 known-answer vectors") {
  using kernels::Philox4x32;
  CHECK(Philox4x32({0, 0, 0, 0}, {0, 0}).next() == Philox4x32::Block{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
  CHECK(Philox4x32({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}).next() ==
        Philox4x32::Block{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
  CHECK(Philox4x32({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}).next() ==
        Philox4x32::Block{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
  // skip(n) is n calls of next(), carrying across counter words.
  Philox4x32 a({0xfffffffe, 0xffffffff, 7, 0}, {1, 2}), b = a;
  for (int i = 0; i < 3; ++i) a.next();
  b.skip(3);
  CHECK(a.next() == b.next());
}

TEST_CASE("uniform and normal conversions are TF's bit recipes") {
  CHECK(kernels::uint32_to_float(0) == 0.0f);
  CHECK(kernels::uint32_to_float(0xffffffffu) == 1.0f - 0x1p-23f);
  CHECK(kernels::uint32_to_float(0x400000u) == 0.5f);
  CHECK(kernels::uint64_to_double(0x80000u, 0) == 0.5);
  CHECK(static_cast<float>(kernels::uint16_to_bfloat16(0x40)) == 0.5f);
  float f0, f1;
  kernels::box_muller_float(0, 0, &f0, &f1);  // u1 clamps to 1e-7, angle 0
  CHECK(f0 == 0.0f);
  CHECK(f1 == doctest::Approx(std::sqrt(-2.0 * std::log(1e-7))).epsilon(1e-6));
}

TEST_CASE("RandomUniform and RandomStandardNormal: shapes, determinism, fresh draws, moments") {
  for (const char* op : {"RandomUniform", "RandomStandardNormal"}) {
    bool normal = std::string(op) == "RandomStandardNormal";
    for (DType t : {DType::Float32, DType::Float64, DType::BFloat16}) {
      INFO(op << " " << dtype_name(t));
      for (int trial = 0; trial < 4; ++trial) {
        Shape s = sweep::random_shape(3, 6);
        Tensor st = shape_tensor(s);
        Prepared p(op, {st}, seeded(t, 87654321, trial + 1));
        Tensor a = p.run({st});
        CHECK(a.dtype() == t);
        CHECK(a.shape() == s);
        Prepared q(op, {st}, seeded(t, 87654321, trial + 1));
        CHECK(same(q.run({st}), a));  // same seeds, same first draw
        Tensor b = p.run({st});
        if (a.num_elements() >= 4) CHECK_FALSE(same(a, b));  // the kernel's stream moves on
        for (int64_t i = 0; i < a.num_elements() && !normal; ++i) {
          CHECK(sweep::element(a, i) >= 0.0);
          CHECK(sweep::element(a, i) < 1.0);
        }
      }
      Tensor big_shape = shape_tensor({20001});
      Tensor big = run1(op, {big_shape}, seeded(t, 5, 7));
      double mean, var;
      moments(big, mean, var);
      double tol = t == DType::BFloat16 ? 0.02 : 0.01;
      if (normal) {
        CHECK(std::fabs(mean) < tol * 3);
        CHECK(var == doctest::Approx(1.0).epsilon(tol * 4));
      } else {
        CHECK(mean == doctest::Approx(0.5).epsilon(tol * 2));
        CHECK(var == doctest::Approx(1.0 / 12).epsilon(tol * 5));
      }
    }
  }
  // Different seeds give different streams; seed == seed2 == 0 draws a seed.
  Tensor st = shape_tensor({8});
  CHECK_FALSE(same(run1("RandomUniform", {st}, seeded(DType::Float32, 1, 2)),
                   run1("RandomUniform", {st}, seeded(DType::Float32, 1, 3))));
  CHECK_FALSE(same(run1("RandomUniform", {st}, seeded(DType::Float32, 0, 0)),
                   run1("RandomUniform", {st}, seeded(DType::Float32, 0, 0))));
}

TEST_CASE("RandomUniform's stream: blocks of 4 floats, 256 blocks reserved per element") {
  Tensor st = shape_tensor({6});
  Prepared p("RandomUniform", {st}, seeded(DType::Float32, 3, 4));
  Tensor a = p.run({st}), b = p.run({st});
  kernels::Philox4x32 g(3, 4);
  auto b0 = g.next(), b1 = g.next();
  CHECK(a.data<float>()[0] == kernels::uint32_to_float(b0[0]));
  CHECK(a.data<float>()[3] == kernels::uint32_to_float(b0[3]));
  CHECK(a.data<float>()[5] == kernels::uint32_to_float(b1[1]));
  kernels::Philox4x32 h(3, 4);
  h.skip(6 * 256);
  CHECK(b.data<float>()[0] == kernels::uint32_to_float(h.next()[0]));
}

TEST_CASE("seeded draws match TensorFlow's documented output") {
  // tf.random.normal's docstring: tf.random.set_seed(5);
  // tf.random.normal([2,2], 0, 1, tf.float32, seed=1) runs
  // RandomStandardNormal with seed=5, seed2=1.
  Tensor t = run1("RandomStandardNormal", {shape_tensor({2, 2})}, seeded(DType::Float32, 5, 1));
  CHECK(tensor_repr(t) ==
        "<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\n"
        "array([[-1.3768897 , -0.01258316],\n"
        "       [-0.169515  ,  1.0824056 ]], dtype=float32)>");
}

TEST_CASE("RandomUniformInt draws in [minval, maxval)") {
  for (DType t : {DType::Int32, DType::Int64}) {
    for (int trial = 0; trial < 6; ++trial) {
      Shape s = sweep::random_shape(3, 6);
      Tensor st = shape_tensor(s);
      Tensor lo = t == DType::Int32 ? Tensor::scalar<int32_t>(-3) : Tensor::scalar<int64_t>(-3);
      Tensor hi = t == DType::Int32 ? Tensor::scalar<int32_t>(5) : Tensor::scalar<int64_t>(5);
      Tensor r = run1("RandomUniformInt", {st, lo, hi}, Attrs{{"seed", int64_t{9}}, {"seed2", int64_t{trial}}});
      CHECK(r.dtype() == t);
      CHECK(r.shape() == s);
      for (int64_t i = 0; i < r.num_elements(); ++i) {
        CHECK(sweep::element(r, i) >= -3);
        CHECK(sweep::element(r, i) < 5);
      }
    }
    // Extreme range: no overflow, all values in range.
    Tensor lo = t == DType::Int32 ? Tensor::scalar(std::numeric_limits<int32_t>::min())
                                  : Tensor::scalar(std::numeric_limits<int64_t>::min());
    Tensor hi = t == DType::Int32 ? Tensor::scalar(std::numeric_limits<int32_t>::max())
                                  : Tensor::scalar(std::numeric_limits<int64_t>::max());
    Tensor r = run1("RandomUniformInt", {shape_tensor({100}), lo, hi}, Attrs{{"seed", int64_t{1}}});
    double m, v;
    moments(r, m, v);
    CHECK(std::fabs(m) < 0.25 * std::fabs(sweep::element(lo, 0)));
  }
  Tensor st = shape_tensor({4000});
  Tensor r = run1("RandomUniformInt", {st, Tensor::scalar(0), Tensor::scalar(10)}, Attrs{{"seed", int64_t{2}}});
  std::vector<int> counts(10);
  for (int64_t i = 0; i < r.num_elements(); ++i) counts[static_cast<size_t>(r.data<int32_t>()[i])]++;
  for (int c : counts) CHECK(std::abs(c - 400) < 100);
}

TEST_CASE("random ops' errors") {
  Tensor st = shape_tensor({2});
  CHECK(error_of("RandomUniformInt", {st, Tensor::scalar(5), Tensor::scalar(5)}, {}) == "Need minval < maxval, got 5 >= 5");
  CHECK(error_of("RandomUniformInt", {shape_tensor({0}), Tensor::scalar(5), Tensor::scalar(5)}, {}) == "<no error>");
  CHECK(error_of("RandomUniformInt", {st, Tensor::from_vector<int32_t>({2}, {0, 1}), Tensor::scalar(5)}, {}) ==
        "minval must be 0-D, got shape [2]");
  CHECK(error_of("RandomUniformInt", {st, Tensor::scalar(0), Tensor::scalar<int64_t>(5)}, {}) ==
        "cannot compute RandomUniformInt as input #2(zero-based) was expected to be a int32 tensor but is a int64 tensor");
  CHECK(error_of("RandomUniform", {Tensor::from_vector<int32_t>({2}, {2, -1})}, {}) == "Dimension -1 must be >= 0");
  CHECK(error_of("RandomUniform", {Tensor::from_vector<int32_t>({1, 1}, {2})}, {}) ==
        "shape must be a vector of {int32,int64}, got shape [1,1]");
  CHECK(error_of("RandomUniform", {st}, Attrs{{"dtype", DType::Int32}}).find(
            "Value for attr 'dtype' of int32 is not in the list of allowed values: half, bfloat16, float, double") == 0);
  CHECK(error_of("RandomStandardNormal", {Tensor::from_vector<float>({1}, {2})}, {}).find(
            "Value for attr 'T' of float is not in the list of allowed values: int32, int64") == 0);
  const OpDef& op = OpRegistry::global().get(op::RandomUniform);
  CHECK(op.stateful());
}
