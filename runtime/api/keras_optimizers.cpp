// tf.keras.optimizers.SGD and Adam as Keras 2.11-2.15 has them (the seeds'
// era: keras/optimizers/{optimizer,sgd,adam}.py; GRADIENTS.md section 4),
// classes of the object model under a shared Optimizer base:
//  - state in variables: `iterations` (int64, +1 per apply_gradients that
//    updates something), `learning_rate` (a float32 variable, not trainable,
//    unless it is a schedule: then `schedule(iterations)` at each step), and
//    slots per model variable ("m", "v", ...; zeros like the variable, named
//    "m/<variable>"), made by build() on the first apply_gradients for all the
//    variables passed (before None gradients are filtered, as Keras does);
//  - apply_gradients filters None gradients (Keras's warning, or its
//    ValueError when none is left), clips (clipnorm / clipvalue /
//    global_clipnorm), applies weight decay, calls the class's
//    `_update_step(gradient, variable)` per pair (Keras's formulas, in the
//    variable's dtype), then increments `iterations`;
//  - minimize(loss, var_list, tape=None) computes the gradients first.
// Inside a tf.function the slots are created by the first trace and owned by
// the function (runtime/value/variable_value.h), so a second optimizer
// passed to the same function fails with TF's singleton-variable error.
#include <cmath>
#include <string>
#include <vector>

#include "runtime/api/checkpoint.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/function/function.h"
#include "runtime/ops/eager.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/variable_value.h"

