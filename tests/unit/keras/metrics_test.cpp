// tf.keras.metrics (runtime/keras/metrics.cpp): running means over two
// update_state calls and reset_state, sample weights, the accuracy family,
// Precision/Recall with thresholds, top_k and class_id, AUC with Keras's
// thresholds and summation rules (worked out by hand in the comments),
// updates inside a tf.function, compile's metric selection, configs and
// Keras's error texts.
#include "runtime/keras/metrics.h"

#include <doctest/doctest.h>

#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/keras/layer.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/user_function.h"
#include "runtime/value/variable_value.h"
#include "tests/unit/error_text.h"
#include "tests/unit/keras/support.h"

using namespace ag;
using namespace ag::test;

namespace {

Value make(const Value& cls, Kwargs kwargs = {}) { return cls({}, std::move(kwargs)); }
double result(const Value& m) { return scalar(m.getattr("result")({}, {})); }
void update(const Value& m, std::vector<Value> args, Kwargs kwargs = {}) {
  m.getattr("update_state")(std::move(args), std::move(kwargs));
}
void reset(const Value& m) { m.getattr("reset_state")({}, {}); }

}  // namespace

TEST_CASE("Mean: total and count over updates, weights, reset_state, and it is a Layer") {
  Value m = make(tf::api::keras_metrics_Mean());
  update(m, {row({1, 3, 5, 7})});
  CHECK(result(m) == near(4.0));  // 16 / 4
  // Weights [1, 0]: total 16 + 2, count 4 + 1.
  update(m, {row({2, 10})}, {{"sample_weight", row({1, 0})}});
  CHECK(result(m) == near(3.6));
  reset(m);
  CHECK(result(m) == 0.0);  // 0 / 0 is 0 (divide_no_nan)
  // A scalar weight counts once per value: total 2 * 6, count 2 * 3.
  update(m, {row({1, 2, 3})}, {{"sample_weight", Value(2.0)}});
  CHECK(result(m) == near(2.0));
  m.getattr("reset_states")({}, {});
  // Weights of lower rank than the values: the values are averaged down to
  // the weights' rank ([[1, 3], [5, 7]] -> 4, [[2, 2], [2, 2]] -> 2), total
  // 4 * 1 + 2 * 3 = 10, count 1 + 3 = 4.
  Value values = f32(Value::list({rows({{1, 3}, {5, 7}}), rows({{2, 2}, {2, 2}})}));
  update(m, {values}, {{"sample_weight", row({1, 3})}});
  CHECK(result(m) == near(2.5));
  // __call__ updates then returns the result: (10 + 8) / (4 + 2).
  CHECK(scalar(m({row({4, 4})})) == near(3.0));
  CHECK(keras::is_layer(m));
  CHECK(keras::is_metric(m));
  CHECK(m.getattr("variables").items().size() == 2);
  CHECK(m.getattr("trainable_weights").items().empty());
  CHECK(str(m.getattr("name")) == "mean");
  CHECK(str(m.getattr("get_config")({}, {})) == "{'name': 'mean', 'dtype': 'float32'}");
  CHECK(str(m) == "Mean(name=mean,dtype=float32)");
}

TEST_CASE("Sum accumulates weighted values") {
  Value s = make(tf::api::keras_metrics_Sum());
  update(s, {row({1, 3, 5, 7})});
  CHECK(result(s) == near(16.0));
  update(s, {row({1, 3, 5, 7})}, {{"sample_weight", row({1, 1, 0, 0})}});
  CHECK(result(s) == near(20.0));  // 16 + 1 + 3
  CHECK(s.getattr("variables").items().size() == 1);
}

