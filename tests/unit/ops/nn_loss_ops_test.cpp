// Sweep cases for nn_loss_ops.cpp: the cross-entropy ops and FusedBatchNormV3
// against naive formulas (the running variance Bessel-corrected in training);
// error texts.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits", "FusedBatchNormV3");

namespace {

/// Row b's log-softmax at j.
double row_log_softmax(const Tensor& x, int64_t b, int64_t j) {
  const int64_t n = x.shape().dim(1);
  double m = -INFINITY;
  for (int64_t k = 0; k < n; ++k) m = std::max(m, sweep::element(x, b * n + k));
  double s = 0;
  for (int64_t k = 0; k < n; ++k) s += std::exp(sweep::element(x, b * n + k) - m);
  return sweep::element(x, b * n + j) - m - std::log(s);
}

}  // namespace

TEST_CASE("SoftmaxCrossEntropyWithLogits gives -sum(p log softmax(x)) and softmax(x) - p") {
  for (DType dt : {DType::Float32, DType::Float64}) {
    Tensor x = sweep::random_tensor(dt, Shape{4, 5}, -30, 30);  // large logits: the max is subtracted
    Tensor p = sweep::random_tensor(dt, Shape{4, 5}, 0, 1);
    std::vector<Tensor> out = runv("SoftmaxCrossEntropyWithLogits", {x, p});
    Tensor loss(dt, Shape{4}), backprop(dt, Shape{4, 5});
    for (int64_t b = 0; b < 4; ++b) {
      double l = 0;
      for (int64_t j = 0; j < 5; ++j) {
        l -= sweep::element(p, b * 5 + j) * row_log_softmax(x, b, j);
        put(backprop, b * 5 + j, std::exp(row_log_softmax(x, b, j)) - sweep::element(p, b * 5 + j));
      }
      put(loss, b, l);
    }
    sweep::expect_close(out[0], loss, "loss", 1e-5, 1e-4);
    sweep::expect_close(out[1], backprop, "backprop", 1e-5, 1e-6);
  }
  Tensor x = sweep::random_tensor(DType::Float32, Shape{2, 3});
  CHECK(error_of("SoftmaxCrossEntropyWithLogits", {x, sweep::random_tensor(DType::Float32, Shape{2, 4})}) ==
        "logits and labels must be broadcastable: logits_size=[2,3] labels_size=[2,4]");
  CHECK(error_of("SoftmaxCrossEntropyWithLogits", {sweep::random_tensor(DType::Float32, Shape{6}),
                                                   sweep::random_tensor(DType::Float32, Shape{6})}) ==
        "logits and labels must be either 2-dimensional, or broadcasted to be 2-dimensional");
}

TEST_CASE("SparseSoftmaxCrossEntropyWithLogits takes class ids, and names a label out of range") {
  for (DType it : {DType::Int32, DType::Int64}) {
    Tensor x = sweep::random_tensor(DType::Float64, Shape{3, 4}, -3, 3);
    Tensor labels(it, Shape{3});
    const int64_t ids[] = {2, 0, 3};
    for (int64_t b = 0; b < 3; ++b) put(labels, b, static_cast<double>(ids[b]));
    std::vector<Tensor> out = runv("SparseSoftmaxCrossEntropyWithLogits", {x, labels});
    for (int64_t b = 0; b < 3; ++b) {
      CHECK(sweep::element(out[0], b) == doctest::Approx(-row_log_softmax(x, b, ids[b])));
      for (int64_t j = 0; j < 4; ++j) {
        CHECK(sweep::element(out[1], b * 4 + j) ==
              doctest::Approx(std::exp(row_log_softmax(x, b, j)) - (j == ids[b] ? 1.0 : 0.0)));
      }
    }
  }
  Tensor x = sweep::random_tensor(DType::Float32, Shape{3, 4});
  CHECK(error_of("SparseSoftmaxCrossEntropyWithLogits", {x, Tensor::from_vector<int32_t>(Shape{3}, {0, 4, 1})}) ==
        "Received a label value of 4 which is outside the valid range of [0, 4).  Label values: 0 4 1");
  CHECK(error_of("SparseSoftmaxCrossEntropyWithLogits", {x, Tensor::from_vector<int64_t>(Shape{3}, {0, -1, 1})}) ==
        "Received a label value of -1 which is outside the valid range of [0, 4).  Label values: 0 -1 1");
  CHECK(error_of("SparseSoftmaxCrossEntropyWithLogits", {x, Tensor::from_vector<int32_t>(Shape{2}, {0, 1})}) ==
        "logits and labels must have the same first dimension, got logits shape [3,4] and labels shape [2]");
  CHECK(error_of("SparseSoftmaxCrossEntropyWithLogits", {x, Tensor::from_vector<int32_t>(Shape{3, 1}, {0, 1, 2})}) ==
        "labels must be 1-D, but got shape [3,1]");
}