namespace ag {
namespace {

using variable_value::AssignOp;

Value read(const Value& var) { return Value(variable_value::read(var)); }


double float_arg(const Value& v, const char* name) {
  if (v.is_int() || v.is_float()) return v.as_float();
  if (v.is_tensor() && !v.as_tensor().symbolic() && v.as_tensor().shape().rank() == 0) {
    return to_tensor(v, DType::Float64).value().scalar_value<double>();
  }
  throw TypeError(std::string("`") + name + "` must be a float, got " + repr(v));
}

/// The index of `var` among the variables `self` was built for, or -1.
int built_index(const Value& self, const Value& var) {
  const std::vector<Value>& built = self.getattr("_agc_built").items();
  for (size_t i = 0; i < built.size(); ++i) {
    if (built[i].as_variable()->id() == var.as_variable()->id()) return static_cast<int>(i);
  }
  return -1;
}

/// Slot `slot` of model variable `var` (Keras's `self._momentums[index]`...).
Value slot(const Value& self, const std::string& slot, const Value& var) {
  const std::vector<Value>& names = self.getattr("_agc_slot_names").items();
  int index = built_index(self, var);
  for (size_t s = 0; s < names.size(); ++s) {
    if (names[s].as_str() == slot) return self.getattr("_agc_slots").items()[s].items()[static_cast<size_t>(index)];
  }
  throw InternalError("optimizer slot '" + slot + "' missing");
}

/// The learning rate of this step, in `dtype`: the variable's value, or the
/// schedule's at the current iteration.
Value current_learning_rate(const Value& self, DType dtype) {
  Value lr = self.getattr("_learning_rate");
  if (!lr.is_variable()) lr = lr({read(self.getattr("_iterations"))}, {});
  return tf::cast(lr.is_variable() ? read(lr) : lr, dtype);
}

/// A Python float hyperparameter as a tensor of `dtype` (tf.cast(self.beta_1, dtype)).
Value hyper(const Value& self, const char* name, DType dtype) { return Value(to_tensor(self.getattr(name), dtype)); }

DType variable_dtype(const Value& var) { return var.as_variable()->dtype(); }

// ---- Optimizer

/// The slot names, in groups: build() makes a group's slots variable by
/// variable, one group after the other, as the class's Keras build() does.
using SlotGroups = std::vector<std::vector<std::string>>;

/// Keras's __init__ of the base class: name, clipping, weight decay, the
/// iteration counter and the learning rate.
void init_optimizer(const Value& self, const std::string& name, const Value& learning_rate, const Value& weight_decay,
                    const Value& clipnorm, const Value& clipvalue, const Value& global_clipnorm, const Value& use_ema,
                    const SlotGroups& slot_groups) {
  int set = !clipnorm.is_none() + !clipvalue.is_none() + !global_clipnorm.is_none();
  if (set > 1) {
    throw ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: clipnorm=" +
                     str(clipnorm) + ", clipvalue=" + str(clipvalue) + ", global_clipnorm=" + str(global_clipnorm) + ".");
  }
  if (truthy(use_ema)) throw NotImplementedError("agc: use_ema (an exponential moving average of the weights) is not supported yet");
  self.setattr("name", Value(name));
  self.setattr("weight_decay", weight_decay);
  self.setattr("clipnorm", clipnorm);
  self.setattr("clipvalue", clipvalue);
  self.setattr("global_clipnorm", global_clipnorm);
  self.setattr("_iterations", variable_value::create(Value(Tensor::scalar<int64_t>(0)), DType::Int64, Value("iteration"),
                                                     Value(), false));
  // A schedule (callable) stays as it is; a number becomes a variable.
  Value lr = learning_rate;
  if (!lr.is_callable() && !lr.is_object()) {
    lr = variable_value::create(Value(Tensor::scalar<float>(static_cast<float>(float_arg(learning_rate, "learning_rate")))),
                                DType::Float32, Value("learning_rate"), Value(), false);
  }
  self.setattr("_learning_rate", lr);
  std::vector<Value> names, groups;
  for (const auto& group : slot_groups) {
    for (const std::string& n : group) names.emplace_back(n);
    groups.emplace_back(static_cast<int64_t>(group.size()));
  }
  self.setattr("_agc_slot_names", Value::list(std::move(names)));
  self.setattr("_agc_slot_groups", Value::list(std::move(groups)));
  self.setattr("_agc_built", Value::list());
  self.setattr("_agc_slots", Value::list());
  self.setattr("_variables", Value::list({self.getattr("_iterations")}));
}

/// build(var_list): the slots of every variable, once (Keras builds on the
/// first apply_gradients and never again).
Value build(const std::vector<Value>& a) {
  const Value& self = a[0];
  if (!self.getattr("_agc_built").items().empty()) return Value();
  std::vector<Value> vars = iterate(a[1]);
  const std::vector<Value>& names = self.getattr("_agc_slot_names").items();
  std::vector<std::vector<Value>> per_slot(names.size());
  std::vector<Value>& all = self.getattr("_variables").items();
  // Zeros, or a class's own start (Adagrad's initial_accumulator_value).
  Value start = self.hasattr("_agc_slot_initial") ? self.getattr("_agc_slot_initial") : Value(0.0);
  // Keras's build() loops over the variables once per group of slots, making
  // each variable's slots of the group in turn (Adam: m0 v0 m1 v1 ..., then
  // vhat0 vhat1 ...; RMSprop: one group per slot). That order numbers
  // `optimizer.variables` and the checkpoint keys `optimizer/_variables/N`.
  size_t first = 0;
  for (const Value& group : self.getattr("_agc_slot_groups").items()) {
    const size_t size = static_cast<size_t>(group.as_int());
    for (const Value& var : vars) {
      const Variable& v = *var.as_variable();
      for (size_t s = first; s < first + size; ++s) {
        // Made eagerly (a slot's initial value is lifted out of any trace).
        Tensor initial = Tensor::zeros(v.dtype(), v.read().shape());
        if (start.as_float() != 0.0) {
          Tensor pair[] = {initial, Tensor::scalar<double>(start.as_float())};
          pair[1] = run_op1(op::Cast, std::span<const Tensor>(&pair[1], 1), Attrs{{"SrcT", DType::Float64}, {"DstT", v.dtype()}});
          initial = run_op1(op::AddV2, pair);
        }
        per_slot[s].push_back(variable_value::create(Value(initial), v.dtype(), Value(names[s].as_str() + "/" + v.name()),
                                                     Value(), false));
        all.push_back(per_slot[s].back());
      }
    }
    first += size;
  }
  std::vector<Value> slots;
  for (auto& per_var : per_slot) slots.push_back(Value::list(std::move(per_var)));
  self.setattr("_agc_built", Value::list(std::move(vars)));
  self.setattr("_agc_slots", Value::list(std::move(slots)));
  checkpoint_restore_deferred();
  return Value();
}

/// tf.clip_by_norm(g, clip_norm): g scaled down to an L2 norm of at most clip_norm.
Value clip_by_norm(const Value& g, const Value& clip_norm) {
  Value l2sum = tf::reduce_sum(g * g, Value(), true);
  Value positive = tf::greater(l2sum, Value(0.0));
  Value safe = tf::where(positive, l2sum, tf::ones_like(l2sum));
  Value l2norm = tf::where(positive, tf::sqrt(safe), l2sum);
  return g * clip_norm / tf::maximum(l2norm, clip_norm);
}

/// Keras's _clip_gradients.
std::vector<Value> clip_gradients(const Value& self, std::vector<Value> grads) {
  Value clipnorm = self.getattr("clipnorm"), clipvalue = self.getattr("clipvalue");
  Value global = self.getattr("global_clipnorm");
  if (!clipnorm.is_none()) {
    for (Value& g : grads) g = clip_by_norm(g, tf::cast(clipnorm, g.as_tensor().dtype()));
  } else if (!clipvalue.is_none()) {
    for (Value& g : grads) {
      Value c = tf::cast(clipvalue, g.as_tensor().dtype());
      g = tf::minimum(tf::maximum(g, -c), c);
    }
  } else if (!global.is_none()) {
    // tf.clip_by_global_norm: every gradient times clip / max(global norm, clip).
    Value total;
    for (const Value& g : grads) {
      Value s = tf::reduce_sum(g * g);
      total = total.is_none() ? s : total + s;
    }
    Value norm = tf::sqrt(total);
    for (Value& g : grads) {
      Value c = tf::cast(global, g.as_tensor().dtype());
      g = g * c / tf::maximum(tf::cast(norm, g.as_tensor().dtype()), c);
    }
  }
  return grads;
}

std::string names_list(const std::vector<Value>& vars) {
  std::string out = "[";
  for (size_t i = 0; i < vars.size(); ++i) out += (i ? ", '" : "'") + str(vars[i].getattr("name")) + "'";
  return out + "]";
}

/// apply_gradients(grads_and_vars, name=None, skip_gradients_aggregation=False).
Value apply_gradients(const std::vector<Value>& a) {
  const Value& self = a[0];
  std::vector<Value> pairs = iterate(a[1]);
  Value iterations = self.getattr("_iterations");
  if (pairs.empty()) return iterations;
  std::vector<Value> grads, vars;
  for (const Value& p : pairs) {
    std::vector<Value> gv = iterate(p);
    if (gv.size() != 2) throw ValueError("grads_and_vars must be a list of (gradient, variable) pairs, got " + repr(p));
    if (!gv[1].is_variable()) {
      throw TypeError("apply_gradients expects tf.Variables to update, got " + repr(gv[1]));
    }
    grads.push_back(gv[0]);
    vars.push_back(gv[1]);
  }
  self.getattr("build")({Value::list(vars)}, {});
  // Keras's filter_empty_gradients.
  std::vector<Value> kept_grads, kept_vars, missing;
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i].is_none()) {
      missing.push_back(vars[i]);
    } else {
      kept_grads.push_back(grads[i]);
      kept_vars.push_back(vars[i]);
    }
  }
  if (kept_grads.empty()) {
    std::string provided = "(";
    for (size_t i = 0; i < pairs.size(); ++i) {
      provided += "(" + repr(grads[i]) + ", " + repr(vars[i]) + ")" + (pairs.size() == 1 ? "," : i + 1 < pairs.size() ? ", " : "");
    }
    throw ValueError("No gradients provided for any variable: (" + names_list(vars) + ",). Provided `grads_and_vars` is " +
                     provided + ").");
  }
  if (!missing.empty()) {
    tf_warning("Gradients do not exist for variables " + names_list(missing) +
               " when minimizing the loss. If you're using `model.compile()`, did you forget to provide a `loss` "
               "argument?");
  }
  for (Value& g : kept_grads) {
    if (!g.is_tensor()) g = Value(to_tensor(g));
  }
  kept_grads = clip_gradients(self, std::move(kept_grads));
  // Keras's _apply_weight_decay: w -= w * weight_decay * lr.
  Value decay = self.getattr("weight_decay");
  if (!decay.is_none() && float_arg(decay, "weight_decay") != 0.0) {
    for (const Value& v : kept_vars) {
      DType dt = variable_dtype(v);
      variable_value::assign(v, read(v) * hyper(self, "weight_decay", dt) * current_learning_rate(self, dt), AssignOp::Sub);
    }
  }
  Value update = self.getattr("_update_step");
  for (size_t i = 0; i < kept_grads.size(); ++i) {
    if (built_index(self, kept_vars[i]) < 0) {
      throw KeyError("The optimizer cannot recognize variable " + str(kept_vars[i].getattr("name")) +
                     ". This usually means you are trying to call the optimizer to update different parts of the "
                     "model separately. Please call `optimizer.build(variables)` with the full list of trainable "
                     "variables before the training loop or use legacy optimizer `tf.keras.optimizers.legacy." +
                     self.type_name() + ".");
    }
    update({kept_grads[i], kept_vars[i]}, {});
  }
  return variable_value::assign(iterations, Value(Tensor::scalar<int64_t>(1)), AssignOp::Add);
}

