// tf.keras.losses (runtime/keras/losses.cpp): every function and class
// against values worked out by hand from Keras 2.15's formulas (the
// arithmetic is in the comments), each reduction, sample weights,
// from_logits both ways, label smoothing, ignore_class, the Softmax-input
// shortcut while tracing, get() and Keras's error texts.
#include "runtime/keras/losses.h"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/user_function.h"
#include "tests/unit/error_text.h"
#include "tests/unit/keras/support.h"

using namespace ag;
using namespace ag::test;

namespace {

Value loss(const Value& cls, Kwargs kwargs = {}) { return cls({}, std::move(kwargs)); }

// Keras's docstring data: y_true [[0, 1], [0, 0]].
Value yt01() { return rows({{0, 1}, {0, 0}}); }

}  // namespace

TEST_CASE("MeanSquaredError: each reduction and sample weights") {
  // squares [[1, 0], [1, 0]] -> per sample [0.5, 0.5].
  Value y_pred = rows({{1, 1}, {1, 0}});
  Value mse = loss(tf::api::keras_losses_MeanSquaredError());
  CHECK(scalar(mse({yt01(), y_pred})) == near(0.5));  // (0.5 + 0.5) / 2
  // [0.5 * 0.7, 0.5 * 0.3] summed, over 2 elements: 0.5 / 2.
  CHECK(scalar(mse({yt01(), y_pred}, {{"sample_weight", row({0.7, 0.3})}})) == near(0.25));
  // A scalar weight scales: 0.5 * 2.
  CHECK(scalar(mse({yt01(), y_pred}, {{"sample_weight", Value(2.0)}})) == near(1.0));
  Value sum = loss(tf::api::keras_losses_MeanSquaredError(), {{"reduction", Value("sum")}});
  CHECK(scalar(sum({yt01(), y_pred})) == near(1.0));
  Value none = loss(tf::api::keras_losses_MeanSquaredError(), {{"reduction", Value("none")}});
  CHECK(floats(none({yt01(), y_pred})) == std::vector<float>{0.5f, 0.5f});
  Value sobs = loss(tf::api::keras_losses_MeanSquaredError(), {{"reduction", Value("sum_over_batch_size")}});
  CHECK(scalar(sobs({yt01(), y_pred})) == near(0.5));
  // The function gives the per-sample values; mse, MSE are the same function.
  CHECK(floats(tf::api::keras_losses_mean_squared_error()({yt01(), y_pred}, {})) == std::vector<float>{0.5f, 0.5f});
  CHECK(str(mse.getattr("get_config")({}, {})) == "{'reduction': 'auto', 'name': 'mean_squared_error'}");
  CHECK(error_text([] {
          loss(tf::api::keras_losses_MeanSquaredError(), {{"reduction", Value("mean")}});
        }) ==
        "ValueError: Invalid Reduction Key: mean. Expected keys are \"('auto', 'none', 'sum', "
        "'sum_over_batch_size')\"");
  CHECK(str(tf::api::keras_losses_Reduction().getattr("SUM_OVER_BATCH_SIZE")) == "sum_over_batch_size");
}

TEST_CASE("Sample weights are squeezed or expanded to the losses' rank") {
  // Per-element losses of shape (2, 2) (reduction none on rank-3 inputs):
  // y_pred - y_true = [[[1], [2]], [[3], [4]]] -> squares [[1, 4], [9, 16]].
  Value y_true = f32(Value::list({rows({{0}, {0}}), rows({{0}, {0}})}));
  Value y_pred = f32(Value::list({rows({{1}, {2}}), rows({{3}, {4}})}));
  Value mse = loss(tf::api::keras_losses_MeanSquaredError(), {{"reduction", Value("sum")}});
  // Weights [1, 0] of rank 1 are expanded to (2, 1): 1 + 4.
  CHECK(scalar(mse({y_true, y_pred}, {{"sample_weight", row({1, 0})}})) == near(5.0));
  // Weights of shape (2, 2, 1) are squeezed to (2, 2): 1*1 + 4*0 + 9*0 + 16*1.
  Value w = f32(Value::list({rows({{1}, {0}}), rows({{0}, {1}})}));
  CHECK(scalar(mse({y_true, y_pred}, {{"sample_weight", w}})) == near(17.0));
}

