// Sweep cases for fake_quant_ops.cpp: TF's fake quantization on vectors
// worked out from its Nudge rule (a range already on the grid, one nudged so
// that 0 is a grid point, narrow range, 4 bits), the straight-through
// gradients, and TF's errors.
#include <doctest/doctest.h>

#include "tests/unit/error_text.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxArgsGradient", "FakeQuantWithMinMaxVars",
                "FakeQuantWithMinMaxVarsGradient");

namespace {

Tensor floats(std::vector<float> v) { return Tensor::from_vector<float>(Shape{static_cast<int64_t>(v.size())}, v); }

std::vector<float> values(const Tensor& t) { return {t.data<float>(), t.data<float>() + t.num_elements()}; }

Attrs range(double min, double max, int64_t bits = 8, bool narrow = false) {
  return Attrs{{"min", min}, {"max", max}, {"num_bits", bits}, {"narrow_range", narrow}};
}

struct Vector {
  double min, max;
  int64_t bits;
  bool narrow;
  std::vector<float> in, out;
};

// 8 bits: scale (max - min) / 255. [-10, 53.75] has scale 0.25 and zero
// point 40 exactly; [-0.1, 63.65] has scale 0.25 and a zero point 0.4,
// nudged to 0: the range becomes [0, 63.75]. Narrow range [-0.1, 63.4]:
// (max - min) / 254 = 0.25, zero point 1.4 -> 1, range [0, 63.5]. 4 bits
// [-0.1, 7.4]: scale 0.5, zero point 0.2 -> 0, range [0, 7.5].
const Vector kVectors[] = {
    {-10.0, 53.75, 8, false, {-10.1f, -10.0f, -9.9f, -9.75f, 53.75f, 53.8f}, {-10.0f, -10.0f, -10.0f, -9.75f, 53.75f, 53.75f}},
    {-0.1, 63.65, 8, false, {-0.1f, 0.0f, 0.1f, 0.25f, 63.75f, 63.8f}, {0.0f, 0.0f, 0.0f, 0.25f, 63.75f, 63.75f}},
    {-0.1, 63.4, 8, true, {-0.1f, 0.0f, 0.1f, 0.25f, 63.5f, 63.6f}, {0.0f, 0.0f, 0.0f, 0.25f, 63.5f, 63.5f}},
    {-0.1, 7.4, 4, false, {-0.1f, 0.0f, 0.1f, 0.5f, 7.5f, 7.6f}, {0.0f, 0.0f, 0.0f, 0.5f, 7.5f, 7.5f}},
};

}  // namespace

TEST_CASE("FakeQuantWithMinMaxArgs and Vars round onto the nudged grid") {
  for (const Vector& v : kVectors) {
    CAPTURE(v.min);
    CHECK(values(run1("FakeQuantWithMinMaxArgs", {floats(v.in)}, range(v.min, v.max, v.bits, v.narrow))) == v.out);
    CHECK(values(run1("FakeQuantWithMinMaxVars",
                      {floats(v.in), Tensor::scalar<float>(static_cast<float>(v.min)), Tensor::scalar<float>(static_cast<float>(v.max))},
                      Attrs{{"num_bits", v.bits}, {"narrow_range", v.narrow}})) == v.out);
  }
  // The default range [-6, 6]: scale 12/255, zero point 127.5 -> 128.
  Tensor y = run1("FakeQuantWithMinMaxArgs", {floats({0.0f, 10.0f, -10.0f})});
  CHECK(y.data<float>()[0] == 0.0f);
  CHECK(y.data<float>()[1] == doctest::Approx(127.0 * 12.0 / 255.0));
  CHECK(y.data<float>()[2] == doctest::Approx(-128.0 * 12.0 / 255.0));
  // Both ends 0: zeros, as TF's Vars kernel gives.
  CHECK(values(run1("FakeQuantWithMinMaxVars", {floats({1.5f, -2.0f}), Tensor::scalar<float>(0), Tensor::scalar<float>(0)})) ==
        std::vector<float>{0.0f, 0.0f});
}

TEST_CASE("fake quantization's gradients pass through inside the nudged range; Vars' sum outside to min and max") {
  const Tensor x = floats({-0.1f, 0.0f, 30.0f, 63.75f, 63.8f, 70.0f});
  const Tensor g = floats({1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f});
  // [-0.1, 63.65] nudges to [0, 63.75].
  CHECK(values(run1("FakeQuantWithMinMaxArgsGradient", {g, x}, range(-0.1, 63.65))) ==
        std::vector<float>{0.0f, 2.0f, 3.0f, 4.0f, 0.0f, 0.0f});
  std::vector<Tensor> out = runv("FakeQuantWithMinMaxVarsGradient",
                                 {g, x, Tensor::scalar<float>(-0.1f), Tensor::scalar<float>(63.65f)});
  REQUIRE(out.size() == 3);
  CHECK(values(out[0]) == std::vector<float>{0.0f, 2.0f, 3.0f, 4.0f, 0.0f, 0.0f});
  CHECK(out[1].scalar_value<float>() == 1.0f);
  CHECK(out[2].scalar_value<float>() == 11.0f);
}

TEST_CASE("fake quantization's errors are TF's") {
  const Tensor x = floats({1.0f});
  CHECK(error_text([&] { run1("FakeQuantWithMinMaxArgs", {x}, range(1.0, 0.5)); }) ==
        "InvalidArgumentError: min has to be smaller than max, was: 1 >= 0.5");
  CHECK(error_text([&] { run1("FakeQuantWithMinMaxArgs", {x}, range(-1.0, 1.0, 17)); }) ==
        "InvalidArgumentError: num_bits must be between 2 and 16, inclusive");
  CHECK(error_text([&] { run1("FakeQuantWithMinMaxVars", {x, floats({-1.0f}), Tensor::scalar<float>(1)}); }) ==
        "InvalidArgumentError: Shape must be rank 0 but is rank 1");
  CHECK(error_text([&] { run1("FakeQuantWithMinMaxArgs", {Tensor::scalar<double>(1.0)}); }) ==
        "InvalidArgumentError: Expected float for inputs, got float64");
}