/// minimize(loss, var_list, tape=None): gradients from `tape`, or from a
/// tape around calling `loss` when it is callable.
Value minimize(const std::vector<Value>& a) {
  const Value& self = a[0];
  Value loss = a[1], var_list = a[2], tape = a[3];
  if (!loss.is_callable() && !loss.is_object() && tape.is_none()) {
    throw ValueError("`tape` is required when a `Tensor` loss is passed. Received: loss=" + str(loss) +
                     ", tape=" + str(tape) + ".");
  }
  if (tape.is_none()) {
    tape = tf::api::GradientTape()({}, {});
    tape.getattr("__enter__")({}, {});
    try {
      loss = loss({}, {});
    } catch (...) {
      tape.getattr("__exit__")({Value(), Value(), Value()}, {});
      throw;
    }
    tape.getattr("__exit__")({Value(), Value(), Value()}, {});
  }
  if (var_list.is_callable()) var_list = var_list({}, {});
  Value grads = tape.getattr("gradient")({loss, var_list}, {});
  std::vector<Value> pairs;
  std::vector<Value> g = iterate(grads), v = iterate(var_list);
  for (size_t i = 0; i < v.size(); ++i) pairs.push_back(Value::tuple({g[i], v[i]}));
  return self.getattr("apply_gradients")({Value::list(std::move(pairs))}, {});
}

