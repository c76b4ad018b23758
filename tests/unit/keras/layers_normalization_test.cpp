// tf.keras normalization layers (runtime/keras/layers_normalization.cpp)
// against the formulas computed here in double:
// - BatchNormalization's two paths as Keras 2.15 takes them: a 2-D input
//   (tf.nn.moments; moving -= (moving - batch)·0.01, variance biased) and a
//   4-D one (FusedBatchNormV3; moving = 0.99·moving + 0.01·batch, variance
//   Bessel-corrected by n / (n - 1)); inference with the moving statistics,
//   training=None and trainable=False as inference, a step in a tf.function
//   updating as eagerly, gradients against finite differences, weights and
//   Keras's texts;
// - LayerNormalization over trailing axes (the fused view) and others.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/keras/layer.h"
#include "tests/unit/error_text.h"
#include "tests/unit/keras/layer_support.h"

using namespace ag;
using namespace ag::test;

namespace {

Value constant_init(double v) { return tf::api::keras_initializers_Constant()({Value(v)}, {}); }

/// Per-channel statistics of x viewed as [rows, channels].
struct ChannelStats {
  std::vector<double> mean, var;  // var biased
};

ChannelStats channel_stats(const std::vector<float>& x, size_t channels) {
  const size_t rows = x.size() / channels;
  ChannelStats s{std::vector<double>(channels, 0.0), std::vector<double>(channels, 0.0)};
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < channels; ++c) s.mean[c] += x[r * channels + c];
  for (double& m : s.mean) m /= static_cast<double>(rows);
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < channels; ++c) {
      double d = x[r * channels + c] - s.mean[c];
      s.var[c] += d * d;
    }
  for (double& v : s.var) v /= static_cast<double>(rows);
  return s;
}

std::vector<double> normalized(const std::vector<float>& x, size_t channels, const std::vector<double>& mean,
                               const std::vector<double>& var, double gamma, double beta, double eps) {
  std::vector<double> y;
  for (size_t i = 0; i < x.size(); ++i) {
    size_t c = i % channels;
    y.push_back((x[i] - mean[c]) / std::sqrt(var[c] + eps) * gamma + beta);
  }
  return y;
}

Value batch_norm(Kwargs kwargs) {
  kwargs.emplace_back("gamma_initializer", constant_init(1.5));
  kwargs.emplace_back("beta_initializer", constant_init(0.25));
  return make_layer(tf::api::keras_layers_BatchNormalization(), {}, std::move(kwargs));
}

}  // namespace

