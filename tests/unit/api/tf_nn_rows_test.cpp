// tf.slice, tf.math.cumprod and the tf.nn rows: Python argument handling
// (axis moved last, outer dims flattened, the tuple fused_batch_norm
// returns, the 1-D functions over the 2-D ops), values worked out by hand,
// the node names TF gives while tracing, and TF's Python-level error texts.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/core/error.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/tracing.h"

using namespace ag;
namespace tf_api = ag::tf::api;

namespace {

Value matrix(const std::vector<std::vector<double>>& rows) {
  std::vector<Value> items;
  for (const auto& r : rows) {
    std::vector<Value> row;
    for (double v : r) row.push_back(Value(v));
    items.push_back(Value::list(row));
  }
  return tf_api::constant({Value::list(items)}, {});
}

Value ints(const std::vector<int64_t>& v) {
  std::vector<Value> items;
  for (int64_t x : v) items.push_back(Value(x));
  return Value::list(items);
}

Tensor tensor(const Value& v) { return v.as_tensor().value(); }

}  // namespace

TEST_CASE("tf.slice takes begin and size lists") {
  Value x = matrix({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
  Tensor t = tensor(tf_api::slice({x, ints({1, 1}), ints({-1, 1})}, {}));
  REQUIRE(t.shape() == Shape{2, 1});
  CHECK(t.data<float>()[0] == 5);
  CHECK(t.data<float>()[1] == 8);
}

TEST_CASE("tf.math.cumprod multiplies along an axis") {
  Value x = matrix({{1, 2, 3}, {4, 5, 6}});
  Tensor t = tensor(tf_api::cumprod({x}, {{"axis", Value(int64_t{1})}, {"exclusive", Value(true)}}));
  const float want[] = {1, 1, 2, 1, 4, 20};
  for (int i = 0; i < 6; ++i) CHECK(t.data<float>()[i] == want[i]);
}

TEST_CASE("tf.nn.softmax_cross_entropy_with_logits moves the class axis last") {
  Value logits = matrix({{1, 2}, {0, -1}, {3, 0.5}});
  Value labels = matrix({{0.5, 0}, {0.25, 1}, {0.25, 0}});
  // axis=0: the classes are the rows; one loss per column.
  Tensor loss =
      tensor(tf_api::softmax_cross_entropy_with_logits({}, {{"labels", labels}, {"logits", logits}, {"axis", Value(int64_t{0})}}));
  REQUIRE(loss.shape() == Shape{2});
  const double lse0 = std::log(std::exp(1.0) + std::exp(0.0) + std::exp(3.0));
  CHECK(loss.data<float>()[0] == doctest::Approx(0.5 * (lse0 - 1) + 0.25 * (lse0 - 0) + 0.25 * (lse0 - 3)).epsilon(1e-5));
}

TEST_CASE("tf.nn.sparse_softmax_cross_entropy_with_logits checks ranks in TF's words") {
  Value logits = matrix({{1, 2, 3}, {0, 0, 0}});
  Value labels = tf_api::constant({ints({2, 0})}, {});
  Tensor loss = tensor(tf_api::sparse_softmax_cross_entropy_with_logits({}, {{"labels", labels}, {"logits", logits}}));
  REQUIRE(loss.shape() == Shape{2});
  CHECK(loss.data<float>()[1] == doctest::Approx(std::log(3.0)));
  CHECK_THROWS_WITH_AS(tf_api::sparse_softmax_cross_entropy_with_logits({}, {{"labels", logits}, {"logits", logits}}),
                       "Rank mismatch: Rank of labels (received 2) should equal rank of logits minus 1 (received 2).",
                       ValueError);
}

TEST_CASE("tf.nn.fused_batch_norm returns (y, mean, variance)") {
  std::vector<Value> rows;
  for (int i = 0; i < 4; ++i) rows.push_back(Value::list({Value::list({Value(static_cast<double>(i)), Value(1.0)})}));
  Value x = tf_api::constant({Value::list({Value::list(rows)})}, {});  // [1, 4, 1, 2]
  Value scale = tf_api::constant({Value::list({Value(1.0), Value(1.0)})}, {});
  Value offset = tf_api::constant({Value::list({Value(0.0), Value(0.0)})}, {});
  Value out = tf_api::fused_batch_norm({x, scale, offset}, {});
  REQUIRE(out.items().size() == 3);
  CHECK(tensor(out.items()[1]).data<float>()[0] == doctest::Approx(1.5));
  // The running variance is Bessel-corrected: var([0, 1, 2, 3]) · 4/3.
  CHECK(tensor(out.items()[2]).data<float>()[0] == doctest::Approx(1.25 * 4 / 3));
  CHECK_THROWS_AS(tf_api::fused_batch_norm({x, scale, offset}, {{"is_training", Value(false)}}), ValueError);
}

// ---- The activations, the 1-D and transposed convolutions, the pools over
// any rank, and the nn_impl.py compositions. Expected values are worked out
// by hand in the comments; node names are TF's for the same Python.

namespace {

/// A float32 tensor of `v` reshaped to `shape`.
Value f32(const std::vector<double>& v, const std::vector<int64_t>& shape) {
  std::vector<Value> items;
  for (double x : v) items.push_back(Value(x));
  return tf_api::reshape({tf_api::constant({Value::list(items)}, {}), ints(shape)}, {});
}

std::vector<float> floats(const Value& v) {
  Tensor t = tensor(v);
  return std::vector<float>(t.data<float>(), t.data<float>() + t.num_elements());
}

/// The names of the nodes `f` adds to a graph traced on a float32
/// placeholder of `shape` (its argument), and the name of its result.
struct Traced {
  std::vector<std::string> names;
  std::string result;
  bool has(const std::string& n) const { return std::find(names.begin(), names.end(), n) != names.end(); }
};
Traced traced(const std::vector<int64_t>& shape, const std::function<Value(const Value&)>& f) {
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float32, Shape(shape)}, "x"));
  Traced t;
  t.result = f(x).as_tensor().output().node->name;
  for (const auto& n : g.nodes()) t.names.push_back(n->name);
  return t;
}

