// tf.slice, tf.math.cumprod and the tf.nn rows over the loss and batch-norm ops: Python
// argument handling (axis moved last, outer dims flattened, the tuple
// fused_batch_norm returns) and TF's Python-level error texts.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/core/error.h"

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