TEST_CASE("Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy") {
  Value acc = make(tf::api::keras_metrics_Accuracy());
  // Matches [0, 1, 1, 1].
  update(acc, {rows({{1}, {2}, {3}, {4}}), rows({{0}, {2}, {3}, {4}})});
  CHECK(result(acc) == near(0.75));
  // Then weights [1, 1, 0, 0]: total 3 + 0 + 1, count 4 + 2.
  update(acc, {rows({{1}, {2}, {3}, {4}}), rows({{0}, {2}, {3}, {4}})}, {{"sample_weight", row({1, 1, 0, 0})}});
  CHECK(result(acc) == near(4.0 / 6.0));
  reset(acc);
  CHECK(result(acc) == 0.0);
  CHECK(error_text([&] {
          update(acc, {f32(rows({{1}, {2}})), f32(rows({{1, 2}, {3, 4}}))});
        }) == "ValueError: Shapes (2, 1) and (2, 2) are incompatible");

  Value binary = make(tf::api::keras_metrics_BinaryAccuracy());
  // .98 > .5, 1, 0, .6 > .5 against [1, 1, 0, 0]: 3 of 4.
  update(binary, {rows({{1}, {1}, {0}, {0}}), rows({{0.98}, {1}, {0}, {0.6}})});
  CHECK(result(binary) == near(0.75));
  Value strict = make(tf::api::keras_metrics_BinaryAccuracy(), {{"threshold", Value(0.7)}});
  update(strict, {rows({{1}, {1}, {0}, {0}}), rows({{0.98}, {1}, {0}, {0.6}})});
  CHECK(result(strict) == near(1.0));
  // Two labels per sample count one match each: [[1, 1], [0, 1]] -> 3 of 4;
  // weights [1, 0] become [[1, 1], [0, 0]]: 2 of 2.
  Value per_element = make(tf::api::keras_metrics_BinaryAccuracy());
  update(per_element, {rows({{1, 0}, {0, 0}}), rows({{0.9, 0.2}, {0.6, 0.1}})});
  CHECK(result(per_element) == near(0.75));
  reset(per_element);
  update(per_element, {rows({{1, 0}, {0, 0}}), rows({{0.9, 0.2}, {0.6, 0.1}})}, {{"sample_weight", row({1, 0})}});
  CHECK(result(per_element) == near(1.0));
  CHECK(str(binary.getattr("get_config")({}, {})) ==
        "{'name': 'binary_accuracy', 'dtype': 'float32', 'threshold': 0.5}");
  CHECK(str(binary) == "BinaryAccuracy(name=binary_accuracy,dtype=float32,threshold=0.5)");

  // argmax [1, 1] against one-hot [2, 1]: 1 of 2; weights [.7, .3]: .3.
  Value categorical = make(tf::api::keras_metrics_CategoricalAccuracy());
  update(categorical, {rows({{0, 0, 1}, {0, 1, 0}}), rows({{0.1, 0.9, 0.8}, {0.05, 0.95, 0}})});
  CHECK(result(categorical) == near(0.5));
  reset(categorical);
  update(categorical, {rows({{0, 0, 1}, {0, 1, 0}}), rows({{0.1, 0.9, 0.8}, {0.05, 0.95, 0}})},
         {{"sample_weight", row({0.7, 0.3})}});
  CHECK(result(categorical) == near(0.3));

  // argmax [1, 1] against labels [2, 1], given as [[2], [1]] or [2, 1].
  Value sparse = make(tf::api::keras_metrics_SparseCategoricalAccuracy());
  update(sparse, {rows({{2}, {1}}), rows({{0.1, 0.6, 0.3}, {0.05, 0.95, 0}})});
  CHECK(result(sparse) == near(0.5));
  update(sparse, {row({2, 1}), rows({{0.1, 0.6, 0.3}, {0.05, 0.95, 0}})}, {{"sample_weight", row({0.7, 0.3})}});
  CHECK(result(sparse) == near(1.3 / 3.0));  // (1 + .3) / (2 + 1)
}

