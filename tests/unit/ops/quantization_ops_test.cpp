// Sweep cases for quantization_ops.cpp: XlaDotV2's int8 products summed in
// int32 (and float32's), against sums written out here; CustomAggregator
// forwards its input and shows it to the calibration observer.
#include <doctest/doctest.h>

#include <random>

#include "runtime/core/proto/xla_data.pb.h"
#include "runtime/ops/quantization_ops.h"
#include "tests/unit/error_text.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("XlaDotV2", "CustomAggregator");

namespace {

/// XlaDotV2's attrs for `batch` leading batch dims, lhs's last and rhs's
/// first non-batch dim contracted.
Attrs dot_attrs(int batch, DType out) {
  xla::DotDimensionNumbers dn;
  for (int i = 0; i < batch; ++i) {
    dn.add_lhs_batch_dimensions(i);
    dn.add_rhs_batch_dimensions(i);
  }
  dn.add_lhs_contracting_dimensions(batch + 1);
  dn.add_rhs_contracting_dimensions(batch);
  return Attrs{{"dimension_numbers", dn.SerializeAsString()}, {"precision_config", std::string()},
               {"preferred_element_type", out}};
}

Tensor random_int8(std::mt19937& rng, const Shape& s) {
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> v(static_cast<size_t>(s.num_elements()));
  for (auto& x : v) x = static_cast<int8_t>(d(rng));
  return Tensor::from_vector<int8_t>(s, v);
}

}  // namespace

TEST_CASE("XlaDotV2 sums int8 products in int32, with leading batch dims") {
  std::mt19937 rng(7);
  for (auto [b, m, k, n] : {std::array<int64_t, 4>{0, 3, 5, 2}, {0, 1, 1, 1}, {2, 7, 70, 65}, {0, 20, 300, 9}}) {
    Shape ls = b ? Shape{b, m, k} : Shape{m, k};
    Shape rs = b ? Shape{b, k, n} : Shape{k, n};
    Tensor x = random_int8(rng, ls), w = random_int8(rng, rs);
    Tensor y = run1("XlaDotV2", {x, w}, dot_attrs(b ? 1 : 0, DType::Int32));
    CHECK(y.dtype() == DType::Int32);
    CHECK(y.shape() == (b ? Shape{b, m, n} : Shape{m, n}));
    for (int64_t p = 0; p < std::max<int64_t>(b, 1); ++p) {
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          int32_t sum = 0;
          for (int64_t r = 0; r < k; ++r) {
            sum += x.data<int8_t>()[(p * m + i) * k + r] * w.data<int8_t>()[(p * k + r) * n + j];
          }
          CHECK(y.data<int32_t>()[(p * m + i) * n + j] == sum);
        }
      }
    }
  }
  // float32 in float32.
  Tensor a = Tensor::from_vector<float>(Shape{1, 2}, {1.5f, -2.0f});
  Tensor c = Tensor::from_vector<float>(Shape{2, 2}, {2.0f, 1.0f, 0.5f, 4.0f});
  Tensor z = run1("XlaDotV2", {a, c}, dot_attrs(0, DType::Float32));
  CHECK(z.data<float>()[0] == 2.0f);
  CHECK(z.data<float>()[1] == -6.5f);
}

TEST_CASE("XlaDotV2 says which dimension numbers, dtypes and shapes agc does not run") {
  Tensor x = Tensor::from_vector<int8_t>(Shape{2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor w = Tensor::from_vector<int8_t>(Shape{3, 1}, {1, 1, 1});
  xla::DotDimensionNumbers dn;
  dn.add_lhs_contracting_dimensions(0);
  dn.add_rhs_contracting_dimensions(0);
  Attrs transposed{{"dimension_numbers", dn.SerializeAsString()}, {"preferred_element_type", DType::Int32}};
  CHECK(error_text([&] { run1("XlaDotV2", {x, w}, transposed); }).find("UnimplementedError: agc runs XlaDotV2 only as") ==
        0);
  CHECK(error_text([&] { run1("XlaDotV2", {x, w}, dot_attrs(0, DType::Float32)); }) ==
        "UnimplementedError: agc runs XlaDotV2 on int8 operands into int32 and float32 into float32; got int8 x int8 "
        "into float32");
  CHECK(error_text([&] { run1("XlaDotV2", {x, x}, dot_attrs(0, DType::Int32)); }) ==
        "InvalidArgumentError: XlaDotV2: operand shapes do not agree: lhs [2,3], rhs [2,3]");
  CHECK(error_text([&] {
          run1("XlaDotV2", {x, w}, Attrs{{"dimension_numbers", std::string("\xff")}, {"preferred_element_type", DType::Int32}});
        }) == "InvalidArgumentError: XlaDotV2: dimension_numbers is not a serialized xla.DotDimensionNumbers");
}

TEST_CASE("CustomAggregator forwards its input and shows it to the observer") {
  std::vector<std::pair<std::string, std::vector<float>>> seen;
  CalibrationObserver old = set_calibration_observer([&](const std::string& id, const Tensor& t) {
    seen.emplace_back(id, std::vector<float>(t.data<float>(), t.data<float>() + t.num_elements()));
  });
  Tensor x = Tensor::from_vector<float>(Shape{3}, {1.0f, -2.5f, 4.0f});
  Tensor y = run1("CustomAggregator", {x}, Attrs{{"id", std::string("f/MatMul:input")}});
  set_calibration_observer(old);
  CHECK(y.data<float>()[1] == -2.5f);
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].first == "f/MatMul:input");
  CHECK(seen[0].second == std::vector<float>{1.0f, -2.5f, 4.0f});
  // Without an observer it only forwards.
  CHECK(run1("CustomAggregator", {x}, Attrs{{"id", std::string("x")}}).data<float>()[2] == 4.0f);
  CHECK(OpRegistry::global().find("CustomAggregator")->stateful());
  CHECK(error_text([&] { run1("CustomAggregator", {Tensor::scalar<int32_t>(1)}); }) ==
        "InvalidArgumentError: CustomAggregator takes float32, got int32");
}
