// tf.keras merge layers (runtime/keras/layers_merge.cpp): elementwise merges
// against the arithmetic, inputs of lower rank expanded at axis 1,
// Concatenate and Dot (batch_dot by hand, cosine with normalize), the
// functional forms, symbolic inputs, compute_mask and Keras's error texts.
#include <doctest/doctest.h>

#include <cmath>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "tests/unit/error_text.h"
#include "tests/unit/keras/layer_support.h"

using namespace ag;
using namespace ag::test;

TEST_CASE("Add, Subtract, Multiply, Average, Maximum and Minimum merge a list elementwise") {
  Value a = tensor_of({1, -2, 3, 4, 5, -6}, {2, 3});
  Value b = tensor_of({2, 2, -1, 0, 7, 1}, {2, 3});
  Value c = tensor_of({0, 1, 1, 9, -3, 2}, {2, 3});
  Value abc = Value::list({a, b, c});
  CHECK(values_of(make_layer(tf::api::keras_layers_Add())({abc})) == std::vector<float>{3, 1, 3, 13, 9, -3});
  CHECK(values_of(make_layer(tf::api::keras_layers_Subtract())({Value::list({a, b})})) ==
        std::vector<float>{-1, -4, 4, 4, -2, -7});
  CHECK(values_of(make_layer(tf::api::keras_layers_Multiply())({abc})) == std::vector<float>{0, -4, -3, 0, -105, -12});
  CHECK(values_of(make_layer(tf::api::keras_layers_Average())({abc})) == std::vector<float>{1, 1.0f / 3, 1, 13.0f / 3, 3, -1});
  CHECK(values_of(make_layer(tf::api::keras_layers_Maximum())({abc})) == std::vector<float>{2, 2, 3, 9, 7, 2});
  CHECK(values_of(make_layer(tf::api::keras_layers_Minimum())({abc})) == std::vector<float>{0, -2, -1, 0, -3, -6});
  // A tuple works as a list; the functional forms make and call the layer.
  CHECK(values_of(tf::api::keras_layers_add()({Value::tuple({a, b})}, {})) == std::vector<float>{3, 0, 2, 4, 12, -5});
  CHECK(values_of(tf::api::keras_layers_subtract()({Value::list({a, b})}, {{"name", Value("sub")}})) ==
        std::vector<float>{-1, -4, 4, 4, -2, -7});
  // In a tf.function too.
  Value add = make_layer(tf::api::keras_layers_Add());
  Value f = traced_function({"x", "y"}, [&](const std::vector<Value>& v) { return add({Value::list({v[0], v[1]})}); });
  CHECK(values_of(f({a, b})) == std::vector<float>{3, 0, 2, 4, 12, -5});
}

TEST_CASE("a merge of inputs of different ranks expands the smaller ones at axis 1 and broadcasts") {
  Value x = tensor_of(iota_values(12), {2, 3, 2});
  Value y = tensor_of({10, 20, 30, 40}, {2, 2});
  // y[b] becomes [b, 1, :]: each of x's rows gets y's row of its batch.
  Value out = make_layer(tf::api::keras_layers_Add())({Value::list({x, y})});
  CHECK(str(out.getattr("shape")) == "(2, 3, 2)");
  CHECK(values_of(out) == std::vector<float>{10, 21, 12, 23, 14, 25, 36, 47, 38, 49, 40, 51});
  // Size-1 dims broadcast.
  Value col = tensor_of({2, 3}, {2, 1});
  CHECK(values_of(make_layer(tf::api::keras_layers_Multiply())({Value::list({y, col})})) ==
        std::vector<float>{20, 40, 90, 120});
}

TEST_CASE("Concatenate joins on its axis; its shape check is Keras's") {
  Value x = tensor_of(iota_values(4), {2, 2});
  Value y = tensor_of({10, 11, 12, 13, 14, 15}, {2, 3});
  Value out = make_layer(tf::api::keras_layers_Concatenate())({Value::list({x, y})});
  CHECK(str(out.getattr("shape")) == "(2, 5)");
  CHECK(values_of(out) == std::vector<float>{0, 1, 10, 11, 12, 2, 3, 13, 14, 15});
  Value rows = make_layer(tf::api::keras_layers_Concatenate(), {Value(0)})({Value::list({x, x})});
  CHECK(values_of(rows) == std::vector<float>{0, 1, 2, 3, 0, 1, 2, 3});
  CHECK(values_of(tf::api::keras_layers_concatenate()({Value::list({x, x})}, {{"axis", Value(1)}})) ==
        std::vector<float>{0, 1, 0, 1, 2, 3, 2, 3});
  Value cat = make_layer(tf::api::keras_layers_Concatenate(), {}, {{"name", Value("cat")}});
  CHECK(str(cat.getattr("get_config")({}, {})) == "{'name': 'cat', 'trainable': True, 'dtype': 'float32', 'axis': -1}");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_Concatenate())({Value::list({x, tensor_of({1, 2, 3}, {3, 1})})}); }) ==
        "ValueError: A `Concatenate` layer requires inputs with matching shapes except for the concatenation axis. "
        "Received: input_shape=[(2, 2), (3, 1)]");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_Concatenate())({x}); }) ==
        "ValueError: A `Concatenate` layer should be called on a list of at least 1 input. Received: "
        "input_shape=(2, 2)");
}

