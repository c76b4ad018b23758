// The core layers of tf.keras.layers: Dense, Activation, Dropout, Flatten,
// Reshape, Permute, Lambda, Rescaling and Embedding, each Keras 2's call() built from
// tf.* functions (so a trace names its nodes as TF does) with Keras's
// constructor checks and messages.
#include <numeric>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/keras/activations.h"
#include "runtime/keras/layer.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/variable_value.h"

namespace ag::keras {

Value make_dense() {
  return make_layer_class(LayerDef{
      .name = "Dense",
      .init_params = with_kernel_bias_params({{"units", std::nullopt},
                                              {"activation", Value()},
                                              {"use_bias", Value(true)}}),
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            if (!a[1].is_index() || a[1].as_int() <= 0) {
              throw ValueError("Received an invalid value for `units`, expected a positive integer. Received: units=" +
                               str(a[1]));
            }
            init_base(self, a[11], a[12], a[13], a[14]);
            self.setattr("supports_masking", Value(true));  // Keras's Dense passes a mask on
            self.setattr("units", Value(a[1].as_int()));
            self.setattr("activation", get_activation(a[2]));
            self.setattr("use_bias", Value(truthy(a[3])));
            self.setattr("kernel_initializer", a[4]);
            self.setattr("bias_initializer", a[5]);
            self.setattr("kernel_regularizer", a[6]);
            self.setattr("bias_regularizer", a[7]);
          },
      .build =
          [](const Value& self, const Value& input_shape) {
            int64_t last = shape_dim(input_shape, -1);
            if (last < 0) {
              throw ValueError("The last dimension of the inputs to a Dense layer should be defined. Found None. Full "
                               "input shape received: " + str(input_shape));
            }
            int64_t units = self.getattr("units").as_int();
            self.setattr("kernel", add_weight(self, {"kernel", {last, units}, self.getattr("kernel_initializer"),
                                                     self.getattr("kernel_regularizer")}));
            self.setattr("bias", truthy(self.getattr("use_bias"))
                                     ? add_weight(self, {"bias", {units}, self.getattr("bias_initializer"),
                                                         self.getattr("bias_regularizer")})
                                     : Value());
          },
      .call =
          [](const std::vector<Value>& a) {
            const Value& self = a[0];
            Value x = a[1];
            check_input_rank(self, x, 2);
            Value kernel = self.getattr("kernel");
            check_input_axis(self, x, -1, variable_value::read(kernel).shape().dim(0));
            const Shape& s = x.as_tensor().shape();
            Value y;
            if (!s.rank_known() || s.rank() == 2) {
              y = tf::matmul(x, kernel);
            } else {
              int64_t last = s.rank() - 1;
              y = tf::tensordot(x, kernel, Value::list({Value::list({Value(last)}), Value::list({Value(0)})}));
            }
            if (truthy(self.getattr("use_bias"))) y = tf::api::bias_add({y, self.getattr("bias")}, {});
            return self.getattr("activation")({y}, {});
          },
      .config = {"units", "activation", "use_bias", "kernel_initializer", "bias_initializer"},
  });
}

Value make_activation() {
  return make_layer_class(LayerDef{
      .name = "Activation",
      .init_params = {{"activation", std::nullopt}, {"name", Value()}, {"trainable", Value(true)}, {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[2], a[3], a[4], a[5]);
            self.setattr("supports_masking", Value(true));
            self.setattr("activation", get_activation(a[1]));
          },
      .call = [](const std::vector<Value>& a) { return a[0].getattr("activation")({a[1]}, {}); },
      .config = {"activation"},
  });
}

namespace {

/// training as a Python decision: True/False, or a tensor's value when eager.
bool training_now(const Value& training) {
  if (training.is_none()) return false;
  if (training.is_tensor() && training.as_tensor().symbolic()) {
    throw UnimplementedError("agc: a symbolic `training` tensor is not supported; pass a Python bool");
  }
  return truthy(training);
}

}  // namespace