TEST_CASE("Top-k accuracies count ties in the target's favour, as tf.math.in_top_k") {
  Value top1 = make(tf::api::keras_metrics_TopKCategoricalAccuracy(), {{"k", Value(1)}});
  update(top1, {rows({{0, 0, 1}, {0, 1, 0}}), rows({{0.1, 0.9, 0.8}, {0.05, 0.95, 0}})});
  CHECK(result(top1) == near(0.5));  // class 2's .8 is second in row 1
  Value top2 = make(tf::api::keras_metrics_TopKCategoricalAccuracy(), {{"k", Value(2)}});
  update(top2, {rows({{0, 0, 1}, {0, 1, 0}}), rows({{0.1, 0.9, 0.8}, {0.05, 0.95, 0}})});
  CHECK(result(top2) == near(1.0));
  Value sparse = make(tf::api::keras_metrics_SparseTopKCategoricalAccuracy(), {{"k", Value(1)}});
  update(sparse, {row({2, 1}), rows({{0.1, 0.9, 0.8}, {0.05, 0.95, 0}})});
  CHECK(result(sparse) == near(0.5));
  // .5 ties with .5: no prediction is strictly greater, so class 1 is in the top 1.
  CHECK(floats(tf::api::keras_metrics_sparse_top_k_categorical_accuracy()(
            {row({1}), rows({{0.5, 0.5, 0.1}})}, {{"k", Value(1)}})) == std::vector<float>{1.0f});
  CHECK(str(sparse.getattr("get_config")({}, {})) ==
        "{'name': 'sparse_top_k_categorical_accuracy', 'dtype': 'float32', 'k': 1}");
}

TEST_CASE("The accuracy functions give one value per sample") {
  CHECK(floats(tf::api::keras_metrics_binary_accuracy()({rows({{1}, {1}, {0}, {0}}), rows({{1}, {1}, {0}, {0}})},
                                                        {})) == std::vector<float>{1, 1, 1, 1});
  CHECK(floats(tf::api::keras_metrics_categorical_accuracy()(
            {rows({{0, 0, 1}, {0, 1, 0}}), rows({{0.1, 0.9, 0.8}, {0.05, 0.95, 0}})}, {})) == std::vector<float>{0, 1});
  CHECK(floats(tf::api::keras_metrics_sparse_categorical_accuracy()(
            {row({2, 1}), rows({{0.1, 0.9, 0.8}, {0.05, 0.95, 0}})}, {})) == std::vector<float>{0, 1});
  CHECK(floats(tf::api::keras_metrics_top_k_categorical_accuracy()(
            {rows({{0, 0, 1}, {0, 1, 0}}), rows({{0.1, 0.9, 0.8}, {0.05, 0.95, 0}})}, {{"k", Value(3)}})) ==
        std::vector<float>{1, 1});
}

TEST_CASE("Regression and crossentropy metrics average the loss functions") {
  // Squared errors [[1, 0], [0, 0]]: per sample .5 and 0.
  Value mse = make(tf::api::keras_metrics_MeanSquaredError());
  update(mse, {rows({{0, 1}, {0, 0}}), rows({{1, 1}, {0, 0}})});
  CHECK(result(mse) == near(0.25));
  reset(mse);
  update(mse, {rows({{0, 1}, {0, 0}}), rows({{1, 1}, {0, 0}})}, {{"sample_weight", row({1, 0})}});
  CHECK(result(mse) == near(0.5));
  Value mae = make(tf::api::keras_metrics_MeanAbsoluteError());
  update(mae, {rows({{0, 1}, {0, 0}}), rows({{1, 1}, {0, 0}})});
  CHECK(result(mae) == near(0.25));
  // RMSE: the mean of the squared errors [1, 0, 0, 0] is .25, its root .5;
  // weights [1, 0]: (1 + 0) / 2 -> sqrt(.5) = .707107.
  Value rmse = make(tf::api::keras_metrics_RootMeanSquaredError());
  update(rmse, {rows({{0, 1}, {0, 0}}), rows({{1, 1}, {0, 0}})});
  CHECK(result(rmse) == near(0.5));
  reset(rmse);
  update(rmse, {rows({{0, 1}, {0, 0}}), rows({{1, 1}, {0, 0}})}, {{"sample_weight", row({1, 0})}});
  CHECK(result(rmse) == near(0.7071068));

  // Binary crossentropy per sample .916290 and .713558 (see the losses test): mean .814924;
  // weights [1, 0]: .916290.
  Value bce = make(tf::api::keras_metrics_BinaryCrossentropy());
  update(bce, {rows({{0, 1}, {0, 0}}), rows({{0.6, 0.4}, {0.4, 0.6}})});
  CHECK(result(bce) == near(0.8149242));
  reset(bce);
  update(bce, {rows({{0, 1}, {0, 0}}), rows({{0.6, 0.4}, {0.4, 0.6}})}, {{"sample_weight", row({1, 0})}});
  CHECK(result(bce) == near(0.9162905));
  // -log .95 = .051293 and -log .1 = 2.302585: mean 1.176939; weights [.3, .7]: .015388 + 1.611810.
  Value cce = make(tf::api::keras_metrics_CategoricalCrossentropy());
  update(cce, {rows({{0, 1, 0}, {0, 0, 1}}), rows({{0.05, 0.95, 0}, {0.1, 0.8, 0.1}})});
  CHECK(result(cce) == near(1.1769392));
  reset(cce);
  update(cce, {rows({{0, 1, 0}, {0, 0, 1}}), rows({{0.05, 0.95, 0}, {0.1, 0.8, 0.1}})},
         {{"sample_weight", row({0.3, 0.7})}});
  CHECK(result(cce) == near(1.6271976));
  Value scce = make(tf::api::keras_metrics_SparseCategoricalCrossentropy());
  update(scce, {row({1, 2}), rows({{0.05, 0.95, 0}, {0.1, 0.8, 0.1}})});
  CHECK(result(scce) == near(1.1769392));
  // ignore_class: the ignored label weighs nothing, so the mean is -log .95 alone.
  Value ignoring = make(tf::api::keras_metrics_SparseCategoricalCrossentropy(), {{"ignore_class", Value(2)}});
  update(ignoring, {row({1, 2}), rows({{0.05, 0.95, 0}, {0.1, 0.8, 0.1}})});
  CHECK(result(ignoring) == near(0.0512933));
  CHECK(str(cce.getattr("get_config")({}, {})) ==
        "{'name': 'categorical_crossentropy', 'dtype': 'float32', 'from_logits': False, 'label_smoothing': 0, "
        "'axis': -1}");
}