TEST_CASE("BatchNormalization on a 2-D input: batch statistics in training, moving ones (biased variance) after") {
  std::vector<float> xv = {1, 2, -1, 3, 0, 4, -2, 5, 2, 6, 1, 0};
  Value x = tensor_of(xv, {4, 3});
  Value bn = batch_norm({{"name", Value("bn")}});
  ChannelStats s = channel_stats(xv, 3);
  Value y = bn({x}, {{"training", Value(true)}});
  CHECK(all_close(values_of(y), normalized(xv, 3, s.mean, s.var, 1.5, 0.25, 1e-3), 1e-5));
  CHECK(weight_names(bn) ==
        std::vector<std::string>{"bn/gamma:0", "bn/beta:0", "bn/moving_mean:0", "bn/moving_variance:0"});
  CHECK(weight_shapes(bn) == std::vector<std::string>{"(3,)", "(3,)", "(3,)", "(3,)"});
  CHECK(bn.getattr("trainable_weights").items().size() == 2);
  CHECK(bn.getattr("non_trainable_weights").items().size() == 2);
  // moving -= (moving - batch)·0.01, from 0 and 1.
  std::vector<double> mm, mv;
  for (size_t c = 0; c < 3; ++c) {
    mm.push_back(0.01 * s.mean[c]);
    mv.push_back(1 - (1 - s.var[c]) * 0.01);
  }
  CHECK(all_close(values_of(bn.getattr("moving_mean")), mm, 1e-6));
  CHECK(all_close(values_of(bn.getattr("moving_variance")), mv, 1e-6));
  // Inference (training=False, or None: Keras's learning phase 0) uses them and changes nothing.
  std::vector<double> inference = normalized(xv, 3, mm, mv, 1.5, 0.25, 1e-3);
  CHECK(all_close(values_of(bn({x}, {{"training", Value(false)}})), inference, 1e-5));
  CHECK(all_close(values_of(bn({x})), inference, 1e-5));
  CHECK(all_close(values_of(bn.getattr("moving_mean")), mm, 1e-6));
  // A frozen layer runs in inference mode even when told to train, and updates nothing.
  bn.setattr("trainable", Value(false));
  CHECK(all_close(values_of(bn({x}, {{"training", Value(true)}})), inference, 1e-5));
  CHECK(all_close(values_of(bn.getattr("moving_variance")), mv, 1e-6));
  CHECK(bn.getattr("trainable_weights").items().empty());
  // A mask weights the statistics (tf.nn.weighted_moments): rows 0 and 1 only.
  Value masked = batch_norm({});
  Value mask = tf::constant(Value::list({Value(true), Value(true), Value(false), Value(false)}));
  ChannelStats firsts = channel_stats({1, 2, -1, 3, 0, 4}, 3);
  CHECK(all_close(values_of(masked({x}, {{"training", Value(true)}, {"mask", mask}})),
                  normalized(xv, 3, firsts.mean, firsts.var, 1.5, 0.25, 1e-3), 1e-5));
}

TEST_CASE("BatchNormalization on NHWC takes the fused path: the moving variance gets the unbiased one") {
  std::vector<float> xv = lcg_values(2 * 2 * 2 * 3, 9);
  Value x = tensor_of(xv, {2, 2, 2, 3});
  Value bn = batch_norm({{"momentum", Value(0.9)}});
  ChannelStats s = channel_stats(xv, 3);
  Value y = bn({x}, {{"training", Value(true)}});
  CHECK(truthy(bn.getattr("fused")));
  CHECK(all_close(values_of(y), normalized(xv, 3, s.mean, s.var, 1.5, 0.25, 1e-3), 1e-5));
  // FusedBatchNormV3 with exponential_avg_factor 0.1: 0.9·moving + 0.1·batch, the variance times 8/7.
  std::vector<double> mm, mv;
  for (size_t c = 0; c < 3; ++c) {
    mm.push_back(0.1 * s.mean[c]);
    mv.push_back(0.9 + 0.1 * s.var[c] * 8.0 / 7.0);
  }
  CHECK(all_close(values_of(bn.getattr("moving_mean")), mm, 1e-6));
  CHECK(all_close(values_of(bn.getattr("moving_variance")), mv, 1e-6));
  CHECK(all_close(values_of(bn({x}, {{"training", Value(false)}})), normalized(xv, 3, mm, mv, 1.5, 0.25, 1e-3), 1e-5));
  // axis=1 on a 4-D input is NCHW: the statistics per axis-1 channel.
  Value nchw = make_layer(tf::api::keras_layers_BatchNormalization(), {Value(1)});
  Value xt = tf::transpose(x, Value::list({Value(0), Value(3), Value(1), Value(2)}));
  Value yt = nchw({xt}, {{"training", Value(true)}});
  CHECK(all_close(values_of(tf::transpose(yt, Value::list({Value(0), Value(2), Value(3), Value(1)}))),
                  normalized(xv, 3, s.mean, s.var, 1.0, 0.0, 1e-3), 1e-5));
  // A 5-D input (NDHWC) is fused too: 16 values per channel, the variance times 16/15.
  std::vector<float> v5 = lcg_values(2 * 2 * 2 * 2 * 3, 10);
  Value bn5 = batch_norm({});
  ChannelStats s5 = channel_stats(v5, 3);
  CHECK(all_close(values_of(bn5({tensor_of(v5, {2, 2, 2, 2, 3})}, {{"training", Value(true)}})),
                  normalized(v5, 3, s5.mean, s5.var, 1.5, 0.25, 1e-3), 1e-5));
  std::vector<double> mv5;
  for (size_t c = 0; c < 3; ++c) mv5.push_back(0.99 + 0.01 * s5.var[c] * 16.0 / 15.0);
  CHECK(all_close(values_of(bn5.getattr("moving_variance")), mv5, 1e-6));
  // fused=False on the 4-D input: the moments path, the variance biased.
  Value plain = make_layer(tf::api::keras_layers_BatchNormalization(), {}, {{"fused", Value(false)}});
  plain({x}, {{"training", Value(true)}});
  std::vector<double> biased;
  for (size_t c = 0; c < 3; ++c) biased.push_back(1 - (1 - s.var[c]) * 0.01);
  CHECK(all_close(values_of(plain.getattr("moving_variance")), biased, 1e-6));
  // center=False, scale=False: only the moving statistics are weights.
  Value bare = make_layer(tf::api::keras_layers_BatchNormalization(), {},
                          {{"center", Value(false)}, {"scale", Value(false)}, {"name", Value("bare")}});
  CHECK(all_close(values_of(bare({x}, {{"training", Value(true)}})), normalized(xv, 3, s.mean, s.var, 1, 0, 1e-3), 1e-5));
  CHECK(weight_names(bare) == std::vector<std::string>{"bare/moving_mean:0", "bare/moving_variance:0"});
}

