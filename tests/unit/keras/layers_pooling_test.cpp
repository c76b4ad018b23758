// tf.keras pooling layers (runtime/keras/layers_pooling.cpp) against a plain
// loop over the windows (TF's SAME padding: out = ceil(in / stride), the
// padding split with the smaller half first; an average counts only the
// cells inside the input), eagerly and in a tf.function; the global poolings,
// GlobalAveragePooling1D's mask; configs and Keras's error texts.
#include <doctest/doctest.h>

#include <algorithm>
#include <limits>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "tests/unit/error_text.h"
#include "tests/unit/keras/layer_support.h"

using namespace ag;
using namespace ag::test;

namespace {

struct PoolRef {
  std::vector<double> values;
  int64_t out_h = 0, out_w = 0;
};

/// NHWC pooling by loops.
PoolRef pool_reference(const std::vector<float>& x, int64_t n, int64_t h, int64_t w, int64_t c, int64_t kh, int64_t kw,
                       int64_t sh, int64_t sw, bool same, bool is_max) {
  PoolRef r;
  int64_t pad_t = 0, pad_l = 0;
  if (same) {
    r.out_h = (h + sh - 1) / sh;
    r.out_w = (w + sw - 1) / sw;
    pad_t = std::max<int64_t>((r.out_h - 1) * sh + kh - h, 0) / 2;
    pad_l = std::max<int64_t>((r.out_w - 1) * sw + kw - w, 0) / 2;
  } else {
    r.out_h = (h - kh) / sh + 1;
    r.out_w = (w - kw) / sw + 1;
  }
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oy = 0; oy < r.out_h; ++oy)
      for (int64_t ox = 0; ox < r.out_w; ++ox)
        for (int64_t ch = 0; ch < c; ++ch) {
          double acc = is_max ? -std::numeric_limits<double>::infinity() : 0.0;
          int count = 0;
          for (int64_t ky = 0; ky < kh; ++ky)
            for (int64_t kx = 0; kx < kw; ++kx) {
              int64_t y = oy * sh + ky - pad_t, xx = ox * sw + kx - pad_l;
              if (y < 0 || y >= h || xx < 0 || xx >= w) continue;
              double v = x[static_cast<size_t>(((b * h + y) * w + xx) * c + ch)];
              acc = is_max ? std::max(acc, v) : acc + v;
              ++count;
            }
          r.values.push_back(is_max ? acc : acc / count);
        }
  return r;
}

}  // namespace

TEST_CASE("MaxPooling2D and AveragePooling2D pool as the loop does: strides default to pool_size, valid and same") {
  std::vector<float> xv = lcg_values(2 * 5 * 5 * 2, 11);
  Value x = tensor_of(xv, {2, 5, 5, 2});
  struct Case {
    bool is_max;
    Kwargs kwargs;
    int64_t kh, kw, sh, sw;
    bool same;
  };
  std::vector<Case> cases = {
      {true, {}, 2, 2, 2, 2, false},
      {false, {}, 2, 2, 2, 2, false},
      {true, {{"pool_size", Value(3)}, {"strides", Value(2)}, {"padding", Value("same")}}, 3, 3, 2, 2, true},
      {false, {{"pool_size", Value(3)}, {"strides", Value(2)}, {"padding", Value("same")}}, 3, 3, 2, 2, true},
      {false, {{"pool_size", Value::tuple({Value(2), Value(3)})}, {"strides", Value::tuple({Value(1), Value(2)})},
               {"padding", Value("SAME")}}, 2, 3, 1, 2, true},
      {true, {{"pool_size", Value::list({Value(1), Value(2)})}, {"strides", Value(1)}}, 1, 2, 1, 1, false},
  };
  for (const Case& c : cases) {
    Value cls = c.is_max ? tf::api::keras_layers_MaxPooling2D() : tf::api::keras_layers_AveragePooling2D();
    Value layer = make_layer(cls, {}, c.kwargs);
    PoolRef ref = pool_reference(xv, 2, 5, 5, 2, c.kh, c.kw, c.sh, c.sw, c.same, c.is_max);
    Value y = layer({x});
    CHECK(str(y.getattr("shape")) == "(2, " + std::to_string(ref.out_h) + ", " + std::to_string(ref.out_w) + ", 2)");
    CHECK(all_close(values_of(y), ref.values, 1e-6));
    Value f = traced_function({"x"}, [&](const std::vector<Value>& a) { return layer({a[0]}); });
    CHECK(values_of(f({x})) == values_of(y));
    CHECK(layer.getattr("weights").items().empty());
  }
  // The aliases are the same classes.
  CHECK(tf::api::keras_layers_MaxPooling2D().is(tf::api::keras_layers_MaxPooling2D()));
  Value pool = make_layer(tf::api::keras_layers_MaxPooling2D(), {}, {{"name", Value("mp")}});
  CHECK(str(pool.getattr("get_config")({}, {})) ==
        "{'name': 'mp', 'trainable': True, 'dtype': 'float32', 'pool_size': (2, 2), 'padding': 'valid', "
        "'strides': (2, 2), 'data_format': 'channels_last'}");
}

