// The convolution layers of tf.keras.layers (channels_last, as TF's CPU
// kernels): Conv1D (causal padding too), Conv2D (padding, strides, dilation,
// groups), Conv2DTranspose (Keras's output-size rule, output_padding),
// DepthwiseConv2D and SeparableConv2D, with Keras 2's argument checks and
// messages (conv_utils.h) and the TF functions Keras calls, so a trace names
// its nodes as TF does.
#include <algorithm>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/graph/tracing.h"
#include "runtime/keras/activations.h"
#include "runtime/keras/conv_utils.h"
#include "runtime/keras/layer.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/variable_value.h"

namespace ag::keras {
namespace {

/// Conv's constructor arguments past `filters` (Keras's base_conv.Conv):
/// kernel_size, strides, padding, data_format, dilation_rate normalized and
/// checked as Conv._validate_init checks them, stored on self.
void store_conv_geometry(const Value& self, int rank, const Value& kernel_size, const Value& strides,
                         const Value& padding, const Value& data_format, const Value& dilation_rate,
                         const char* layer) {
  Value ks = normalize_tuple(kernel_size, rank, "kernel_size");
  Value st = normalize_tuple(strides, rank, "strides", true);
  std::string pad = normalize_padding(padding);
  std::string format = normalize_data_format(data_format);
  Value dl = normalize_tuple(dilation_rate, rank, "dilation_rate");
  std::vector<int64_t> s = tuple_ints(st), d = tuple_ints(dl);
  if (std::find(s.begin(), s.end(), 0) != s.end()) {
    throw ValueError("The argument `strides` cannot contains 0(s). Received: " + str(st));
  }
  if (pad == "causal" && rank != 1) {
    // Keras's text, with its missing space.
    throw ValueError("Causal padding is only supported for `Conv1D`and `SeparableConv1D`.");
  }
  if (*std::max_element(s.begin(), s.end()) > 1 && *std::max_element(d.begin(), d.end()) > 1) {
    throw ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: strides=" +
                     str(st) + " and dilation_rate=" + str(dl));
  }
  require_channels_last(format, layer);
  self.setattr("kernel_size", ks);
  self.setattr("strides", st);
  self.setattr("padding", Value(pad));
  self.setattr("data_format", Value(format));
  self.setattr("dilation_rate", dl);
}

/// Conv's `filters` check (a float is truncated, as Keras's int(filters)).
int64_t filters_arg(const Value& filters) {
  int64_t f = filters.is_float() ? static_cast<int64_t>(filters.as_float()) : filters.is_index() ? filters.as_int() : 0;
  if (f <= 0) {
    throw ValueError("Invalid value for argument `filters`. Expected a strictly positive value. Received filters=" +
                     (filters.is_index() || filters.is_float() ? std::to_string(f) : str(filters)) + ".");
  }
  return f;
}

/// The weight keywords the convolutions share, stored on self.
void store_bias_and_activation(const Value& self, const Value& activation, const Value& use_bias,
                               const Value& bias_initializer, const Value& bias_regularizer) {
  self.setattr("activation", get_activation(activation));
  self.setattr("use_bias", Value(truthy(use_bias)));
  self.setattr("bias_initializer", bias_initializer);
  self.setattr("bias_regularizer", bias_regularizer);
}

void add_bias_weight(const Value& self, int64_t units) {
  self.setattr("bias", truthy(self.getattr("use_bias"))
                           ? add_weight(self, {"bias", {units}, self.getattr("bias_initializer"),
                                               self.getattr("bias_regularizer")})
                           : Value());
}

Value bias_and_activation(const Value& self, Value y) {
  if (truthy(self.getattr("use_bias"))) y = tf::api::bias_add({y, self.getattr("bias")}, {});
  return self.getattr("activation")({y}, {});
}

/// The input's channel count; Keras's ValueError when it is unknown.
int64_t input_channels(const Value& input_shape, const char* who) {
  int64_t in = shape_dim(input_shape, -1);
  if (in < 0) {
    throw ValueError(std::string("The channel dimension of the inputs") + who + " should be defined. The input_shape "
                     "received is " + str(input_shape) + ", where axis -1 (0-based) is the channel dimension, which "
                     "found to be `None`.");
  }
  return in;
}

/// Conv.build's group check and its compute_output_shape call, which rejects
/// an input too small for the kernel ("One of the dimensions in the output is
/// <= 0 due to downsampling in conv2d. ...").
void check_conv_input(const Value& self, const Value& input_shape, int64_t in) {
  int64_t groups = self.getattr("groups").as_int();
  if (in % groups != 0) {
    throw ValueError("The number of input channels must be evenly divisible by the number of groups. Received groups=" +
                     std::to_string(groups) + ", but the input has " + std::to_string(in) +
                     " channels (full input shape is " + str(input_shape) + ").");
  }
  std::vector<Value> dims = iterate(input_shape);
  std::vector<int64_t> ks = tuple_ints(self.getattr("kernel_size"));
  std::vector<int64_t> st = tuple_ints(self.getattr("strides"));
  std::vector<int64_t> dl = tuple_ints(self.getattr("dilation_rate"));
  const std::string padding = self.getattr("padding").as_str();
  const size_t rank = ks.size();
  if (dims.size() < rank + 1) return;
  const size_t first = dims.size() - rank - 1;
  for (size_t i = 0; i < rank; ++i) {
    int64_t len = dims[first + i].is_none() ? -1 : dims[first + i].as_int();
    if (len >= 0 && conv_output_length(len, ks[i], padding, st[i], dl[i]) < 0) {
      std::string list = "[";
      for (size_t j = 0; j < dims.size(); ++j) list += (j ? ", " : "") + (dims[j].is_none() ? "None" : str(dims[j]));
      throw ValueError("One of the dimensions in the output is <= 0 due to downsampling in " + layer_name(self) +
                       ". Consider increasing the input size. Received input shape " + list + "] which would produce "
                       "output shape with a zero or negative value in a dimension.");
    }
  }
}

/// Conv2D's and DepthwiseConv2D's op attributes from the layer's tuples.
Attrs conv_attrs(const Value& self) {
  std::vector<int64_t> st = tuple_ints(self.getattr("strides"));
  std::vector<int64_t> dl = tuple_ints(self.getattr("dilation_rate"));
  Attrs attrs;
  attrs.set("strides", std::vector<int64_t>{1, st[0], st[1], 1});
  attrs.set("dilations", std::vector<int64_t>{1, dl[0], dl[1], 1});
  attrs.set("padding", std::string(self.getattr("padding").as_str() == "same" ? "SAME" : "VALID"));
  attrs.set("data_format", std::string("NHWC"));
  return attrs;
}

/// The parameters Conv1D and Conv2D share after `filters` and `kernel_size`.
std::vector<Param> conv_init_params(Value strides, Value dilation_rate, Value data_format) {
  return with_kernel_bias_params({{"filters", std::nullopt},
                                  {"kernel_size", std::nullopt},
                                  {"strides", std::move(strides)},
                                  {"padding", Value("valid")},
                                  {"data_format", std::move(data_format)},
                                  {"dilation_rate", std::move(dilation_rate)},
                                  {"groups", Value(1)},
                                  {"activation", Value()},
                                  {"use_bias", Value(true)}});
}

/// Conv1D's and Conv2D's __init__ (their parameters are conv_init_params').
void init_conv(const Value& self, const std::vector<Value>& a, int rank, const char* layer) {
  init_base(self, a[17], a[18], a[19], a[20]);
  int64_t filters = filters_arg(a[1]);
  int64_t groups = a[7].is_none() ? 1 : a[7].as_int();
  if (groups == 0) groups = 1;  // Keras's `groups or 1`
  self.setattr("filters", Value(filters));
  self.setattr("groups", Value(groups));
  store_conv_geometry(self, rank, a[2], a[3], a[4], a[5], a[6], layer);
  if (filters % groups != 0) {
    throw ValueError("The number of filters must be evenly divisible by the number of groups. Received: groups=" +
                     std::to_string(groups) + ", filters=" + std::to_string(filters));
  }
  self.setattr("kernel_initializer", a[10]);
  self.setattr("kernel_regularizer", a[12]);
  store_bias_and_activation(self, a[8], a[9], a[11], a[13]);
}

/// Conv1D's and Conv2D's build: kernel kernel_size + (in / groups, filters), then bias.
void build_conv(const Value& self, const Value& input_shape) {
  int64_t in = input_channels(input_shape, "");
  check_conv_input(self, input_shape, in);
  std::vector<int64_t> shape = tuple_ints(self.getattr("kernel_size"));
  int64_t filters = self.getattr("filters").as_int();
  shape.push_back(in / self.getattr("groups").as_int());
  shape.push_back(filters);
  self.setattr("kernel", add_weight(self, {"kernel", shape, self.getattr("kernel_initializer"),
                                           self.getattr("kernel_regularizer")}));
  add_bias_weight(self, filters);
}

const std::vector<std::string> kConvConfig = {"filters", "kernel_size", "strides", "padding", "data_format",
                                              "dilation_rate", "groups", "activation", "use_bias"};

}  // namespace