TEST_CASE("MeanMetricWrapper wraps any function, and names it in its config") {
  Value fn = make_function("abs_error", {{"y_true", std::nullopt}, {"y_pred", std::nullopt}},
                           [](const std::vector<Value>& a) { return tf::abs(a[1] - a[0]); });
  Value m = tf::api::keras_metrics_MeanMetricWrapper()({fn}, {{"name", Value("abs")}});
  update(m, {row({1, 2}), row({2, 4})});  // |1| and |2|
  CHECK(result(m) == near(1.5));
  Value config = m.getattr("get_config")({}, {});
  CHECK(config.as_dict().at(Value("fn")).is(fn));
  CHECK(str(config.as_dict().at(Value("name"))) == "abs");
}

TEST_CASE("Precision and Recall: thresholds, two updates, reset, top_k and class_id") {
  Value p = make(tf::api::keras_metrics_Precision());
  // Predictions > .5 at [0, 2, 3] against labels [0, 1, 1, 1]: tp 2, fp 1.
  update(p, {row({0, 1, 1, 1}), row({1, 0, 1, 1})});
  CHECK(result(p) == near(2.0 / 3.0));
  // A second batch with one more true positive: tp 3, fp 1.
  update(p, {row({1}), row({0.9})});
  CHECK(result(p) == near(0.75));
  reset(p);
  update(p, {row({0, 1, 1, 1}), row({1, 0, 1, 1})}, {{"sample_weight", row({0, 0, 1, 0})}});
  CHECK(result(p) == near(1.0));  // tp 1, fp 0
  Value r = make(tf::api::keras_metrics_Recall());
  update(r, {row({0, 1, 1, 1}), row({1, 0, 1, 1})});
  CHECK(result(r) == near(2.0 / 3.0));  // tp 2, fn 1

  // Two thresholds: labels [0, 1, 1, 1], predictions [.6, .9, .7, .3].
  // > .5: tp 2 (.9, .7), fp 1 (.6), fn 1 (.3); > .8: tp 1, fp 0, fn 2.
  Value p2 = make(tf::api::keras_metrics_Precision(), {{"thresholds", row({0.5, 0.8})}});
  update(p2, {row({0, 1, 1, 1}), row({0.6, 0.9, 0.7, 0.3})});
  CHECK(all_near(p2.getattr("result")({}, {}), {2.0 / 3.0, 1.0}));
  Value r2 = make(tf::api::keras_metrics_Recall(), {{"thresholds", row({0.5, 0.8})}});
  update(r2, {row({0, 1, 1, 1}), row({0.6, 0.9, 0.7, 0.3})});
  CHECK(all_near(r2.getattr("result")({}, {}), {2.0 / 3.0, 1.0 / 3.0}));
  // Evenly spaced thresholds [0, .5, 1] take the bucketed path: predictions
  // [0, .9, .5, .3] fall in buckets ceil(2p) - 1 = [-1 (dropped), 1, 0, 0];
  // the true ones sum to [2, 1, 0] per bucket, [3, 1, 0] from each threshold
  // up, so tp = [3, 1, 0], fn = 3 - tp = [0, 2, 3].
  Value r3 = make(tf::api::keras_metrics_Recall(), {{"thresholds", row({0.0, 0.5, 1.0})}});
  update(r3, {row({0, 1, 1, 1}), row({0, 0.9, 0.5, 0.3})});
  CHECK(all_near(r3.getattr("result")({}, {}), {1.0, 1.0 / 3.0, 0.0}));

  // top_k: the top 2 of [1, 1, 1, 1] are the first two (ties by index), the rest
  // become -1e10 and fall below the -1e10 threshold: 0 true positives of 2.
  Value top2 = make(tf::api::keras_metrics_Precision(), {{"top_k", Value(2)}});
  update(top2, {row({0, 0, 1, 1}), row({1, 1, 1, 1})});
  CHECK(result(top2) == near(0.0));
  Value top4 = make(tf::api::keras_metrics_Precision(), {{"top_k", Value(4)}});
  update(top4, {row({0, 0, 1, 1}), row({1, 1, 1, 1})});
  CHECK(result(top4) == near(0.5));
  // class_id 1: labels [1, 0, 1], predictions [.7, .6, .4] > .5 -> [1, 1, 0]: tp 1, fp 1.
  Value cls1 = make(tf::api::keras_metrics_Precision(), {{"class_id", Value(1)}});
  update(cls1, {rows({{0, 1}, {1, 0}, {0, 1}}), rows({{0.2, 0.7}, {0.6, 0.6}, {0.3, 0.4}})});
  CHECK(result(cls1) == near(0.5));

  CHECK(str(p2.getattr("get_config")({}, {})).find("'thresholds': [0.5, 0.8], 'top_k': None, 'class_id': None") !=
        std::string::npos);
  CHECK(error_text([] {
          make(tf::api::keras_metrics_Precision(), {{"thresholds", row({0.5, 1.5})}});
        }) == "ValueError: Threshold values must be in [0, 1]. Received: [1.5]");

  Value tp = make(tf::api::keras_metrics_TruePositives());
  update(tp, {row({0, 1, 1, 1}), row({1, 0, 1, 1})});
  CHECK(result(tp) == near(2.0));
  Value fn = make(tf::api::keras_metrics_FalseNegatives());
  update(fn, {row({0, 1, 1, 1}), row({0, 1, 0, 0})}, {{"sample_weight", row({0, 0, 1, 0})}});
  CHECK(result(fn) == near(1.0));
}

