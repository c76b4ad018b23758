// Sweep cases for nn_ops.cpp: softmax, BiasAdd, Conv2D and the pools against
// naive loops over random shapes and dtypes; error texts. The activations'
// are in nn_activation_ops_test.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("Softmax", "LogSoftmax", "BiasAdd", "Conv2D", "DepthwiseConv2dNative", "MaxPool", "AvgPool");

namespace {

const DType kFloats[] = {DType::Float32, DType::Float64, DType::BFloat16};
const DType kReals[] = {DType::Float32, DType::Float64, DType::BFloat16, DType::Int32,
                        DType::Int64,   DType::Int8,    DType::UInt8};

double rtol(DType t) { return t == DType::BFloat16 ? 2e-2 : t == DType::Float32 ? 2e-5 : 1e-10; }
double atol(DType t) { return t == DType::BFloat16 ? 2e-2 : 1e-5; }

}  // namespace

TEST_CASE("Softmax and LogSoftmax match a naive loop over the last axis") {
  for (bool log : {false, true}) {
    for (DType dt : kFloats) {
      for (int trial = 0; trial < 10; ++trial) {
        Shape s = sweep::random_shape(4, 5);
        if (s.rank() == 0) s = Shape{3};
        Tensor in = sweep::random_tensor(dt, s, -20, 20);
        Tensor want(dt, s);
        int64_t len = s.dim(s.rank() - 1);
        for (int64_t r = 0; len > 0 && r < in.num_elements() / len; ++r) {
          double mx = -INFINITY, sum = 0;
          for (int64_t j = 0; j < len; ++j) mx = std::max(mx, sweep::element(in, r * len + j));
          for (int64_t j = 0; j < len; ++j) sum += std::exp(sweep::element(in, r * len + j) - mx);
          for (int64_t j = 0; j < len; ++j) {
            double x = sweep::element(in, r * len + j) - mx;
            put(want, r * len + j, log ? x - std::log(sum) : std::exp(x) / sum);
          }
        }
        const char* op = log ? "LogSoftmax" : "Softmax";
        sweep::expect_close(run1(op, {in}), want, std::string(op) + " " + dtype_name(dt) + " " + s.str(), rtol(dt),
                            atol(dt));
      }
    }
  }
  // Large logits stay finite (max subtracted first).
  Tensor big = Tensor::from_vector<float>(Shape{2}, {1000.0f, 1000.0f});
  CHECK(run1("Softmax", {big}).data<float>()[0] == doctest::Approx(0.5));
  CHECK_THROWS_WITH_AS(run1("Softmax", {Tensor::scalar(1.0f)}), "logits must have >= 1 dimension, got []",
                       InvalidArgumentError);
}

TEST_CASE("BiasAdd matches a naive loop (NHWC and NCHW)") {
  for (DType dt : kReals) {
    for (int trial = 0; trial < 8; ++trial) {
      bool nchw = trial % 3 == 2;
      Shape s;
      int rank = static_cast<int>(rnd(nchw ? 3 : 2, 4));
      for (int d = 0; d < rank; ++d) s.push_back(rnd(0, 4));
      int ch = nchw ? 1 : rank - 1;
      if (s.dim(ch) == 0) s.set_dim(ch, 2);
      Tensor v = sweep::random_tensor(dt, s);
      Tensor b = sweep::random_tensor(dt, Shape{s.dim(ch)});
      Tensor want(dt, s);
      int64_t inner = 1;
      for (int d = ch + 1; d < rank; ++d) inner *= s.dim(d);
      for (int64_t i = 0; i < v.num_elements(); ++i) {
        int64_t c = (i / inner) % s.dim(ch);
        put(want, i, sweep::element(v, i) + sweep::element(b, c));
      }
      if (dt == DType::Int8 || dt == DType::UInt8) {
        // Small values: no wrap-around in the reference.
      }
      Attrs attrs;
      if (nchw) attrs.set("data_format", std::string("NCHW"));
      sweep::expect_close(run1("BiasAdd", {v, b}, attrs), want,
                          std::string("BiasAdd ") + dtype_name(dt) + " " + s.str() + (nchw ? " NCHW" : ""), rtol(dt),
                          atol(dt));
    }
  }
  Tensor v = sweep::random_tensor(DType::Float32, Shape{2, 4});
  CHECK_THROWS_WITH_AS(run1("BiasAdd", {v, sweep::random_tensor(DType::Float32, Shape{3})}),
                       "Must provide as many biases as the last dimension of the input tensor: [3] vs. [2,4]",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("BiasAdd", {sweep::random_tensor(DType::Float32, Shape{3}),
                                        sweep::random_tensor(DType::Float32, Shape{3})}),
                       "Input tensor must be at least 2D: [3]", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("BiasAdd", {v, sweep::random_tensor(DType::Float32, Shape{2, 2})}),
                       "Biases must be 1D: [2,2]", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("BiasAdd", {v, sweep::random_tensor(DType::Int32, Shape{4})}),
                       "cannot compute BiasAdd as input #1(zero-based) was expected to be a float tensor but is a "
                       "int32 tensor",
                       InvalidArgumentError);
}