Value make_conv1d() {
  return make_layer_class(LayerDef{
      .name = "Conv1D",
      .init_params = conv_init_params(Value(1), Value(1), Value("channels_last")),
      .init = [](const Value& self, const std::vector<Value>& a) { init_conv(self, a, 1, "Conv1D"); },
      .build = build_conv,
      .call =
          [](const std::vector<Value>& a) {
            const Value& self = a[0];
            Value x = a[1];
            check_input_rank(self, x, 3);
            Value kernel = self.getattr("kernel");
            std::vector<int64_t> ks = tuple_ints(self.getattr("kernel_size"));
            check_input_axis(self, x, -1, variable_value::read(kernel).shape().dim(1) * self.getattr("groups").as_int());
            std::string padding = self.getattr("padding").as_str();
            std::vector<int64_t> dl = tuple_ints(self.getattr("dilation_rate"));
            if (padding == "causal") {
              // Keras pads dilation·(kernel - 1) steps on the left, then convolves VALID.
              Value zero = Value::list({Value(0), Value(0)});
              x = tf::pad(x, Value::list({zero, Value::list({Value(dl[0] * (ks[0] - 1)), Value(0)}), zero}));
              padding = "valid";
            }
            // tf.nn.convolution(..., name="Conv1D") is conv1d for one spatial dim.
            Value y = tf::api::conv1d({x, kernel},
                                      {{"stride", Value::list({Value(tuple_ints(self.getattr("strides"))[0])})},
                                       {"padding", Value(padding == "same" ? "SAME" : "VALID")},
                                       {"dilations", Value::list({Value(dl[0])})},
                                       {"name", Value("Conv1D")}});
            return bias_and_activation(self, y);
          },
      .config = kConvConfig,
  });
}