TEST_CASE("MeanAbsoluteError, MeanAbsolutePercentageError and MeanSquaredLogarithmicError") {
  Value y_pred = rows({{1, 1}, {1, 0}});
  CHECK(scalar(loss(tf::api::keras_losses_MeanAbsoluteError())({yt01(), y_pred})) == near(0.5));
  // |2-1|/2 = .5, 0 -> 25; |2-1|/2 = .5, |3-0|/3 = 1 -> 75; mean 50.
  Value mape = loss(tf::api::keras_losses_MeanAbsolutePercentageError(), {{"reduction", Value("none")}});
  CHECK(floats(mape({rows({{2, 1}, {2, 3}}), y_pred})) == std::vector<float>{25.0f, 75.0f});
  // (log(1 + 1) - log(1 + 1e-7))^2 = 0.480453, the other element 0: 0.240226 per sample.
  CHECK(scalar(loss(tf::api::keras_losses_MeanSquaredLogarithmicError())({yt01(), y_pred})) == near(0.2402264));
}

TEST_CASE("Huber: quadratic below delta, linear above") {
  Value y_pred = rows({{0.6, 0.4}, {0.4, 0.6}});
  // Errors .6 .6 / .4 .6, all <= 1: 0.5 x^2 = .18 .18 -> .18; .08 .18 -> .13; mean .155.
  CHECK(scalar(loss(tf::api::keras_losses_Huber())({yt01(), y_pred})) == near(0.155));
  // delta .5: .6 -> .5 * .6 - .5 * .25 = .175, .4 -> .08: rows .175 and .1275, mean .15125.
  CHECK(scalar(loss(tf::api::keras_losses_Huber(), {{"delta", Value(0.5)}})({yt01(), y_pred})) == near(0.15125));
  CHECK(str(loss(tf::api::keras_losses_Huber()).getattr("get_config")({}, {})) ==
        "{'reduction': 'auto', 'name': 'huber_loss', 'delta': 1.0}");
}

TEST_CASE("BinaryCrossentropy from probabilities, from logits, with label smoothing") {
  Value y_pred = rows({{0.6, 0.4}, {0.4, 0.6}});
  // -log(1 - .6 + 1e-7) = .916290, -log(.4 + 1e-7) = .916290 -> .916290;
  // -log(.6 + 1e-7) = .510826, .916290 -> .713558; mean .814924.
  Value bce = loss(tf::api::keras_losses_BinaryCrossentropy());
  CHECK(scalar(bce({yt01(), y_pred})) == near(0.8149242));
  // Weights [1, 0]: .916290 / 2.
  CHECK(scalar(bce({yt01(), y_pred}, {{"sample_weight", row({1, 0})}})) == near(0.4581452));
  CHECK(all_near(tf::api::keras_losses_binary_crossentropy()({yt01(), y_pred}, {}), {0.9162905, 0.7135580}));
  // From logits, max(x, 0) - x z + log1p(exp(-|x|)):
  // -18.6 -> 8e-9; .51, z=1 -> log1p(e^-.51) = .470313; 2.94 -> 2.94 + .051516 = 2.991516;
  // -12.8 -> 2.8e-6; mean .865458.
  Value logits = loss(tf::api::keras_losses_BinaryCrossentropy(), {{"from_logits", Value(true)}});
  Value xs = row({-18.6, 0.51, 2.94, -12.8});
  CHECK(scalar(logits({row({0, 1, 0, 0}), xs})) == near(0.8654579));
  CHECK(truthy(logits.getattr("from_logits")));
  // Label smoothing .2: targets 0 -> .1, 1 -> .9 (log(x + 1e-7) throughout).
  // Row 1, targets [.1, .9] on [.6, .4]:
  //   t .1, p .6: -(.1 log .6 + .9 log .4) = .051083 + .824662 = .875744;
  //   t .9, p .4: -(.9 log .4 + .1 log .6) = .875744; row mean .875744.
  // Row 2, targets [.1, .1] on [.4, .6]: -(.1 log .4 + .9 log .6) = .091629 + .459743 = .551372
  //   and .875744 -> .713558.
  // Mean of the rows: .794651.
  Value smooth = loss(tf::api::keras_losses_BinaryCrossentropy(), {{"label_smoothing", Value(0.2)}});
  CHECK(scalar(smooth({yt01(), y_pred})) == near(0.7946510));
  CHECK(
      str(logits.getattr("get_config")({}, {})) ==
      "{'reduction': 'auto', 'name': 'binary_crossentropy', 'from_logits': True, 'label_smoothing': 0.0, 'axis': -1}");
  // Shapes that differ: TF's sigmoid_cross_entropy_with_logits check (logits first).
  CHECK(error_text([&] {
          logits({f32(rows({{0, 1, 0}})), f32(rows({{0, 1, 0, 0}}))});
        }) == "ValueError: `logits` and `labels` must have the same shape, received ((1, 4) vs (1, 3)).");
}