TEST_CASE("AUC: Keras's thresholds and summation rules, computed by hand") {
  // num_thresholds 3: thresholds [-1e-7, .5, 1 + 1e-7]. Predictions
  // [0, .5, .3, .9] fall in buckets ceil(2p) - 1 = [-1 -> 0, 0, 0, 1].
  // Labels [0, 0, 1, 1]: true per bucket [1, 1, 0], false [2, 0, 0];
  // summed from each threshold up: tp [2, 1, 0], fp [2, 0, 0], so
  // fn = 2 - tp = [0, 1, 2], tn = 2 - fp = [0, 2, 2].
  // ROC: recall [1, .5, 0], fp rate [1, 0, 0].
  // interpolation: heights [(1 + .5) / 2, (.5 + 0) / 2], widths [1 - 0, 0 - 0]: .75.
  Value auc = make(tf::api::keras_metrics_AUC(), {{"num_thresholds", Value(3)}});
  update(auc, {row({0, 0, 1, 1}), row({0, 0.5, 0.3, 0.9})});
  CHECK(result(auc) == near(0.75));
  CHECK(floats(Value(variable_value::read(auc.getattr("true_positives")))) == std::vector<float>{2, 1, 0});
  CHECK(floats(Value(variable_value::read(auc.getattr("true_negatives")))) == std::vector<float>{0, 2, 2});
  // Weights [1, 0, 0, 1] keep 0 (negative, bucket 0) and .9 (positive, bucket 1):
  // tp [1, 1, 0], fp [1, 0, 0]: recall [1, 1, 0], fp rate [1, 0, 0] -> 1 * 1.
  reset(auc);
  update(auc, {row({0, 0, 1, 1}), row({0, 0.5, 0.3, 0.9})}, {{"sample_weight", row({1, 0, 0, 1})}});
  CHECK(result(auc) == near(1.0));
  // minoring takes min(1, .5) = .5 over the width 1, majoring max = 1.
  Value minoring =
      make(tf::api::keras_metrics_AUC(), {{"num_thresholds", Value(3)}, {"summation_method", Value("minoring")}});
  update(minoring, {row({0, 0, 1, 1}), row({0, 0.5, 0.3, 0.9})});
  CHECK(result(minoring) == near(0.5));
  Value majoring =
      make(tf::api::keras_metrics_AUC(), {{"num_thresholds", Value(3)}, {"summation_method", Value("majoring")}});
  update(majoring, {row({0, 0, 1, 1}), row({0, 0.5, 0.3, 0.9})});
  CHECK(result(majoring) == near(1.0));
  // PR with interpolation (Davis & Goadrich), on the same counts:
  // dtp = [2 - 1, 1 - 0] = [1, 1]; p = tp + fp = [4, 1, 0], dp = [3, 1];
  // slope = [1/3, 1]; intercept = tp[1:] - slope * p[1:] = [1 - 1/3, 0] = [2/3, 0];
  // p ratio = [4/1, 1 (p[2] is 0)]; denominators tp[1:] + fn[1:] = [2, 2];
  // increments = [1/3 (1 + 2/3 log 4) / 2, 1 (1 + 0) / 2] = [.320699, .5]: .820699.
  Value pr = make(tf::api::keras_metrics_AUC(), {{"num_thresholds", Value(3)}, {"curve", Value("PR")}});
  update(pr, {row({0, 0, 1, 1}), row({0, 0.5, 0.3, 0.9})});
  CHECK(result(pr) == near(0.8206994));
  // PR minoring: x = recall [1, .5, 0], y = precision [2/4, 1/1, 0 (0/0)];
  // heights min([.5, 1], [1, 0]) = [.5, 0], widths [.5, .5]: .25.
  Value pr_min = make(tf::api::keras_metrics_AUC(),
                      {{"num_thresholds", Value(3)}, {"curve", Value("PR")}, {"summation_method", Value("minoring")}});
  update(pr_min, {row({0, 0, 1, 1}), row({0, 0.5, 0.3, 0.9})});
  CHECK(result(pr_min) == near(0.25));
  // from_logits: the sigmoid of [-5, 0, -.847298, 2.197225] is about [.0067, .5, .3, .9],
  // the same buckets: .75.
  Value logits = make(tf::api::keras_metrics_AUC(), {{"num_thresholds", Value(3)}, {"from_logits", Value(true)}});
  update(logits, {row({0, 0, 1, 1}), row({-5, 0, -0.8472979, 2.1972246})});
  CHECK(result(logits) == near(0.75));
  // 200 thresholds, perfectly separated: recall stays 1 until fp rate is 0.
  Value fine = make(tf::api::keras_metrics_AUC(), {{"name", Value("auc_fine")}});
  update(fine, {row({0, 1}), row({0.2, 0.8})});
  CHECK(result(fine) == near(1.0));
  CHECK(str(fine.getattr("name")) == "auc_fine");
  CHECK(fine.getattr("thresholds").items().size() == 200);
  CHECK(str(auc.getattr("thresholds")) == "[-1e-07, 0.5, 1.0000001]");
  CHECK(str(auc.getattr("get_config")({}, {}))
            .find("'num_thresholds': 3, 'curve': 'ROC', 'summation_method': "
                  "'interpolation', 'multi_label': False") != std::string::npos);
  CHECK(error_text([] {
          make(tf::api::keras_metrics_AUC(), {{"num_thresholds", Value(1)}});
        }) == "ValueError: Argument `num_thresholds` must be an integer > 1. Received: num_thresholds=1");
  CHECK(error_text([] {
          make(tf::api::keras_metrics_AUC(), {{"curve", Value("XY")}});
        }) == "ValueError: Invalid AUC curve value: \"XY\". Expected values are [\"PR\", \"ROC\", \"PR_GAIN\"]");
}