Value make_conv2d() {
  return make_layer_class(LayerDef{
      .name = "Conv2D",
      .init_params = conv_init_params(Value::tuple({Value(1), Value(1)}), Value::tuple({Value(1), Value(1)}), Value()),
      .init = [](const Value& self, const std::vector<Value>& a) { init_conv(self, a, 2, "Conv2D"); },
      .build = build_conv,
      .call =
          [](const std::vector<Value>& a) {
            const Value& self = a[0];
            check_input_rank(self, a[1], 4);
            Value kernel = self.getattr("kernel");
            check_input_axis(self, a[1], -1, variable_value::read(kernel).shape().dim(2) * self.getattr("groups").as_int());
            std::vector<TensorHandle> in{a[1].as_tensor(), variable_value::read(kernel)};
            Value y(apply_op1(op::Conv2D, in, conv_attrs(self), "Conv2D"));
            return bias_and_activation(self, y);
          },
      .config = kConvConfig,
  });
}

Value make_conv2d_transpose() {
  return make_layer_class(LayerDef{
      .name = "Conv2DTranspose",
      .init_params = with_kernel_bias_params({{"filters", std::nullopt},
                                              {"kernel_size", std::nullopt},
                                              {"strides", Value::tuple({Value(1), Value(1)})},
                                              {"padding", Value("valid")},
                                              {"output_padding", Value()},
                                              {"data_format", Value()},
                                              {"dilation_rate", Value::tuple({Value(1), Value(1)})},
                                              {"activation", Value()},
                                              {"use_bias", Value(true)}}),
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[17], a[18], a[19], a[20]);
            int64_t filters = filters_arg(a[1]);
            self.setattr("filters", Value(filters));
            self.setattr("groups", Value(1));
            store_conv_geometry(self, 2, a[2], a[3], a[4], a[6], a[7], "Conv2DTranspose");
            Value output_padding = a[5];
            if (!output_padding.is_none()) {
              output_padding = normalize_tuple(output_padding, 2, "output_padding", true);
              std::vector<int64_t> st = tuple_ints(self.getattr("strides"));
              std::vector<int64_t> op = tuple_ints(output_padding);
              for (size_t i = 0; i < 2; ++i) {
                if (op[i] >= st[i]) {
                  throw ValueError("Strides must be greater than output padding. Received strides=" +
                                   str(self.getattr("strides")) + ", output_padding=" + str(output_padding) + ".");
                }
              }
            }
            self.setattr("output_padding", output_padding);
            self.setattr("kernel_initializer", a[10]);
            self.setattr("kernel_regularizer", a[12]);
            store_bias_and_activation(self, a[8], a[9], a[11], a[13]);
          },
      .build =
          [](const Value& self, const Value& input_shape) {
            if (iterate(input_shape).size() != 4) {
              throw ValueError("Inputs should have rank 4. Received input_shape=" + str(input_shape) + ".");
            }
            int64_t in = input_channels(input_shape, " to `Conv2DTranspose`");
            std::vector<int64_t> shape = tuple_ints(self.getattr("kernel_size"));
            int64_t filters = self.getattr("filters").as_int();
            shape.push_back(filters);
            shape.push_back(in);
            self.setattr("kernel", add_weight(self, {"kernel", shape, self.getattr("kernel_initializer"),
                                                     self.getattr("kernel_regularizer")}));
            add_bias_weight(self, filters);
          },
      .call =
          [](const std::vector<Value>& a) {
            const Value& self = a[0];
            const Value& x = a[1];
            check_input_rank(self, x, -1, 4);
            Value kernel = self.getattr("kernel");
            check_input_axis(self, x, -1, variable_value::read(kernel).shape().dim(3));
            const Shape& s = x.as_tensor().shape();
            std::vector<int64_t> ks = tuple_ints(self.getattr("kernel_size"));
            std::vector<int64_t> st = tuple_ints(self.getattr("strides"));
            std::vector<int64_t> dl = tuple_ints(self.getattr("dilation_rate"));
            Value op_v = self.getattr("output_padding");
            std::vector<int64_t> op = op_v.is_none() ? std::vector<int64_t>{} : tuple_ints(op_v);
            const std::string padding = self.getattr("padding").as_str();
            // Keras: the batch from tf.shape(x)[0], the spatial sizes static when known.
            Value dyn = tf::api::shape({x}, {});
            std::vector<Value> out{tf::api::gather({dyn, Value(0)}, {})};
            for (int i = 0; i < 2; ++i) {
              std::optional<int64_t> out_pad = op.empty() ? std::nullopt : std::optional<int64_t>(op[i]);
              if (s.dim(i + 1) >= 0) {
                out.emplace_back(deconv_output_length(s.dim(i + 1), ks[i], padding, out_pad, st[i], dl[i]));
              } else {
                // The same rule on the dynamic size: length·stride + a constant.
                int64_t base = deconv_output_length(0, ks[i], padding, out_pad, st[i], dl[i]);
                Value len = tf::api::gather({dyn, Value(i + 1)}, {});
                out.push_back(tf::api::add({tf::api::multiply({len, Value(st[i])}, {}), Value(base)}, {}));
              }
            }
            out.emplace_back(self.getattr("filters").as_int());
            if (dl[0] != dl[1]) {
              throw ValueError("Expected the 2 dimensions of the `dilation_rate` argument to be equal to each other. "
                               "Received: dilation_rate=" + str(self.getattr("dilation_rate")));
            }
            // backend.conv2d_transpose: tf.compat.v1.nn.conv2d_transpose (atrous_conv2d_transpose
            // when dilated, the same values).
            Value y = tf::api::conv2d_transpose(
                {x, kernel, tf::api::stack({Value::list(std::move(out))}, {})},
                {{"strides", Value::list({Value(1), Value(st[0]), Value(st[1]), Value(1)})},
                 {"padding", Value(padding == "same" ? "SAME" : "VALID")},
                 {"dilations", Value::list({Value(1), Value(dl[0]), Value(dl[1]), Value(1)})}});
            return bias_and_activation(self, y);
          },
      .config = {"filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate", "groups",
                 "activation", "use_bias", "output_padding"},
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
            init_base(self, a[16], a[17], a[18], a[19]);
            store_conv_geometry(self, 2, a[1], a[2], a[3], a[5], a[6], "DepthwiseConv2D");
            self.setattr("depth_multiplier", Value(a[4].as_int()));
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
            int64_t in = input_channels(input_shape, " to `DepthwiseConv2D`");
            std::vector<int64_t> ks = tuple_ints(self.getattr("kernel_size"));
            int64_t m = self.getattr("depth_multiplier").as_int();
            self.setattr("depthwise_kernel", add_weight(self, {"depthwise_kernel", {ks[0], ks[1], in, m},
                                                               self.getattr("depthwise_initializer"),
                                                               self.getattr("depthwise_regularizer")}));
            add_bias_weight(self, in * m);
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

Value make_separable_conv2d() {
  return make_layer_class(LayerDef{
      .name = "SeparableConv2D",
      .init_params = {{"filters", std::nullopt},
                      {"kernel_size", std::nullopt},
                      {"strides", Value::tuple({Value(1), Value(1)})},
                      {"padding", Value("valid")},
                      {"data_format", Value()},
                      {"dilation_rate", Value::tuple({Value(1), Value(1)})},
                      {"depth_multiplier", Value(1)},
                      {"activation", Value()},
                      {"use_bias", Value(true)},
                      {"depthwise_initializer", Value("glorot_uniform")},
                      {"pointwise_initializer", Value("glorot_uniform")},
                      {"bias_initializer", Value("zeros")},
                      {"depthwise_regularizer", Value()},
                      {"pointwise_regularizer", Value()},
                      {"bias_regularizer", Value()},
                      {"activity_regularizer", Value()},
                      {"depthwise_constraint", Value()},
                      {"pointwise_constraint", Value()},
                      {"bias_constraint", Value()},
                      {"name", Value()},
                      {"trainable", Value(true)},
                      {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[20], a[21], a[22], a[23]);
            int64_t filters = filters_arg(a[1]);
            self.setattr("filters", Value(filters));
            self.setattr("groups", Value(1));
            store_conv_geometry(self, 2, a[2], a[3], a[4], a[5], a[6], "SeparableConv2D");
            self.setattr("depth_multiplier", Value(a[7].as_int()));
            self.setattr("depthwise_initializer", a[10]);
            self.setattr("pointwise_initializer", a[11]);
            self.setattr("depthwise_regularizer", a[13]);
            self.setattr("pointwise_regularizer", a[14]);
            store_bias_and_activation(self, a[8], a[9], a[12], a[15]);
          },
      .build =
          [](const Value& self, const Value& input_shape) {
            int64_t in = input_channels(input_shape, "");
            std::vector<int64_t> ks = tuple_ints(self.getattr("kernel_size"));
            int64_t m = self.getattr("depth_multiplier").as_int();
            int64_t filters = self.getattr("filters").as_int();
            self.setattr("depthwise_kernel", add_weight(self, {"depthwise_kernel", {ks[0], ks[1], in, m},
                                                               self.getattr("depthwise_initializer"),
                                                               self.getattr("depthwise_regularizer")}));
            self.setattr("pointwise_kernel", add_weight(self, {"pointwise_kernel", {1, 1, in * m, filters},
                                                               self.getattr("pointwise_initializer"),
                                                               self.getattr("pointwise_regularizer")}));
            add_bias_weight(self, filters);
          },
      .call =
          [](const std::vector<Value>& a) {
            const Value& self = a[0];
            check_input_rank(self, a[1], -1, 4);
            Value y;
            {
              // tf.nn.separable_conv2d: a depthwise convolution ("depthwise"), then
              // a 1x1 VALID Conv2D named after the scope.
              tf::common::NameScope scope("separable_conv2d");
              std::vector<TensorHandle> in{a[1].as_tensor(), variable_value::read(self.getattr("depthwise_kernel"))};
              TensorHandle depthwise = apply_op1(op::DepthwiseConv2dNative, in, conv_attrs(self), "depthwise");
              Attrs pointwise;
              pointwise.set("strides", std::vector<int64_t>{1, 1, 1, 1});
              pointwise.set("dilations", std::vector<int64_t>{1, 1, 1, 1});
              pointwise.set("padding", std::string("VALID"));
              pointwise.set("data_format", std::string("NHWC"));
              std::vector<TensorHandle> pw{depthwise, variable_value::read(self.getattr("pointwise_kernel"))};
              y = Value(apply_op1(op::Conv2D, pw, pointwise, scope.self()));
            }
            return bias_and_activation(self, y);
          },
      .config = {"filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate", "groups",
                 "activation", "use_bias", "depth_multiplier"},
  });
}

}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_layers_Conv1D() {
  static const Value cls = keras::make_conv1d();
  return cls;
}

const Value& keras_layers_Conv2D() {
  static const Value cls = keras::make_conv2d();
  return cls;
}

const Value& keras_layers_Conv2DTranspose() {
  static const Value cls = keras::make_conv2d_transpose();
  return cls;
}

const Value& keras_layers_DepthwiseConv2D() {
  static const Value cls = keras::make_depthwise_conv2d();
  return cls;
}

const Value& keras_layers_SeparableConv2D() {
  static const Value cls = keras::make_separable_conv2d();
  return cls;
}

}  // namespace ag::tf::api