TEST_CASE("Dot is Keras's batch_dot over the chosen axes, cosine proximity with normalize") {
  // Keras's docstring example: x (1, 5, 2) = arange(10), y (1, 2, 5) = arange(10, 20), axes (1, 2).
  Value x = tensor_of(iota_values(10), {1, 5, 2});
  Value y = tensor_of(iota_values(10, 1, 10), {1, 2, 5});
  Value out = make_layer(tf::api::keras_layers_Dot(), {Value::tuple({Value(1), Value(2)})})({Value::list({x, y})});
  CHECK(str(out.getattr("shape")) == "(1, 2, 2)");
  CHECK(values_of(out) == std::vector<float>{260, 360, 320, 445});
  // Rank 2 with axes=1: the rowwise dot, shape (batch, 1).
  Value p = tensor_of({1, 2, 3, 4, 5, 6}, {2, 3});
  Value q = tensor_of({1, 0, 2, -1, 1, 1}, {2, 3});
  Value d = make_layer(tf::api::keras_layers_Dot(), {Value(1)})({Value::list({p, q})});
  CHECK(str(d.getattr("shape")) == "(2, 1)");
  CHECK(values_of(d) == std::vector<float>{7, 7});
  // normalize: cos(p, q) = p·q / (|p| |q|).
  Value cos = tf::api::keras_layers_dot()({Value::list({p, q})}, {{"axes", Value(-1)}, {"normalize", Value(true)}});
  CHECK(all_close(values_of(cos), {7 / (std::sqrt(14.0) * std::sqrt(5.0)), 7 / (std::sqrt(77.0) * std::sqrt(3.0))},
                  1e-6));
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_Dot(), {Value(1)})({Value::list({p, x})}); }) ==
        "ValueError: Incompatible input shapes: axis values 3 (at axis 1) != 5 (at axis 1). Full input shapes: (2, 3), "
        "(1, 5, 2)");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_Dot(), {Value::tuple({Value(1)})}); }) ==
        "ValueError: Invalid format for argument `axes`: it should contain two elements. Received: axes=(1,)");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_Dot(), {Value("x")}); }) ==
        "TypeError: Invalid type for argument `axes`: it should be a list or an int. Received: axes=x");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_Dot(), {Value(1)})({Value::list({p, q, q})}); }) ==
        "ValueError: A `Dot` layer should be called on a list of 2 inputs. Received: input_shape=[(2, 3), (2, 3), "
        "(2, 3)]");
}

TEST_CASE("merge layers on symbolic inputs give the functional model's output shapes") {
  Value a = tf::api::keras_Input()({}, {{"shape", Value::tuple({Value(3)})}});
  Value b = tf::api::keras_Input()({}, {{"shape", Value::tuple({Value(3)})}});
  Value sum = make_layer(tf::api::keras_layers_Add())({Value::list({a, b})});
  CHECK(str(sum.getattr("shape")) == "(None, 3)");
  Value cat = make_layer(tf::api::keras_layers_Concatenate())({Value::list({a, b})});
  CHECK(str(cat.getattr("shape")) == "(None, 6)");
  Value dot = make_layer(tf::api::keras_layers_Dot(), {Value(1)})({Value::list({a, b})});
  CHECK(str(dot.getattr("shape")) == "(None, 1)");
  Value model = tf::api::keras_Model()({}, {{"inputs", Value::list({a, b})}, {"outputs", cat}});
  Value out = model({Value::list({tensor_of({1, 2, 3}, {1, 3}), tensor_of({4, 5, 6}, {1, 3})})});
  CHECK(values_of(out) == std::vector<float>{1, 2, 3, 4, 5, 6});
}

TEST_CASE("merge layers' masks and errors") {
  Value x = tensor_of(iota_values(6), {2, 3});
  Value t = tf::constant(Value::list({Value(true), Value(false)}));
  Value u = tf::constant(Value::list({Value(true), Value(true)}));
  Value add = make_layer(tf::api::keras_layers_Add(), {}, {{"name", Value("add")}});
  // _Merge.compute_mask: the given masks and-ed; none given, None.
  CHECK(str(add.getattr("compute_mask")({Value::list({x, x}), Value::list({t, u})}, {})) ==
        "tf.Tensor([ True False], shape=(2,), dtype=bool)");
  CHECK(add.getattr("compute_mask")({Value::list({x, x}), Value::list({Value(), Value()})}, {}).is_none());
  CHECK(add.getattr("compute_mask")({Value::list({x, x})}, {}).is_none());
  CHECK(error_text([&] { add.getattr("compute_mask")({Value::list({x, x}), t}, {}); }) ==
        "ValueError: `mask` should be a list. Received: mask=tf.Tensor([ True False], shape=(2,), dtype=bool)");
  // Concatenate's: an input without a mask counts as all True, a mask of lower rank gains the last axis.
  Value cat = make_layer(tf::api::keras_layers_Concatenate());
  CHECK(str(cat.getattr("compute_mask")({Value::list({x, x}), Value::list({t, Value()})}, {})) ==
        "tf.Tensor([ True False], shape=(2,), dtype=bool)");

  CHECK(error_text([&] { add({x}); }) ==
        "ValueError: A merge layer should be called on a list of inputs. Received: input_shape=(2, 3) (not a list of "
        "shapes)");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_Add())({Value::list({x, tensor_of(iota_values(8), {2, 4})})}); }) ==
        "ValueError: Inputs have incompatible shapes. Received shapes (3,) and (4,)");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_Maximum())({Value::list({x, tensor_of(iota_values(9), {3, 3})})}); }) ==
        "ValueError: Cannot merge tensors with different batch sizes. Got tensors with shapes [(2, 3), (3, 3)]");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_Subtract())({Value::list({x, x, x})}); }) ==
        "ValueError: A `Subtract` layer should be called on exactly 2 inputs. Received: input_shape=[(2, 3), (2, 3), "
        "(2, 3)]");
}
