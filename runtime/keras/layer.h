// tf.keras.layers.Layer: the base class of every Keras layer and model, as a
// class of the object model (runtime/value/object_model.h), so a program's
// `class MyLayer(tf.keras.layers.Layer)` subclasses it the way it subclasses
// any class, and the native layers (layers_*.cpp) are made the same way.
//
// What it models of Keras 2's base_layer (TF 2.15):
// - __call__: converts NumPy/Python inputs to tensors and casts floating ones
//   to the layer's float32 (autocast), resolves `training` by Keras's four
//   rules (passed, the enclosing layer call's, call()'s default, else None) and
//   passes it only to a call() that takes it, builds on the first call from
//   the inputs' TensorShapes (under tf.init_scope, as Keras's maybe_init_scope),
//   runs call(), and records the call in a functional graph when the inputs
//   are symbolic (keras.Input's, runtime/keras/functional.h).
// - weights: own weights in creation order (add_weight, then variables
//   assigned as attributes), then the sublayers' in attribute-assignment order
//   (Keras tracks attributes as they are set; the object model keeps them in
//   that order); `trainable=False` makes all of a layer's weights non-trainable.
// - losses: add_loss() values of the last outermost call and the weight
//   regularizers, evaluated when read, sublayers' included.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "runtime/keras/input_spec.h"
#include "runtime/value/user_function.h"
#include "runtime/value/value.h"

namespace ag::keras {

/// tf.keras.layers.Layer (the class value).
const Value& layer_class();
/// isinstance(v, tf.keras.layers.Layer).
bool is_layer(const Value& v);

/// Keras's to_snake_case: "Conv2D" -> "conv2d", "MyDense" -> "my_dense".
std::string snake_case(const std::string& name);
/// Keras's unique object names: "dense", "dense_1", ... (per process).
std::string unique_name(const std::string& base);
/// Keras's backend.get_uid(prefix): 1, 2, ... per prefix, counted with
/// unique_name's (Keras keeps both in one map).
int keras_uid(const std::string& prefix);

/// Layer.__init__'s work: name, trainable, dtype and the base keywords
/// (input_shape, input_dim, batch_input_shape, batch_size, ...); `kwargs` is
/// the dict of keywords a native layer's own parameters did not take.
/// TypeError "('Keyword argument not understood:', 'x')" for others.
void init_base(const Value& self, const Value& name, const Value& trainable, const Value& dtype, const Value& kwargs);
/// `own` parameters followed by Keras's kernel and bias arguments
/// (kernel_initializer, bias_initializer, kernel/bias/activity_regularizer,
/// kernel/bias_constraint) and the base keywords (name, trainable, dtype),
/// in Keras's order: the constructor tail of Dense, the convolutions,
/// EinsumDense and MultiHeadAttention.
std::vector<Param> with_kernel_bias_params(std::vector<Param> own);

/// One add_weight call: a variable named "<layer>/<name>", its initial value
/// from `initializer` (a Keras identifier: a name, an initializer object or a
/// callable), tracked as the layer's weight; `regularizer` adds its penalty
/// to the layer's losses.
struct WeightSpec {
  std::string name;
  std::vector<int64_t> shape;
  Value initializer;
  Value regularizer;
  bool trainable = true;
  DType dtype = DType::Float32;
};
Value add_weight(const Value& self, const WeightSpec& spec);

/// The layer's weights by kind (Keras's trainable_weights /
/// non_trainable_weights / weights), each variable once.
enum class WeightKind { All, Trainable, NonTrainable };
std::vector<Value> layer_weights(const Value& layer, WeightKind kind);
/// Keras's Model.weights: each tracked layer's `weights` in turn (a plain
/// layer's trainable then non-trainable ones, a nested model's in this
/// order), then the model's own trainable and non-trainable weights.
std::vector<Value> model_weights(const Value& model);
/// The layer's own weights, not its sublayers', as Keras's
/// `_trainable_weights + _non_trainable_weights`: those made trainable, then
/// the others, each in creation order (what a `.weights.h5` file stores per
/// layer).
std::vector<Value> own_weights(const Value& layer);
/// The layers directly held by `layer`'s attributes, in assignment order
/// (Keras's _flatten_layers(include_self=False, recursive=False)).
std::vector<Value> sublayers(const Value& layer);

/// The training mode of the innermost Keras layer call on this thread (None
/// outside one): what a layer whose call() takes no `training` passes on.
Value current_training();

/// A native layer class: one definition per layer (layers_*.cpp).
struct LayerDef {
  std::string name{};  ///< "Dense"
  /// The constructor's own parameters after self; `**kwargs` is appended and
  /// handed to init_base with name/trainable/dtype, which must be among them
  /// or come through kwargs.
  std::vector<Param> init_params{};
  /// Validates and stores the constructor's arguments; `a[0]` is self, then
  /// one value per init_params entry, then the kwargs dict. None: the base
  /// class's constructor.
  std::function<void(const Value& self, const std::vector<Value>& a)> init{};
  /// Creates the weights from the input's TensorShape (or a list of them).
  std::function<void(const Value& self, const Value& input_shape)> build{};
  /// The name of call()'s first parameter (Keras's `inputs`;
  /// MultiHeadAttention's `query`), which a caller may pass by keyword.
  std::string inputs_param = "inputs";
  /// call()'s parameters after self and inputs (training, mask, ...).
  std::vector<Param> call_params{};
  /// call(): `a[0]` self, `a[1]` inputs, then one value per call_params entry.
  std::function<Value(const std::vector<Value>& a)> call{};
  /// compute_mask(inputs, mask): the output mask (Keras's Layer.compute_mask);
  /// a class without one takes the base's (the mask passed through when the
  /// layer supports masking, else None). `a[0]` self, `a[1]` inputs, `a[2]` mask.
  std::function<Value(const std::vector<Value>& a)> compute_mask{};
  /// Further methods of the class (name, function whose first parameter is self).
  std::vector<std::pair<std::string, Value>> methods{};
  /// get_config()'s keys past the base ones (name, trainable, dtype): the
  /// attributes holding the constructor's arguments, in Keras's order.
  std::vector<std::string> config{};
  /// The base class (Layer unless given).
  Value base{};
};
/// The class of `def`; its own attribute `_agc_builtin_layer` marks it as
/// agc's (a program's subclass lacks it).
Value make_layer_class(LayerDef def);

/// Marks `fn` as a default build() (Keras's @generic_utils.default): a
/// class whose build is one is not asked to build on its first call.
Value mark_default_build(Value fn);

/// The layer's "name" (Keras's unique name, or the one given).
std::string layer_name(const Value& layer);

/// The static dim of TensorShape `input_shape` at `axis` (negative from the
/// end), or -1 when unknown.
int64_t shape_dim(const Value& input_shape, int axis);
/// A scalar tensor's (or number's) value as a double, read eagerly: what
/// logs, callbacks and the progress bar show (Keras's float(tensor)).
double host_scalar(const Value& v);

}  // namespace ag::keras