const Value& optimizer_class() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    attrs.push_back(native_method("Optimizer.build", "build", {{"self", std::nullopt}, {"var_list", std::nullopt}}, build));
    attrs.push_back(native_method("Optimizer.apply_gradients", "apply_gradients",
                                  {{"self", std::nullopt}, {"grads_and_vars", std::nullopt}, {"name", Value()},
                                   {"skip_gradients_aggregation", Value(false)}},
                                  apply_gradients));
    attrs.push_back(native_method("Optimizer.minimize", "minimize",
                                  {{"self", std::nullopt}, {"loss", std::nullopt}, {"var_list", std::nullopt},
                                   {"tape", Value()}},
                                  minimize));
    auto property = [](const char* name, Value (*get)(const Value&)) {
      return std::make_pair(std::string(name), make_property(Value::callable(name, [get](std::vector<Value> args, Kwargs) {
                              return get(args.at(0));
                            })));
    };
    attrs.push_back(property("iterations", [](const Value& self) { return self.getattr("_iterations"); }));
    attrs.push_back(property("learning_rate", [](const Value& self) {
      Value lr = self.getattr("_learning_rate");
      return lr.is_variable() ? lr : current_learning_rate(self, DType::Float32);
    }));
    attrs.push_back(property("variables", [](const Value& self) { return Value::list(self.getattr("_variables").items()); }));
    return make_class("Optimizer", {}, std::move(attrs));
  }();
  return cls;
}

