// tf.keras.initializers; see initializers.h.
#include "runtime/keras/initializers.h"

#include <cmath>
#include <functional>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/graph/tracing.h"
#include "runtime/keras/layer.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/object_model.h"

namespace ag::keras {
namespace {

/// How an initializer's class draws: from its constructor arguments (by
/// parameter name), the shape and the dtype.
using Draw = std::function<Value(const Value& self, const Value& shape, const std::vector<int64_t>& dims, DType dtype)>;

struct InitializerClass {
  const char* name;           ///< "GlorotUniform"
  std::vector<Param> params;  ///< the constructor's, after self
  Draw draw;
};

double arg(const Value& self, const char* name) { return self.getattr(name).as_float(); }

/// [seed, 0] for the stateless ops, or None when unseeded.
Value seed_of(const Value& self) {
  Value s = self.getattr("seed");
  return s.is_none() ? s : Value::list({s, Value(0)});
}

Value uniform(const Value& self, const Value& shape, double lo, double hi, DType dtype) {
  Value seed = seed_of(self);
  if (seed.is_none()) return tf::random_uniform(shape, Value(lo), Value(hi), dtype);
  return tf::stateless_random_uniform(shape, seed, Value(lo), Value(hi), dtype);
}

Value normal(const Value& self, const Value& shape, double mean, double stddev, DType dtype, bool truncated) {
  Value seed = seed_of(self);
  if (seed.is_none()) {
    return truncated ? tf::truncated_normal(shape, Value(mean), Value(stddev), dtype)
                     : tf::random_normal(shape, Value(mean), Value(stddev), dtype);
  }
  return tf::stateless_random_normal(shape, seed, Value(mean), Value(stddev), dtype, truncated);
}

/// Keras's _compute_fans.
std::pair<double, double> fans(const std::vector<int64_t>& shape) {
  if (shape.empty()) return {1, 1};
  if (shape.size() == 1) return {double(shape[0]), double(shape[0])};
  double receptive = 1;
  for (size_t i = 0; i + 2 < shape.size(); ++i) receptive *= double(shape[i]);
  return {double(shape[shape.size() - 2]) * receptive, double(shape.back()) * receptive};
}

Value variance_scaling(const Value& self, const Value& shape, const std::vector<int64_t>& dims, DType dtype) {
  double scale = arg(self, "scale");
  std::string mode = str(self.getattr("mode"));
  std::string distribution = str(self.getattr("distribution"));
  auto [fan_in, fan_out] = fans(dims);
  if (mode == "fan_in") {
    scale /= std::max(1.0, fan_in);
  } else if (mode == "fan_out") {
    scale /= std::max(1.0, fan_out);
  } else {
    scale /= std::max(1.0, (fan_in + fan_out) / 2.0);
  }
  if (distribution == "truncated_normal") {
    // The stddev of a unit normal truncated to [-2, 2].
    return normal(self, shape, 0.0, std::sqrt(scale) / 0.87962566103423978, dtype, true);
  }
  if (distribution == "untruncated_normal") return normal(self, shape, 0.0, std::sqrt(scale), dtype, false);
  double limit = std::sqrt(3.0 * scale);
  return uniform(self, shape, -limit, limit, dtype);
}

void check_variance_scaling(const Value& self) {
  if (arg(self, "scale") <= 0.0) {
    throw ValueError("Argument `scale` must be positive float. Received: scale=" + str(self.getattr("scale")));
  }
  std::string mode = str(self.getattr("mode"));
  if (mode != "fan_in" && mode != "fan_out" && mode != "fan_avg") {
    throw ValueError("Argument `mode` should be one of ('fan_in', 'fan_out', 'fan_avg'). Received: mode=" + mode);
  }
  std::string d = str(self.getattr("distribution"));
  if (d == "normal") self.setattr("distribution", Value("truncated_normal"));
  d = str(self.getattr("distribution"));
  if (d != "uniform" && d != "truncated_normal" && d != "untruncated_normal") {
    throw ValueError("Argument `distribution` should be one of ('uniform', 'truncated_normal', 'untruncated_normal'). "
                     "Received: distribution=" + d);
  }
}

/// A VarianceScaling preset (Glorot, He, LeCun): its scale, mode and distribution fixed.
InitializerClass preset(const char* name, double scale, const char* mode, const char* distribution) {
  return {name, {{"seed", Value()}},
          [=](const Value& self, const Value& shape, const std::vector<int64_t>& dims, DType dtype) {
            self.setattr("scale", Value(scale));
            self.setattr("mode", Value(mode));
            self.setattr("distribution", Value(distribution));
            return variance_scaling(self, shape, dims, dtype);
          }};
}

Value orthogonal(const Value& self, const Value& shape, const std::vector<int64_t>& dims, DType dtype) {
  if (dims.size() < 2) {
    throw ValueError("The tensor to initialize must be at least two-dimensional. Received: shape=" + str(shape) +
                     " of rank " + std::to_string(dims.size()) + ".");
  }
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < dims.size(); ++i) rows *= dims[i];
  int64_t cols = dims.back();
  Value flat = rows < cols ? Value::list({Value(cols), Value(rows)}) : Value::list({Value(rows), Value(cols)});
  Value a = normal(self, flat, 0.0, 1.0, dtype, false);
  Value qr = tf::api::qr({a}, {{"full_matrices", Value(false)}});
  // tf.linalg.qr returns a namedtuple (q, r), not a plain tuple.
  Value q = getitem(qr, Value(0));
  Value d = tf::api::linalg_diag_part({getitem(qr, Value(1))}, {});
  q = tf::api::multiply({q, tf::api::sign({d}, {})}, {});
  if (rows < cols) q = tf::transpose(q);
  return tf::api::multiply({self.getattr("gain"), tf::reshape(q, shape)}, {});
}

const std::vector<InitializerClass>& classes() {
  static const std::vector<InitializerClass> table = [] {
    std::vector<InitializerClass> t;
    t.push_back({"Zeros", {}, [](const Value&, const Value& shape, const std::vector<int64_t>&, DType dtype) {
                   return tf::zeros(shape, dtype);
                 }});
    t.push_back({"Ones", {}, [](const Value&, const Value& shape, const std::vector<int64_t>&, DType dtype) {
                   return tf::ones(shape, dtype);
                 }});
    t.push_back({"Constant", {{"value", Value(0)}},
                 [](const Value& self, const Value& shape, const std::vector<int64_t>&, DType dtype) {
                   return tf::api::fill({shape, Value(to_tensor(self.getattr("value"), dtype))}, {});
                 }});
    t.push_back({"RandomUniform", {{"minval", Value(-0.05)}, {"maxval", Value(0.05)}, {"seed", Value()}},
                 [](const Value& self, const Value& shape, const std::vector<int64_t>&, DType dtype) {
                   return uniform(self, shape, arg(self, "minval"), arg(self, "maxval"), dtype);
                 }});
    t.push_back({"RandomNormal", {{"mean", Value(0.0)}, {"stddev", Value(0.05)}, {"seed", Value()}},
                 [](const Value& self, const Value& shape, const std::vector<int64_t>&, DType dtype) {
                   return normal(self, shape, arg(self, "mean"), arg(self, "stddev"), dtype, false);
                 }});
    t.push_back({"TruncatedNormal", {{"mean", Value(0.0)}, {"stddev", Value(0.05)}, {"seed", Value()}},
                 [](const Value& self, const Value& shape, const std::vector<int64_t>&, DType dtype) {
                   return normal(self, shape, arg(self, "mean"), arg(self, "stddev"), dtype, true);
                 }});
    t.push_back({"VarianceScaling",
                 {{"scale", Value(1.0)}, {"mode", Value("fan_in")}, {"distribution", Value("truncated_normal")},
                  {"seed", Value()}},
                 variance_scaling});
    t.push_back(preset("GlorotUniform", 1.0, "fan_avg", "uniform"));
    t.push_back(preset("GlorotNormal", 1.0, "fan_avg", "truncated_normal"));
    t.push_back(preset("HeUniform", 2.0, "fan_in", "uniform"));
    t.push_back(preset("HeNormal", 2.0, "fan_in", "truncated_normal"));
    t.push_back(preset("LecunUniform", 1.0, "fan_in", "uniform"));
    t.push_back(preset("LecunNormal", 1.0, "fan_in", "truncated_normal"));
    t.push_back({"Orthogonal", {{"gain", Value(1.0)}, {"seed", Value()}}, orthogonal});
    t.push_back({"Identity", {{"gain", Value(1.0)}},
                 [](const Value& self, const Value& shape, const std::vector<int64_t>& dims, DType dtype) {
                   if (dims.size() != 2) {
                     throw ValueError("Identity matrix initializer can only be used for 2D matrices. Received: "
                                      "shape=" + str(shape) + " of rank " + std::to_string(dims.size()) + ".");
                   }
                   Value eye = tf::api::eye({Value(dims[0]), Value(dims[1])}, {{"dtype", dtype_value(dtype)}});
                   return tf::api::multiply({self.getattr("gain"), eye}, {});
                 }});
    return t;
  }();
  return table;
}

Value initializer_base() {
  static const Value cls = make_class(
      "Initializer", {},
      {native_method("Initializer.get_config", "get_config", {{"self", std::nullopt}},
                     [](const std::vector<Value>&) -> Value { return Value::dict(); })});
  return cls;
}

Value make_initializer_class(const InitializerClass& c) {
  std::vector<Param> init{{"self", std::nullopt}};
  for (const Param& p : c.params) init.push_back(p);
  std::vector<std::string> names;
  for (const Param& p : c.params) names.push_back(p.name);
  std::vector<std::pair<std::string, Value>> attrs;
  std::string cls_name = c.name;
  attrs.push_back(native_method(cls_name + ".__init__", "__init__", init, [names, cls_name](const std::vector<Value>& a) -> Value {
    for (size_t i = 0; i < names.size(); ++i) a[0].setattr(names[i], a[i + 1]);
    if (cls_name == "VarianceScaling") check_variance_scaling(a[0]);
    return Value();
  }));
  Draw draw = c.draw;
  attrs.push_back(native_method(cls_name + ".__call__", "__call__",
                                {{"self", std::nullopt}, {"shape", std::nullopt}, {"dtype", Value()},
                                 {"kwargs", std::nullopt, ParamKind::VarKeyword}},
                                [draw](const std::vector<Value>& a) -> Value {
                                  std::vector<int64_t> dims;
                                  for (const Value& d : iterate(a[1])) dims.push_back(d.as_int());
                                  DType dtype = a[2].is_none() ? DType::Float32 : require_dtype(a[2]);
                                  return draw(a[0], a[1], dims, dtype);
                                }));
  attrs.push_back(native_method(cls_name + ".get_config", "get_config", {{"self", std::nullopt}},
                                [names](const std::vector<Value>& a) -> Value {
                                  std::vector<std::pair<Value, Value>> items;
                                  for (const std::string& n : names) items.emplace_back(Value(n), a[0].getattr(n));
                                  return Value::dict(std::move(items));
                                }));
  return make_class(c.name, {initializer_base()}, std::move(attrs));
}

}  // namespace

