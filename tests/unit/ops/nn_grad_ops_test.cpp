// Sweep cases for nn_grad_ops.cpp: the convolution backprops as the adjoints
// of Conv2D (<dy, conv(x, w)> = <backprop_input(dy), x> = <backprop_filter(dy), w>),
// MaxPoolGrad's routing (the first maximum of a window takes a tie) and
// AvgPoolGrad as AvgPool's adjoint; error texts.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("Conv2DBackpropInput", "Conv2DBackpropFilter", "MaxPoolGrad", "MaxPoolGradGrad", "AvgPoolGrad");

namespace {

Tensor window_ints(std::vector<int32_t> v) { return Tensor::from_vector(Shape{static_cast<int64_t>(v.size())}, v); }
Tensor window_shape(const Tensor& t) {
  std::vector<int32_t> d;
  for (int i = 0; i < t.rank(); ++i) d.push_back(static_cast<int32_t>(t.shape().dim(i)));
  return window_ints(d);
}

double window_dot(const Tensor& a, const Tensor& b) {
  REQUIRE(a.shape() == b.shape());
  double s = 0;
  for (int64_t i = 0; i < a.num_elements(); ++i) s += sweep::element(a, i) * sweep::element(b, i);
  return s;
}

Attrs window_pool(int64_t k, int64_t s, const char* padding) {
  return Attrs{{"ksize", std::vector<int64_t>{1, k, k, 1}}, {"strides", std::vector<int64_t>{1, s, s, 1}},
               {"padding", std::string(padding)}};
}

}  // namespace

TEST_CASE("Conv2DBackpropInput and Conv2DBackpropFilter are Conv2D's adjoints") {
  struct Case {
    Shape x, w;
    std::vector<int64_t> strides, dilations;
    const char* padding;
    std::vector<int64_t> explicit_pads;
  };
  const Case cases[] = {
      {{2, 5, 5, 3}, {3, 3, 3, 4}, {1, 1, 1, 1}, {1, 1, 1, 1}, "SAME", {}},
      {{1, 7, 6, 2}, {3, 2, 2, 3}, {1, 2, 3, 1}, {1, 1, 1, 1}, "VALID", {}},
      {{1, 6, 6, 2}, {2, 2, 2, 2}, {1, 1, 1, 1}, {1, 2, 2, 1}, "SAME", {}},
      {{2, 4, 4, 4}, {2, 3, 2, 6}, {1, 2, 1, 1}, {1, 1, 1, 1}, "EXPLICIT", {0, 0, 1, 2, 0, 1, 0, 0}},  // 2 groups
      // Big enough for two threads: the filter's gradient in two partial sums.
      {{4, 12, 11, 16}, {3, 3, 16, 32}, {1, 1, 1, 1}, {1, 1, 1, 1}, "SAME", {}},
  };
  for (const Case& c : cases) {
    Attrs a{{"strides", c.strides}, {"dilations", c.dilations}, {"padding", std::string(c.padding)}};
    if (!c.explicit_pads.empty()) a.set("explicit_paddings", c.explicit_pads);
    Tensor x = sweep::random_tensor(DType::Float64, c.x, -1, 1);
    Tensor w = sweep::random_tensor(DType::Float64, c.w, -1, 1);
    Tensor y = run1("Conv2D", {x, w}, a);
    Tensor dy = sweep::random_tensor(DType::Float64, y.shape(), -1, 1);
    Tensor dx = run1("Conv2DBackpropInput", {window_shape(x), w, dy}, a);
    Tensor dw = run1("Conv2DBackpropFilter", {x, window_shape(w), dy}, a);
    INFO(c.x.str(), " ", c.w.str(), " ", c.padding);
    CHECK(window_dot(dx, x) == doctest::Approx(window_dot(dy, y)).epsilon(1e-10));
    CHECK(window_dot(dw, w) == doctest::Approx(window_dot(dy, y)).epsilon(1e-10));
    // float32 and bfloat16 (multiplied in float) agree with float64.
    for (DType dt : {DType::Float32, DType::BFloat16}) {
      auto cast = [&](const Tensor& t) { return run1("Cast", {t}, Attrs{{"SrcT", DType::Float64}, {"DstT", dt}}); };
      const double tol = dt == DType::BFloat16 ? 0.1 : 1e-4;
      sweep::expect_close(run1("Conv2DBackpropInput", {window_shape(x), cast(w), cast(dy)}, a), cast(dx), "dx", tol, tol);
      sweep::expect_close(run1("Conv2DBackpropFilter", {cast(x), window_shape(w), cast(dy)}, a), cast(dw), "dw", tol, tol);
    }
  }
  Attrs a{{"strides", std::vector<int64_t>{1, 1, 1, 1}}, {"padding", std::string("VALID")}};
  Tensor w = sweep::random_tensor(DType::Float32, Shape{3, 3, 2, 4});
  Tensor dy = sweep::random_tensor(DType::Float32, Shape{1, 3, 2, 4});
  CHECK(error_of("Conv2DBackpropInput", {window_ints({1, 5, 5, 2}), w, dy}, a) ==
        "Conv2DBackpropInput: Size of out_backprop doesn't match computed: actual = 2, computed = 3 spatial_dim: 2 "
        "input: 5 filter: 3 output: 2 stride: 1 dilation: 1");
  CHECK(error_of("Conv2DBackpropFilter", {sweep::random_tensor(DType::Float32, Shape{2, 5, 4, 2}), window_ints({3, 3, 2, 4}), dy},
                 a) ==
        "Conv2DBackpropFilter: input and out_backprop must have the same batch size, input batch: 2 outbackprop batch: 1 "
        "batch_dim: 0");
}

