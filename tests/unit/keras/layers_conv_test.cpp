// tf.keras convolution layers (runtime/keras/layers_conv.cpp) against plain
// loops: Conv1D (valid, same, causal, strides, dilation), Conv2DTranspose
// (Keras's output-size rule with and without output_padding, its values as
// the scatter of each input pixel through the kernel, gradients against
// finite differences), SeparableConv2D (depthwise then pointwise); weights'
// names and shapes, symbolic shapes and Keras's error texts.
#include <doctest/doctest.h>

#include <algorithm>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/keras/layer.h"
#include "tests/unit/error_text.h"
#include "tests/unit/keras/layer_support.h"

using namespace ag;
using namespace ag::test;

namespace {

/// Conv1D by loops: x [n, len, c], w [k, c, f], "valid", "same" or "causal".
std::vector<double> conv1d_reference(const std::vector<float>& x, int64_t n, int64_t len, int64_t c,
                                     const std::vector<float>& w, int64_t k, int64_t f, const std::vector<float>& bias,
                                     int64_t stride, int64_t dilation, const std::string& padding, int64_t* out_len) {
  const int64_t span = (k - 1) * dilation + 1;
  int64_t pad = 0, out = 0;
  if (padding == "valid") {
    out = (len - span) / stride + 1;
  } else if (padding == "same") {
    out = (len + stride - 1) / stride;
    pad = std::max<int64_t>((out - 1) * stride + span - len, 0) / 2;
  } else {  // causal: span - 1 zeros on the left, then valid
    pad = span - 1;
    out = (len + pad - span) / stride + 1;
  }
  *out_len = out;
  std::vector<double> y;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t o = 0; o < out; ++o)
      for (int64_t g = 0; g < f; ++g) {
        double acc = bias[static_cast<size_t>(g)];
        for (int64_t i = 0; i < k; ++i) {
          int64_t t = o * stride + i * dilation - pad;
          if (t < 0 || t >= len) continue;
          for (int64_t ch = 0; ch < c; ++ch) {
            acc += static_cast<double>(x[static_cast<size_t>((b * len + t) * c + ch)]) *
                   w[static_cast<size_t>((i * c + ch) * f + g)];
          }
        }
        y.push_back(acc);
      }
  return y;
}

/// Conv2DTranspose by loops: x [n, h, w, c], kernel [kh, kw, f, c]; each
/// input pixel scattered through the kernel at stride s, shifted by the
/// forward convolution's leading padding.
std::vector<double> conv_transpose_reference(const std::vector<float>& x, int64_t n, int64_t h, int64_t w, int64_t c,
                                             const std::vector<float>& kernel, int64_t k, int64_t f, int64_t s,
                                             bool same, int64_t out_h, int64_t out_w) {
  const int64_t pad_t = same ? std::max<int64_t>((h - 1) * s + k - out_h, 0) / 2 : 0;
  const int64_t pad_l = same ? std::max<int64_t>((w - 1) * s + k - out_w, 0) / 2 : 0;
  std::vector<double> y(static_cast<size_t>(n * out_h * out_w * f), 0.0);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t i = 0; i < h; ++i)
      for (int64_t j = 0; j < w; ++j)
        for (int64_t ky = 0; ky < k; ++ky)
          for (int64_t kx = 0; kx < k; ++kx) {
            int64_t oy = i * s + ky - pad_t, ox = j * s + kx - pad_l;
            if (oy < 0 || oy >= out_h || ox < 0 || ox >= out_w) continue;
            for (int64_t g = 0; g < f; ++g)
              for (int64_t ch = 0; ch < c; ++ch) {
                y[static_cast<size_t>(((b * out_h + oy) * out_w + ox) * f + g)] +=
                    static_cast<double>(x[static_cast<size_t>(((b * h + i) * w + j) * c + ch)]) *
                    kernel[static_cast<size_t>(((ky * k + kx) * f + g) * c + ch)];
              }
          }
  return y;
}

/// Builds `layer` on `x` and gives its weights `values`, in order.
void set_layer_weights(const Value& layer, const Value& x, const std::vector<Value>& values) {
  layer({x});
  layer.getattr("set_weights")({Value::list(values)}, {});
}

}  // namespace