TEST_CASE("BatchNormalization's training step in a tf.function updates the moving statistics as eagerly") {
  for (int rank : {2, 4}) {
    CAPTURE(rank);
    std::vector<int64_t> shape = rank == 2 ? std::vector<int64_t>{6, 4} : std::vector<int64_t>{2, 3, 1, 4};
    Value x = tensor_of(lcg_values(24, 12), shape);
    Value eager = batch_norm({});
    Value traced = batch_norm({});
    Value step = traced_function({"x"}, [&](const std::vector<Value>& a) {
      return traced({a[0]}, {{"training", Value(true)}});
    });
    for (int i = 0; i < 3; ++i) {
      Value ye = eager({x}, {{"training", Value(true)}});
      Value yt = step({x});
      CHECK(all_close(values_of(yt), widen_values(values_of(ye)), 1e-6));
    }
    CHECK(all_close(values_of(traced.getattr("moving_mean")), widen_values(values_of(eager.getattr("moving_mean"))), 1e-6));
    CHECK(all_close(values_of(traced.getattr("moving_variance")),
                    widen_values(values_of(eager.getattr("moving_variance"))), 1e-6));
    Value infer = traced_function({"x"}, [&](const std::vector<Value>& a) { return traced({a[0]}); });
    CHECK(all_close(values_of(infer({x})), widen_values(values_of(eager({x}))), 1e-6));
  }
}