namespace {

struct ConvCase {
  int64_t n, h, w, c, kh, kw, fc, oc, sh, sw, dh, dw;
  std::string padding;
  std::vector<int64_t> pads;  // EXPLICIT: 8 values
};

// Output size and leading pad of one dim, straight from TF's documented rule.
void out_dim(int64_t in, int64_t k, int64_t s, int64_t d, const std::string& p, int64_t pb, int64_t pa,
             int64_t& out, int64_t& before) {
  int64_t eff = (k - 1) * d + 1;
  if (p == "VALID") { out = (in - eff + s) / s; before = 0; }
  else if (p == "EXPLICIT") { out = (in + pb + pa - eff + s) / s; before = pb; }
  else {
    out = (in + s - 1) / s;
    before = std::max<int64_t>(0, (out - 1) * s + eff - in) / 2;
  }
}

Tensor reference_conv(const Tensor& in, const Tensor& f, const ConvCase& c) {
  int64_t oh, ow, pt, pl;
  out_dim(c.h, c.kh, c.sh, c.dh, c.padding, c.pads.empty() ? 0 : c.pads[2], c.pads.empty() ? 0 : c.pads[3], oh, pt);
  out_dim(c.w, c.kw, c.sw, c.dw, c.padding, c.pads.empty() ? 0 : c.pads[4], c.pads.empty() ? 0 : c.pads[5], ow, pl);
  Tensor out(in.dtype(), Shape{c.n, oh, ow, c.oc});
  int64_t groups = c.c / c.fc, og = c.oc / groups;
  for (int64_t b = 0; b < c.n; ++b)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t o = 0; o < c.oc; ++o) {
          double s = 0;
          int64_t g = o / og;
          for (int64_t ky = 0; ky < c.kh; ++ky)
            for (int64_t kx = 0; kx < c.kw; ++kx)
              for (int64_t ci = 0; ci < c.fc; ++ci) {
                int64_t iy = y * c.sh - pt + ky * c.dh, ix = x * c.sw - pl + kx * c.dw;
                if (iy < 0 || iy >= c.h || ix < 0 || ix >= c.w) continue;
                s += sweep::element(in, ((b * c.h + iy) * c.w + ix) * c.c + g * c.fc + ci) *
                     sweep::element(f, ((ky * c.kw + kx) * c.fc + ci) * c.oc + o);
              }
          put(out, ((b * oh + y) * ow + x) * c.oc + o, s);
        }
  return out;
}

Attrs conv_attrs(const ConvCase& c) {
  Attrs a{{"strides", std::vector<int64_t>{1, c.sh, c.sw, 1}},
          {"dilations", std::vector<int64_t>{1, c.dh, c.dw, 1}},
          {"padding", c.padding}};
  if (!c.pads.empty()) a.set("explicit_paddings", c.pads);
  return a;
}