TEST_CASE("Conv1D computes the loop's sums: valid, same, causal, strides and dilation") {
  const int64_t n = 2, len = 7, c = 2, k = 3, f = 3;
  std::vector<float> xv = lcg_values(static_cast<size_t>(n * len * c), 1);
  std::vector<float> wv = lcg_values(static_cast<size_t>(k * c * f), 2);
  std::vector<float> bv = {0.5f, -0.25f, 0.125f};
  Value x = tensor_of(xv, {n, len, c});
  struct Case {
    std::string padding;
    int64_t stride, dilation;
  };
  for (const Case& cs : std::vector<Case>{{"valid", 1, 1}, {"same", 1, 1}, {"same", 2, 1}, {"valid", 2, 1},
                                          {"causal", 1, 1}, {"causal", 1, 2}, {"valid", 1, 2}, {"same", 3, 1}}) {
    CAPTURE(cs.padding);
    CAPTURE(cs.stride);
    CAPTURE(cs.dilation);
    Value conv = make_layer(tf::api::keras_layers_Conv1D(), {Value(f), Value(k)},
                            {{"padding", Value(cs.padding)}, {"strides", Value(cs.stride)},
                             {"dilation_rate", Value(cs.dilation)}, {"name", Value("c1")}});
    set_layer_weights(conv, x, {tensor_of(wv, {k, c, f}), tensor_of(bv, {f})});
    int64_t out = 0;
    std::vector<double> want = conv1d_reference(xv, n, len, c, wv, k, f, bv, cs.stride, cs.dilation, cs.padding, &out);
    Value y = conv({x});
    CHECK(str(y.getattr("shape")) == "(2, " + std::to_string(out) + ", 3)");
    CHECK(all_close(values_of(y), want, 1e-5));
    Value fn = traced_function({"x"}, [&](const std::vector<Value>& a) { return conv({a[0]}); });
    CHECK(all_close(values_of(fn({x})), want, 1e-5));
  }
  Value conv = make_layer(tf::api::keras_layers_Conv1D(), {Value(4), Value(3)}, {{"name", Value("c1d")}});
  conv({x});
  CHECK(weight_names(conv) == std::vector<std::string>{"c1d/kernel:0", "c1d/bias:0"});
  CHECK(weight_shapes(conv) == std::vector<std::string>{"(3, 2, 4)", "(4,)"});
  CHECK(str(conv.getattr("get_config")({}, {})).find("'kernel_size': (3,), 'strides': (1,), 'padding': 'valid', "
                                                     "'data_format': 'channels_last', 'dilation_rate': (1,)") !=
        std::string::npos);
  CHECK(error_text([&] { conv({tensor_of(iota_values(6), {2, 3})}); }) ==
        "ValueError: Input 0 of layer \"c1d\" is incompatible with the layer: expected min_ndim=3, found ndim=2. Full "
        "shape received: (2, 3)");
  CHECK(error_text([&] { conv({tensor_of(iota_values(9), {1, 3, 3})}); }) ==
        "ValueError: Input 0 of layer \"c1d\" is incompatible with the layer: expected axis -1 of input shape to have "
        "value 2, but received input with shape (1, 3, 3)");
}