TEST_CASE("BatchNormalization's and LayerNormalization's gradients match finite differences") {
  struct Case {
    const char* what;
    std::vector<int64_t> shape;
    bool layer_norm;
    Kwargs kwargs;
  };
  std::vector<Case> cases = {{"batch norm 2-D", {5, 3}, false, {}},
                             {"batch norm NHWC", {2, 2, 2, 3}, false, {}},
                             {"layer norm last axis", {2, 2, 3}, true, {}},
                             {"layer norm axis 1", {2, 3, 2}, true, {{"axis", Value(1)}}}};
  for (Case& cs : cases) {
    CAPTURE(cs.what);
    size_t n = 1;
    for (int64_t d : cs.shape) n *= static_cast<size_t>(d);
    std::vector<float> xv = lcg_values(n, 21);
    Value layer;
    if (cs.layer_norm) {
      cs.kwargs.emplace_back("gamma_initializer", constant_init(1.5));
      cs.kwargs.emplace_back("beta_initializer", constant_init(0.25));
      layer = make_layer(tf::api::keras_layers_LayerNormalization(), {}, cs.kwargs);
    } else {
      layer = batch_norm(cs.kwargs);
    }
    Kwargs train{{"training", Value(true)}};
    if (cs.layer_norm) train.clear();
    Value x = tensor_of(xv, cs.shape);
    layer({x}, train);
    Value gamma = layer.getattr("gamma"), beta = layer.getattr("beta");
    std::vector<Value> g = tape_gradients([&] { return weighted_sum(layer({x}, train)); }, {x, gamma, beta}, {x});
    auto at_x = [&](const std::vector<float>& v) { return keras::host_scalar(weighted_sum(layer({tensor_of(v, cs.shape)}, train))); };
    CHECK(all_close(values_of(g[0]), numeric_gradient(at_x, xv), 3e-3));
    for (int which = 1; which <= 2; ++which) {
      Value var = which == 1 ? gamma : beta;
      std::vector<float> start = values_of(var);
      std::vector<int64_t> vshape;
      for (const Value& d : iterate(var.getattr("shape"))) vshape.push_back(d.as_int());
      auto at_var = [&](const std::vector<float>& v) {
        variable_value::assign(var, tensor_of(v, vshape), variable_value::AssignOp::Assign);
        return keras::host_scalar(weighted_sum(layer({x}, train)));
      };
      CHECK(all_close(values_of(g[static_cast<size_t>(which)]), numeric_gradient(at_var, start), 3e-3));
      variable_value::assign(var, tensor_of(start, vshape), variable_value::AssignOp::Assign);
    }
  }
}

TEST_CASE("LayerNormalization normalizes each sample over its axes") {
  std::vector<float> xv = lcg_values(2 * 3 * 4, 17);
  Value x = tensor_of(xv, {2, 3, 4});
  auto ln = [](Kwargs kw) {
    kw.emplace_back("gamma_initializer", constant_init(2.0));
    kw.emplace_back("beta_initializer", constant_init(-0.5));
    return make_layer(tf::api::keras_layers_LayerNormalization(), {}, std::move(kw));
  };
  // Rows of 4 (axis -1), of 12 (axes 1 and 2): statistics per group of consecutive values.
  for (auto [kw, group] : std::vector<std::pair<Kwargs, size_t>>{
           {{}, 4},
           {{{"axis", Value::list({Value(1), Value(2)})}}, 12},
           {{{"epsilon", Value(1e-6)}}, 4}}) {
    Value layer = ln(kw);
    std::vector<double> want;
    const double eps = group == 4 && kw.size() == 1 ? 1e-6 : 1e-3;
    for (size_t start = 0; start < xv.size(); start += group) {
      std::vector<float> part(xv.begin() + static_cast<std::ptrdiff_t>(start),
                              xv.begin() + static_cast<std::ptrdiff_t>(start + group));
      ChannelStats s = channel_stats(part, 1);
      for (double v : normalized(part, 1, s.mean, s.var, 2.0, -0.5, eps)) want.push_back(v);
    }
    CHECK(all_close(values_of(layer({x})), want, 1e-5));
  }
  // axis=1: over the 3 rows of each sample, per column.
  Value cols = ln({{"axis", Value(1)}, {"name", Value("ln")}});
  std::vector<double> want(xv.size());
  for (size_t b = 0; b < 2; ++b)
    for (size_t j = 0; j < 4; ++j) {
      double m = 0, v = 0;
      for (size_t i = 0; i < 3; ++i) m += xv[b * 12 + i * 4 + j];
      m /= 3;
      for (size_t i = 0; i < 3; ++i) v += (xv[b * 12 + i * 4 + j] - m) * (xv[b * 12 + i * 4 + j] - m);
      v /= 3;
      for (size_t i = 0; i < 3; ++i) want[b * 12 + i * 4 + j] = (xv[b * 12 + i * 4 + j] - m) / std::sqrt(v + 1e-3) * 2 - 0.5;
    }
  CHECK(all_close(values_of(cols({x})), want, 1e-5));
  CHECK(weight_names(cols) == std::vector<std::string>{"ln/gamma:0", "ln/beta:0"});
  CHECK(weight_shapes(cols) == std::vector<std::string>{"(3,)", "(3,)"});
  Value f = traced_function({"x"}, [&](const std::vector<Value>& a) { return cols({a[0]}); });
  CHECK(all_close(values_of(f({x})), want, 1e-5));
  // A symbolic input keeps its shape.
  Value in = tf::api::keras_Input()({}, {{"shape", Value::tuple({Value(3), Value(4)})}});
  CHECK(str(ln({})({in}).getattr("shape")) == "(None, 3, 4)");
  CHECK(str(make_layer(tf::api::keras_layers_BatchNormalization())({in}).getattr("shape")) == "(None, 3, 4)");
}