TEST_CASE("MaxPoolGrad routes each window's gradient to its first maximum") {
  // One window [[1, 3], [3, 2]]: the tie at 3 goes to the first in row-major order.
  Tensor x = Tensor::from_vector<float>(Shape{1, 2, 2, 1}, {1, 3, 3, 2});
  Tensor y = run1("MaxPool", {x}, window_pool(2, 2, "VALID"));
  Tensor g = Tensor::from_vector<float>(Shape{1, 1, 1, 1}, {5});
  sweep::expect_close(run1("MaxPoolGrad", {x, y, g}, window_pool(2, 2, "VALID")),
                      Tensor::from_vector<float>(Shape{1, 2, 2, 1}, {0, 5, 0, 0}), "tie");
  // Overlapping windows add up where they share a maximum.
  Tensor x3 = Tensor::from_vector<double>(Shape{1, 3, 3, 1}, {0, 1, 0, 1, 9, 1, 0, 1, 0});
  Attrs a = window_pool(2, 1, "VALID");
  Tensor y3 = run1("MaxPool", {x3}, a);
  Tensor g3 = Tensor::from_vector<double>(Shape{1, 2, 2, 1}, {1, 2, 3, 4});
  sweep::expect_close(run1("MaxPoolGrad", {x3, y3, g3}, a),
                      Tensor::from_vector<double>(Shape{1, 3, 3, 1}, {0, 0, 0, 0, 10, 0, 0, 0, 0}), "shared");
  CHECK(error_of("MaxPoolGrad", {x3, y3, Tensor::from_vector<double>(Shape{1, 1, 1, 1}, {1})}, a) ==
        "MaxPoolGrad: expected grad of shape [1,2,2,1], got [1,1,1,1]");
}

