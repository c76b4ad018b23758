// tf.keras.layers.Embedding (runtime/keras/layers_core.cpp) and the Layer
// API's compute_mask (runtime/keras/layer.cpp): rows looked up from the
// embeddings, float ids cast to int32, mask_zero's mask, the base class's
// pass-through for layers that support masking, Keras's texts.
#include <doctest/doctest.h>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/keras/masking.h"
#include "runtime/value/object_model.h"
#include "tests/unit/error_text.h"
#include "tests/unit/keras/layer_support.h"

using namespace ag;
using namespace ag::test;

TEST_CASE("Embedding looks up rows of its weight; float ids are cast to int32") {
  Value emb = make_layer(tf::api::keras_layers_Embedding(), {Value(5), Value(2)}, {{"name", Value("emb")}});
  Value ids = tf::constant(Value::list({Value::list({Value(0), Value(3)}), Value::list({Value(4), Value(3)})}));
  emb({ids});
  CHECK(weight_names(emb) == std::vector<std::string>{"emb/embeddings:0"});
  CHECK(weight_shapes(emb) == std::vector<std::string>{"(5, 2)"});
  // 'uniform' is RandomUniform(-0.05, 0.05).
  for (float v : values_of(emb.getattr("embeddings"))) CHECK((v >= -0.05f && v <= 0.05f));
  emb.getattr("set_weights")({Value::list({tensor_of(iota_values(10), {5, 2})})}, {});
  Value y = emb({ids});
  CHECK(str(y.getattr("shape")) == "(2, 2, 2)");
  CHECK(values_of(y) == std::vector<float>{0, 1, 6, 7, 8, 9, 6, 7});
  CHECK(values_of(emb({tensor_of({1, 2}, {2})})) == std::vector<float>{2, 3, 4, 5});
  Value f = traced_function({"ids"}, [&](const std::vector<Value>& a) { return emb({a[0]}); });
  CHECK(values_of(f({ids})) == values_of(y));
  // mask_zero=False: no mask.
  CHECK(emb.getattr("compute_mask")({ids}, {}).is_none());
  CHECK_FALSE(truthy(emb.getattr("supports_masking")));
  CHECK(str(emb.getattr("get_config")({}, {})) ==
        "{'name': 'emb', 'trainable': True, 'dtype': 'float32', 'input_dim': 5, 'output_dim': 2, "
        "'embeddings_initializer': 'uniform', 'embeddings_regularizer': None, 'mask_zero': False, "
        "'input_length': None}");
}

TEST_CASE("Embedding(mask_zero=True) masks the zero ids; Sequential builds it at once") {
  Value emb = make_layer(tf::api::keras_layers_Embedding(), {Value(10), Value(3)}, {{"mask_zero", Value(true)}});
  Value ids = tf::constant(Value::list({Value::list({Value(1), Value(0), Value(7)})}));
  CHECK(str(emb.getattr("compute_mask")({ids}, {})) == "tf.Tensor([[ True False  True]], shape=(1, 3), dtype=bool)");
  CHECK(truthy(emb.getattr("supports_masking")));
  // Keras gives Embedding an input_shape of (input_length,): a Sequential has its graph from the start.
  Value model = tf::api::keras_Sequential()({Value::list({make_layer(tf::api::keras_layers_Embedding(),
                                                                     {Value(10), Value(4)},
                                                                     {{"input_length", Value(6)}})})},
                                            {});
  CHECK(truthy(model.getattr("built")));
  CHECK(str(model({tf::zeros(Value::list({Value(1), Value(6)}), DType::Int32)}).getattr("shape")) == "(1, 6, 4)");
  CHECK(error_text([] { make_layer(tf::api::keras_layers_Embedding(), {Value(0), Value(4)}); }) ==
        "ValueError: Both `input_dim` and `output_dim` should be positive, Received input_dim = 0 and output_dim = 4");
}

TEST_CASE("compute_mask: Keras's default passes the mask on when the layer supports masking") {
  Value x = tensor_of(iota_values(6), {2, 3});
  Value mask = tf::constant(Value::list({Value(true), Value(false)}));
  // The base Layer does not support masking until told it does.
  Value layer = tf::api::keras_layers_Layer()({}, {{"name", Value("d")}});
  CHECK(layer.getattr("compute_mask")({x}, {}).is_none());
  CHECK(error_text([&] { layer.getattr("compute_mask")({x, mask}, {}); }) ==
        "TypeError: Layer d does not support masking, but was passed an input_mask: tf.Tensor([ True False], "
        "shape=(2,), dtype=bool)");
  layer.setattr("supports_masking", Value(true));
  CHECK(layer.getattr("compute_mask")({x, mask}, {}).is(mask));
  // Dense passes a mask on, as Keras's.
  Value dense = make_layer(tf::api::keras_layers_Dense(), {Value(2)});
  CHECK(dense.getattr("compute_mask")({x, mask}, {}).is(mask));
  // Masking layers of this file: BatchNormalization and LayerNormalization pass it through.
  Value bn = make_layer(tf::api::keras_layers_BatchNormalization());
  CHECK(bn.getattr("compute_mask")({x, mask}, {}).is(mask));
}

TEST_CASE("Layer.__call__ asks compute_mask only of a layer that supports masking or defines its own, as Keras 2") {
  Value emb = make_layer(tf::api::keras_layers_Embedding(), {Value(5), Value(2)}, {{"mask_zero", Value(true)}});
  Value x = emb({tf::constant(Value::list({Value::list({Value(1), Value(0), Value(3)})}))});
  REQUIRE_FALSE(keras::implicit_mask(x).is_none());
  // Flatten does neither: the mask is dropped, not refused (Keras's _set_mask_metadata).
  Value flat = make_layer(tf::api::keras_layers_Flatten())({x});
  CHECK(str(flat.getattr("shape")) == "(1, 6)");
  CHECK(keras::implicit_mask(flat).is_none());
  // A subclass whose class defines compute_mask is asked even without supports_masking.
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.emplace_back("compute_mask", make_function("compute_mask",
                                                   {{"self", std::nullopt}, {"inputs", std::nullopt}, {"mask", Value()}},
                                                   [](const std::vector<Value>& a) -> Value { return tf::logical_not(a[2]); }));
  Value cls = make_class("Halves", {tf::api::keras_layers_Layer()}, std::move(attrs));
  Value y = cls({}, {})({x});
  CHECK(str(keras::implicit_mask(y)) == "tf.Tensor([[False  True False]], shape=(1, 3), dtype=bool)");
  // Several outputs and one mask: the first output's, as Keras zips them.
  Value a = tensor_of({1, 2}, {1, 2}), b = tensor_of({3, 4}, {1, 2});
  keras::set_implicit_mask(Value::list({a, b}), tf::constant(Value::list({Value::list({Value(true), Value(false)})})));
  CHECK_FALSE(keras::implicit_mask(a).is_none());
  CHECK(keras::implicit_mask(b).is_none());
}