TEST_CASE("normalization layers' errors are Keras's") {
  Value x = tensor_of(iota_values(12), {4, 3});
  CHECK(error_text([] { make_layer(tf::api::keras_layers_BatchNormalization(), {Value("a")}); }) ==
        "TypeError: Expected an int or a list/tuple of ints for the argument 'axis', but received: 'a'");
  CHECK(error_text([] { make_layer(tf::api::keras_layers_BatchNormalization(), {Value(2)}, {{"fused", Value(true)}}); }) ==
        "ValueError: Passing `fused=True` is only supported when axis is 1 or 3 for input rank = 4 or 1 or 4 for input "
        "rank = 5. Got axis [2]");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_BatchNormalization(), {}, {{"fused", Value(true)}})({x}); }) ==
        "ValueError: Batch normalization layers with `fused=True` only support 4D or 5D input tensors. Received tensor "
        "with shape: (4, 3)");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_BatchNormalization(), {Value(5)})({x}); }) ==
        "ValueError: Invalid value for `axis` argument. Expected 0 <= axis < inputs.rank (with inputs.rank=2). "
        "Received: axis=(5,)");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_LayerNormalization(), {Value::list({Value(1), Value(-1)})})({x}); }) ==
        "ValueError: Duplicate axis: (1, 1)");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_BatchNormalization(), {}, {{"synchronized", Value(true)}, {"fused", Value(true)}}); }) ==
        "ValueError: `fused=True` is not supported when `synchronized=True`.");
  Value bn = make_layer(tf::api::keras_layers_BatchNormalization(), {}, {{"name", Value("bn")}});
  bn({x});
  CHECK(error_text([&] { bn({tensor_of(iota_values(8), {4, 2})}); }) ==
        "ValueError: Input 0 of layer \"bn\" is incompatible with the layer: expected axis 1 of input shape to have "
        "value 3, but received input with shape (4, 2)");
  CHECK(error_text([&] { bn({tensor_of(iota_values(24), {4, 3, 2})}); }) ==
        "ValueError: Input 0 of layer \"bn\" is incompatible with the layer: expected ndim=2, found ndim=3. Full shape "
        "received: (4, 3, 2)");
}

TEST_CASE("a model lists its weights layer by layer, as Keras's Model.weights, and get/set_weights follow it") {
  Value dense = make_layer(tf::api::keras_layers_Dense(), {Value(2)}, {{"name", Value("d1")}, {"input_shape", Value::tuple({Value(3)})}});
  Value bn = make_layer(tf::api::keras_layers_BatchNormalization(), {}, {{"name", Value("bn")}});
  Value out = make_layer(tf::api::keras_layers_Dense(), {Value(1)}, {{"name", Value("d2")}});
  Value model = tf::api::keras_Sequential()({Value::list({dense, bn, out})}, {});
  CHECK(weight_names(model) == std::vector<std::string>{"d1/kernel:0", "d1/bias:0", "bn/gamma:0", "bn/beta:0",
                                                        "bn/moving_mean:0", "bn/moving_variance:0", "d2/kernel:0",
                                                        "d2/bias:0"});
  // trainable_weights stays per kind: the moving statistics are not in it.
  CHECK(model.getattr("trainable_weights").items().size() == 6);
  CHECK(model.getattr("non_trainable_weights").items().size() == 2);
  std::vector<Value> ws = model.getattr("get_weights")({}, {}).items();
  REQUIRE(ws.size() == 8);
  CHECK(str(ws[4].getattr("shape")) == "(2,)");   // moving_mean
  CHECK(str(ws[6].getattr("shape")) == "(2, 1)");  // d2's kernel
  ws[4] = tensor_of({5, 6}, {2});
  model.getattr("set_weights")({Value::list(ws)}, {});
  CHECK(values_of(bn.getattr("moving_mean")) == std::vector<float>{5, 6});
  // A plain layer keeps trainable then non-trainable.
  CHECK(weight_names(bn) == std::vector<std::string>{"bn/gamma:0", "bn/beta:0", "bn/moving_mean:0", "bn/moving_variance:0"});
}