template <class E>
std::string error_text(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST_CASE("tf.nn.elu, tf.nn.selu and tf.nn.leaky_relu") {
  Value x = f32({-1, 0, 2}, {3});
  std::vector<float> elu = floats(tf_api::elu({x}, {}));
  CHECK(elu[0] == doctest::Approx(std::exp(-1.0) - 1));  // -0.63212055
  CHECK(elu[1] == 0.0f);
  CHECK(elu[2] == 2.0f);
  std::vector<float> selu = floats(tf_api::selu({x}, {}));
  CHECK(selu[0] == doctest::Approx(1.7580993408473768 * (std::exp(-1.0) - 1)));
  CHECK(selu[2] == doctest::Approx(2 * 1.0507009873554805));
  // alpha 0.2 by default; above 1 it is still a select, not a max.
  CHECK(floats(tf_api::leaky_relu({x}, {})) == std::vector<float>{-0.2f, 0.0f, 2.0f});
  CHECK(floats(tf_api::leaky_relu({x}, {{"alpha", Value(3.0)}})) == std::vector<float>{-3.0f, 0.0f, 2.0f});
  // Integer features become float32 first.
  Value i = tf_api::constant({ints({-5, 5})}, {});
  Value li = tf_api::leaky_relu({i, Value(0.5)}, {});
  REQUIRE(li.as_tensor().dtype() == DType::Float32);
  CHECK(floats(li) == std::vector<float>{-2.5f, 5.0f});
  CHECK(error_text<TypeError>([&] { tf_api::leaky_relu({x}, {{"alpha", x}}); }).starts_with("Expected float for argument 'alpha' not "));
  Traced t = traced({3}, [](const Value& v) { return tf_api::elu({v}, {}); });
  CHECK(t.result == "Elu");
  CHECK(traced({3}, [](const Value& v) { return tf_api::selu({v}, {}); }).result == "Selu");
  CHECK(traced({3}, [](const Value& v) { return tf_api::leaky_relu({v}, {}); }).result == "LeakyRelu");
  CHECK(traced({3}, [](const Value& v) { return tf_api::leaky_relu({v}, {{"name", Value("lr")}}); }).result == "lr");
}

TEST_CASE("tf.nn.conv1d is Conv2D over a height of 1, under TF's names") {
  Value x = f32({1, 2, 3, 4}, {1, 4, 1});
  Value w = f32({1, 0, -1}, {3, 1, 1});  // [width, in, out]
  // VALID: y[i] = x[i] - x[i + 2].
  Value valid = tf_api::conv1d({x, w, Value(int64_t{1}), Value("VALID")}, {});
  CHECK(tensor(valid).shape() == Shape{1, 2, 1});
  CHECK(floats(valid) == std::vector<float>{-2, -2});
  // SAME: one zero each side: y[i] = x[i - 1] - x[i + 1].
  CHECK(floats(tf_api::conv1d({x, w, Value(int64_t{1}), Value("SAME")}, {})) == std::vector<float>{-2, -2, -2, 3});
  // Stride 2, SAME: one zero after: y = [x0 - x2, x2 - 0].
  CHECK(floats(tf_api::conv1d({x, w, Value(int64_t{2}), Value("SAME")}, {})) == std::vector<float>{-2, 3});
  Traced t = traced({1, 4, 1}, [&](const Value& v) { return tf_api::conv1d({v, w, Value(int64_t{1}), Value("VALID")}, {}); });
  CHECK(t.result == "conv1d/Squeeze");
  CHECK(t.has("conv1d/ExpandDims"));
  CHECK(t.has("conv1d/ExpandDims_1"));
  CHECK(t.has("conv1d"));
  Traced named = traced({1, 4, 1}, [&](const Value& v) {
    return tf_api::conv1d({v, w, Value(int64_t{1}), Value("VALID")}, {{"name", Value("enc")}});
  });
  CHECK(named.result == "enc/Squeeze");
  CHECK(named.has("enc"));
  CHECK(error_text<ValueError>([&] {
          tf_api::conv1d({x, w, Value(int64_t{1}), Value("VALID")}, {{"data_format", Value("NCHWX")}});
        }) == "`data_format` must be 'NWC' or 'NCW'. Received: data_format=NCHWX");
  CHECK(error_text<ValueError>([&] { tf_api::conv1d({x, w, ints({1, 1}), Value("VALID")}, {}); }) ==
        "stride should be of length 1, 1 or 3 but was 2");
}

TEST_CASE("tf.nn.conv2d_transpose and tf.nn.conv1d_transpose are Conv2DBackpropInput") {
  Value x = f32({1, 2, 3, 4}, {1, 2, 2, 1});
  Value w = f32({1, 2, 3, 4}, {2, 2, 1, 1});  // [h, w, out, in]
  // Stride 2, VALID: each input pixel scatters x·w into its own 2x2 block.
  Value y = tf_api::conv2d_transpose({x, w, ints({1, 4, 4, 1}), Value(int64_t{2})}, {{"padding", Value("VALID")}});
  CHECK(tensor(y).shape() == Shape{1, 4, 4, 1});
  CHECK(floats(y) == std::vector<float>{1, 2, 2, 4, 3, 4, 6, 8, 3, 6, 4, 8, 9, 12, 12, 16});
  // Stride 1, SAME (the forward pads after): out[p, q] sums x[i, j]·w[p - i, q - j].
  CHECK(floats(tf_api::conv2d_transpose({x, w, ints({1, 2, 2, 1}), Value(int64_t{1})}, {})) ==
        std::vector<float>{1, 4, 6, 20});
  CHECK(traced({1, 2, 2, 1}, [&](const Value& v) {
          return tf_api::conv2d_transpose({v, w, ints({1, 4, 4, 1}), Value(int64_t{2})}, {{"padding", Value("VALID")}});
        }).result == "conv2d_transpose");
  CHECK(error_text<ValueError>([&] { tf_api::conv2d_transpose({x, w, ints({1, 4, 4, 1}), ints({1, 2, 2})}, {}); }) ==
        "strides should be of length 1, 2 or 4 but was 3");
  CHECK(error_text<ValueError>([&] {
          tf_api::conv2d_transpose({x, w, ints({1, 4, 4, 1}), Value(int64_t{2})}, {{"padding", Value("EXPLICIT")}});
        }) == "'EXPLICIT' is not a valid value for `padding`. To use explicit padding, `padding` must be a list.");
  Value bad_pads = Value::list({ints({0, 0}), ints({1, 1})});
  CHECK(error_text<ValueError>([&] {
          tf_api::conv2d_transpose({x, w, ints({1, 4, 4, 1}), Value(int64_t{2})}, {{"padding", bad_pads}});
        }) == "When padding is a list, it must be of size 4. Received: padding=[[0, 0], [1, 1]] of size 2");
  // 1-D: input [1, 2, 1] = [1, 2], filter [width, out, in] = [1, 3]: out[2i + a] = x[i]·w[a].
  Value x1 = f32({1, 2}, {1, 2, 1});
  Value w1 = f32({1, 3}, {2, 1, 1});
  Value y1 = tf_api::conv1d_transpose({x1, w1, ints({1, 4, 1}), Value(int64_t{2})}, {{"padding", Value("VALID")}});
  CHECK(tensor(y1).shape() == Shape{1, 4, 1});
  CHECK(floats(y1) == std::vector<float>{1, 3, 2, 6});
  Traced t = traced({1, 2, 1}, [&](const Value& v) {
    return tf_api::conv1d_transpose({v, w1, ints({1, 4, 1}), Value(int64_t{2})}, {{"padding", Value("VALID")}});
  });
  CHECK(t.result == "conv1d_transpose/Squeeze");
  CHECK(t.has("conv1d_transpose"));
  CHECK(t.has("conv1d_transpose/concat"));
}

TEST_CASE("tf.nn.max_pool1d, avg_pool1d, and max_pool/avg_pool by the input's rank") {
  Value x = f32({1, 3, 2, 5, 4}, {1, 5, 1});
  // Windows [1, 3], [2, 5] (VALID); SAME adds [4] (one padding element after, not counted).
  CHECK(floats(tf_api::max_pool1d({x, Value(int64_t{2}), Value(int64_t{2}), Value("VALID")}, {})) == std::vector<float>{3, 5});
  CHECK(floats(tf_api::avg_pool1d({x, Value(int64_t{2}), Value(int64_t{2}), Value("VALID")}, {})) == std::vector<float>{2, 3.5});
  CHECK(floats(tf_api::max_pool1d({x, Value(int64_t{2}), Value(int64_t{2}), Value("SAME")}, {})) == std::vector<float>{3, 5, 4});
  CHECK(floats(tf_api::avg_pool1d({x, Value(int64_t{2}), Value(int64_t{2}), Value("SAME")}, {})) ==
        std::vector<float>{2, 3.5, 4});
  CHECK(floats(tf_api::max_pool({x, Value(int64_t{2}), Value(int64_t{2}), Value("SAME")}, {})) == std::vector<float>{3, 5, 4});
  CHECK(floats(tf_api::avg_pool({x, ints({1, 2, 1}), ints({1, 2, 1}), Value("VALID")}, {})) == std::vector<float>{2, 3.5});
  Traced m = traced({1, 5, 1}, [](const Value& v) {
    return tf_api::max_pool1d({v, Value(int64_t{2}), Value(int64_t{2}), Value("VALID")}, {});
  });
  CHECK(m.result == "MaxPool1d/Squeeze");
  CHECK(m.has("MaxPool1d/ExpandDims"));
  CHECK(m.has("MaxPool1d"));
  CHECK(traced({1, 5, 1}, [](const Value& v) {
          return tf_api::avg_pool({v, Value(int64_t{2}), Value(int64_t{2}), Value("VALID")}, {});
        }).result == "AvgPool1D/Squeeze");
  // Rank 4: the 2-D ops, named as max_pool2d and gen_nn_ops.avg_pool name them.
  Value x2 = f32({1, 2, 3, 4}, {1, 2, 2, 1});
  CHECK(floats(tf_api::max_pool({x2, Value(int64_t{2}), Value(int64_t{2}), Value("VALID")}, {})) == std::vector<float>{4});
  CHECK(floats(tf_api::avg_pool({x2, Value(int64_t{2}), Value(int64_t{2}), Value("VALID")}, {})) == std::vector<float>{2.5});
  CHECK(traced({1, 2, 2, 1}, [](const Value& v) {
          return tf_api::max_pool({v, Value(int64_t{2}), Value(int64_t{2}), Value("VALID")}, {});
        }).result == "MaxPool2d");
  CHECK(traced({1, 2, 2, 1}, [](const Value& v) {
          return tf_api::avg_pool({v, Value(int64_t{2}), Value(int64_t{2}), Value("VALID")}, {});
        }).result == "AvgPool");
  CHECK(error_text<ValueError>([&] {
          tf_api::max_pool({f32({1, 2, 3, 4, 5, 6}, {2, 3}), Value(int64_t{2}), Value(int64_t{2}), Value("VALID")}, {});
        }) == "`input.shape.rank` must be 3, 4 or 5. Received: input.shape=(2, 3) of rank 2.");
  CHECK(error_text<ValueError>([&] { tf_api::max_pool1d({x, ints({2, 2}), Value(int64_t{2}), Value("VALID")}, {}); }) ==
        "ksize should be of length 1, 1 or 3 but was 2");
  CHECK_THROWS_AS(tf_api::avg_pool({f32({1}, {1, 1, 1, 1, 1}), Value(int64_t{1}), Value(int64_t{1}), Value("VALID")}, {}),
                  UnimplementedError);
  // NCW is NCHW for the 2-D op, which the CPU does not pool (TF's kernel error).
  CHECK(error_text<InvalidArgumentError>([&] {
          tf_api::max_pool1d({f32({1, 2, 3, 4}, {1, 1, 4}), Value(int64_t{2}), Value(int64_t{2}), Value("VALID")},
                             {{"data_format", Value("NCW")}});
        }).starts_with("Default MaxPoolingOp only supports NHWC on device type CPU"));
}

TEST_CASE("tf.nn.sigmoid_cross_entropy_with_logits is TF's stable formula under logistic_loss") {
  // TF's docstring example.
  Value logits = f32({1, -1, 0, 1, -1, 0, 0}, {7});
  Value labels = f32({0, 0, 0, 1, 1, 1, 0.5}, {7});
  std::vector<float> loss = floats(tf_api::sigmoid_cross_entropy_with_logits({}, {{"labels", labels}, {"logits", logits}}));
  // log(1 + e) = 1.3132617, log(1 + 1/e) = 0.3132617, log 2 = 0.6931472.
  const double want[] = {1.3132616875182228, 0.31326168751822286, 0.6931471805599453, 0.31326168751822286,
                         1.3132616875182228, 0.6931471805599453, 0.6931471805599453};
  for (int i = 0; i < 7; ++i) CHECK(loss[static_cast<size_t>(i)] == doctest::Approx(want[i]).epsilon(1e-6));
  // Far logits stay finite: max(x, 0) - x·z + log1p(exp(-|x|)).
  std::vector<float> far = floats(tf_api::sigmoid_cross_entropy_with_logits(
      {}, {{"labels", f32({1, 0, 1}, {3})}, {"logits", f32({1000, -1000, -1000}, {3})}}));
  CHECK(far[0] == 0.0f);
  CHECK(far[1] == 0.0f);
  CHECK(far[2] == 1000.0f);
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float32, Shape{3}}, "x"));
  Value z(g.placeholder({DType::Float32, Shape{3}}, "z"));
  CHECK(tf_api::sigmoid_cross_entropy_with_logits({}, {{"labels", z}, {"logits", x}}).as_tensor().output().node->name ==
        "logistic_loss");
  std::vector<std::string> names;
  for (const auto& n : g.nodes()) names.push_back(n->name);
  for (const char* n : {"logistic_loss/zeros_like", "logistic_loss/GreaterEqual", "logistic_loss/SelectV2",
                        "logistic_loss/Neg", "logistic_loss/SelectV2_1", "logistic_loss/mul", "logistic_loss/sub",
                        "logistic_loss/Exp", "logistic_loss/Log1p"}) {
    INFO(n);
    CHECK(std::find(names.begin(), names.end(), n) != names.end());
  }
  CHECK(error_text<ValueError>([&] {
          tf_api::sigmoid_cross_entropy_with_logits({}, {{"labels", f32({1, 0}, {2})}, {"logits", f32({1, 2, 3}, {3})}});
        }) == "`logits` and `labels` must have the same shape, received ((3,) vs (2,)).");
  CHECK(error_text<ValueError>([&] { tf_api::sigmoid_cross_entropy_with_logits({}, {{"logits", logits}}); })
            .starts_with("Both `labels` and `logits` must be provided for sigmoid_cross_entropy_with_logitsReceived: "
                         "labels=None and logits=tf.Tensor("));
}