const Value& initializer_class(const std::string& name) {
  static const std::vector<std::pair<std::string, Value>> made = [] {
    std::vector<std::pair<std::string, Value>> m;
    for (const InitializerClass& c : classes()) m.emplace_back(c.name, make_initializer_class(c));
    return m;
  }();
  for (const auto& [n, cls] : made) {
    if (n == name) return cls;
  }
  static const Value none;
  return none;
}

namespace {

[[noreturn]] void uninterpretable(const Value& identifier) {
  throw ValueError("Could not interpret initializer identifier: " + str(identifier));
}

}  // namespace

Value get_initializer(const Value& identifier) {
  if (identifier.is_none()) return identifier;
  if (identifier.is_str()) {
    // Keras accepts the class name and its snake_case alias.
    for (const InitializerClass& c : classes()) {
      if (identifier.as_str() == c.name || identifier.as_str() == snake_case(c.name)) {
        return initializer_class(c.name)({}, {});
      }
    }
    if (identifier.as_str() == "uniform") return initializer_class("RandomUniform")({}, {});
    if (identifier.as_str() == "normal") return initializer_class("RandomNormal")({}, {});
    uninterpretable(identifier);
  }
  if (identifier.is_dict()) {
    Value name, config = Value::dict();
    for (const auto& [k, v] : identifier.as_dict().entries) {
      if (k.is_str() && k.as_str() == "class_name") name = v;
      if (k.is_str() && k.as_str() == "config") config = v;
    }
    if (!name.is_str() || initializer_class(name.as_str()).is_none()) uninterpretable(identifier);
    Kwargs kwargs;
    for (const auto& [k, v] : config.as_dict().entries) kwargs.emplace_back(k.as_str(), v);
    return initializer_class(name.as_str())({}, std::move(kwargs));
  }
  if (identifier.is_callable() || identifier.is_object()) return identifier;
  uninterpretable(identifier);
}