/// The keywords every Keras 2 optimizer takes after its own (AdamW has
/// weight_decay among its own).
std::vector<Param> with_common_params(std::vector<Param> own, const char* name, bool with_weight_decay = true) {
  std::vector<Param> common = {
      {"weight_decay", Value()},      {"clipnorm", Value()},         {"clipvalue", Value()},
      {"global_clipnorm", Value()},   {"use_ema", Value(false)},     {"ema_momentum", Value(0.99)},
      {"ema_overwrite_frequency", Value()}, {"jit_compile", Value(true)}, {"name", Value(name)},
  };
  own.insert(own.end(), common.begin() + (with_weight_decay ? 0 : 1), common.end());
  return own;
}

/// The common keywords' values, from index `first` of a bound __init__ call.
void init_common(const Value& self, const std::vector<Value>& a, size_t first, const Value& learning_rate,
                 const SlotGroups& slots) {
  init_optimizer(self, str(a[first + 8]), learning_rate, a[first], a[first + 1], a[first + 2], a[first + 3],
                 a[first + 4], slots);
}

// ---- SGD: w -= lr g; with momentum m = momentum m - lr g, then w += m
// (nesterov: w += momentum m - lr g).

Value make_sgd_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method(
      "SGD.__init__", "__init__",
      with_common_params({{"self", std::nullopt}, {"learning_rate", Value(0.01)}, {"momentum", Value(0.0)},
                          {"nesterov", Value(false)}},
                         "SGD"),
      [](const std::vector<Value>& a) -> Value {
        const Value& self = a[0];
        double momentum = float_arg(a[2], "momentum");
        if (momentum < 0 || momentum > 1) throw ValueError("`momentum` must be between [0, 1].");
        // Keras 2 keeps a momentum slot for every variable, momentum or not.
        init_common(self, a, 4, a[1], {{"m"}});
        self.setattr("momentum", a[2]);
        self.setattr("nesterov", a[3]);
        return Value();
      }));
  attrs.push_back(native_method("SGD._update_step", "_update_step",
                                {{"self", std::nullopt}, {"gradient", std::nullopt}, {"variable", std::nullopt}},
                                [](const std::vector<Value>& a) -> Value {
                                  const Value &self = a[0], &g = a[1], &var = a[2];
                                  DType dt = variable_dtype(var);
                                  Value lr = current_learning_rate(self, dt);
                                  Value momentum = hyper(self, "momentum", dt);
                                  Value m = slot(self, "m", var);
                                  variable_value::assign(m, -g * lr + read(m) * momentum, AssignOp::Assign);
                                  if (truthy(self.getattr("nesterov"))) {
                                    variable_value::assign(var, -g * lr + read(m) * momentum, AssignOp::Add);
                                  } else {
                                    variable_value::assign(var, read(m), AssignOp::Add);
                                  }
                                  return Value();
                                }));
  return make_class("SGD", {optimizer_class()}, std::move(attrs));
}

// ---- Adam: alpha = lr sqrt(1 - b2^t) / (1 - b1^t); m += (g - m)(1 - b1);
// v += (g^2 - v)(1 - b2); w -= m alpha / (sqrt(v) + epsilon); amsgrad keeps
// the largest v.