/// Conv2D of random float32 input and filter of the case's shapes, checked
/// against reference_conv; its output.
Tensor conv2d_matches_reference(const ConvCase& c, const char* what) {
  Tensor in = sweep::random_tensor(DType::Float32, Shape{c.n, c.h, c.w, c.c});
  Tensor f = sweep::random_tensor(DType::Float32, Shape{c.kh, c.kw, c.fc, c.oc});
  Tensor got = run1("Conv2D", {in, f}, conv_attrs(c));
  sweep::expect_close(got, reference_conv(in, f, c), what, 1e-5, 1e-5);
  return got;
}

}  // namespace

TEST_CASE("Conv2D matches a naive loop") {
  const DType types[] = {DType::Float32, DType::Float64, DType::BFloat16, DType::Int32};
  for (DType dt : types) {
    for (int trial = 0; trial < 25; ++trial) {
      ConvCase c{rnd(0, 2), rnd(1, 6), rnd(1, 6), 0, rnd(1, 3), rnd(1, 3), rnd(1, 3), 0,
                 rnd(1, 2), rnd(1, 2), rnd(1, 2), rnd(1, 2), "", {}};
      int64_t groups = trial % 4 == 3 ? 2 : 1;
      c.c = c.fc * groups;
      c.oc = groups * rnd(1, 3);
      int kind = static_cast<int>(rnd(0, 2));
      c.padding = kind == 0 ? "VALID" : kind == 1 ? "SAME" : "EXPLICIT";
      if (kind == 2) c.pads = {0, 0, rnd(0, 2), rnd(0, 2), rnd(0, 2), rnd(0, 2), 0, 0};
      if (trial == 1) c = ConvCase{1, 5, 5, 3, 1, 1, 3, 4, 1, 1, 1, 1, "SAME", {}};  // pointwise path
      int64_t eh = (c.kh - 1) * c.dh + 1, ew = (c.kw - 1) * c.dw + 1;
      int64_t ph = c.pads.empty() ? 0 : c.pads[2] + c.pads[3], pw = c.pads.empty() ? 0 : c.pads[4] + c.pads[5];
      if (c.padding != "SAME" && (eh > c.h + ph || ew > c.w + pw)) {
        c.padding = "SAME";
        c.pads.clear();
      }
      Tensor in = sweep::random_tensor(dt, Shape{c.n, c.h, c.w, c.c}, -3, 3);
      Tensor f = sweep::random_tensor(dt, Shape{c.kh, c.kw, c.fc, c.oc}, -3, 3);
      Tensor got = run1("Conv2D", {in, f}, conv_attrs(c));
      std::string what = std::string("Conv2D ") + dtype_name(dt) + " in " + in.shape().str() + " filter " +
                         f.shape().str() + " " + c.padding + " strides " + std::to_string(c.sh) + "," +
                         std::to_string(c.sw) + " dilations " + std::to_string(c.dh) + "," + std::to_string(c.dw);
      sweep::expect_close(got, reference_conv(in, f, c), what, rtol(dt), dt == DType::BFloat16 ? 0.3 : 1e-4);
    }
  }
  // Big enough for the 2-thread path, with SAME padding and a stride.
  ConvCase big{2, 31, 29, 16, 3, 3, 16, 20, 2, 1, 1, 1, "SAME", {}};
  Tensor in = sweep::random_tensor(DType::Float32, Shape{2, 31, 29, 16});
  Tensor f = sweep::random_tensor(DType::Float32, Shape{3, 3, 16, 20});
  sweep::expect_close(run1("Conv2D", {in, f}, conv_attrs(big)), reference_conv(in, f, big), "Conv2D big", 1e-4, 1e-3);
}

