// The activation layers of tf.keras.layers (Keras's layers/activation/):
// Softmax, whose mask adds -1e9 to the masked logits before the softmax
// (MultiHeadAttention's scores go through one, layers_multi_head_attention.cpp).
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/keras/layer.h"
#include "runtime/value/object_model.h"

namespace ag::keras {
namespace {

/// Keras's Softmax.call(inputs, mask, axis): the masked positions' logits
/// pushed down by 1e9 (`inputs += (1 - mask) * -1e9`, float32's
/// _large_compatible_negative), then the softmax over `axis` (an int, or a
/// list or tuple of them: several axes as exp(x - logsumexp(x))).
Value softmax_with_mask(Value inputs, const Value& mask, const Value& axis) {
  if (!mask.is_none()) {
    Value keep = tf::cast(mask, inputs.as_tensor().dtype());
    Value adder = tf::multiply(tf::subtract(Value(1.0), keep), Value(-1e9));
    inputs = tf::add(inputs, adder);
  }
  if (axis.is_list() || axis.is_tuple()) {
    const std::vector<Value>& axes = axis.items();
    if (axes.size() > 1) {
      Value lse = tf::api::reduce_logsumexp({inputs}, {{"axis", Value::list(axes)}, {"keepdims", Value(true)}});
      return tf::exp(tf::subtract(inputs, lse));
    }
    return tf::softmax(inputs, axes.at(0));
  }
  return tf::softmax(inputs, axis);
}

}  // namespace

Value make_softmax() {
  return make_layer_class(LayerDef{
      .name = "Softmax",
      .init_params = {{"axis", Value(-1)}, {"name", Value()}, {"trainable", Value(true)}, {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[2], a[3], a[4], a[5]);
            self.setattr("supports_masking", Value(true));
            self.setattr("axis", a[1]);
          },
      .call_params = {{"mask", Value()}},
      .call = [](const std::vector<Value>& a) { return softmax_with_mask(a[1], a[2], a[0].getattr("axis")); },
      .config = {"axis"},
  });
}

}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_layers_Softmax() {
  static const Value cls = keras::make_softmax();
  return cls;
}

}  // namespace ag::tf::api