TEST_CASE("CategoricalCrossentropy: probabilities are renormalized and clipped; logits and smoothing") {
  Value y_true = rows({{0, 1, 0}, {0, 0, 1}});
  Value y_pred = rows({{0.05, 0.95, 0}, {0.1, 0.8, 0.1}});
  // -log .95 = .051293, -log .1 = 2.302585 (the 0 is clipped to 1e-7 but weighs 0).
  Value cce = loss(tf::api::keras_losses_CategoricalCrossentropy());
  CHECK(scalar(cce({y_true, y_pred})) == near(1.1769392));
  // (.3 * .051293 + .7 * 2.302585) / 2.
  CHECK(scalar(cce({y_true, y_pred}, {{"sample_weight", row({0.3, 0.7})}})) == near(0.8135988));
  CHECK(scalar(loss(tf::api::keras_losses_CategoricalCrossentropy(),
                    {{"reduction", Value("sum")}})({y_true, y_pred})) == near(2.3538784));
  // Rows that do not sum to 1 are divided by their sum first: [1, 3] -> [.25, .75]; -log .75 = .287682.
  CHECK(scalar(cce({rows({{0, 1}}), rows({{1, 3}})})) == near(0.2876821));
  // Logits [1, 2, 3], class 2: log(e + e^2 + e^3) - 3 = .407606.
  Value logits = loss(tf::api::keras_losses_CategoricalCrossentropy(), {{"from_logits", Value(true)}});
  CHECK(scalar(logits({rows({{0, 0, 1}}), rows({{1, 2, 3}})})) == near(0.4076060));
  // Smoothing .3 over 3 classes: [0, 1, 0] -> [.1, .8, .1];
  // -(.1 log .2 + .8 log .5 + .1 log .3) = .160944 + .554518 + .120397 = .835859.
  Value smooth = loss(tf::api::keras_losses_CategoricalCrossentropy(), {{"label_smoothing", Value(0.3)}});
  CHECK(scalar(smooth({rows({{0, 1, 0}}), rows({{0.2, 0.5, 0.3}})})) == near(0.8358588));
  CHECK(error_text([&] {
          cce({f32(rows({{0, 1, 0}})), f32(rows({{0.5, 0.5, 0, 0}}))});
        }) == "ValueError: Shapes (1, 3) and (1, 4) are incompatible");
}

TEST_CASE("SparseCategoricalCrossentropy: labels of rank logits - 1, a trailing 1, logits and ignore_class") {
  Value y_pred = rows({{0.05, 0.95, 0}, {0.1, 0.8, 0.1}});
  Value scce = loss(tf::api::keras_losses_SparseCategoricalCrossentropy());
  // As the categorical case: -log .95 and -log .1.
  CHECK(scalar(scce({row({1, 2}), y_pred})) == near(1.1769392));
  CHECK(scalar(scce({f32(rows({{1}, {2}})), f32(y_pred)})) == near(1.1769392));
  CHECK(scalar(scce({row({1, 2}), y_pred}, {{"sample_weight", row({0.3, 0.7})}})) == near(0.8135988));
  Value logits = loss(tf::api::keras_losses_SparseCategoricalCrossentropy(), {{"from_logits", Value(true)}});
  CHECK(scalar(logits({row({2}), rows({{1, 2, 3}})})) == near(0.4076060));
  // ignore_class -1: the second label is dropped. Its loss is 0 and the mask
  // [1, 0] becomes weights [2/1, 0] under sum_over_batch_size, so the mean is
  // over the one valid label: (.051293 * 2) / 2.
  Value ignore = loss(tf::api::keras_losses_SparseCategoricalCrossentropy(), {{"ignore_class", Value(-1)}});
  CHECK(scalar(ignore({row({1, -1}), y_pred})) == near(0.0512933));
  Value ignore_sum = loss(tf::api::keras_losses_SparseCategoricalCrossentropy(),
                          {{"ignore_class", Value(-1)}, {"reduction", Value("sum")}});
  CHECK(scalar(ignore_sum({row({1, -1}), y_pred})) == near(0.0512933));
  Value per_sample =
      tf::api::keras_losses_sparse_categorical_crossentropy()({row({1, -1}), y_pred}, {{"ignore_class", Value(-1)}});
  CHECK(all_near(per_sample, {0.0512933, 0.0}));
  CHECK(str(ignore.getattr("get_config")({}, {})) ==
        "{'reduction': 'auto', 'name': 'sparse_categorical_crossentropy', 'from_logits': False, 'ignore_class': -1}");
}