TEST_CASE("MaxPoolGrad of float32 matches a plain loop: channel tiles, vector lanes, NaNs and ties") {
  // 75 channels: a full tile of 64 (eight 8-lane blocks), then 8 lanes and a
  // 3-channel tail; values from a few levels, so windows tie, and some NaNs.
  const int64_t n = 2, h = 7, w = 6, ch = 75;
  Tensor x(DType::Float32, Shape{n, h, w, ch});
  float* xp = x.data<float>();
  for (int64_t i = 0; i < x.num_elements(); ++i) xp[i] = static_cast<float>((i * 7919) % 5);
  for (int64_t i = 0; i < x.num_elements(); i += 37) xp[i] = std::numeric_limits<float>::quiet_NaN();
  for (const char* padding : {"SAME", "VALID"}) {
    Attrs a = window_pool(3, 2, padding);
    Tensor y = run1("MaxPool", {x}, a);
    Tensor dy = sweep::random_tensor(DType::Float32, y.shape(), -1, 1);
    Tensor dx = run1("MaxPoolGrad", {x, y, dy}, a);
    // The reference: windows clipped to the input, the first of equal maxima,
    // the first NaN over any number.
    const int64_t oh_n = y.shape().dim(1), ow_n = y.shape().dim(2);
    const int64_t pad_h = std::string(padding) == "SAME" ? std::max<int64_t>(0, (oh_n - 1) * 2 + 3 - h) / 2 : 0;
    const int64_t pad_w = std::string(padding) == "SAME" ? std::max<int64_t>(0, (ow_n - 1) * 2 + 3 - w) / 2 : 0;
    std::vector<double> want(static_cast<size_t>(x.num_elements()), 0.0);
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t oh = 0; oh < oh_n; ++oh) {
        for (int64_t ow = 0; ow < ow_n; ++ow) {
          for (int64_t d = 0; d < ch; ++d) {
            int64_t best = -1;
            for (int64_t ih = std::max<int64_t>(0, oh * 2 - pad_h); ih < std::min(h, oh * 2 - pad_h + 3); ++ih) {
              for (int64_t iw = std::max<int64_t>(0, ow * 2 - pad_w); iw < std::min(w, ow * 2 - pad_w + 3); ++iw) {
                int64_t i = ((b * h + ih) * w + iw) * ch + d;
                if (best < 0) best = i;
                else if (!std::isnan(xp[best]) && (xp[i] > xp[best] || std::isnan(xp[i]))) best = i;
              }
            }
            want[static_cast<size_t>(best)] += dy.data<float>()[((b * oh_n + oh) * ow_n + ow) * ch + d];
          }
        }
      }
    }
    INFO(padding);
    for (int64_t i = 0; i < x.num_elements(); ++i) {
      REQUIRE(static_cast<double>(dx.data<float>()[i]) == doctest::Approx(want[static_cast<size_t>(i)]).epsilon(1e-6));
    }
  }
}

TEST_CASE("MaxPoolGradGrad reads at each window's maximum: MaxPoolGrad's adjoint in the gradient") {
  for (const char* padding : {"SAME", "VALID"}) {
    Attrs a = window_pool(3, 2, padding);
    Tensor x = sweep::random_tensor(DType::Float64, Shape{2, 6, 5, 2}, -1, 1);
    Tensor y = run1("MaxPool", {x}, a);
    Tensor dy = sweep::random_tensor(DType::Float64, y.shape(), -1, 1);
    Tensor h = sweep::random_tensor(DType::Float64, x.shape(), -1, 1);
    Tensor dx = run1("MaxPoolGrad", {x, y, dy}, a);
    Tensor hy = run1("MaxPoolGradGrad", {x, y, h}, a);
    REQUIRE(hy.shape() == y.shape());
    CHECK(window_dot(dx, h) == doctest::Approx(window_dot(dy, hy)).epsilon(1e-10));
    // Reading x itself at the maxima gives the pooled values.
    sweep::expect_close(run1("MaxPoolGradGrad", {x, y, x}, a), y, "MaxPoolGradGrad of x");
  }
}

TEST_CASE("AvgPoolGrad is AvgPool's adjoint") {
  for (const char* padding : {"SAME", "VALID"}) {
    for (int64_t k : {2, 3}) {
      Attrs a = window_pool(k, 2, padding);
      Tensor x = sweep::random_tensor(DType::Float64, Shape{2, 5, 6, 3}, -1, 1);
      Tensor y = run1("AvgPool", {x}, a);
      Tensor dy = sweep::random_tensor(DType::Float64, y.shape(), -1, 1);
      Tensor dx = run1("AvgPoolGrad", {window_shape(x), dy}, a);
      CHECK(window_dot(dx, x) == doctest::Approx(window_dot(dy, y)).epsilon(1e-10));
    }
  }
}