TEST_CASE("MaxPooling1D and AveragePooling1D pool the steps of (batch, steps, features)") {
  std::vector<float> xv = lcg_values(2 * 7 * 3, 5);
  Value x = tensor_of(xv, {2, 7, 3});
  Value max1 = make_layer(tf::api::keras_layers_MaxPooling1D(), {}, {{"pool_size", Value(3)}, {"strides", Value(2)}});
  PoolRef r = pool_reference(xv, 2, 7, 1, 3, 3, 1, 2, 1, false, true);
  Value y = max1({x});
  CHECK(str(y.getattr("shape")) == "(2, 3, 3)");
  CHECK(all_close(values_of(y), r.values, 1e-6));
  Value avg1 = make_layer(tf::api::keras_layers_AveragePooling1D(), {}, {{"padding", Value("same")}});
  r = pool_reference(xv, 2, 7, 1, 3, 2, 1, 2, 1, true, false);
  y = avg1({x});
  CHECK(str(y.getattr("shape")) == "(2, 4, 3)");
  CHECK(all_close(values_of(y), r.values, 1e-6));
  Value f = traced_function({"x"}, [&](const std::vector<Value>& a) { return avg1({a[0]}); });
  CHECK(values_of(f({x})) == values_of(y));
  CHECK(str(avg1.getattr("get_config")({}, {})).find("'strides': (2,), 'pool_size': (2,), 'padding': 'same'") !=
        std::string::npos);
}

TEST_CASE("global poolings reduce the spatial axes, keep them with keepdims, and GlobalAveragePooling1D takes a mask") {
  std::vector<float> xv = iota_values(2 * 3 * 3 * 2);
  Value x = tensor_of(xv, {2, 3, 3, 2});
  // Image b, channel c holds 18b + c + 2·(0..8): max 18b + c + 16, mean 18b + c + 8.
  Value gmax = make_layer(tf::api::keras_layers_GlobalMaxPooling2D());
  CHECK(values_of(gmax({x})) == std::vector<float>{16, 17, 34, 35});
  Value gavg = make_layer(tf::api::keras_layers_GlobalAveragePooling2D(), {}, {{"keepdims", Value(true)}});
  Value y = gavg({x});
  CHECK(str(y.getattr("shape")) == "(2, 1, 1, 2)");
  CHECK(values_of(y) == std::vector<float>{8, 9, 26, 27});

  // (2, 4, 3): row s of sequence b is 12b + 3s + (0, 1, 2).
  Value seq = tensor_of(iota_values(24), {2, 4, 3});
  Value gmax1 = make_layer(tf::api::keras_layers_GlobalMaxPooling1D());
  CHECK(values_of(gmax1({seq})) == std::vector<float>{9, 10, 11, 21, 22, 23});
  Value gavg1 = make_layer(tf::api::keras_layers_GlobalAveragePooling1D());
  CHECK(values_of(gavg1({seq})) == std::vector<float>{4.5, 5.5, 6.5, 16.5, 17.5, 18.5});
  // Sequence 0 keeps its first two steps (mean of rows 0 and 1), sequence 1 all four.
  Value mask = tf::constant(Value::list({Value::list({Value(true), Value(true), Value(false), Value(false)}),
                                         Value::list({Value(true), Value(true), Value(true), Value(true)})}));
  CHECK(values_of(gavg1({seq}, {{"mask", mask}})) == std::vector<float>{1.5, 2.5, 3.5, 16.5, 17.5, 18.5});
  CHECK(gavg1.getattr("compute_mask")({seq, mask}, {}).is_none());
  CHECK(truthy(gavg1.getattr("supports_masking")));
  CHECK_FALSE(truthy(gmax1.getattr("supports_masking")));
  CHECK(str(gavg.getattr("get_config")({}, {})).find("'data_format': 'channels_last', 'keepdims': True") !=
        std::string::npos);
  // channels_first reduces axes 2 and 3.
  Value first = make_layer(tf::api::keras_layers_GlobalAveragePooling2D(), {}, {{"data_format", Value("channels_first")}});
  CHECK(values_of(first({tensor_of(iota_values(8), {1, 2, 2, 2})})) == std::vector<float>{1.5, 5.5});
}

TEST_CASE("pooling layers' errors are Keras's") {
  Value mp = make_layer(tf::api::keras_layers_MaxPooling2D(), {}, {{"name", Value("mp")}});
  CHECK(error_text([&] { mp({tf::ones(Value::list({Value(1), Value(4), Value(4)}))}); }) ==
        "ValueError: Input 0 of layer \"mp\" is incompatible with the layer: expected ndim=4, found ndim=3. Full shape "
        "received: (1, 4, 4)");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_MaxPooling2D(), {Value(0)}); }) ==
        "ValueError: The `pool_size` argument must be a tuple of 2 integers. Received: 0 including {0} that does not "
        "satisfy the requirement `> 0`.");
  CHECK(error_text([&] {
          make_layer(tf::api::keras_layers_MaxPooling2D(), {Value::tuple({Value(2), Value(2), Value(2)})});
        }) == "ValueError: The `pool_size` argument must be a tuple of 2 integers. Received: (2, 2, 2)");
  CHECK(error_text([&] {
          make_layer(tf::api::keras_layers_AveragePooling2D(), {}, {{"strides", Value::tuple({Value(1), Value(-1)})}});
        }) == "ValueError: The `strides` argument must be a tuple of 2 integers. Received: (1, -1) including {-1} that "
              "does not satisfy the requirement `>= 0`.");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_AveragePooling1D(), {}, {{"padding", Value("full")}}); }) ==
        "ValueError: The `padding` argument must be a list/tuple or one of \"valid\", \"same\" (or \"causal\", only for "
        "`Conv1D). Received: full");
  CHECK(error_text([&] {
          make_layer(tf::api::keras_layers_GlobalAveragePooling2D(), {}, {{"data_format", Value("nchw")}});
        }) == "ValueError: The `data_format` argument must be one of \"channels_first\", \"channels_last\". Received: "
              "nchw");
  CHECK(error_text([&] { make_layer(tf::api::keras_layers_MaxPooling1D(), {}, {{"size", Value(2)}}); }) ==
        "TypeError: ('Keyword argument not understood:', 'size')");
}