Value make_adam_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method(
      "Adam.__init__", "__init__",
      with_common_params({{"self", std::nullopt}, {"learning_rate", Value(0.001)}, {"beta_1", Value(0.9)},
                          {"beta_2", Value(0.999)}, {"epsilon", Value(1e-7)}, {"amsgrad", Value(false)}},
                         "Adam"),
      [](const std::vector<Value>& a) -> Value {
        const Value& self = a[0];
        bool amsgrad = truthy(a[5]);
        SlotGroups slots{{"m", "v"}};
        if (amsgrad) slots.push_back({"vhat"});
        init_common(self, a, 6, a[1], slots);
        self.setattr("beta_1", Value(float_arg(a[2], "beta_1")));
        self.setattr("beta_2", Value(float_arg(a[3], "beta_2")));
        self.setattr("epsilon", Value(float_arg(a[4], "epsilon")));
        self.setattr("amsgrad", Value(amsgrad));
        return Value();
      }));
  attrs.push_back(native_method(
      "Adam._update_step", "_update_step",
      {{"self", std::nullopt}, {"gradient", std::nullopt}, {"variable", std::nullopt}},
      [](const std::vector<Value>& a) -> Value {
        const Value &self = a[0], &g = a[1], &var = a[2];
        DType dt = variable_dtype(var);
        Value lr = current_learning_rate(self, dt);
        Value step = tf::cast(read(self.getattr("_iterations")) + Value(1), dt);
        Value beta_1_power = tf::pow(hyper(self, "beta_1", dt), step);
        Value beta_2_power = tf::pow(hyper(self, "beta_2", dt), step);
        Value m = slot(self, "m", var), v = slot(self, "v", var);
        Value alpha = lr * tf::sqrt(Value(1) - beta_2_power) / (Value(1) - beta_1_power);
        double b1 = self.getattr("beta_1").as_float(), b2 = self.getattr("beta_2").as_float();
        variable_value::assign(m, (g - read(m)) * Value(1 - b1), AssignOp::Add);
        variable_value::assign(v, (tf::square(g) - read(v)) * Value(1 - b2), AssignOp::Add);
        Value velocity = read(v);
        if (truthy(self.getattr("amsgrad"))) {
          Value vhat = slot(self, "vhat", var);
          variable_value::assign(vhat, tf::maximum(read(vhat), velocity), AssignOp::Assign);
          velocity = read(vhat);
        }
        Value epsilon = hyper(self, "epsilon", dt);
        variable_value::assign(var, (read(m) * alpha) / (tf::sqrt(velocity) + epsilon), AssignOp::Sub);
        return Value();
      }));
  return make_class("Adam", {optimizer_class()}, std::move(attrs));
}

// ---- RMSprop: v = rho v + (1 - rho) g^2 (centered: minus the squared mean
// gradient); step = lr g rsqrt(v + epsilon), through momentum when set.

Value make_rmsprop_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method(
      "RMSprop.__init__", "__init__",
      with_common_params({{"self", std::nullopt}, {"learning_rate", Value(0.001)}, {"rho", Value(0.9)},
                          {"momentum", Value(0.0)}, {"epsilon", Value(1e-7)}, {"centered", Value(false)}},
                         "RMSprop"),
      [](const std::vector<Value>& a) -> Value {
        const Value& self = a[0];
        double momentum = float_arg(a[3], "momentum");
        bool centered = truthy(a[5]);
        SlotGroups slots{{"velocity"}};
        if (momentum > 0) slots.push_back({"momentum"});
        if (centered) slots.push_back({"average_gradient"});
        init_common(self, a, 6, a[1], slots);
        self.setattr("rho", Value(float_arg(a[2], "rho")));
        self.setattr("momentum", Value(momentum));
        self.setattr("epsilon", Value(float_arg(a[4], "epsilon")));
        self.setattr("centered", Value(centered));
        return Value();
      }));
  attrs.push_back(native_method(
      "RMSprop._update_step", "_update_step",
      {{"self", std::nullopt}, {"gradient", std::nullopt}, {"variable", std::nullopt}},
      [](const std::vector<Value>& a) -> Value {
        const Value &self = a[0], &g = a[1], &var = a[2];
        DType dt = variable_dtype(var);
        Value lr = current_learning_rate(self, dt);
        double rho = self.getattr("rho").as_float(), momentum = self.getattr("momentum").as_float();
        Value velocity = slot(self, "velocity", var);
        variable_value::assign(velocity, Value(rho) * read(velocity) + Value(1 - rho) * tf::square(g), AssignOp::Assign);
        Value epsilon = hyper(self, "epsilon", dt);
        Value denominator = read(velocity) + epsilon;
        if (truthy(self.getattr("centered"))) {
          Value average = slot(self, "average_gradient", var);
          variable_value::assign(average, Value(rho) * read(average) + Value(1 - rho) * g, AssignOp::Assign);
          denominator = read(velocity) - tf::square(read(average)) + epsilon;
        }
        Value increment = lr * g * tf::rsqrt(denominator);
        if (momentum > 0) {
          Value m = slot(self, "momentum", var);
          variable_value::assign(m, Value(momentum) * read(m) + increment, AssignOp::Assign);
          variable_value::assign(var, -read(m), AssignOp::Add);
        } else {
          variable_value::assign(var, -increment, AssignOp::Add);
        }
        return Value();
      }));
  return make_class("RMSprop", {optimizer_class()}, std::move(attrs));
}

