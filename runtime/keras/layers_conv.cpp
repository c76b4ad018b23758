// The convolution layers of tf.keras.layers (channels_last, as TF's CPU
// kernels): Conv2D (padding, strides, dilation, groups) and DepthwiseConv2D,
// with Keras 2's argument checks and messages.
#include <algorithm>
#include <cctype>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/graph/tracing.h"
#include "runtime/keras/activations.h"
#include "runtime/keras/layer.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/variable_value.h"

namespace ag::keras {
namespace {

/// An int or a tuple of `n` ints (kernel_size=3, strides=(1, 1)), as a tuple.
Value int_tuple(const Value& v, size_t n, const char* what) {
  if (v.is_index()) return Value::tuple(std::vector<Value>(n, Value(v.as_int())));
  std::vector<Value> items = iterate(v);
  if (items.size() != n) {
    throw ValueError(std::string("The `") + what + "` argument must be a tuple of " + std::to_string(n) +
                     " integers. Received: " + str(v));
  }
  for (const Value& i : items) {
    if (!i.is_index()) {
      throw ValueError(std::string("The `") + what + "` argument must be a tuple of " + std::to_string(n) +
                       " integers. Received: " + str(v) + " including element " + str(i) + " of type " +
                       i.type_name());
    }
  }
  return Value::tuple(items);
}

std::string padding_arg(const Value& v) {
  std::string padding = str(v);
  for (char& c : padding) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (padding != "valid" && padding != "same") {
    throw ValueError("The `padding` argument must be a list/tuple or one of ['valid', 'same'] (case-insensitive). "
                     "Received: " + str(v));
  }
  return padding;
}

void check_channels_last(const Value& data_format, const char* layer) {
  if (!data_format.is_none() && str(data_format) != "channels_last") {
    throw UnimplementedError(std::string("agc: ") + layer +
                             " supports data_format='channels_last' only (TF's CPU kernels too)");
  }
}

std::vector<int64_t> ints(const Value& tuple) {
  std::vector<int64_t> out;
  for (const Value& v : iterate(tuple)) out.push_back(v.as_int());
  return out;
}

/// The weight keywords Conv2D and DepthwiseConv2D share, stored on self.
void store_bias_and_activation(const Value& self, const Value& activation, const Value& use_bias,
                               const Value& bias_initializer, const Value& bias_regularizer) {
  self.setattr("activation", get_activation(activation));
  self.setattr("use_bias", Value(truthy(use_bias)));
  self.setattr("bias_initializer", bias_initializer);
  self.setattr("bias_regularizer", bias_regularizer);
}

Value bias_and_activation(const Value& self, Value y) {
  if (truthy(self.getattr("use_bias"))) y = tf::api::bias_add({y, self.getattr("bias")}, {});
  return self.getattr("activation")({y}, {});
}

/// Conv2D's and DepthwiseConv2D's op attributes from the layer's tuples.
Attrs conv_attrs(const Value& self) {
  std::vector<int64_t> st = ints(self.getattr("strides"));
  std::vector<int64_t> dl = ints(self.getattr("dilation_rate"));
  Attrs attrs;
  attrs.set("strides", std::vector<int64_t>{1, st[0], st[1], 1});
  attrs.set("dilations", std::vector<int64_t>{1, dl[0], dl[1], 1});
  attrs.set("padding", std::string(self.getattr("padding").as_str() == "same" ? "SAME" : "VALID"));
  attrs.set("data_format", std::string("NHWC"));
  return attrs;
}

}  // namespace

Value make_conv2d() {
  return make_layer_class(LayerDef{
      .name = "Conv2D",
      .init_params = {{"filters", std::nullopt},
                      {"kernel_size", std::nullopt},
                      {"strides", Value::tuple({Value(1), Value(1)})},
                      {"padding", Value("valid")},
                      {"data_format", Value()},
                      {"dilation_rate", Value::tuple({Value(1), Value(1)})},
                      {"groups", Value(1)},
                      {"activation", Value()},
                      {"use_bias", Value(true)},
                      {"kernel_initializer", Value("glorot_uniform")},
                      {"bias_initializer", Value("zeros")},
                      {"kernel_regularizer", Value()},
                      {"bias_regularizer", Value()},
                      {"activity_regularizer", Value()},
                      {"kernel_constraint", Value()},
                      {"bias_constraint", Value()},
                      {"name", Value()},
                      {"trainable", Value(true)},
                      {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            if (!a[1].is_index() || a[1].as_int() <= 0) {
              throw ValueError("Invalid value for argument `filters`. Expected a strictly positive value. Received "
                               "filters=" + str(a[1]) + ".");
            }
            int64_t groups = a[7].as_int();
            if (groups <= 0 || a[1].as_int() % groups != 0) {
              throw ValueError("The number of filters must be evenly divisible by the number of groups. Received: "
                               "groups=" + std::to_string(groups) + ", filters=" + str(a[1]) + ".");
            }
            check_channels_last(a[5], "Conv2D");
            init_base(self, a[17], a[18], a[19], a[20]);
            self.setattr("filters", Value(a[1].as_int()));
            self.setattr("kernel_size", int_tuple(a[2], 2, "kernel_size"));
            self.setattr("strides", int_tuple(a[3], 2, "strides"));
            self.setattr("padding", Value(padding_arg(a[4])));
            self.setattr("data_format", Value("channels_last"));
            self.setattr("dilation_rate", int_tuple(a[6], 2, "dilation_rate"));
            self.setattr("groups", Value(groups));
            self.setattr("kernel_initializer", a[10]);
            self.setattr("kernel_regularizer", a[12]);
            store_bias_and_activation(self, a[8], a[9], a[11], a[13]);
          },
      .build =
          [](const Value& self, const Value& input_shape) {
            int64_t in = shape_dim(input_shape, -1);
            if (in < 0) {
              throw ValueError("The channel dimension of the inputs should be defined. The input_shape received is " +
                               str(input_shape) + ", where axis -1 (0-based) is the channel dimension, which found to "
                               "be `None`.");
            }
            int64_t groups = self.getattr("groups").as_int();
            int64_t filters = self.getattr("filters").as_int();
            if (in % groups != 0) {
              throw ValueError("The number of input channels must be evenly divisible by the number of groups. "
                               "Received groups=" + std::to_string(groups) + ", but the input has " +
                               std::to_string(in) + " channels (full input shape is " + str(input_shape) + ").");
            }
            std::vector<int64_t> ks = ints(self.getattr("kernel_size"));
            self.setattr("kernel", add_weight(self, {"kernel", {ks[0], ks[1], in / groups, filters},
                                                     self.getattr("kernel_initializer"),
                                                     self.getattr("kernel_regularizer")}));
            self.setattr("bias", truthy(self.getattr("use_bias"))
                                     ? add_weight(self, {"bias", {filters}, self.getattr("bias_initializer"),
                                                         self.getattr("bias_regularizer")})
                                     : Value());
          },
      .call =
          [](const std::vector<Value>& a) {
            const Value& self = a[0];
            check_input_rank(self, a[1], 4);
            std::vector<TensorHandle> in{a[1].as_tensor(), variable_value::read(self.getattr("kernel"))};
            Value y(apply_op1(op::Conv2D, in, conv_attrs(self), "Conv2D"));
            return bias_and_activation(self, y);
          },
      .config = {"filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate", "groups",
                 "activation", "use_bias"},
  });
}

Value make_depthwise_conv2d() {
  return make_layer_class(LayerDef{
      .name = "DepthwiseConv2D",
      .init_params = {{"kernel_size", std::nullopt},
                      {"strides", Value::tuple({Value(1), Value(1)})},
                      {"padding", Value("valid")},
                      {"depth_multiplier", Value(1)},
                      {"data_format", Value()},
                      {"dilation_rate", Value::tuple({Value(1), Value(1)})},
                      {"activation", Value()},
                      {"use_bias", Value(true)},
                      {"depthwise_initializer", Value("glorot_uniform")},
                      {"bias_initializer", Value("zeros")},
                      {"depthwise_regularizer", Value()},
                      {"bias_regularizer", Value()},
                      {"activity_regularizer", Value()},
                      {"depthwise_constraint", Value()},
                      {"bias_constraint", Value()},
                      {"name", Value()},
                      {"trainable", Value(true)},
                      {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            check_channels_last(a[5], "DepthwiseConv2D");
            init_base(self, a[16], a[17], a[18], a[19]);
            self.setattr("kernel_size", int_tuple(a[1], 2, "kernel_size"));
            self.setattr("strides", int_tuple(a[2], 2, "strides"));
            self.setattr("padding", Value(padding_arg(a[3])));
            self.setattr("depth_multiplier", Value(a[4].as_int()));
            self.setattr("data_format", Value("channels_last"));
            self.setattr("dilation_rate", int_tuple(a[6], 2, "dilation_rate"));
            self.setattr("depthwise_initializer", a[9]);
            self.setattr("depthwise_regularizer", a[11]);
            store_bias_and_activation(self, a[7], a[8], a[10], a[12]);
          },
      .build =
          [](const Value& self, const Value& input_shape) {
            if (iterate(input_shape).size() != 4) {
              throw ValueError("Inputs to `DepthwiseConv2D` should have rank 4. Received input_shape=" +
                               str(input_shape) + ".");
            }
            int64_t in = shape_dim(input_shape, -1);
            if (in < 0) {
              throw ValueError("The channel dimension of the inputs to `DepthwiseConv2D` should be defined. The "
                               "input_shape received is " + str(input_shape) + ", where axis -1 (0-based) is the "
                               "channel dimension, which found to be `None`.");
            }
            std::vector<int64_t> ks = ints(self.getattr("kernel_size"));
            int64_t m = self.getattr("depth_multiplier").as_int();
            self.setattr("depthwise_kernel", add_weight(self, {"depthwise_kernel", {ks[0], ks[1], in, m},
                                                               self.getattr("depthwise_initializer"),
                                                               self.getattr("depthwise_regularizer")}));
            self.setattr("bias", truthy(self.getattr("use_bias"))
                                     ? add_weight(self, {"bias", {in * m}, self.getattr("bias_initializer"),
                                                         self.getattr("bias_regularizer")})
                                     : Value());
          },
      .call =
          [](const std::vector<Value>& a) {
            const Value& self = a[0];
            check_input_rank(self, a[1], -1, 4);
            std::vector<TensorHandle> in{a[1].as_tensor(), variable_value::read(self.getattr("depthwise_kernel"))};
            Value y(apply_op1(op::DepthwiseConv2dNative, in, conv_attrs(self), "depthwise"));
            return bias_and_activation(self, y);
          },
      .config = {"kernel_size", "strides", "padding", "depth_multiplier", "data_format", "dilation_rate", "activation",
                 "use_bias"},
  });
}

}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_layers_Conv2D() {
  static const Value cls = keras::make_conv2d();
  return cls;
}

const Value& keras_layers_DepthwiseConv2D() {
  static const Value cls = keras::make_depthwise_conv2d();
  return cls;
}

}  // namespace ag::tf::api