TEST_CASE("DepthwiseConv2dNative is a grouped Conv2D, each input channel by its own M filters") {
  for (DType dt : {DType::Float32, DType::Float64, DType::BFloat16}) {
    for (int trial = 0; trial < 20; ++trial) {
      const int64_t c = rnd(1, 4), m = rnd(1, 3);
      ConvCase k{rnd(1, 2), rnd(3, 7), rnd(3, 7), c, rnd(1, 3), rnd(1, 3), 1, c * m,
                 rnd(1, 2), rnd(1, 2), rnd(1, 2), rnd(1, 2), trial % 3 == 0 ? "VALID" : "SAME", {}};
      if (trial % 5 == 4) {
        k.padding = "EXPLICIT";
        k.pads = {0, 0, rnd(0, 2), rnd(0, 2), rnd(0, 2), rnd(0, 2), 0, 0};
      }
      if ((k.kh - 1) * k.dh + 1 > k.h || (k.kw - 1) * k.dw + 1 > k.w) k.padding = "SAME", k.pads.clear();
      Tensor in = sweep::random_tensor(dt, Shape{k.n, k.h, k.w, c}, -3, 3);
      Tensor f = sweep::random_tensor(dt, Shape{k.kh, k.kw, c, m}, -3, 3);
      // [KH, KW, C, M] is the grouped [KH, KW, 1, C·M] in memory: output channel c·M + m.
      Tensor want = reference_conv(in, f.reshaped(Shape{k.kh, k.kw, 1, c * m}), k);
      sweep::expect_close(run1("DepthwiseConv2dNative", {in, f}, conv_attrs(k)), want,
                          std::string("DepthwiseConv2dNative ") + dtype_name(dt) + " " + k.padding, rtol(dt),
                          dt == DType::BFloat16 ? 0.3 : 1e-4);
    }
  }
  Tensor in = sweep::random_tensor(DType::Float32, Shape{1, 4, 4, 3});
  ConvCase same{1, 4, 4, 3, 3, 3, 1, 6, 1, 1, 1, 1, "SAME", {}};
  CHECK_THROWS_WITH_AS(run1("DepthwiseConv2dNative", {in, sweep::random_tensor(DType::Float32, Shape{3, 3, 2, 2})},
                            conv_attrs(same)),
                       "input and filter must have the same depth: 3 vs 2", InvalidArgumentError);
}

TEST_CASE("Conv2D of a 1x1 filter with explicit padding after the input pads the output") {
  // The output is larger than the input: padding rows and columns read zeros
  // (the 1x1 shortcut, which multiplies the input as it is, does not apply).
  ConvCase c{1, 2, 3, 2, 1, 1, 2, 3, 1, 1, 1, 1, "EXPLICIT", {0, 0, 0, 1, 0, 2, 0, 0}};
  CHECK(conv2d_matches_reference(c, "Conv2D 1x1 EXPLICIT").shape().str() == "(1, 3, 5, 3)");
}

TEST_CASE("Conv2D with explicit padding wider than the filter: windows wholly in the padding read zeros") {
  // Found when the sweep's random draws changed: a 1x1 filter, stride 2,
  // two columns of padding before the input: the first window lies wholly
  // in the padding, and its zeros were written past its patch row.
  ConvCase c{1, 5, 2, 2, 1, 1, 2, 1, 2, 2, 1, 1, "EXPLICIT", {0, 0, 0, 0, 2, 1, 0, 0}};
  CHECK(conv2d_matches_reference(c, "Conv2D 1x1 stride 2, pads 2 and 1").shape().str() == "(1, 3, 3, 1)");
  // And a 3x3 filter with three columns of padding on each side.
  ConvCase wide{1, 3, 2, 1, 3, 3, 1, 2, 1, 1, 1, 1, "EXPLICIT", {0, 0, 1, 1, 3, 3, 0, 0}};
  conv2d_matches_reference(wide, "Conv2D 3x3, pads 3 and 3");
}

