// Sweep cases for quantization_ops.cpp: XlaDotV2's and XlaConvV2's int8
// products summed in int32 (and float32's), against sums written out here;
// CustomAggregator forwards its input and shows it to the calibration
// observer.
#include <doctest/doctest.h>

#include <random>

#include "runtime/core/proto/xla_data.pb.h"
#include "runtime/ops/quantization_ops.h"
#include "tests/unit/error_text.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("XlaDotV2", "XlaConvV2", "CustomAggregator");

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

/// XlaConvV2's attrs: NHWC over HWIO into NHWC (XLA's b01f_01io->b01f).
Attrs conv_attrs(DType out) {
  xla::ConvolutionDimensionNumbers dn;
  dn.set_input_batch_dimension(0);
  dn.set_input_feature_dimension(3);
  dn.set_kernel_input_feature_dimension(2);
  dn.set_kernel_output_feature_dimension(3);
  dn.set_output_batch_dimension(0);
  dn.set_output_feature_dimension(3);
  for (int d : {1, 2}) {
    dn.add_input_spatial_dimensions(d);
    dn.add_kernel_spatial_dimensions(d - 1);
    dn.add_output_spatial_dimensions(d);
  }
  return Attrs{{"dimension_numbers", dn.SerializeAsString()}, {"precision_config", std::string()},
               {"preferred_element_type", out}, {"batch_group_count", int64_t{1}}};
}

Tensor ints(std::vector<int32_t> v, Shape s) { return Tensor::from_vector<int32_t>(s, v); }

struct ConvCase {
  int64_t n, h, w, c, kh, kw, groups, oc, stride_h, stride_w, dil_h, dil_w, top, bottom, left, right;
};

}  // namespace

TEST_CASE("XlaConvV2 sums int8 products in int32 over each window: strides, padding, dilation, groups") {
  std::mt19937 rng(11);
  for (const ConvCase& k : {ConvCase{1, 5, 5, 2, 3, 3, 1, 3, 1, 1, 1, 1, 1, 1, 1, 1},
                            ConvCase{2, 7, 6, 4, 3, 2, 2, 6, 2, 1, 1, 2, 0, 2, 1, 0},
                            ConvCase{1, 4, 4, 3, 1, 1, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0},
                            ConvCase{1, 9, 9, 8, 3, 3, 1, 70, 2, 2, 1, 1, 1, 1, 1, 1}}) {
    Tensor x = random_int8(rng, Shape{k.n, k.h, k.w, k.c});
    Tensor f = random_int8(rng, Shape{k.kh, k.kw, k.c / k.groups, k.oc});
    Tensor y = run1("XlaConvV2",
                    {x, f, ints({int32_t(k.stride_h), int32_t(k.stride_w)}, Shape{2}),
                     ints({int32_t(k.top), int32_t(k.bottom), int32_t(k.left), int32_t(k.right)}, Shape{2, 2}),
                     ints({1, 1}, Shape{2}), ints({int32_t(k.dil_h), int32_t(k.dil_w)}, Shape{2}),
                     Tensor::scalar<int32_t>(int32_t(k.groups))},
                    conv_attrs(DType::Int32));
    const int64_t oh = (k.h + k.top + k.bottom - ((k.kh - 1) * k.dil_h + 1)) / k.stride_h + 1;
    const int64_t ow = (k.w + k.left + k.right - ((k.kw - 1) * k.dil_w + 1)) / k.stride_w + 1;
    REQUIRE(y.shape() == Shape{k.n, oh, ow, k.oc});
    const int64_t cg = k.c / k.groups, og = k.oc / k.groups;
    int mismatches = 0;
    for (int64_t b = 0; b < k.n; ++b) {
      for (int64_t i = 0; i < oh; ++i) {
        for (int64_t j = 0; j < ow; ++j) {
          for (int64_t o = 0; o < k.oc; ++o) {
            int32_t sum = 0;
            for (int64_t r = 0; r < k.kh; ++r) {
              for (int64_t s = 0; s < k.kw; ++s) {
                const int64_t ih = i * k.stride_h - k.top + r * k.dil_h, iw = j * k.stride_w - k.left + s * k.dil_w;
                if (ih < 0 || ih >= k.h || iw < 0 || iw >= k.w) continue;
                for (int64_t c = 0; c < cg; ++c) {
                  sum += x.data<int8_t>()[((b * k.h + ih) * k.w + iw) * k.c + (o / og) * cg + c] *
                         f.data<int8_t>()[((r * k.kw + s) * cg + c) * k.oc + o];
                }
              }
            }
            mismatches += y.data<int32_t>()[((b * oh + i) * ow + j) * k.oc + o] != sum;
          }
        }
      }
    }
    CHECK(mismatches == 0);
  }
}