TEST_CASE("Hinge, SquaredHinge, CategoricalHinge, KLDivergence, LogCosh, Poisson and CosineSimilarity") {
  Value y_pred = rows({{0.6, 0.4}, {0.4, 0.6}});
  // Labels 0/1 become -1/1: max(1 + .6, 0) = 1.6, max(1 - .4, 0) = .6 -> 1.1; 1.4, 1.6 -> 1.5; mean 1.3.
  CHECK(scalar(loss(tf::api::keras_losses_Hinge())({yt01(), y_pred})) == near(1.3));
  // Squares: (2.56 + .36) / 2 = 1.46, (1.96 + 2.56) / 2 = 2.26; mean 1.86.
  CHECK(scalar(loss(tf::api::keras_losses_SquaredHinge())({yt01(), y_pred})) == near(1.86));
  // pos = sum(y * p), neg = max((1 - y) * p): row 1: .4, .6 -> max(.6 - .4 + 1, 0) = 1.2; row 2: 0, .6 -> 1.6.
  CHECK(scalar(loss(tf::api::keras_losses_CategoricalHinge())({yt01(), y_pred})) == near(1.4));
  // y_true clipped to [1e-7, 1]: row 1 = 1e-7 log(1e-7 / .6) + log(1 / .4) = .9162892;
  // row 2 = 1e-7 (log(1e-7 / .4) + log(1e-7 / .6)) = -3.08e-6; mean .4581431.
  CHECK(scalar(loss(tf::api::keras_losses_KLDivergence())({yt01(), y_pred})) == near(0.4581431));
  // x = y_pred - y_true = [[1, 0], [0, 0]]: log cosh 1 = .433781 -> rows .216891 and 0; mean .108445.
  CHECK(scalar(loss(tf::api::keras_losses_LogCosh())({yt01(), rows({{1, 1}, {0, 0}})})) == near(0.1084452));
  // y_pred - y_true log(y_pred + 1e-7): row 1 (1 + 1 - log(1 + 1e-7)) / 2 = .99999995, row 2 0.
  CHECK(scalar(loss(tf::api::keras_losses_Poisson())({yt01(), rows({{1, 1}, {0, 0}})})) == near(0.5));
  // Orthogonal rows give -0, equal ones -1: mean -.5.
  Value cosine = loss(tf::api::keras_losses_CosineSimilarity(), {{"axis", Value(1)}});
  CHECK(scalar(cosine({rows({{0, 1}, {1, 1}}), rows({{1, 0}, {1, 1}})})) == near(-0.5));
}

TEST_CASE("keras.losses.get and the training loop's get_loss") {
  Value fn = tf::api::keras_losses_get()({Value("mse")}, {});
  CHECK(fn.is(tf::api::keras_losses_mean_squared_error()));
  Value obj = tf::api::keras_losses_get()({Value("CategoricalCrossentropy")}, {});
  CHECK(is_instance(obj, tf::api::keras_losses_CategoricalCrossentropy()));
  Value from_config = tf::api::keras_losses_get()(
      {Value::dict({{Value("class_name"), Value("BinaryCrossentropy")},
                    {Value("config"), Value::dict({{Value("from_logits"), Value(true)}})}})},
      {});
  CHECK(truthy(from_config.getattr("from_logits")));
  CHECK(error_text([] { tf::api::keras_losses_get()({Value("nope")}, {}); }) ==
        "ValueError: Unknown loss function: 'nope'. Please ensure you are using a `keras.utils.custom_object_scope` "
        "and that this object is included in the scope. See "
        "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object for details.");
  CHECK(error_text([] { tf::api::keras_losses_get()({Value(3)}, {}); }) ==
        "ValueError: Could not interpret loss function identifier: 3");
  // get_loss wraps a function in a LossFunctionWrapper named after it.
  Value wrapped = keras::get_loss(Value("mse"));
  CHECK(keras::is_loss(wrapped));
  CHECK(str(wrapped.getattr("name")) == "mean_squared_error");
  CHECK(scalar(wrapped({yt01(), rows({{1, 1}, {1, 0}})}, {{"sample_weight", row({0.7, 0.3})}})) == near(0.25));
  Value user =
      make_function("my_loss", {{"y_true", std::nullopt}, {"y_pred", std::nullopt}},
                    [](const std::vector<Value>& a) { return tf::reduce_sum(tf::abs(a[1] - a[0]), Value(-1)); });
  Value user_loss = keras::get_loss(user);
  CHECK(str(user_loss.getattr("name")) == "my_loss");
  // |1-0| + 0 = 1, 1 + 0 = 1: mean 1.
  CHECK(scalar(user_loss({f32(yt01()), f32(rows({{1, 1}, {1, 0}}))})) == near(1.0));
  Value instance = loss(tf::api::keras_losses_Huber());
  CHECK(keras::get_loss(instance).is(instance));
}

