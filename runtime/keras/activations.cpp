// tf.keras.activations; see activations.h. Each function is Keras 2's
// (backend.relu's alpha/max_value/threshold cases, softmax's 1-D error,
// hard_sigmoid's 0.2x + 0.5 clipped), built from tf.* functions so tracing
// names the nodes as TF does.
#include "runtime/keras/activations.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/value/convert.h"
#include "runtime/value/user_function.h"

namespace ag::keras {
namespace {

using tf::api::add;
using tf::api::multiply;

Value x_tensor(const Value& x) { return Value(to_tensor(x)); }

Value relu(const std::vector<Value>& a) {
  Value x = x_tensor(a[0]);
  double alpha = a[1].as_float();
  const Value& max_value = a[2];
  double threshold = a[3].as_float();
  if (alpha != 0.0 && max_value.is_none() && threshold == 0.0) {
    return tf::api::leaky_relu({x}, {{"alpha", Value(alpha)}});
  }
  Value negative_part;
  if (alpha != 0.0) {
    Value neg = tf::api::negative({x}, {});
    if (threshold != 0.0) neg = add({neg, Value(threshold)}, {});
    negative_part = tf::api::relu({neg}, {});
  }
  bool clip_max = !max_value.is_none();
  if (threshold != 0.0) {
    Value above = tf::api::cast({tf::api::greater({x, Value(threshold)}, {}), Value("float32")}, {});
    x = multiply({x, above}, {});
  } else if (clip_max && max_value.as_float() == 6.0) {
    x = tf::api::relu6({x}, {});
    clip_max = false;
  } else {
    x = tf::api::relu({x}, {});
  }
  if (clip_max) x = tf::api::clip_by_value({x, Value(0.0), max_value}, {});
  if (alpha != 0.0) x = tf::api::subtract({x, multiply({Value(alpha), negative_part}, {})}, {});
  return x;
}

Value softmax(const std::vector<Value>& a) {
  Value x = x_tensor(a[0]);
  const Shape& s = x.as_tensor().shape();
  if (s.rank_known() && s.rank() == 1) {
    throw ValueError("Cannot apply softmax to a tensor that is 1D. Received input: " + str(x));
  }
  return tf::api::softmax({x}, {{"axis", a[1]}});
}

struct Activation {
  const char* name;
  std::vector<Param> params;  ///< after x
  std::function<Value(const std::vector<Value>&)> fn;
};

const std::vector<Activation>& activations() {
  static const std::vector<Activation> table = {
      {"softmax", {{"axis", Value(-1)}}, softmax},
      {"elu", {{"alpha", Value(1.0)}},
       [](const std::vector<Value>& a) {
         Value x = x_tensor(a[0]);
         Value y = tf::api::elu({x}, {});
         if (a[1].as_float() == 1.0) return y;
         // Keras's elu: alpha * elu(x) on the negative side only.
         return tf::api::where({tf::api::greater({x, Value(0.0)}, {}), y, multiply({a[1], y}, {})}, {});
       }},
      {"selu", {}, [](const std::vector<Value>& a) { return tf::api::selu({x_tensor(a[0])}, {}); }},
      {"softplus", {}, [](const std::vector<Value>& a) { return tf::api::softplus({x_tensor(a[0])}, {}); }},
      {"softsign", {}, [](const std::vector<Value>& a) { return tf::api::softsign({x_tensor(a[0])}, {}); }},
      {"swish", {}, [](const std::vector<Value>& a) { return tf::api::silu({x_tensor(a[0])}, {}); }},
      {"silu", {}, [](const std::vector<Value>& a) { return tf::api::silu({x_tensor(a[0])}, {}); }},
      {"relu", {{"alpha", Value(0.0)}, {"max_value", Value()}, {"threshold", Value(0.0)}}, relu},
      {"gelu", {{"approximate", Value(false)}},
       [](const std::vector<Value>& a) { return tf::api::gelu({x_tensor(a[0])}, {{"approximate", a[1]}}); }},
      {"tanh", {}, [](const std::vector<Value>& a) { return tf::api::tanh({x_tensor(a[0])}, {}); }},
      {"sigmoid", {}, [](const std::vector<Value>& a) { return tf::api::sigmoid({x_tensor(a[0])}, {}); }},
      {"exponential", {}, [](const std::vector<Value>& a) { return tf::api::exp({x_tensor(a[0])}, {}); }},
      {"hard_sigmoid", {},
       [](const std::vector<Value>& a) {
         Value y = add({multiply({x_tensor(a[0]), Value(0.2)}, {}), Value(0.5)}, {});
         return tf::api::clip_by_value({y, Value(0.0), Value(1.0)}, {});
       }},
      {"linear", {}, [](const std::vector<Value>& a) { return a[0]; }},
      {"mish", {},
       [](const std::vector<Value>& a) {
         Value x = x_tensor(a[0]);
         return multiply({x, tf::api::tanh({tf::api::softplus({x}, {})}, {})}, {});
       }},
  };
  return table;
}

}  // namespace

const Value& activation_function(const std::string& name) {
  static const std::vector<std::pair<std::string, Value>> made = [] {
    std::vector<std::pair<std::string, Value>> m;
    for (const Activation& act : activations()) {
      std::vector<Param> params{{"x", std::nullopt}};
      for (const Param& p : act.params) params.push_back(p);
      m.emplace_back(act.name, make_function(act.name, params, act.fn));
    }
    return m;
  }();
  for (const auto& [n, f] : made) {
    if (n == name) return f;
  }
  static const Value none;
  return none;
}

Value get_activation(const Value& identifier) {
  if (identifier.is_none()) return activation_function("linear");
  if (identifier.is_str()) {
    const Value& f = activation_function(identifier.as_str());
    if (!f.is_none()) return f;
    throw ValueError("Unknown activation function: '" + identifier.as_str() +
                     "'. Please ensure you are using a `keras.utils.custom_object_scope` and that this object is "
                     "included in the scope. See "
                     "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object for "
                     "details.");
  }
  if (identifier.is_callable() || identifier.is_object()) return identifier;
  throw TypeError("Could not interpret activation function identifier: " + str(identifier));
}

std::string activation_name(const Value& activation) {
  if (activation.is_none()) return "linear";
  for (const Activation& act : activations()) {
    if (activation.is(activation_function(act.name))) return act.name;
  }
  return activation.is_str() ? activation.as_str() : str(activation);
}

}  // namespace ag::keras

namespace ag::tf::api {

#define AG_KERAS_ACTIVATION(name) \
  const Value& keras_activations_##name() { return keras::activation_function(#name); }
AG_KERAS_ACTIVATION(softmax)
AG_KERAS_ACTIVATION(elu)
AG_KERAS_ACTIVATION(selu)
AG_KERAS_ACTIVATION(softplus)
AG_KERAS_ACTIVATION(softsign)
AG_KERAS_ACTIVATION(swish)
AG_KERAS_ACTIVATION(silu)
AG_KERAS_ACTIVATION(relu)
AG_KERAS_ACTIVATION(gelu)
AG_KERAS_ACTIVATION(tanh)
AG_KERAS_ACTIVATION(sigmoid)
AG_KERAS_ACTIVATION(exponential)
AG_KERAS_ACTIVATION(hard_sigmoid)
AG_KERAS_ACTIVATION(linear)
AG_KERAS_ACTIVATION(mish)
#undef AG_KERAS_ACTIVATION

}  // namespace ag::tf::api