TEST_CASE("Normalization: adapt() computes the mean and variance batch by batch; call standardizes or inverts") {
  // Keras's docstring examples.
  Value flat = make_layer(tf::api::keras_layers_Normalization(), {Value()});
  flat.getattr("adapt")({tensor_of({1, 2, 3, 4, 5}, {5})}, {});
  CHECK(all_close(values_of(flat({tensor_of({1, 2, 3}, {3})})), {-std::sqrt(2.0), -std::sqrt(0.5), 0}, 1e-6));
  std::vector<float> rows = {0, 7, 4, 2, 9, 6, 0, 7, 4, 2, 9, 6};
  Value per_feature = make_layer(tf::api::keras_layers_Normalization(), {}, {{"name", Value("norm")}});
  per_feature.getattr("adapt")({tensor_of(rows, {4, 3})}, {});
  CHECK(values_of(per_feature({tensor_of({0, 7, 4}, {1, 3})})) == std::vector<float>{-1, -1, -1});
  CHECK(weight_names(per_feature) == std::vector<std::string>{"norm/mean:0", "norm/variance:0", "norm/count:0"});
  CHECK(str(Value(variable_value::read(per_feature.getattr("count")))) == "tf.Tensor(4, shape=(), dtype=int64)");
  Value fixed = make_layer(tf::api::keras_layers_Normalization(), {}, {{"mean", Value(3.0)}, {"variance", Value(2.0)}});
  CHECK(all_close(values_of(fixed({tensor_of({1, 2, 3}, {3, 1})})), {-std::sqrt(2.0), -std::sqrt(0.5), 0}, 1e-6));
  Value inverse = make_layer(tf::api::keras_layers_Normalization(), {}, {{"invert", Value(true)}});
  inverse.getattr("adapt")({tensor_of(rows, {4, 3})}, {});
  CHECK(values_of(inverse({tensor_of({1, 2, 3}, {1, 3})})) == std::vector<float>{2, 10, 8});

  // 70 rows adapt in batches of 32, 32 and 6 (or 20s): the merged statistics are the data's.
  std::vector<float> data = lcg_values(70 * 2, 33);
  ChannelStats s = channel_stats(data, 2);
  for (Value batch : {Value(), Value(20)}) {
    Value norm = make_layer(tf::api::keras_layers_Normalization());
    norm.getattr("adapt")({tensor_of(data, {70, 2})}, {{"batch_size", batch}});
    CHECK(all_close(values_of(norm.getattr("adapt_mean")), s.mean, 1e-6));
    CHECK(all_close(values_of(norm.getattr("adapt_variance")), s.var, 1e-6));
    Value f = traced_function({"x"}, [&](const std::vector<Value>& a) { return norm({a[0]}); });
    std::vector<double> want;
    for (size_t i = 0; i < 4; ++i) want.push_back((data[i] - s.mean[i % 2]) / std::sqrt(s.var[i % 2]));
    CHECK(all_close(values_of(f({tensor_of({data[0], data[1], data[2], data[3]}, {2, 2})})), want, 1e-5));
  }
  // adapt again starts afresh.
  per_feature.getattr("adapt")({tensor_of({1, 1, 1, 3, 3, 3}, {2, 3})}, {});
  CHECK(values_of(per_feature.getattr("adapt_mean")) == std::vector<float>{2, 2, 2});
  CHECK(error_text([] { make_layer(tf::api::keras_layers_Normalization(), {}, {{"mean", Value(1.0)}}); }) ==
        "ValueError: When setting values directly, both `mean` and `variance` must be set. Got mean: 1.0 and "
        "variance: None");
  CHECK(error_text([&] { fixed.getattr("adapt")({tensor_of({1, 2}, {2, 1})}, {}); }) ==
        "ValueError: Cannot `adapt` a Normalization layer that is initialized with static `mean` and `variance`, you "
        "passed mean 3.0 and variance 2.0.");
  CHECK(error_text([] { make_layer(tf::api::keras_layers_Normalization(), {Value(3)})({tensor_of({1, 2}, {1, 2})}); }) ==
        "ValueError: All `axis` values must be in the range [-ndim, ndim). Found ndim: `2`, axis: (3,)");
}