TEST_CASE("Conv2D errors") {
  Tensor in = sweep::random_tensor(DType::Float32, Shape{1, 4, 4, 3});
  Tensor f = sweep::random_tensor(DType::Float32, Shape{3, 3, 2, 4});
  ConvCase c{1, 4, 4, 3, 3, 3, 2, 4, 1, 1, 1, 1, "VALID", {}};
  CHECK_THROWS_WITH_AS(run1("Conv2D", {in, f}, conv_attrs(c)),
                       "input depth must be evenly divisible by filter depth: 3 vs 2", InvalidArgumentError);
  Tensor f5 = sweep::random_tensor(DType::Float32, Shape{5, 5, 3, 4});
  CHECK_THROWS_WITH_AS(run1("Conv2D", {in, f5}, Attrs{{"strides", std::vector<int64_t>{1, 1, 1, 1}},
                                                      {"padding", std::string("VALID")},
                                                      {"dilations", std::vector<int64_t>{1, 2, 2, 1}}}),
                       "Computed output size would be negative: -4 [input_size: 4, effective_filter_size: 9, stride: 1]",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Conv2D", {in, sweep::random_tensor(DType::Float32, Shape{3, 3, 3, 0})}, conv_attrs(c)),
                       "filter must not have zero elements (i.e. all dimensions must be non-zero)",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Conv2D", {sweep::random_tensor(DType::Float32, Shape{1, 4, 4, 0}), f}, conv_attrs(c)),
                       "number of groups must be stricly positive, got 0", InvalidArgumentError);
  // Grouped: output depth must split evenly across the groups.
  CHECK_THROWS_WITH_AS(run1("Conv2D", {sweep::random_tensor(DType::Float32, Shape{1, 4, 4, 4}),
                                       sweep::random_tensor(DType::Float32, Shape{3, 3, 2, 3})},
                            conv_attrs(c)),
                       "output depth must be evenly divisible by number of groups: 3 vs 2", InvalidArgumentError);
  // An empty batch is fine: an empty output.
  CHECK(run1("Conv2D", {sweep::random_tensor(DType::Float32, Shape{0, 4, 4, 2}), f}, conv_attrs(c)).shape().str() ==
        "(0, 2, 2, 4)");
  Tensor f3 = sweep::random_tensor(DType::Float32, Shape{3, 3, 3});
  CHECK_THROWS_WITH_AS(run1("Conv2D", {in, f3}, conv_attrs(c)), "filter must be 4-dimensional: [3,3,3]",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Conv2D", {sweep::random_tensor(DType::Float32, Shape{4, 4, 3}), f}, conv_attrs(c)),
                       "input must be 4-dimensional[4,4,3]", InvalidArgumentError);
  Tensor ok = sweep::random_tensor(DType::Float32, Shape{3, 3, 3, 4});
  CHECK_THROWS_WITH_AS(run1("Conv2D", {in, ok}, Attrs{{"strides", std::vector<int64_t>{1, 1, 1}},
                                                      {"padding", std::string("VALID")}}),
                       "Sliding window strides field must specify 4 dimensions", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Conv2D", {in, ok}, Attrs{{"strides", std::vector<int64_t>{2, 1, 1, 1}},
                                                      {"padding", std::string("VALID")}}),
                       "Current implementation does not yet support strides in the batch and depth dimensions.",
                       UnimplementedError);
  CHECK_THROWS_WITH_AS(run1("Conv2D", {in, ok}, Attrs{{"strides", std::vector<int64_t>{1, 1, 1, 1}},
                                                      {"padding", std::string("FULL")}}),
                       "Value for attr 'padding' of \"FULL\" is not in the list of allowed values: \"SAME\", "
                       "\"VALID\", \"EXPLICIT\"",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Conv2D", {in, ok}, Attrs{{"strides", std::vector<int64_t>{1, 1, 1, 1}},
                                                      {"padding", std::string("VALID")},
                                                      {"data_format", std::string("NCHW")}}),
                       "The Conv2D op currently only supports the NHWC tensor format on the CPU. The op was given the "
                       "format: NCHW",
                       UnimplementedError);
}