Tensor initial_value(const Value& identifier, const std::vector<int64_t>& shape, DType dtype) {
  Value init = get_initializer(identifier);
  if (init.is_none()) uninterpretable(identifier);
  std::vector<Value> dims;
  for (int64_t d : shape) dims.emplace_back(static_cast<long long>(d));
  EagerScope init_scope;
  Value v = init({Value::tuple(std::move(dims))}, {{"dtype", dtype_value(dtype)}});
  return to_tensor(v, dtype).value();
}

}  // namespace ag::keras

namespace ag::tf::api {

// The table rows (tf_functions.def) of the classes above.
const Value& keras_initializers_Zeros() { return keras::initializer_class("Zeros"); }
const Value& keras_initializers_Ones() { return keras::initializer_class("Ones"); }
const Value& keras_initializers_Constant() { return keras::initializer_class("Constant"); }
const Value& keras_initializers_RandomUniform() { return keras::initializer_class("RandomUniform"); }
const Value& keras_initializers_RandomNormal() { return keras::initializer_class("RandomNormal"); }
const Value& keras_initializers_TruncatedNormal() { return keras::initializer_class("TruncatedNormal"); }
const Value& keras_initializers_VarianceScaling() { return keras::initializer_class("VarianceScaling"); }
const Value& keras_initializers_GlorotUniform() { return keras::initializer_class("GlorotUniform"); }
const Value& keras_initializers_GlorotNormal() { return keras::initializer_class("GlorotNormal"); }
const Value& keras_initializers_HeUniform() { return keras::initializer_class("HeUniform"); }
const Value& keras_initializers_HeNormal() { return keras::initializer_class("HeNormal"); }
const Value& keras_initializers_LecunUniform() { return keras::initializer_class("LecunUniform"); }
const Value& keras_initializers_LecunNormal() { return keras::initializer_class("LecunNormal"); }
const Value& keras_initializers_Orthogonal() { return keras::initializer_class("Orthogonal"); }
const Value& keras_initializers_Identity() { return keras::initializer_class("Identity"); }

}  // namespace ag::tf::api