// ---- Adagrad: a += g^2 (a starts at initial_accumulator_value);
// w -= lr g / sqrt(a + epsilon).

Value make_adagrad_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method(
      "Adagrad.__init__", "__init__",
      with_common_params({{"self", std::nullopt}, {"learning_rate", Value(0.001)},
                          {"initial_accumulator_value", Value(0.1)}, {"epsilon", Value(1e-7)}},
                         "Adagrad"),
      [](const std::vector<Value>& a) -> Value {
        const Value& self = a[0];
        init_common(self, a, 4, a[1], {{"accumulator"}});
        self.setattr("initial_accumulator_value", Value(float_arg(a[2], "initial_accumulator_value")));
        self.setattr("_agc_slot_initial", self.getattr("initial_accumulator_value"));
        self.setattr("epsilon", Value(float_arg(a[3], "epsilon")));
        return Value();
      }));
  attrs.push_back(native_method("Adagrad._update_step", "_update_step",
                                {{"self", std::nullopt}, {"gradient", std::nullopt}, {"variable", std::nullopt}},
                                [](const std::vector<Value>& a) -> Value {
                                  const Value &self = a[0], &g = a[1], &var = a[2];
                                  DType dt = variable_dtype(var);
                                  Value lr = current_learning_rate(self, dt);
                                  Value acc = slot(self, "accumulator", var);
                                  variable_value::assign(acc, g * g, AssignOp::Add);
                                  variable_value::assign(var, lr * g / tf::sqrt(read(acc) + hyper(self, "epsilon", dt)),
                                                         AssignOp::Sub);
                                  return Value();
                                }));
  return make_class("Adagrad", {optimizer_class()}, std::move(attrs));
}

// ---- AdamW: Adam with decoupled weight decay (w -= w wd lr before the step,
// the base class's weight decay), 0.004 by default.

Value make_adamw_class(const Value& adam) {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method(
      "AdamW.__init__", "__init__",
      with_common_params({{"self", std::nullopt}, {"learning_rate", Value(0.001)}, {"weight_decay", Value(0.004)},
                          {"beta_1", Value(0.9)}, {"beta_2", Value(0.999)}, {"epsilon", Value(1e-7)},
                          {"amsgrad", Value(false)}},
                         "AdamW", /*with_weight_decay=*/false),
      [adam](const std::vector<Value>& a) -> Value {
        const Value& self = a[0];
        if (a[2].is_none()) {
          throw ValueError("Argument `weight_decay` must be a float. Received: weight_decay=None");
        }
        // Adam's __init__ with the common keywords, then the decay.
        std::vector<Value> args{self, a[1], a[3], a[4], a[5], a[6]};
        Kwargs kwargs{{"weight_decay", a[2]}, {"clipnorm", a[7]}, {"clipvalue", a[8]}, {"global_clipnorm", a[9]},
                      {"use_ema", a[10]}, {"ema_momentum", a[11]}, {"ema_overwrite_frequency", a[12]},
                      {"jit_compile", a[13]}, {"name", a[14]}};
        adam.getattr("__init__")(std::move(args), std::move(kwargs));
        return Value();
      }));
  return make_class("AdamW", {adam}, std::move(attrs));
}

}  // namespace

const Value& tf::api::keras_optimizers_RMSprop() {
  static const Value cls = make_rmsprop_class();
  return cls;
}

const Value& tf::api::keras_optimizers_Adagrad() {
  static const Value cls = make_adagrad_class();
  return cls;
}

const Value& tf::api::keras_optimizers_AdamW() {
  static const Value cls = make_adamw_class(tf::api::keras_optimizers_Adam());
  return cls;
}

const Value& tf::api::keras_optimizers_Optimizer() { return optimizer_class(); }

const Value& tf::api::keras_optimizers_SGD() {
  static const Value cls = make_sgd_class();
  return cls;
}

const Value& tf::api::keras_optimizers_Adam() {
  static const Value cls = make_adam_class();
  return cls;
}

}  // namespace ag