TEST_CASE("tf.nn.batch_normalization is x·inv + (offset - mean·inv) under batchnorm") {
  Value x = f32({1, 2, 3, 4}, {4});
  // variance + epsilon = 3.75 + 0.25 = 4, rsqrt 0.5, times scale 2 is 1: y = x + (0.5 - 2.5).
  CHECK(floats(tf_api::batch_normalization({x, Value(2.5), Value(3.75), Value(0.5), Value(2.0), Value(0.25)}, {})) ==
        std::vector<float>{-1, 0, 1, 2});
  // No offset, no scale: x·0.5 - 2.5·0.5.
  CHECK(floats(tf_api::batch_normalization({x, Value(2.5), Value(3.75), Value(), Value(), Value(0.25)}, {})) ==
        std::vector<float>{-0.75f, -0.25f, 0.25f, 0.75f});
  Value mean = f32({2.5}, {1}), var = f32({3.75}, {1}), offset = f32({0.5}, {1}), scale = f32({2}, {1});
  Graph g("f");
  TraceScope scope(g);
  Value xs(g.placeholder({DType::Float32, Shape{4}}, "x"));
  CHECK(tf_api::batch_normalization({xs, mean, var, offset, scale, Value(0.25)}, {}).as_tensor().output().node->name ==
        "batchnorm/add_1");
  std::vector<std::string> names;
  for (const auto& n : g.nodes()) names.push_back(n->name);
  for (const char* n : {"batchnorm/add", "batchnorm/Rsqrt", "batchnorm/mul", "batchnorm/mul_1", "batchnorm/mul_2",
                        "batchnorm/sub"}) {
    INFO(n);
    CHECK(std::find(names.begin(), names.end(), n) != names.end());
  }
}