Value make_dropout() {
  return make_layer_class(LayerDef{
      .name = "Dropout",
      .init_params = {{"rate", std::nullopt},
                      {"noise_shape", Value()},
                      {"seed", Value()},
                      {"name", Value()},
                      {"trainable", Value(true)},
                      {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            double rate = a[1].as_float();
            if (rate < 0.0 || rate > 1.0) {
              throw ValueError("Invalid value received for argument `rate`. Expected a float value between 0 and 1. "
                               "Received: rate=" + str(a[1]));
            }
            init_base(self, a[4], a[5], a[6], a[7]);
            self.setattr("supports_masking", Value(true));
            self.setattr("rate", a[1]);
            self.setattr("noise_shape", a[2]);
            self.setattr("seed", a[3]);
          },
      .call_params = {{"training", Value()}},
      .call =
          [](const std::vector<Value>& a) {
            const Value& self = a[0];
            if (!training_now(a[2]) || self.getattr("rate").as_float() == 0.0) return a[1];
            Value noise_shape = self.getattr("noise_shape");
            if (!noise_shape.is_none()) {
              // Keras fills None entries of noise_shape from the input's dynamic shape.
              Value dyn = tf::api::shape({a[1]}, {});
              std::vector<Value> dims;
              int i = 0;
              for (const Value& d : iterate(noise_shape)) {
                dims.push_back(d.is_none() ? tf::api::gather({dyn, Value(i)}, {}) : d);
                ++i;
              }
              noise_shape = tf::api::stack({Value::list(std::move(dims))}, {});
            }
            return tf::dropout(a[1], self.getattr("rate"), noise_shape, self.getattr("seed"));
          },
      .config = {"rate", "noise_shape", "seed"},
  });
}

Value make_flatten() {
  return make_layer_class(LayerDef{
      .name = "Flatten",
      .init_params = {{"data_format", Value()}, {"name", Value()}, {"trainable", Value(true)}, {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            if (!a[1].is_none() && str(a[1]) != "channels_last") {
              throw UnimplementedError("agc: Flatten supports data_format='channels_last' only");
            }
            init_base(self, a[2], a[3], a[4], a[5]);
            self.setattr("data_format", Value("channels_last"));
          },
      .call =
          [](const std::vector<Value>& a) {
            check_input_rank(a[0], a[1], 1);
            const Shape& s = a[1].as_tensor().shape();
            if (s.rank_known() && s.rank() == 1) return tf::api::expand_dims({a[1], Value(1)}, {});
            bool rest_known = s.rank_known();
            int64_t prod = 1;
            for (int i = 1; rest_known && i < s.rank(); ++i) {
              if (s.dim(i) < 0) rest_known = false;
              else prod *= s.dim(i);
            }
            if (rest_known) {
              Value batch = s.dim(0) < 0 ? Value(-1) : Value(s.dim(0));
              return tf::reshape(a[1], Value::list({batch, Value(prod)}));
            }
            Value batch = tf::api::gather({tf::api::shape({a[1]}, {}), Value(0)}, {});
            return tf::reshape(a[1], tf::api::stack({Value::list({batch, Value(-1)})}, {}));
          },
      .config = {"data_format"},
  });
}

Value make_reshape() {
  return make_layer_class(LayerDef{
      .name = "Reshape",
      .init_params = {{"target_shape", std::nullopt}, {"name", Value()}, {"trainable", Value(true)}, {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[2], a[3], a[4], a[5]);
            self.setattr("target_shape", Value::tuple(iterate(a[1])));
          },
      .call =
          [](const std::vector<Value>& a) {
            const Shape& s = a[1].as_tensor().shape();
            Value batch = s.rank_known() && s.rank() > 0 && s.dim(0) >= 0
                              ? Value(s.dim(0))
                              : tf::api::gather({tf::api::shape({a[1]}, {}), Value(0)}, {});
            std::vector<Value> dims{batch};
            for (const Value& d : iterate(a[0].getattr("target_shape"))) dims.push_back(d);
            bool all_static = !batch.is_tensor();
            return tf::reshape(a[1], all_static ? Value::list(dims) : tf::api::stack({Value::list(dims)}, {}));
          },
      .config = {"target_shape"},
  });
}

Value make_permute() {
  return make_layer_class(LayerDef{
      .name = "Permute",
      .init_params = {{"dims", std::nullopt}, {"name", Value()}, {"trainable", Value(true)}, {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            std::vector<Value> dims = iterate(a[1]);
            std::vector<int64_t> sorted;
            for (const Value& d : dims) sorted.push_back(d.as_int());
            std::sort(sorted.begin(), sorted.end());
            for (size_t i = 0; i < sorted.size(); ++i) {
              if (sorted[i] != static_cast<int64_t>(i) + 1) {
                throw ValueError("Invalid permutation argument `dims` for Permute Layer. The set of indices in `dims` "
                                 "must be consecutive and start from 1. Received dims=" + str(a[1]));
              }
            }
            init_base(self, a[2], a[3], a[4], a[5]);
            self.setattr("dims", Value::tuple(dims));
          },
      .call =
          [](const std::vector<Value>& a) {
            std::vector<Value> perm{Value(0)};
            for (const Value& d : iterate(a[0].getattr("dims"))) perm.push_back(d);
            return tf::transpose(a[1], Value::list(std::move(perm)));
          },
      .config = {"dims"},
  });
}

Value make_lambda() {
  return make_layer_class(LayerDef{
      .name = "Lambda",
      .init_params = {{"function", std::nullopt},
                      {"output_shape", Value()},
                      {"mask", Value()},
                      {"arguments", Value()},
                      {"name", Value()},
                      {"trainable", Value(true)},
                      {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[5], a[6], a[7], a[8]);
            self.setattr("function", a[1]);
            self.setattr("arguments", a[4].is_none() ? Value::dict() : a[4]);
          },
      .call_params = {{"mask", Value()}, {"training", Value()}},
      .call =
          [](const std::vector<Value>& a) {
            Kwargs kwargs;
            for (const auto& [k, v] : a[0].getattr("arguments").as_dict().entries) kwargs.emplace_back(k.as_str(), v);
            return a[0].getattr("function")({a[1]}, std::move(kwargs));
          },
      .config = {},
  });
}

Value make_rescaling() {
  return make_layer_class(LayerDef{
      .name = "Rescaling",
      .init_params = {{"scale", std::nullopt},
                      {"offset", Value(0.0)},
                      {"name", Value()},
                      {"trainable", Value(true)},
                      {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[3], a[4], a[5], a[6]);
            self.setattr("scale", a[1]);
            self.setattr("offset", a[2]);
          },
      .call =
          [](const std::vector<Value>& a) {
            Value x = tf::cast(a[1], DType::Float32);
            Value scale = tf::cast(a[0].getattr("scale"), DType::Float32);
            Value offset = tf::cast(a[0].getattr("offset"), DType::Float32);
            return tf::api::add({tf::api::multiply({x, scale}, {}), offset}, {});
          },
      .config = {"scale", "offset"},
  });
}

Value make_embedding() {
  return make_layer_class(LayerDef{
      .name = "Embedding",
      .init_params = {{"input_dim", std::nullopt},
                      {"output_dim", std::nullopt},
                      {"embeddings_initializer", Value("uniform")},
                      {"embeddings_regularizer", Value()},
                      {"activity_regularizer", Value()},
                      {"embeddings_constraint", Value()},
                      {"mask_zero", Value(false)},
                      {"input_length", Value()},
                      {"sparse", Value(false)},
                      {"name", Value()},
                      {"trainable", Value(true)},
                      {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            // Keras gives the layer an input_shape, (input_length,) or (None,),
            // so a Sequential starting with it builds at once.
            Value kwargs = Value::dict();
            bool has_shape = false;
            for (const auto& [k, v] : a[13].as_dict().entries) {
              kwargs.as_dict().set(k, v);
              has_shape = has_shape || k.as_str() == "input_shape";
            }
            if (!has_shape) {
              kwargs.as_dict().set(Value("input_shape"), Value::tuple({truthy(a[8]) ? a[8] : Value()}));
            }
            if (a[1].as_int() <= 0 || a[2].as_int() <= 0) {
              throw ValueError("Both `input_dim` and `output_dim` should be positive, Received input_dim = " + str(a[1]) +
                               " and output_dim = " + str(a[2]));
            }
            if (truthy(a[9])) throw UnimplementedError("agc: Embedding(sparse=True) is not supported");
            init_base(self, a[10], a[11], a[12], kwargs);
            self.setattr("input_dim", Value(a[1].as_int()));
            self.setattr("output_dim", Value(a[2].as_int()));
            self.setattr("embeddings_initializer", a[3]);
            self.setattr("embeddings_regularizer", a[4]);
            self.setattr("mask_zero", Value(truthy(a[7])));
            self.setattr("supports_masking", Value(truthy(a[7])));
            self.setattr("input_length", a[8]);
          },
      .build =
          [](const Value& self, const Value&) {
            self.setattr("embeddings", add_weight(self, {"embeddings",
                                                         {self.getattr("input_dim").as_int(),
                                                          self.getattr("output_dim").as_int()},
                                                         self.getattr("embeddings_initializer"),
                                                         self.getattr("embeddings_regularizer")}));
          },
      .call =
          [](const std::vector<Value>& a) {
            Value ids = a[1].is_tensor() ? a[1] : Value(to_tensor(a[1]));
            DType d = ids.as_tensor().dtype();
            if (d != DType::Int32 && d != DType::Int64) ids = tf::cast(ids, DType::Int32);
            return tf::api::embedding_lookup({a[0].getattr("embeddings"), ids}, {});
          },
      .compute_mask =
          [](const std::vector<Value>& a) -> Value {
            if (!truthy(a[0].getattr("mask_zero"))) return Value();
            return tf::api::not_equal({a[1], Value(0)}, {});
          },
      .config = {"input_dim", "output_dim", "embeddings_initializer", "embeddings_regularizer", "mask_zero",
                 "input_length"},
  });
}

}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_layers_Embedding() {
  static const Value cls = keras::make_embedding();
  return cls;
}

const Value& keras_layers_Dense() {
  static const Value cls = keras::make_dense();
  return cls;
}

const Value& keras_layers_Activation() {
  static const Value cls = keras::make_activation();
  return cls;
}

const Value& keras_layers_Dropout() {
  static const Value cls = keras::make_dropout();
  return cls;
}

const Value& keras_layers_Flatten() {
  static const Value cls = keras::make_flatten();
  return cls;
}

const Value& keras_layers_Reshape() {
  static const Value cls = keras::make_reshape();
  return cls;
}

const Value& keras_layers_Permute() {
  static const Value cls = keras::make_permute();
  return cls;
}

const Value& keras_layers_Lambda() {
  static const Value cls = keras::make_lambda();
  return cls;
}

const Value& keras_layers_Rescaling() {
  static const Value cls = keras::make_rescaling();
  return cls;
}

}  // namespace ag::tf::api
