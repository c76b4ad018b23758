// tf.keras.layers.Dense and Conv2D as classes of the object model, subclasses
// of a minimal Layer (itself a tf.Module, as Keras's is). A layer creates its
// weights on its first call, from the input's last dim (Keras's build), and
// then computes matmul/conv2d + bias + activation, eagerly or while tracing.
//
// Weights created while a tf.function traces are created as TF creates them:
// the initial value is drawn eagerly (TF lifts initializers out of the
// function with init_scope) and the variable is owned by the function's
// CreationScope (runtime/value/variable_value.h), so only the first trace may
// create them. agc has no init_scope on the tracing thread, so the draw runs
// on a short-lived helper thread, where no graph is being traced.
//
// The initializers draw with tf.random.uniform/normal under TF's seed rules,
// so tf.random.set_seed(s) makes weights reproducible from run to run (the
// values differ from TF's: Keras draws through its own generator).
#include "runtime/api/keras_layers.h"

#include <cmath>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "runtime/api/checkpoint.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_module.h"
#include "runtime/function/concrete_function.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/tensor_shape_value.h"
#include "runtime/value/variable_value.h"

namespace ag {
namespace {

/// `draw()` run with no graph being traced (TF's init_scope).
Tensor eagerly(const std::function<Value()>& draw) {
  if (current_graph() == nullptr) return draw().as_tensor().value();
  std::optional<Tensor> out;
  std::exception_ptr err;
  std::thread t([&] {
    try {
      out = draw().as_tensor().value();
    } catch (...) {
      err = std::current_exception();
    }
  });
  t.join();
  if (err) std::rethrow_exception(err);
  return *out;
}

/// Keras's to_snake_case (not tf.Module's rule): "Conv2D" -> "conv2d", "MyDense" -> "my_dense".
std::string keras_snake_case(const std::string& name) {
  auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
  auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
  // re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
  std::string a;
  for (size_t i = 0; i < name.size(); ++i) {
    if (i > 0 && upper(name[i]) && i + 1 < name.size() && lower(name[i + 1])) {
      a += '_';
    }
    a += name[i];
  }
  // re.sub("([a-z])([A-Z])", r"\1_\2", ...).lower()
  std::string out;
  for (size_t i = 0; i < a.size(); ++i) {
    if (i > 0 && upper(a[i]) && lower(a[i - 1])) out += '_';
    out += static_cast<char>(upper(a[i]) ? a[i] - 'A' + 'a' : a[i]);
  }
  return out;
}

/// Keras's unique layer names: "dense", "dense_1", ...
std::string unique_layer_name(const std::string& base) {
  static std::mutex mu;
  static std::map<std::string, int> counts;
  std::lock_guard<std::mutex> lock(mu);
  int n = counts[base]++;
  return n == 0 ? base : base + "_" + std::to_string(n);
}

// ---- Initializers and activations by their Keras names.

/// Keras's fans: the last two dims are (in, out) scaled by the receptive field.
std::pair<double, double> fans(const std::vector<int64_t>& shape) {
  if (shape.size() < 2) {
    double f = shape.empty() ? 1.0 : static_cast<double>(shape[0]);
    return {f, f};
  }
  double receptive = 1;
  for (size_t i = 0; i + 2 < shape.size(); ++i) receptive *= static_cast<double>(shape[i]);
  return {static_cast<double>(shape[shape.size() - 2]) * receptive, static_cast<double>(shape.back()) * receptive};
}

Tensor initial_value(const Value& initializer, const std::vector<int64_t>& shape) {
  std::vector<Value> dims;
  for (int64_t d : shape) dims.emplace_back(static_cast<long long>(d));
  Value shape_v = Value::list(dims);
  if (initializer.is_callable() || initializer.is_object()) {
    return eagerly([&] { return Value(to_tensor(initializer({shape_v}, {}), DType::Float32)); });
  }
  if (!initializer.is_str()) throw ValueError("Could not interpret initializer identifier: " + repr(initializer));
  const std::string& name = initializer.as_str();
  auto [fan_in, fan_out] = fans(shape);
  auto uniform = [&](double limit) {
    return eagerly([&] { return tf::random_uniform(shape_v, Value(-limit), Value(limit), DType::Float32); });
  };
  if (name == "glorot_uniform") return uniform(std::sqrt(6.0 / (fan_in + fan_out)));
  if (name == "he_uniform") return uniform(std::sqrt(6.0 / fan_in));
  if (name == "lecun_uniform") return uniform(std::sqrt(3.0 / fan_in));
  if (name == "random_uniform") return uniform(0.05);
  if (name == "random_normal") {
    return eagerly([&] { return tf::random_normal(shape_v, Value(0.0), Value(0.05), DType::Float32); });
  }
  if (name == "zeros") return eagerly([&] { return tf::zeros(shape_v, DType::Float32); });
  if (name == "ones") return eagerly([&] { return tf::ones(shape_v, DType::Float32); });
  throw ValueError("Unknown initializer: '" + name + "'. Please ensure you are using a `keras.utils.custom_object_scope` "
                   "and that this object is included in the scope. See "
                   "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object for details.");
}

Value apply_activation(const Value& activation, const Value& x) {
  if (activation.is_none()) return x;
  if (!activation.is_str()) return activation({x}, {});
  const std::string& name = activation.as_str();
  auto in = [&] { return std::vector<TensorHandle>{x.as_tensor()}; };
  if (name == "linear") return x;
  if (name == "relu") return Value(apply_op1(op::Relu, in(), {}, "Relu"));
  if (name == "sigmoid") return tf::sigmoid(x);
  if (name == "tanh") return tf::tanh(x);
  if (name == "softmax") return Value(apply_op1(op::Softmax, in(), {}, "Softmax"));
  if (name == "softplus") return Value(apply_op1(op::Softplus, in(), {}, "Softplus"));
  if (name == "exponential") return tf::exp(x);
  throw ValueError("Unknown activation function: '" + name + "'. Please ensure you are using a "
                   "`keras.utils.custom_object_scope` and that this object is included in the scope. See "
                   "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object for details.");
}

void check_activation(const Value& activation) {
  if (activation.is_str()) {
    static const char* known[] = {"linear", "relu", "sigmoid", "tanh", "softmax", "softplus", "exponential"};
    for (const char* k : known) {
      if (activation.as_str() == k) return;
    }
    apply_activation(activation, Value());  // throws the unknown-name error
  }
}

// ---- Layer: the shared protocol.

/// Keras's weights properties: a layer with trainable=False has only
/// non-trainable weights (the variables' own flags are left as they are).
Value weights_property(VariableKind kind) {
  return make_property(Value::callable("weights", [kind](std::vector<Value> args, Kwargs) -> Value {
    const Value& self = args.at(0);
    if (!self.hasattr("_agc_weights")) return Value::list();
    bool layer_trainable = truthy(self.getattr("trainable"));
    std::vector<Value> out;
    for (const Value& w : iterate(self.getattr("_agc_weights"))) {
      bool trainable = layer_trainable && truthy(w.getattr("trainable"));
      if (kind == VariableKind::All || trainable == (kind == VariableKind::Trainable)) out.push_back(w);
    }
    return Value::list(std::move(out));
  }));
}

/// Keras's common constructor keywords (name, trainable, dtype, input_shape).
void init_layer(const Value& self, const Value& name, const Value& trainable) {
  self.setattr("_name", name.is_none() ? Value(unique_layer_name(keras_snake_case(self.type_name()))) : name);
  self.setattr("trainable", trainable);
  self.setattr("built", false);
  self.setattr("_agc_weights", Value::list());
}

/// self.add_weight: a float32 variable named "<layer>/<name>" with its initializer.
Value add_weight(const Value& self, const std::string& name, const std::vector<int64_t>& shape, const Value& initializer) {
  Tensor init = initial_value(initializer, shape);
  Value var = variable_value::create(Value(init), DType::Float32, Value(str(self.getattr("name")) + "/" + name));
  self.getattr("_agc_weights").items().push_back(var);
  return var;
}

/// What Dense and Conv2D keep of their constructor's weight keywords; the
/// weights themselves are made by build() (create_weights).
void init_weight_attrs(const Value& self, const Value& activation, const Value& use_bias, const Value& kernel_initializer,
                       const Value& bias_initializer) {
  check_activation(activation);
  self.setattr("activation", activation);
  self.setattr("use_bias", use_bias);
  self.setattr("kernel_initializer", kernel_initializer);
  self.setattr("bias_initializer", bias_initializer);
  self.setattr("kernel", Value());
  self.setattr("bias", Value());
}

/// build(): the kernel of `kernel_shape` and, with use_bias, a bias of `units`.
void create_weights(const Value& self, const std::vector<int64_t>& kernel_shape, int64_t units) {
  self.setattr("kernel", add_weight(self, "kernel", kernel_shape, self.getattr("kernel_initializer")));
  if (truthy(self.getattr("use_bias"))) {
    self.setattr("bias", add_weight(self, "bias", {units}, self.getattr("bias_initializer")));
  }
}

/// call()'s end: the bias added (BiasAdd, as Keras), then the activation.
Value bias_and_activation(const Value& self, Value y) {
  if (truthy(self.getattr("use_bias"))) {
    std::vector<TensorHandle> in{y.as_tensor(), variable_value::read(self.getattr("bias"))};
    y = Value(apply_op1(op::BiasAdd, in, {}, "BiasAdd"));
  }
  return apply_activation(self.getattr("activation"), y);
}

Value make_layer_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method("Layer.__call__", "__call__", {{"self", std::nullopt}, {"inputs", std::nullopt}},
                         [](const std::vector<Value>& a) -> Value {
                           const Value& self = a[0];
                           Value x = a[1];
                           if (!x.is_tensor()) x = Value(to_tensor(x, DType::Float32));
                           if (!truthy(self.getattr("built"))) {
                             self.getattr("build")({tensor_shape(x.as_tensor().shape())}, {});
                             self.setattr("built", true);
                             checkpoint_restore_deferred();
                           }
                           return self.getattr("call")({x}, {});
                         }));
  attrs.push_back({"name", make_property(Value::callable("name", [](std::vector<Value> args, Kwargs) -> Value {
                     return args.at(0).getattr("_name");
                   }))});
  attrs.push_back({"weights", weights_property(VariableKind::All)});
  attrs.push_back({"variables", weights_property(VariableKind::All)});
  attrs.push_back({"trainable_weights", weights_property(VariableKind::Trainable)});
  attrs.push_back({"trainable_variables", weights_property(VariableKind::Trainable)});
  attrs.push_back({"non_trainable_weights", weights_property(VariableKind::NonTrainable)});
  attrs.push_back({"non_trainable_variables", weights_property(VariableKind::NonTrainable)});
  return make_class("Layer", {tf::api::Module()}, std::move(attrs));
}