TEST_CASE("XlaConvV2 in float32, and what agc does not run") {
  // A 1x1 window: each output channel is a weighted sum of the input's.
  Tensor x = Tensor::from_vector<float>(Shape{1, 1, 2, 2}, {1.0f, 2.0f, 3.0f, -1.0f});
  Tensor f = Tensor::from_vector<float>(Shape{1, 1, 2, 1}, {0.5f, 2.0f});
  auto window = [](Tensor pad, Tensor lhs_dilation) {
    return std::vector<Tensor>{ints({1, 1}, Shape{2}), pad, lhs_dilation, ints({1, 1}, Shape{2}),
                               Tensor::scalar<int32_t>(1)};
  };
  std::vector<Tensor> in = {x, f};
  for (Tensor& t : window(ints({0, 0, 0, 0}, Shape{2, 2}), ints({1, 1}, Shape{2}))) in.push_back(t);
  Tensor y = run1("XlaConvV2", in, conv_attrs(DType::Float32));
  CHECK(y.shape() == Shape{1, 1, 2, 1});
  CHECK(y.data<float>()[0] == 4.5f);
  CHECK(y.data<float>()[1] == -0.5f);
  in[4] = ints({2, 1}, Shape{2});
  CHECK(error_text([&] { run1("XlaConvV2", in, conv_attrs(DType::Float32)); }) ==
        "UnimplementedError: agc runs XlaConvV2 only with lhs_dilation 1");
  in[4] = ints({1, 1}, Shape{2});
  in[3] = ints({0, 0}, Shape{2});
  CHECK(error_text([&] { run1("XlaConvV2", in, conv_attrs(DType::Float32)); }) ==
        "InvalidArgumentError: XlaConvV2: padding must have shape [2,2], got [2]");
  in[3] = ints({0, 0, 0, 0}, Shape{2, 2});
  in[6] = Tensor::scalar<int32_t>(2);
  CHECK(error_text([&] { run1("XlaConvV2", in, conv_attrs(DType::Float32)); }) ==
        "InvalidArgumentError: XlaConvV2: input features 2 and filter [1,1,2,1] do not match feature_group_count 2");
  Attrs nchw = conv_attrs(DType::Float32);
  xla::ConvolutionDimensionNumbers dn;
  dn.set_input_feature_dimension(1);
  nchw.set("dimension_numbers", dn.SerializeAsString());
  CHECK(error_text([&] { run1("XlaConvV2", in, nchw); }).find("UnimplementedError: agc runs XlaConvV2 only on channels-last") ==
        0);
}

TEST_CASE("XlaConvV2 over three spatial dims: int8 sums equal the float32 ones of the same small integers") {
  xla::ConvolutionDimensionNumbers dn;  // NDHWC over DHWIO into NDHWC
  dn.set_input_feature_dimension(4);
  dn.set_kernel_input_feature_dimension(3);
  dn.set_kernel_output_feature_dimension(4);
  dn.set_output_feature_dimension(4);
  for (int d : {1, 2, 3}) dn.add_input_spatial_dimensions(d), dn.add_kernel_spatial_dimensions(d - 1), dn.add_output_spatial_dimensions(d);
  std::mt19937 rng(3);
  Tensor x = random_int8(rng, Shape{2, 3, 4, 5, 2}), f = random_int8(rng, Shape{2, 2, 3, 2, 3});
  auto floats = [](const Tensor& t) {
    Tensor out(DType::Float32, t.shape());
    for (int64_t i = 0; i < t.num_elements(); ++i) out.data<float>()[i] = t.data<int8_t>()[i];
    return out;
  };
  std::vector<Tensor> window = {ints({1, 2, 1}, Shape{3}), ints({1, 0, 0, 1, 1, 1}, Shape{3, 2}), ints({1, 1, 1}, Shape{3}),
                                ints({1, 1, 2}, Shape{3}), Tensor::scalar<int32_t>(1)};
  std::vector<Tensor> q = {x, f}, r = {floats(x), floats(f)};
  for (const Tensor& t : window) q.push_back(t), r.push_back(t);
  Attrs a{{"dimension_numbers", dn.SerializeAsString()}, {"precision_config", std::string()}};
  a.set("preferred_element_type", DType::Int32);
  Tensor yi = run1("XlaConvV2", q, a);
  a.set("preferred_element_type", DType::Float32);
  Tensor yf = run1("XlaConvV2", r, a);
  // depth (3 + 1 - 2) / 1 + 1 = 3, rows (4 + 1 - 2) / 2 + 1 = 2, cols (5 + 2 - 5) / 1 + 1 = 3.
  REQUIRE(yi.shape() == Shape{2, 3, 2, 3, 3});
  int mismatches = 0;
  for (int64_t i = 0; i < yi.num_elements(); ++i) mismatches += static_cast<float>(yi.data<int32_t>()[i]) != yf.data<float>()[i];
  CHECK(mismatches == 0);
  // And the float path is Conv3D's, on a window Conv3D can express (VALID).
  std::vector<Tensor> valid = {r[0], r[1], ints({1, 1, 1}, Shape{3}), ints({0, 0, 0, 0, 0, 0}, Shape{3, 2}),
                               ints({1, 1, 1}, Shape{3}), ints({1, 1, 1}, Shape{3}), Tensor::scalar<int32_t>(1)};
  Tensor want = run1("Conv3D", {r[0], r[1]}, Attrs{{"strides", std::vector<int64_t>{1, 1, 1, 1, 1}}, {"padding", std::string("VALID")}});
  sweep::expect_close(run1("XlaConvV2", valid, a), want, "XlaConvV2 3-D float32", 1e-6, 1e-5);
}

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
  // No batch dims, a rank-3 lhs: [B, M, K] · [K, N] -> [B, M, N], as a dense layer over a sequence.
  xla::DotDimensionNumbers seq;
  seq.add_lhs_contracting_dimensions(2);
  seq.add_rhs_contracting_dimensions(0);
  Tensor xs = random_int8(rng, Shape{2, 3, 4}), ws = random_int8(rng, Shape{4, 5});
  Tensor ys = run1("XlaDotV2", {xs, ws},
                   Attrs{{"dimension_numbers", seq.SerializeAsString()}, {"preferred_element_type", DType::Int32}});
  REQUIRE(ys.shape() == Shape{2, 3, 5});
  for (int64_t i = 0; i < 6; ++i) {
    for (int64_t j = 0; j < 5; ++j) {
      int32_t sum = 0;
      for (int64_t r = 0; r < 4; ++r) sum += xs.data<int8_t>()[i * 4 + r] * ws.data<int8_t>()[r * 5 + j];
      CHECK(ys.data<int32_t>()[i * 5 + j] == sum);
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
