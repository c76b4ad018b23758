// The pooling layers of tf.keras.layers: MaxPooling1D/2D and AveragePooling1D/2D
// (Keras's Pooling1D/Pooling2D: strides default to pool_size; the 1-D ones
// pool a [batch, steps, 1, channels] view as Keras's backend.pool2d does) and
// the global poolings (reduce_max / reduce_mean over the spatial axes,
// keepdims; GlobalAveragePooling1D averages only the unmasked steps).
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/keras/conv_utils.h"
#include "runtime/keras/layer.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"

namespace ag::keras {
namespace {

/// Pooling1D/Pooling2D.__init__: pool_size, strides (None: pool_size),
/// padding, data_format; `a` as the pooling classes' init_params.
void init_pooling(const Value& self, const std::vector<Value>& a, int rank, const char* layer) {
  init_base(self, a[5], a[6], a[7], a[8]);
  Value strides = a[2].is_none() ? a[1] : a[2];
  self.setattr("pool_size", normalize_tuple(a[1], rank, "pool_size"));
  self.setattr("strides", normalize_tuple(strides, rank, "strides", true));
  self.setattr("padding", Value(normalize_padding(a[3])));
  std::string format = normalize_data_format(a[4]);
  require_channels_last(format, layer);
  self.setattr("data_format", Value(format));
}

std::vector<Param> pooling_params(Value pool_size, Value data_format) {
  return {{"pool_size", std::move(pool_size)},
          {"strides", Value()},
          {"padding", Value("valid")},
          {"data_format", std::move(data_format)},
          {"name", Value()},
          {"trainable", Value(true)},
          {"dtype", Value()}};
}

/// The op's ksize or strides [1, a, b, 1] from a layer's tuple (a 1-D
/// layer's (n,) as (n, 1)).
Value pool_window(const Value& tuple) {
  std::vector<Value> out{Value(1)};
  for (const Value& v : iterate(tuple)) out.push_back(v);
  if (out.size() == 2) out.emplace_back(1);
  out.emplace_back(1);
  return Value::list(std::move(out));
}

/// Pooling2D.call / Pooling1D.call with tf.compat.v1.nn.max_pool (node
/// "MaxPool") or avg_pool ("AvgPool").
Value pool_call(const Value& self, const Value& x, bool is_max, int rank) {
  check_input_rank(self, x, -1, rank + 2);
  const std::string padding = self.getattr("padding").as_str() == "same" ? "SAME" : "VALID";
  Value ksize = pool_window(self.getattr("pool_size"));
  Value strides = pool_window(self.getattr("strides"));
  Value in = rank == 1 ? tf::expand_dims(x, Value(2)) : x;
  Value y = is_max ? tf::max_pool2d(in, ksize, strides, padding, "NHWC", "MaxPool")
                   : tf::avg_pool2d(in, ksize, strides, padding, "NHWC", "AvgPool");
  return rank == 1 ? tf::squeeze(y, Value(2)) : y;
}

Value make_pooling(const char* name, bool is_max, int rank) {
  Value pool_size = rank == 1 ? Value(2) : Value::tuple({Value(2), Value(2)});
  Value data_format = rank == 1 ? Value("channels_last") : Value();
  return make_layer_class(LayerDef{
      .name = name,
      .init_params = pooling_params(pool_size, data_format),
      .init = [rank, name](const Value& self, const std::vector<Value>& a) { init_pooling(self, a, rank, name); },
      .call = [is_max, rank](const std::vector<Value>& a) { return pool_call(a[0], a[1], is_max, rank); },
      .config = rank == 1 ? std::vector<std::string>{"strides", "pool_size", "padding", "data_format"}
                          : std::vector<std::string>{"pool_size", "padding", "strides", "data_format"},
  });
}

/// GlobalPooling1D/2D: reduce_max or reduce_mean over the steps (1-D) or
/// rows and columns (2-D); GlobalAveragePooling1D's mask weights the mean.
Value make_global_pooling(const char* name, bool is_max, int rank) {
  return make_layer_class(LayerDef{
      .name = name,
      .init_params = {{"data_format", rank == 1 ? Value("channels_last") : Value()},
                      {"keepdims", Value(false)},
                      {"name", Value()},
                      {"trainable", Value(true)},
                      {"dtype", Value()}},
      .init =
          [is_max, rank](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[3], a[4], a[5], a[6]);
            self.setattr("data_format", Value(normalize_data_format(a[1])));
            self.setattr("keepdims", a[2]);
            if (!is_max && rank == 1) self.setattr("supports_masking", Value(true));
          },
      .call_params = is_max || rank != 1 ? std::vector<Param>{} : std::vector<Param>{{"mask", Value()}},
      .call =
          [is_max, rank](const std::vector<Value>& a) {
            const Value& self = a[0];
            Value x = a[1];
            check_input_rank(self, x, -1, rank + 2);
            const bool last = self.getattr("data_format").as_str() == "channels_last";
            const bool keepdims = truthy(self.getattr("keepdims"));
            Value axis = rank == 1 ? Value(last ? 1 : 2)
                                   : (last ? Value::list({Value(1), Value(2)}) : Value::list({Value(2), Value(3)}));
            if (is_max) return tf::reduce_max(x, axis, keepdims);
            if (rank == 1 && a.size() > 2 && !a[2].is_none()) {
              Value mask = tf::cast(a[2], x.as_tensor().dtype());
              mask = tf::expand_dims(mask, Value(last ? 2 : 1));
              x = x * mask;
              return tf::reduce_sum(x, axis, keepdims) / tf::reduce_sum(mask, axis, keepdims);
            }
            if (x.as_tensor().dtype() == DType::Bool) x = tf::cast(x, DType::Float32);
            return tf::reduce_mean(x, axis, keepdims);
          },
      // GlobalAveragePooling1D consumes the mask; the others keep the base's.
      .compute_mask = is_max || rank != 1 ? std::function<Value(const std::vector<Value>&)>{}
                                          : [](const std::vector<Value>&) { return Value(); },
      .config = {"data_format", "keepdims"},
  });
}

}  // namespace
}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_layers_MaxPooling1D() {
  static const Value cls = keras::make_pooling("MaxPooling1D", true, 1);
  return cls;
}

const Value& keras_layers_MaxPooling2D() {
  static const Value cls = keras::make_pooling("MaxPooling2D", true, 2);
  return cls;
}

const Value& keras_layers_AveragePooling1D() {
  static const Value cls = keras::make_pooling("AveragePooling1D", false, 1);
  return cls;
}

const Value& keras_layers_AveragePooling2D() {
  static const Value cls = keras::make_pooling("AveragePooling2D", false, 2);
  return cls;
}

const Value& keras_layers_GlobalMaxPooling1D() {
  static const Value cls = keras::make_global_pooling("GlobalMaxPooling1D", true, 1);
  return cls;
}

const Value& keras_layers_GlobalMaxPooling2D() {
  static const Value cls = keras::make_global_pooling("GlobalMaxPooling2D", true, 2);
  return cls;
}

const Value& keras_layers_GlobalAveragePooling1D() {
  static const Value cls = keras::make_global_pooling("GlobalAveragePooling1D", false, 1);
  return cls;
}

const Value& keras_layers_GlobalAveragePooling2D() {
  static const Value cls = keras::make_global_pooling("GlobalAveragePooling2D", false, 2);
  return cls;
}

}  // namespace ag::tf::api