TEST_CASE("Metric updates inside a tf.function accumulate in the variables") {
  Value mean = make(tf::api::keras_metrics_Mean());
  Value acc = make(tf::api::keras_metrics_SparseCategoricalAccuracy());
  Value auc = make(tf::api::keras_metrics_AUC(), {{"num_thresholds", Value(3)}});
  Value step = tf::api::function({make_function("step", {{"y", std::nullopt}, {"p", std::nullopt}, {"v", std::nullopt}},
                                                [&](const std::vector<Value>& a) {
                                                  mean.getattr("update_state")({a[2]}, {});
                                                  acc.getattr("update_state")({a[0], a[1]}, {});
                                                  return mean.getattr("result")({}, {});
                                                })},
                                 {});
  Value y = tf::constant(Value::list({Value(2), Value(1)}), DType::Int32);
  Value p = f32(rows({{0.1, 0.6, 0.3}, {0.05, 0.95, 0}}));
  CHECK(scalar(step({y, p, f32(row({1, 3}))})) == near(2.0));
  CHECK(scalar(step({y, p, f32(row({5, 7}))})) == near(4.0));  // (1 + 3 + 5 + 7) / 4
  CHECK(result(acc) == near(0.5));                             // 2 of 4
  // reset_state eagerly, then the traced function runs again on zeroed variables.
  reset(mean);
  CHECK(scalar(step({y, p, f32(row({6, 8}))})) == near(7.0));
  // AUC traced as well: the same counts as eagerly.
  Value auc_step = tf::api::function({make_function("auc_step", {{"y", std::nullopt}, {"p", std::nullopt}},
                                                    [&](const std::vector<Value>& a) {
                                                      return auc({a[0], a[1]});
                                                    })},
                                     {});
  CHECK(scalar(auc_step({f32(row({0, 0, 1, 1})), f32(row({0, 0.5, 0.3, 0.9}))})) == near(0.75));
}

