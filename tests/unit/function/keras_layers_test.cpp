// tf.keras.layers.Dense and Conv2D (runtime/api/keras_layers.cpp): weights
// made on the first call, reproducible under tf.random.set_seed, and the
// same layer working eagerly and inside a tf.function.
#include <doctest/doctest.h>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/function/function_value.h"
#include "runtime/value/object_model.h"
#include "runtime/value/variable_value.h"
#include "tests/unit/error_text.h"

using namespace ag;
using ag::test::error_text;

namespace {

Value ones(std::vector<Value> dims) { return tf::ones(Value::list(std::move(dims))); }

std::string weight_text(const Value& layer, const char* name) {
  return str(Value(variable_value::read(layer.getattr(name))));
}

}  // namespace

TEST_CASE("Dense builds its weights on the first call and computes relu(x @ kernel + bias)") {
  tf::set_seed(Value(7));
  Value dense = tf::api::keras_layers_Dense()({Value(3)}, {{"activation", Value("relu")}});
  // As in Keras, the weights exist only once built.
  CHECK_FALSE(dense.hasattr("kernel"));
  Value x = ones({Value(2), Value(4)});
  Value y = dense({x});
  CHECK(str(y.getattr("shape")) == "(2, 3)");
  Value kernel = dense.getattr("kernel");
  CHECK(str(kernel.getattr("shape")) == "(4, 3)");
  CHECK(str(kernel.getattr("name")).rfind("dense", 0) == 0);
  CHECK(weight_text(dense, "bias") == "tf.Tensor([0. 0. 0.], shape=(3,), dtype=float32)");
  Value expected = Value(apply_op1(op::Relu, std::vector<TensorHandle>{tf::matmul(x, kernel).as_tensor()}));
  CHECK(str(y) == str(expected));
  // glorot_uniform: |w| <= sqrt(6 / (4 + 3)).
  CHECK(truthy(tf::reduce_all(tf::less_equal(tf::abs(kernel), Value(0.9258201)))));
  CHECK(dense.getattr("variables").items().size() == 2);
  CHECK(dense.getattr("trainable_variables").items().size() == 2);
  // A second call reuses the weights.
  Value y2 = dense({x});
  CHECK(str(y2) == str(y));

  // tf.random.set_seed makes the weights reproducible.
  tf::set_seed(Value(7));
  Value again = tf::api::keras_layers_Dense()({Value(3)}, {{"activation", Value("relu")}});
  again({x});
  CHECK(weight_text(again, "kernel") == weight_text(dense, "kernel"));
  CHECK(str(again.getattr("name")) != str(dense.getattr("name")));  // dense, dense_1, ...
}

TEST_CASE("Dense inside a tf.function creates its weights on the first trace only") {
  tf::set_seed(Value(3));
  Value dense = tf::api::keras_layers_Dense()({Value(2)}, {{"use_bias", Value(false)}});
  int traces = 0;
  Value f = tf::api::function({make_function("f", {{"x", std::nullopt}},
                                             [&](const std::vector<Value>& a) {
                                               ++traces;
                                               return dense({a[0]});
                                             })},
                              {});
  Value x = ones({Value(1), Value(3)});
  // TF traces twice when the first trace creates variables (the second checks none are created).
  Value y = f({x});
  CHECK(traces == 2);
  CHECK(str(y.getattr("shape")) == "(1, 2)");
  Value kernel = dense.getattr("kernel");
  CHECK(str(tf::matmul(x, kernel)) == str(y));
  CHECK(str(f({x})) == str(y));
  CHECK(traces == 2);
  // Eagerly the same layer gives the same result.
  CHECK(str(dense({x})) == str(y));
  // Another input shape retraces; the weights exist already, so nothing is created.
  Value x2 = ones({Value(2), Value(3)});
  CHECK(str(f({x2}).getattr("shape")) == "(2, 2)");
  CHECK(traces == 3);
  CHECK(dense.getattr("variables").items().size() == 1);
}

TEST_CASE("Dense over rank-3 inputs, activations and errors") {
  Value dense = tf::api::keras_layers_Dense()({Value(5)}, {{"activation", Value("tanh")}, {"name", Value("proj")}});
  Value y = dense({ones({Value(2), Value(3), Value(4)})});
  CHECK(str(y.getattr("shape")) == "(2, 3, 5)");
  CHECK(str(dense.getattr("kernel").getattr("name")) == "proj/kernel:0");
  CHECK(error_text([&] { tf::api::keras_layers_Dense()({Value(0)}, {}); }) ==
        "ValueError: Received an invalid value for `units`, expected a positive integer. Received: units=0");
  CHECK(error_text([&] { tf::api::keras_layers_Dense()({}, {}); }) ==
        "TypeError: Dense.__init__() missing 1 required positional argument: 'units'");
  CHECK(error_text([&] { tf::api::keras_layers_Dense()({Value(2)}, {{"activation", Value("nope")}}); })
            .rfind("ValueError: Unknown activation function: 'nope'.", 0) == 0);
  CHECK(is_instance(dense, tf::api::Module()));
}

TEST_CASE("Conv2D: valid and same padding, strides, bias and activation") {
  tf::set_seed(Value(1));
  Value conv = tf::api::keras_layers_Conv2D()({Value(2), Value(3)}, {});
  Value image = ones({Value(1), Value(5), Value(5), Value(1)});
  Value y = conv({image});
  CHECK(str(y.getattr("shape")) == "(1, 3, 3, 2)");
  CHECK(str(conv.getattr("kernel").getattr("shape")) == "(3, 3, 1, 2)");
  // Every output is the sum of the 3x3 kernel per filter (the image is ones).
  Value sums = tf::reduce_sum(conv.getattr("kernel"), Value::list({Value(0), Value(1), Value(2)}));
  Value first = getitem(y, std::vector<IndexPart>{Value(0), Value(1), Value(1)});
  CHECK(truthy(tf::reduce_all(tf::less(tf::abs(tf::subtract(first, sums)), Value(1e-5)))));
  Value same = tf::api::keras_layers_Conv2D()({Value(4), Value::tuple({Value(3), Value(3)})},
                                              {{"strides", Value(2)}, {"padding", Value("same")},
                                               {"activation", Value("relu")}});
  CHECK(str(same({image}).getattr("shape")) == "(1, 3, 3, 4)");
  // In a tf.function, as the seed's conv_fn.
  Value conv_fn = tf::api::function(
      {make_function("conv_fn", {{"image", std::nullopt}}, [&](const std::vector<Value>& a) { return conv({a[0]}); })}, {});
  CHECK(str(conv_fn({image})) == str(y));
  CHECK(error_text([&] { conv({ones({Value(5), Value(5)})}); }) ==
        "ValueError: Input 0 of layer \"conv2d\" is incompatible with the layer: expected min_ndim=4, found ndim=2. "
        "Full shape received: (5, 5)");
}
