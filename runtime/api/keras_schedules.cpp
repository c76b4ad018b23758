// tf.keras.optimizers.schedules: learning rates as functions of the step
// (Keras 2's learning_rate_schedule.py), classes of the object model under a
// LearningRateSchedule base. An optimizer given one calls it with its
// `iterations` at every step (runtime/api/keras_optimizers.cpp). The values
// are computed in the initial learning rate's dtype with Keras's op order.
#include <cmath>
#include <string>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/core/error.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"

namespace ag {
namespace {

/// A schedule's number as a tensor of `dtype` (tf.cast(self.x, dtype)).
Value as(const Value& self, const char* name, DType dtype) { return Value(to_tensor(self.getattr(name), dtype)); }

DType initial_dtype(const Value& self) { return to_tensor(self.getattr("initial_learning_rate")).dtype(); }

const Value& schedule_class() {
  static const Value cls = make_class("LearningRateSchedule", {}, {});
  return cls;
}

Param self_param() { return {"self", std::nullopt}; }

// ---- ExponentialDecay: lr0 * rate^(step / decay_steps), the exponent
// floored when staircase.

Value make_exponential_decay() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method("ExponentialDecay.__init__", "__init__",
                                {self_param(), {"initial_learning_rate", std::nullopt}, {"decay_steps", std::nullopt},
                                 {"decay_rate", std::nullopt}, {"staircase", Value(false)}, {"name", Value()}},
                                [](const std::vector<Value>& a) -> Value {
                                  const Value& self = a[0];
                                  self.setattr("initial_learning_rate", a[1]);
                                  self.setattr("decay_steps", a[2]);
                                  self.setattr("decay_rate", a[3]);
                                  self.setattr("staircase", a[4]);
                                  self.setattr("name", a[5]);
                                  return Value();
                                }));
  attrs.push_back(native_method("ExponentialDecay.__call__", "__call__", {self_param(), {"step", std::nullopt}},
                                [](const std::vector<Value>& a) -> Value {
                                  const Value& self = a[0];
                                  DType dt = initial_dtype(self);
                                  Value p = tf::cast(a[1], dt) / as(self, "decay_steps", dt);
                                  if (truthy(self.getattr("staircase"))) p = tf::floor(p);
                                  return as(self, "initial_learning_rate", dt) * tf::pow(as(self, "decay_rate", dt), p);
                                }));
  return make_class("ExponentialDecay", {schedule_class()}, std::move(attrs));
}

// ---- PiecewiseConstantDecay: values[i] on (boundaries[i-1], boundaries[i]].

Value make_piecewise_constant_decay() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method("PiecewiseConstantDecay.__init__", "__init__",
                                {self_param(), {"boundaries", std::nullopt}, {"values", std::nullopt}, {"name", Value()}},
                                [](const std::vector<Value>& a) -> Value {
                                  const Value& self = a[0];
                                  if (iterate(a[1]).size() + 1 != iterate(a[2]).size()) {
                                    throw ValueError("The length of boundaries should be 1 less than the length of values");
                                  }
                                  self.setattr("boundaries", a[1]);
                                  self.setattr("values", a[2]);
                                  self.setattr("name", a[3]);
                                  return Value();
                                }));
  attrs.push_back(native_method("PiecewiseConstantDecay.__call__", "__call__", {self_param(), {"step", std::nullopt}},
                                [](const std::vector<Value>& a) -> Value {
                                  const Value& self = a[0];
                                  TensorHandle step = to_tensor(a[1]);
                                  std::vector<Value> bounds = iterate(self.getattr("boundaries"));
                                  std::vector<Value> values = iterate(self.getattr("values"));
                                  DType dt = to_tensor(values[0]).dtype();
                                  // Past each boundary the next value (tf.case over exclusive ranges).
                                  Value out(to_tensor(values[0], dt));
                                  for (size_t i = 0; i < bounds.size(); ++i) {
                                    Value past = tf::greater(Value(step), Value(to_tensor(bounds[i], step.dtype())));
                                    out = tf::where(past, Value(to_tensor(values[i + 1], dt)), out);
                                  }
                                  return out;
                                }));
  return make_class("PiecewiseConstantDecay", {schedule_class()}, std::move(attrs));
}

// ---- CosineDecay: lr0 * ((1 - alpha) * 0.5 (1 + cos(pi min(step, T) / T)) + alpha).

Value make_cosine_decay() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method("CosineDecay.__init__", "__init__",
                                {self_param(), {"initial_learning_rate", std::nullopt}, {"decay_steps", std::nullopt},
                                 {"alpha", Value(0.0)}, {"name", Value()}, {"warmup_target", Value()},
                                 {"warmup_steps", Value(0)}},
                                [](const std::vector<Value>& a) -> Value {
                                  const Value& self = a[0];
                                  if (!a[5].is_none()) {
                                    throw NotImplementedError("agc: CosineDecay's warmup is not supported yet");
                                  }
                                  self.setattr("initial_learning_rate", a[1]);
                                  self.setattr("decay_steps", a[2]);
                                  self.setattr("alpha", a[3]);
                                  self.setattr("name", a[4]);
                                  return Value();
                                }));
  attrs.push_back(native_method("CosineDecay.__call__", "__call__", {self_param(), {"step", std::nullopt}},
                                [](const std::vector<Value>& a) -> Value {
                                  const Value& self = a[0];
                                  DType dt = initial_dtype(self);
                                  Value steps = as(self, "decay_steps", dt);
                                  Value fraction = tf::minimum(tf::cast(a[1], dt), steps) / steps;
                                  Value cosine = Value(0.5) * (Value(1.0) + tf::cos(Value(to_tensor(Value(M_PI), dt)) * fraction));
                                  Value alpha = as(self, "alpha", dt);
                                  Value decayed = (Value(1.0) - alpha) * cosine + alpha;
                                  return as(self, "initial_learning_rate", dt) * decayed;
                                }));
  return make_class("CosineDecay", {schedule_class()}, std::move(attrs));
}

}  // namespace

const Value& tf::api::keras_optimizers_schedules_LearningRateSchedule() { return schedule_class(); }

const Value& tf::api::keras_optimizers_schedules_ExponentialDecay() {
  static const Value cls = make_exponential_decay();
  return cls;
}

const Value& tf::api::keras_optimizers_schedules_PiecewiseConstantDecay() {
  static const Value cls = make_piecewise_constant_decay();
  return cls;
}

const Value& tf::api::keras_optimizers_schedules_CosineDecay() {
  static const Value cls = make_cosine_decay();
  return cls;
}

}  // namespace ag