TEST_CASE("A Metric subclass adds weights, updates them and resets them") {
  Value metric = tf::api::keras_metrics_Metric();
  Value cls = make_class(
      "BinaryTruePositives", {metric},
      {{"__init__", make_function("__init__", {{"self", std::nullopt}, {"name", Value("binary_true_positives")}},
                                  [metric](const std::vector<Value>& a) {
                                    metric.getattr("__init__")({a[0]}, {{"name", a[1]}});
                                    a[0].setattr("true_positives",
                                                 a[0].getattr("add_weight")(
                                                     {}, {{"name", Value("tp")}, {"initializer", Value("zeros")}}));
                                    return Value();
                                  })},
       {"update_state",
        make_function(
            "update_state",
            {{"self", std::nullopt}, {"y_true", std::nullopt}, {"y_pred", std::nullopt}, {"sample_weight", Value()}},
            [](const std::vector<Value>& a) {
              Value both = tf::logical_and(tf::cast(a[1], DType::Bool), tf::cast(a[2], DType::Bool));
              return a[0]
                  .getattr("true_positives")
                  .getattr("assign_add")({tf::reduce_sum(tf::cast(both, DType::Float32))}, {});
            })},
       {"result", make_function("result", {{"self", std::nullopt}},
                                [](const std::vector<Value>& a) { return a[0].getattr("true_positives"); })}});
  Value m = cls({}, {});
  // [1, 1, 0, 1] and [1, 0, 1, 1]: two true positives, then one more.
  CHECK(scalar(Value(to_tensor(m({row({1, 1, 0, 1}), row({1, 0, 1, 1})})))) == near(2.0));
  CHECK(scalar(Value(to_tensor(m({row({1}), row({1})})))) == near(3.0));
  reset(m);
  CHECK(scalar(Value(to_tensor(m.getattr("result")({}, {})))) == 0.0);
  CHECK(m.getattr("non_trainable_weights").items().size() == 1);
  CHECK(str(m.getattr("name")) == "binary_true_positives");
}