TEST_CASE("fit() trains BatchNormalization in training mode: its moving statistics move, predict uses them") {
  // Dense(2) with ones and no bias: both units give the row's sum.
  Value dense = make_layer(tf::api::keras_layers_Dense(), {Value(2)},
                           {{"kernel_initializer", Value("ones")}, {"use_bias", Value(false)},
                            {"input_shape", Value::tuple({Value(3)})}});
  Value bn = make_layer(tf::api::keras_layers_BatchNormalization());
  Value model = tf::api::keras_Sequential()({Value::list({dense, bn})}, {});
  // lr 0: the weights stay, only the moving statistics change.
  model.getattr("compile")({}, {{"optimizer", tf::api::keras_optimizers_SGD()({Value(0.0)}, {})}, {"loss", Value("mse")}});
  Value x = tensor_of(iota_values(12, 3), {4, 3});
  Value y = tensor_of(std::vector<float>(8, 0.0f), {4, 2});
  model.getattr("fit")({x, y}, {{"epochs", Value(2)}, {"batch_size", Value(4)}, {"verbose", Value(0)}});
  // Two steps on the batch of row sums 9, 36, 63, 90 (x = 0..33 by 3): mean 49.5, biased variance
  // (40.5² + 13.5²) / 2 = 911.25 (a 2-D input: Keras's moments path).
  const double mean = 49.5, var = 911.25;
  double mm = 0, mv = 1;
  for (int step = 0; step < 2; ++step) {
    mm -= (mm - mean) * 0.01;
    mv -= (mv - var) * 0.01;
  }
  CHECK(all_close(values_of(bn.getattr("moving_mean")), {mm, mm}, 1e-5));
  CHECK(all_close(values_of(bn.getattr("moving_variance")), {mv, mv}, 1e-5));
  std::vector<double> want;
  for (double s : {9.0, 36.0, 63.0, 90.0}) want.insert(want.end(), 2, (s - mm) / std::sqrt(mv + 1e-3));
  CHECK(all_close(values_of(model.getattr("predict")({x}, {{"verbose", Value(0)}})), want, 1e-5));

  // save_weights/load_weights carry the moving statistics (Keras's keys: layer_with_weights-1/moving_mean, ...).
  std::string dir = std::filesystem::temp_directory_path() / ("agc_bn_weights_" + std::to_string(::getpid()));
  model.getattr("save_weights")({Value(dir + "/ckpt")}, {});
  Value bn2 = make_layer(tf::api::keras_layers_BatchNormalization());
  Value fresh = tf::api::keras_Sequential()(
      {Value::list({make_layer(tf::api::keras_layers_Dense(), {Value(2)}, {{"use_bias", Value(false)},
                                                                           {"input_shape", Value::tuple({Value(3)})}}),
                    bn2})},
      {});
  fresh.getattr("load_weights")({Value(dir + "/ckpt")}, {});
  CHECK(all_close(values_of(bn2.getattr("moving_variance")), {mv, mv}, 1e-5));
  std::filesystem::remove_all(dir);
}