TEST_CASE("tf.nn.weighted_moments: frequency-weighted mean and variance, div_no_nan for zero weights") {
  Value x = f32({1, 2, 3, 4}, {4});
  // Weights 1, 1, 2, 0: mean (1 + 2 + 6) / 4 = 2.25; variance
  // (1.5625 + 0.0625 + 2·0.5625) / 4 = 0.6875.
  Value m = tf_api::weighted_moments({x, ints({0}), f32({1, 1, 2, 0}, {4})}, {});
  REQUIRE(m.items().size() == 2);
  CHECK(tensor(m.items()[0]).shape() == Shape{});
  CHECK(floats(m.items()[0])[0] == 2.25f);
  CHECK(floats(m.items()[1])[0] == 0.6875f);
  Value kept = tf_api::weighted_moments({x, ints({0}), f32({1, 1, 2, 0}, {4})}, {{"keepdims", Value(true)}});
  CHECK(tensor(kept.items()[0]).shape() == Shape{1});
  Value zero = tf_api::weighted_moments({x, ints({0}), f32({0, 0, 0, 0}, {4})}, {});
  CHECK(floats(zero.items()[0])[0] == 0.0f);
  CHECK(floats(zero.items()[1])[0] == 0.0f);
  // Weights [1, 3] broadcast over the rows of [[1, 2], [3, 4]]: means 1.75
  // and 3.75, variances (0.75² + 3·0.25²) / 4 = 0.1875.
  Value rows = tf_api::weighted_moments({f32({1, 2, 3, 4}, {2, 2}), ints({1}), f32({1, 3}, {2})}, {});
  CHECK(floats(rows.items()[0]) == std::vector<float>{1.75f, 3.75f});
  CHECK(floats(rows.items()[1]) == std::vector<float>{0.1875f, 0.1875f});
  // Integer weights take x's dtype.
  Value iw = tf_api::weighted_moments({x, ints({0}), tf_api::constant({ints({1, 1, 2, 0})}, {})}, {});
  CHECK(floats(iw.items()[0])[0] == 2.25f);
}