TEST_CASE("Conv2DTranspose: Keras's output size, values as the loop scatters them, and its gradients") {
  const int64_t n = 1, h = 3, w = 3, c = 2, k = 3, f = 2;
  std::vector<float> xv = lcg_values(static_cast<size_t>(n * h * w * c), 3);
  std::vector<float> kv = lcg_values(static_cast<size_t>(k * k * f * c), 4);
  Value x = tensor_of(xv, {n, h, w, c});
  struct Case {
    std::string padding;
    int64_t stride;
    Value output_padding;
    int64_t out;
  };
  // valid: 3·s + max(k - s, 0); same: 3·s; with output_padding p: (3 - 1)·s + k - 2·pad + p.
  std::vector<Case> cases = {{"valid", 1, Value(), 5}, {"valid", 2, Value(), 7}, {"same", 2, Value(), 6},
                             {"same", 1, Value(), 3},  {"same", 2, Value(1), 6}, {"valid", 2, Value(1), 8},
                             {"valid", 3, Value(2), 11}};
  for (const Case& cs : cases) {
    CAPTURE(cs.padding);
    CAPTURE(cs.stride);
    Value layer = make_layer(tf::api::keras_layers_Conv2DTranspose(), {Value(f), Value(k)},
                             {{"strides", Value(cs.stride)}, {"padding", Value(cs.padding)},
                              {"output_padding", cs.output_padding}, {"use_bias", Value(false)}});
    set_layer_weights(layer, x, {tensor_of(kv, {k, k, f, c})});
    Value y = layer({x});
    const std::string dim = std::to_string(cs.out);
    CHECK(str(y.getattr("shape")) == "(1, " + dim + ", " + dim + ", 2)");
    CHECK(all_close(values_of(y),
                    conv_transpose_reference(xv, n, h, w, c, kv, k, f, cs.stride, cs.padding == "same", cs.out, cs.out),
                    1e-5));
  }
  Value layer = make_layer(tf::api::keras_layers_Conv2DTranspose(), {Value(f), Value(k)},
                           {{"strides", Value(2)}, {"padding", Value("same")}, {"name", Value("up")},
                            {"bias_initializer", Value("ones")}});
  set_layer_weights(layer, x, {tensor_of(kv, {k, k, f, c}), tensor_of({0.5f, -1.0f}, {f})});
  CHECK(weight_names(layer) == std::vector<std::string>{"up/kernel:0", "up/bias:0"});
  CHECK(weight_shapes(layer) == std::vector<std::string>{"(3, 3, 2, 2)", "(2,)"});
  // Gradients of sum(y · r) by the tape against central differences.
  Value kernel = layer.getattr("kernel");
  std::vector<Value> grads = tape_gradients([&] { return weighted_sum(layer({x})); },
                                            {x, kernel, layer.getattr("bias")}, {x});
  auto loss_at_x = [&](const std::vector<float>& xs) {
    return keras::host_scalar(weighted_sum(layer({tensor_of(xs, {n, h, w, c})})));
  };
  CHECK(all_close(values_of(grads[0]), numeric_gradient(loss_at_x, xv), 2e-3));
  auto loss_at_kernel = [&](const std::vector<float>& ks) {
    variable_value::assign(kernel, tensor_of(ks, {k, k, f, c}), variable_value::AssignOp::Assign);
    return keras::host_scalar(weighted_sum(layer({x})));
  };
  CHECK(all_close(values_of(grads[1]), numeric_gradient(loss_at_kernel, kv), 2e-3));
  variable_value::assign(kernel, tensor_of(kv, {k, k, f, c}), variable_value::AssignOp::Assign);
  // The bias's gradient: r summed over each filter's outputs.
  std::vector<float> r = lcg_values(1 * 6 * 6 * 2, 7);
  double r0 = 0, r1 = 0;
  for (size_t i = 0; i < r.size(); ++i) (i % 2 ? r1 : r0) += r[i];
  CHECK(all_close(values_of(grads[2]), {r0, r1}, 1e-5));

  // Symbolic: the batch is tf.shape(x)[0], the spatial sizes static.
  Value in = tf::api::keras_Input()({}, {{"shape", Value::tuple({Value(3), Value(3), Value(2)})}});
  Value up = make_layer(tf::api::keras_layers_Conv2DTranspose(), {Value(4), Value(3)}, {{"strides", Value(2)}})({in});
  CHECK(str(up.getattr("shape")) == "(None, 7, 7, 4)");
  Value in2 = tf::api::keras_Input()({}, {{"shape", Value::tuple({Value(), Value(), Value(2)})}});
  Value up2 = make_layer(tf::api::keras_layers_Conv2DTranspose(), {Value(4), Value(3)}, {{"strides", Value(2)}})({in2});
  CHECK(str(up2.getattr("shape")) == "(None, None, None, 4)");
  // ... and a model over unknown sizes computes them from the input: 2·4 + 1.
  Value model = tf::api::keras_Model()({}, {{"inputs", in2}, {"outputs", up2}});
  CHECK(str(model({tf::ones(Value::list({Value(1), Value(4), Value(5), Value(2)}))}).getattr("shape")) ==
        "(1, 9, 11, 4)");

  CHECK(error_text([&] {
          make_layer(tf::api::keras_layers_Conv2DTranspose(), {Value(2), Value(3)}, {{"output_padding", Value(1)}});
        }) == "ValueError: Strides must be greater than output padding. Received strides=(1, 1), output_padding=(1, 1).");
  CHECK(error_text([&] {
          make_layer(tf::api::keras_layers_Conv2DTranspose(), {Value(2), Value(3)})({tensor_of(iota_values(6), {2, 3})});
        }) == "ValueError: Inputs should have rank 4. Received input_shape=(2, 3).");
}

