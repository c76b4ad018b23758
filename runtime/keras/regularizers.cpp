// tf.keras.regularizers; see regularizers.h.
#include "runtime/keras/regularizers.h"

#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/value/object_model.h"

namespace ag::keras {
namespace {

/// l1 * sum(|x|) + l2 * sum(x^2), the terms with a zero factor left out (Keras's L1L2.__call__).
Value penalty(const Value& x, double l1, double l2) {
  Value total = tf::api::constant({Value(0.0)}, {});
  if (l1 != 0.0) {
    total = tf::api::add({total, tf::api::multiply({Value(l1), tf::api::reduce_sum({tf::api::abs({x}, {})}, {})}, {})}, {});
  }
  if (l2 != 0.0) {
    total = tf::api::add({total, tf::api::multiply({Value(l2), tf::api::reduce_sum({tf::api::square({x}, {})}, {})}, {})}, {});
  }
  return total;
}

double factor(const Value& self, const char* name) {
  Value v = self.getattr(name);
  return v.is_none() ? 0.0 : v.as_float();
}

Value regularizer_base() {
  static const Value cls = make_class(
      "Regularizer", {},
      {native_method("Regularizer.__call__", "__call__", {{"self", std::nullopt}, {"x", std::nullopt}},
                     [](const std::vector<Value>& a) -> Value {
                       return penalty(a[1], factor(a[0], "l1"), factor(a[0], "l2"));
                     }),
       native_method("Regularizer.get_config", "get_config", {{"self", std::nullopt}},
                     [](const std::vector<Value>& a) -> Value {
                       std::vector<std::pair<Value, Value>> items;
                       for (const char* k : {"l1", "l2"}) {
                         if (a[0].hasattr(k)) items.emplace_back(Value(k), a[0].getattr(k));
                       }
                       return Value::dict(std::move(items));
                     })});
  return cls;
}

/// A class whose constructor keeps `l1`/`l2` (None means the default).
Value make_regularizer_class(const char* name, std::vector<Param> params) {
  std::vector<Param> init{{"self", std::nullopt}};
  for (const Param& p : params) init.push_back(p);
  return make_class(name, {regularizer_base()},
                    {native_method(std::string(name) + ".__init__", "__init__", init,
                                   [params](const std::vector<Value>& a) -> Value {
                                     for (size_t i = 0; i < params.size(); ++i) {
                                       const std::string& n = params[i].name;
                                       Value v = a[i + 1].is_none() ? *params[i].default_value : a[i + 1];
                                       if (v.as_float() < 0.0) {
                                         throw ValueError("Value of `" + n + "` should be a non-negative float. Received: " +
                                                          n + "=" + str(v) + ".");
                                       }
                                       a[0].setattr(n, Value(v.as_float()));
                                     }
                                     return Value();
                                   })});
}

}  // namespace

const Value& regularizer_class(const std::string& name) {
  static const Value l1 = make_regularizer_class("L1", {{"l1", Value(0.01)}});
  static const Value l2 = make_regularizer_class("L2", {{"l2", Value(0.01)}});
  static const Value l1l2 = make_regularizer_class("L1L2", {{"l1", Value(0.0)}, {"l2", Value(0.0)}});
  if (name == "L1") return l1;
  if (name == "L2") return l2;
  if (name == "L1L2") return l1l2;
  static const Value none;
  return none;
}

Value get_regularizer(const Value& identifier) {
  if (identifier.is_none() || identifier.is_callable() || identifier.is_object()) return identifier;
  if (identifier.is_str()) {
    const std::string& n = identifier.as_str();
    if (n == "l1" || n == "L1") return regularizer_class("L1")({}, {});
    if (n == "l2" || n == "L2") return regularizer_class("L2")({}, {});
    if (n == "l1_l2" || n == "L1L2") return regularizer_class("L1L2")({}, {{"l1", Value(0.01)}, {"l2", Value(0.01)}});
  }
  throw ValueError("Could not interpret regularizer identifier: " + str(identifier));
}

}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_regularizers_L1() { return keras::regularizer_class("L1"); }
const Value& keras_regularizers_L2() { return keras::regularizer_class("L2"); }
const Value& keras_regularizers_L1L2() { return keras::regularizer_class("L1L2"); }

}  // namespace ag::tf::api