TEST_CASE("compile_metric: accuracy and crossentropy by the shapes, names, objects and functions") {
  // y_pred's last dim 1: binary.
  Value bin = keras::compile_metric(Value("accuracy"), Shape{4, 1}, Shape{4, 1});
  CHECK(str(bin.getattr("name")) == "accuracy");
  update(bin, {rows({{1}, {1}, {0}, {0}}), rows({{0.98}, {1}, {0}, {0.6}})});
  CHECK(result(bin) == near(0.75));
  // Labels of lower rank, or a last dim of 1 under classes: sparse.
  Value sparse = keras::compile_metric(Value("acc"), Shape{2}, Shape{2, 3});
  CHECK(str(sparse.getattr("name")) == "acc");
  update(sparse, {row({2, 1}), rows({{0.1, 0.6, 0.3}, {0.05, 0.95, 0}})});
  CHECK(result(sparse) == near(0.5));
  Value sparse2 = keras::compile_metric(Value("accuracy"), Shape{2, 1}, Shape{2, 3});
  update(sparse2, {rows({{2}, {1}}), rows({{0.1, 0.6, 0.3}, {0.05, 0.95, 0}})});
  CHECK(result(sparse2) == near(0.5));
  Value categorical = keras::compile_metric(Value("accuracy"), Shape{2, 3}, Shape{2, 3});
  update(categorical, {rows({{0, 0, 1}, {0, 1, 0}}), rows({{0.1, 0.9, 0.8}, {0.05, 0.95, 0}})});
  CHECK(result(categorical) == near(0.5));
  Value ce = keras::compile_metric(Value("ce"), Shape{2}, Shape{2, 3});
  CHECK(str(ce.getattr("name")) == "ce");
  update(ce, {row({1, 2}), rows({{0.05, 0.95, 0}, {0.1, 0.8, 0.1}})});
  CHECK(result(ce) == near(1.1769392));
  // Other names through keras.metrics.get: a function wrapped and named as given, a class instantiated.
  Value mse = keras::compile_metric(Value("mse"), Shape{2, 2}, Shape{2, 2});
  CHECK(str(mse.getattr("name")) == "mse");
  CHECK(is_instance(keras::compile_metric(Value("AUC"), Shape{2}, Shape{2}), tf::api::keras_metrics_AUC()));
  Value given = make(tf::api::keras_metrics_Precision());
  CHECK(keras::compile_metric(given, Shape{2}, Shape{2}).is(given));
  Value fn = make_function("my_metric", {{"y_true", std::nullopt}, {"y_pred", std::nullopt}},
                           [](const std::vector<Value>& a) { return tf::abs(a[1] - a[0]); });
  CHECK(str(keras::compile_metric(fn, Shape{2}, Shape{2}).getattr("name")) == "my_metric");
  CHECK(error_text([] {
          keras::compile_metric(Value("nope"), Shape{2}, Shape{2});
        }).rfind("ValueError: Unknown metric function: 'nope'.", 0) == 0);
  // keras.metrics.get itself: functions by name, classes instantiated.
  CHECK(tf::api::keras_metrics_get()({Value("mae")}, {}).is(tf::api::keras_losses_mean_absolute_error()));
  CHECK(tf::api::keras_metrics_get()({Value("acc")}, {}).getattr("__name__").as_str() == "accuracy");
  CHECK(error_text([] { tf::api::keras_metrics_get()({Value(3)}, {}); }) ==
        "ValueError: Could not interpret metric identifier: 3");
}