TEST_CASE("MaxPool and AvgPool match a naive loop") {
  for (bool is_max : {true, false}) {
    for (DType dt : kReals) {
      if (!is_max && !is_floating(dt)) continue;
      for (int trial = 0; trial < 12; ++trial) {
        int64_t n = rnd(0, 2), h = rnd(1, 6), w = rnd(1, 6), c = rnd(0, 3);
        int64_t kh = rnd(1, 3), kw = rnd(1, 3), sh = rnd(1, 3), sw = rnd(1, 3);
        bool same = sweep::rng()() % 2 || kh > h || kw > w;
        Tensor in = sweep::random_tensor(dt, Shape{n, h, w, c});
        Attrs attrs{{"ksize", std::vector<int64_t>{1, kh, kw, 1}},
                    {"strides", std::vector<int64_t>{1, sh, sw, 1}},
                    {"padding", std::string(same ? "SAME" : "VALID")}};
        int64_t oh, ow, pt, pl;
        out_dim(h, kh, sh, 1, same ? "SAME" : "VALID", 0, 0, oh, pt);
        out_dim(w, kw, sw, 1, same ? "SAME" : "VALID", 0, 0, ow, pl);
        Tensor want(dt, Shape{n, oh, ow, c});
        for (int64_t b = 0; b < n; ++b)
          for (int64_t y = 0; y < oh; ++y)
            for (int64_t x = 0; x < ow; ++x)
              for (int64_t d = 0; d < c; ++d) {
                double acc = is_max ? -INFINITY : 0;
                int64_t cnt = 0;
                for (int64_t ky = 0; ky < kh; ++ky)
                  for (int64_t kx = 0; kx < kw; ++kx) {
                    int64_t iy = y * sh - pt + ky, ix = x * sw - pl + kx;
                    if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                    double v = sweep::element(in, ((b * h + iy) * w + ix) * c + d);
                    acc = is_max ? std::max(acc, v) : acc + v;
                    ++cnt;
                  }
                put(want, ((b * oh + y) * ow + x) * c + d, is_max ? acc : acc / static_cast<double>(cnt));
              }
        const char* op = is_max ? "MaxPool" : "AvgPool";
        sweep::expect_close(run1(op, {in}, attrs), want,
                            std::string(op) + " " + dtype_name(dt) + " " + in.shape().str() + (same ? " SAME" : " VALID"),
                            rtol(dt), atol(dt));
      }
    }
  }
  Tensor in = sweep::random_tensor(DType::Float32, Shape{1, 4, 4, 1});
  auto pool = [&](const char* op, std::vector<int64_t> k, std::vector<int64_t> s, const char* pad, const Tensor& x) {
    return run1(op, {x}, Attrs{{"ksize", k}, {"strides", s}, {"padding", std::string(pad)}});
  };
  CHECK_THROWS_WITH_AS(pool("MaxPool", {1, 2, 2}, {1, 1, 1, 1}, "VALID", in),
                       "Sliding window ksize field must specify 4 dimensions", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(pool("AvgPool", {1, 2, 2, 1}, {1, 1, 1}, "VALID", in),
                       "Sliding window stride field must specify 4 dimensions", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(pool("MaxPool", {2, 2, 2, 1}, {1, 1, 1, 1}, "VALID", in),
                       "Pooling is not yet supported on the batch dimension.", UnimplementedError);
  CHECK_THROWS_WITH_AS(pool("MaxPool", {1, 6, 6, 1}, {1, 1, 1, 1}, "VALID", in),
                       "Computed output size would be negative: -1 [input_size: 4, effective_filter_size: 6, stride: 1]",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(pool("AvgPool", {1, 2, 2, 1}, {1, 1, 1, 1}, "VALID", sweep::random_tensor(DType::Float32, Shape{4, 4, 1})),
                       "tensor_in must be 4-dimensional", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(pool("AvgPool", {1, 2, 2, 1}, {1, 1, 1, 1}, "VALID", sweep::random_tensor(DType::Int32, Shape{1, 4, 4, 1})),
                       "Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, float, double",
                       InvalidArgumentError);
}