TEST_CASE("SeparableConv2D is a depthwise convolution then a pointwise one, plus bias") {
  const int64_t h = 4, w = 4, c = 2, m = 2, f = 3;
  std::vector<float> xv = lcg_values(static_cast<size_t>(h * w * c), 5);
  std::vector<float> dv = lcg_values(static_cast<size_t>(2 * 2 * c * m), 6);
  std::vector<float> pv = lcg_values(static_cast<size_t>(c * m * f), 8);
  std::vector<float> bv = {0.1f, 0.2f, 0.3f};
  Value x = tensor_of(xv, {1, h, w, c});
  Value sep = make_layer(tf::api::keras_layers_SeparableConv2D(), {Value(f), Value(2)},
                         {{"depth_multiplier", Value(m)}, {"name", Value("sep")}});
  set_layer_weights(sep, x, {tensor_of(dv, {2, 2, c, m}), tensor_of(pv, {1, 1, c * m, f}), tensor_of(bv, {f})});
  CHECK(weight_names(sep) == std::vector<std::string>{"sep/depthwise_kernel:0", "sep/pointwise_kernel:0", "sep/bias:0"});
  CHECK(weight_shapes(sep) == std::vector<std::string>{"(2, 2, 2, 2)", "(1, 1, 4, 3)", "(3,)"});
  std::vector<double> want;
  for (int64_t y = 0; y < h - 1; ++y)
    for (int64_t xx = 0; xx < w - 1; ++xx) {
      std::vector<double> depth(static_cast<size_t>(c * m), 0.0);
      for (int64_t ky = 0; ky < 2; ++ky)
        for (int64_t kx = 0; kx < 2; ++kx)
          for (int64_t ch = 0; ch < c; ++ch)
            for (int64_t q = 0; q < m; ++q) {
              depth[static_cast<size_t>(ch * m + q)] +=
                  static_cast<double>(xv[static_cast<size_t>(((y + ky) * w + xx + kx) * c + ch)]) *
                  dv[static_cast<size_t>(((ky * 2 + kx) * c + ch) * m + q)];
            }
      for (int64_t g = 0; g < f; ++g) {
        double acc = bv[static_cast<size_t>(g)];
        for (int64_t j = 0; j < c * m; ++j) acc += depth[static_cast<size_t>(j)] * pv[static_cast<size_t>(j * f + g)];
        want.push_back(acc);
      }
    }
  Value y = sep({x});
  CHECK(str(y.getattr("shape")) == "(1, 3, 3, 3)");
  CHECK(all_close(values_of(y), want, 1e-5));
}

TEST_CASE("convolution layers check their arguments as Keras does") {
  auto conv2d = [](Kwargs kw) { return make_layer(tf::api::keras_layers_Conv2D(), {Value(2), Value(3)}, std::move(kw)); };
  CHECK(error_text([&] { conv2d({{"padding", Value("causal")}}); }) ==
        "ValueError: Causal padding is only supported for `Conv1D`and `SeparableConv1D`.");
  CHECK(error_text([&] { conv2d({{"strides", Value::tuple({Value(1), Value(0)})}}); }) ==
        "ValueError: The argument `strides` cannot contains 0(s). Received: (1, 0)");
  CHECK(error_text([&] { conv2d({{"strides", Value(2)}, {"dilation_rate", Value(2)}}); }) ==
        "ValueError: `strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: strides=(2, 2) and "
        "dilation_rate=(2, 2)");
  CHECK(error_text([&] { conv2d({{"kernel_size", Value()}}); }) ==
        "TypeError: Conv2D.__init__() got multiple values for argument 'kernel_size'");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_Conv2D(), {Value(2), Value::tuple({Value(3), Value("a")})}); }) ==
        "ValueError: The `kernel_size` argument must be a tuple of 2 integers. Received: (3, 'a')including element a of "
        "type <class 'str'>");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_Conv1D(), {Value(0), Value(3)}); }) ==
        "ValueError: Invalid value for argument `filters`. Expected a strictly positive value. Received filters=0.");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_Conv2D(), {Value(3), Value(3)}, {{"groups", Value(2)}}); }) ==
        "ValueError: The number of filters must be evenly divisible by the number of groups. Received: groups=2, "
        "filters=3");
  Value small = conv2d({{"name", Value("small")}});
  CHECK(error_text([&] { small({tf::ones(Value::list({Value(1), Value(1), Value(5), Value(1)}))}); }) ==
        "ValueError: One of the dimensions in the output is <= 0 due to downsampling in small. Consider increasing the "
        "input size. Received input shape [1, 1, 5, 1] which would produce output shape with a zero or negative value "
        "in a dimension.");
}