const Value& layer_class() {
  static const Value cls = make_layer_class();
  return cls;
}

int64_t known_last_dim(const Value& input_shape, const char* layer) {
  if (input_shape.is_none() || iterate(input_shape).empty() || iterate(input_shape).back().is_none()) {
    throw ValueError(std::string("The last dimension of the inputs to a ") + layer +
                     " layer should be defined. Found None. Full input shape received: " + str(input_shape));
  }
  return iterate(input_shape).back().as_int();
}

/// An int or a pair of ints (kernel_size=3, strides=(1, 1)).
std::pair<int64_t, int64_t> int_pair(const Value& v, const char* what) {
  if (v.is_int()) return {v.as_int(), v.as_int()};
  std::vector<Value> items = iterate(v);
  if (items.size() != 2) {
    throw ValueError(std::string("The `") + what + "` argument must be a tuple of 2 integers. Received: " + str(v));
  }
  return {items[0].as_int(), items[1].as_int()};
}

// ---- Dense.

Value make_dense_class() {
  std::vector<Param> init_params = {
      {"self", std::nullopt},           {"units", std::nullopt},
      {"activation", Value()},          {"use_bias", Value(true)},
      {"kernel_initializer", Value("glorot_uniform")}, {"bias_initializer", Value("zeros")},
      {"kernel_regularizer", Value()},  {"bias_regularizer", Value()},
      {"activity_regularizer", Value()}, {"kernel_constraint", Value()},
      {"bias_constraint", Value()},     {"name", Value()},
      {"trainable", Value(true)},       {"dtype", Value()},
      {"input_shape", Value()},         {"input_dim", Value()},
  };
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method("Dense.__init__", "__init__", init_params, [](const std::vector<Value>& a) -> Value {
    const Value& self = a[0];
    int64_t units = a[1].as_int();
    if (units <= 0) {
      throw ValueError("Received an invalid value for `units`, expected a positive integer. Received: units=" +
                       str(a[1]));
    }
    init_layer(self, a[11], a[12]);
    self.setattr("units", a[1]);
    init_weight_attrs(self, a[2], a[3], a[4], a[5]);
    return Value();
  }));
  attrs.push_back(native_method("Dense.build", "build", {{"self", std::nullopt}, {"input_shape", std::nullopt}},
                         [](const std::vector<Value>& a) -> Value {
                           const Value& self = a[0];
                           int64_t in = known_last_dim(a[1], "Dense");
                           int64_t units = self.getattr("units").as_int();
                           create_weights(self, {in, units}, units);
                           return Value();
                         }));
  attrs.push_back(native_method("Dense.call", "call", {{"self", std::nullopt}, {"inputs", std::nullopt}},
                         [](const std::vector<Value>& a) -> Value {
                           const Value& self = a[0];
                           Value x = a[1];
                           Value kernel = self.getattr("kernel");
                           const Shape& s = x.as_tensor().shape();
                           Value y;
                           if (s.rank_known() && s.rank() == 2) {
                             y = tf::matmul(x, kernel);
                           } else {
                             int64_t last = s.rank_known() ? static_cast<int64_t>(s.rank()) - 1 : -1;
                             y = tf::tensordot(x, kernel, Value::list({Value::list({Value(last)}), Value::list({Value(0)})}));
                           }
                           return bias_and_activation(self, y);
                         }));
  return make_class("Dense", {layer_class()}, std::move(attrs));
}