TEST_CASE("FusedBatchNormV3 normalizes per channel; training returns Bessel-corrected running variance") {
  for (const char* format : {"NHWC", "NCHW"}) {
    const bool nchw = std::string(format) == "NCHW";
    Shape xs = nchw ? Shape{2, 3, 2, 2} : Shape{2, 2, 2, 3};
    Tensor x = sweep::random_tensor(DType::Float32, xs, -2, 2);
    Tensor scale = sweep::random_tensor(DType::Float32, Shape{3}, 0.5, 1.5);
    Tensor offset = sweep::random_tensor(DType::Float32, Shape{3}, -1, 1);
    Tensor mean = sweep::random_tensor(DType::Float32, Shape{3}, -1, 1);
    Tensor var = sweep::random_tensor(DType::Float32, Shape{3}, 0.5, 1.5);
    auto channel = [&](int64_t i) { return nchw ? (i / 4) % 3 : i % 3; };
    const double eps = 0.001;
    for (double factor : {1.0, 0.25}) {
      Attrs a{{"epsilon", eps}, {"is_training", true}, {"exponential_avg_factor", factor},
              {"data_format", std::string(format)}};
      std::vector<Tensor> out = runv("FusedBatchNormV3", {x, scale, offset, mean, var}, a);
      REQUIRE(out.size() == 6);
      for (int64_t c = 0; c < 3; ++c) {
        double s = 0, ss = 0;
        for (int64_t i = 0; i < 24; ++i) {
          if (channel(i) == c) s += sweep::element(x, i);
        }
        const double m = s / 8;
        for (int64_t i = 0; i < 24; ++i) {
          if (channel(i) == c) ss += (sweep::element(x, i) - m) * (sweep::element(x, i) - m);
        }
        const double v = ss / 8;
        CHECK(sweep::element(out[3], c) == doctest::Approx(m).epsilon(1e-5));
        CHECK(sweep::element(out[4], c) == doctest::Approx(v).epsilon(1e-5));
        CHECK(sweep::element(out[1], c) == doctest::Approx((1 - factor) * sweep::element(mean, c) + factor * m).epsilon(1e-5));
        CHECK(sweep::element(out[2], c) ==
              doctest::Approx((1 - factor) * sweep::element(var, c) + factor * v * 8 / 7).epsilon(1e-5));
        for (int64_t i = 0; i < 24; ++i) {
          if (channel(i) != c) continue;
          double want = (sweep::element(x, i) - m) / std::sqrt(v + eps) * sweep::element(scale, c) + sweep::element(offset, c);
          CHECK(sweep::element(out[0], i) == doctest::Approx(want).epsilon(1e-4));
        }
      }
    }
    // Inference uses the given statistics and returns them.
    Attrs a{{"epsilon", eps}, {"is_training", false}, {"data_format", std::string(format)}};
    std::vector<Tensor> out = runv("FusedBatchNormV3", {x, scale, offset, mean, var}, a);
    for (int64_t i = 0; i < 24; ++i) {
      int64_t c = channel(i);
      double want = (sweep::element(x, i) - sweep::element(mean, c)) / std::sqrt(sweep::element(var, c) + eps) *
                        sweep::element(scale, c) + sweep::element(offset, c);
      CHECK(sweep::element(out[0], i) == doctest::Approx(want).epsilon(1e-4));
    }
    sweep::expect_close(out[1], mean, "inference mean");
    sweep::expect_close(out[2], var, "inference variance");
  }
  // Training with factor 1 accepts empty running statistics (Keras passes them).
  Tensor x = sweep::random_tensor(DType::Float32, Shape{1, 2, 2, 2});
  Tensor two = sweep::random_tensor(DType::Float32, Shape{2});
  Tensor empty(DType::Float32, Shape{0});
  CHECK(runv("FusedBatchNormV3", {x, two, two, empty, empty}, Attrs{{"is_training", true}})[0].shape() == x.shape());
  CHECK(error_of("FusedBatchNormV3", {x, sweep::random_tensor(DType::Float32, Shape{3}), two, two, two}) ==
        "scale must have the same number of elements as the channels of x, got 3 and 2");
}

AG_SWEEP_COVERS("L2Loss");

TEST_CASE("L2Loss is half the sum of squares, a scalar, on every float dtype; integers are refused") {
  for (DType dt : {DType::Float32, DType::Float64, DType::BFloat16}) {
    for (int trial = 0; trial < 8; ++trial) {
      Shape s = sweep::random_shape(3, 4);
      Tensor t = sweep::random_tensor(dt, s, -2, 2);
      double want = 0;
      for (int64_t i = 0; i < t.num_elements(); ++i) want += sweep::element(t, i) * sweep::element(t, i);
      Tensor w(dt, Shape{});
      put(w, 0, want / 2);
      sweep::expect_close(run1("L2Loss", {t}), w, std::string("L2Loss ") + dtype_name(dt) + " " + s.str(),
                          dt == DType::BFloat16 ? 2e-2 : 1e-5, 1e-5);
    }
  }
  CHECK(error_of("L2Loss", {Tensor::scalar(int32_t{3})}) ==
        "Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, float, double");
}