TEST_CASE("A subclass of Loss defines call() and gets the reduction") {
  Value cls = make_class(
      "AbsLoss", {tf::api::keras_losses_Loss()},
      {{"call", make_function("call", {{"self", std::nullopt}, {"y_true", std::nullopt}, {"y_pred", std::nullopt}},
                              [](const std::vector<Value>& a) { return tf::abs(a[2] - a[1]); })}});
  Value l = cls({}, {{"reduction", Value("sum")}});
  // |1 - 0| + |1 - 1| + |1 - 0| + |0 - 0| = 2.
  CHECK(scalar(l({f32(yt01()), f32(rows({{1, 1}, {1, 0}}))})) == near(2.0));
  CHECK(str(l.getattr("get_config")({}, {})) == "{'reduction': 'sum', 'name': None}");
  CHECK(error_text([] {
          tf::api::keras_losses_Loss()({}, {})({Value(1.0), Value(1.0)}, {});
        }) == "NotImplementedError: Must be implemented in subclasses.");
}

TEST_CASE("Traced, a Softmax output is read back as logits (Keras's _get_logits)") {
  Value y_true = f32(rows({{1, 0, 0}}));
  Value logits = f32(rows({{0, 0, 30}}));
  Value cce = loss(tf::api::keras_losses_CategoricalCrossentropy());
  // Eagerly the probabilities are used: p0 = e^-30 / (2 e^-30 + 1) is clipped to 1e-7, -log 1e-7 = 16.118096.
  CHECK(scalar(cce({y_true, tf::softmax(logits)})) == near(16.118096));
  // Traced, the Softmax node's input is the logits: log(2 + e^30) - 0 = 30.
  Value f = tf::api::function({make_function("f", {{"y", std::nullopt}, {"x", std::nullopt}},
                                             [&](const std::vector<Value>& a) {
                                               return cce({a[0], tf::softmax(a[1])});
                                             })},
                              {});
  CHECK(scalar(f({y_true, logits})) == near(30.0));
  // The sparse loss too; a plain loss traced gives what it gives eagerly.
  Value scce = loss(tf::api::keras_losses_SparseCategoricalCrossentropy());
  Value g = tf::api::function({make_function("g", {{"y", std::nullopt}, {"x", std::nullopt}},
                                             [&](const std::vector<Value>& a) {
                                               return scce({a[0], tf::softmax(a[1])});
                                             })},
                              {});
  CHECK(scalar(g({tf::constant(Value::list({Value(0)}), DType::Int32), logits})) == near(30.0));
  // BinaryCrossentropy and a Sigmoid: eagerly sigmoid(-30) = 9.4e-14 is clipped to
  // 1e-7 and -log(1e-7 + 1e-7) = 15.424949; traced, max(-30, 0) + 30 + log1p(e^-30) = 30.
  Value bce = loss(tf::api::keras_losses_BinaryCrossentropy());
  Value y1 = f32(rows({{1}}));
  Value x1 = f32(rows({{-30}}));
  CHECK(scalar(bce({y1, tf::sigmoid(x1)})) == near(15.424949));
  Value b = tf::api::function({make_function("b", {{"y", std::nullopt}, {"x", std::nullopt}},
                                             [&](const std::vector<Value>& a) {
                                               return bce({a[0], tf::sigmoid(a[1])});
                                             })},
                              {});
  CHECK(scalar(b({y1, x1})) == near(30.0));
  Value mse = loss(tf::api::keras_losses_MeanSquaredError());
  Value h = tf::api::function({make_function("h", {{"y", std::nullopt}, {"x", std::nullopt}},
                                             [&](const std::vector<Value>& a) {
                                               return mse({a[0], a[1]});
                                             })},
                              {});
  CHECK(scalar(h({f32(yt01()), f32(rows({{1, 1}, {1, 0}}))})) == near(0.5));
}