// ---- Conv2D.

Value make_conv2d_class() {
  std::vector<Param> init_params = {
      {"self", std::nullopt},           {"filters", std::nullopt},
      {"kernel_size", std::nullopt},    {"strides", Value::tuple({Value(1), Value(1)})},
      {"padding", Value("valid")},      {"data_format", Value()},
      {"dilation_rate", Value::tuple({Value(1), Value(1)})}, {"groups", Value(1)},
      {"activation", Value()},          {"use_bias", Value(true)},
      {"kernel_initializer", Value("glorot_uniform")}, {"bias_initializer", Value("zeros")},
      {"kernel_regularizer", Value()},  {"bias_regularizer", Value()},
      {"activity_regularizer", Value()}, {"kernel_constraint", Value()},
      {"bias_constraint", Value()},     {"name", Value()},
      {"trainable", Value(true)},       {"dtype", Value()},
      {"input_shape", Value()},
  };
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method("Conv2D.__init__", "__init__", init_params, [](const std::vector<Value>& a) -> Value {
    const Value& self = a[0];
    if (a[1].as_int() <= 0) {
      throw ValueError("Invalid value for argument `filters`. Expected a strictly positive value. Received filters=" +
                       str(a[1]) + ".");
    }
    auto [kh, kw] = int_pair(a[2], "kernel_size");
    auto [sh, sw] = int_pair(a[3], "strides");
    auto [dh, dw] = int_pair(a[6], "dilation_rate");
    std::string padding = a[4].as_str();
    for (char& c : padding) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (padding != "valid" && padding != "same") {
      throw ValueError("The `padding` argument must be a list/tuple or one of ['valid', 'same'] (case-insensitive). "
                       "Received: " + a[4].as_str());
    }
    if (!a[5].is_none() && a[5].as_str() != "channels_last") {
      throw UnimplementedError("agc: Conv2D supports data_format='channels_last' only (TF's CPU kernels too)");
    }
    if (a[7].as_int() != 1) throw UnimplementedError("agc: Conv2D supports groups=1 only");
    init_layer(self, a[17], a[18]);
    self.setattr("filters", a[1]);
    self.setattr("kernel_size", Value::tuple({Value(kh), Value(kw)}));
    self.setattr("strides", Value::tuple({Value(sh), Value(sw)}));
    self.setattr("padding", Value(padding));
    self.setattr("dilation_rate", Value::tuple({Value(dh), Value(dw)}));
    init_weight_attrs(self, a[8], a[9], a[10], a[11]);
    return Value();
  }));
  attrs.push_back(native_method("Conv2D.build", "build", {{"self", std::nullopt}, {"input_shape", std::nullopt}},
                         [](const std::vector<Value>& a) -> Value {
                           const Value& self = a[0];
                           std::vector<Value> dims = a[1].is_none() ? std::vector<Value>{} : iterate(a[1]);
                           if (dims.size() != 4) {
                             throw ValueError("Input 0 of layer \"" + str(self.getattr("name")) +
                                              "\" is incompatible with the layer: expected min_ndim=4, found ndim=" +
                                              std::to_string(dims.size()) + ". Full shape received: " + str(a[1]));
                           }
                           int64_t in = known_last_dim(a[1], "Conv2D");
                           std::vector<Value> ks = iterate(self.getattr("kernel_size"));
                           int64_t filters = self.getattr("filters").as_int();
                           create_weights(self, {ks[0].as_int(), ks[1].as_int(), in, filters}, filters);
                           return Value();
                         }));
  attrs.push_back(native_method("Conv2D.call", "call", {{"self", std::nullopt}, {"inputs", std::nullopt}},
                         [](const std::vector<Value>& a) -> Value {
                           const Value& self = a[0];
                           // Keras checks the input spec on every call, not only when building.
                           const Shape& s = a[1].as_tensor().shape();
                           if (s.rank_known() && s.rank() != 4) {
                             throw ValueError("Input 0 of layer \"" + str(self.getattr("name")) +
                                              "\" is incompatible with the layer: expected min_ndim=4, found ndim=" +
                                              std::to_string(s.rank()) + ". Full shape received: " +
                                              s.str());
                           }
                           std::vector<Value> st = iterate(self.getattr("strides"));
                           std::vector<Value> dl = iterate(self.getattr("dilation_rate"));
                           std::string padding = self.getattr("padding").as_str() == "same" ? "SAME" : "VALID";
                           Attrs attrs;
                           attrs.set("strides", std::vector<int64_t>{1, st[0].as_int(), st[1].as_int(), 1});
                           attrs.set("dilations", std::vector<int64_t>{1, dl[0].as_int(), dl[1].as_int(), 1});
                           attrs.set("padding", padding);
                           attrs.set("data_format", std::string("NHWC"));
                           std::vector<TensorHandle> in{a[1].as_tensor(), variable_value::read(self.getattr("kernel"))};
                           return bias_and_activation(self, Value(apply_op1(op::Conv2D, in, attrs, "Conv2D")));
                         }));
  return make_class("Conv2D", {layer_class()}, std::move(attrs));
}

}  // namespace

namespace tf::api {

const Value& keras_layers_Dense() {
  static const Value cls = make_dense_class();
  return cls;
}

const Value& keras_layers_Conv2D() {
  static const Value cls = make_conv2d_class();
  return cls;
}

}  // namespace tf::api

}  // namespace ag
