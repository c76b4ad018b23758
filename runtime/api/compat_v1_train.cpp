// TF1's optimizers (tf.compat.v1.train.GradientDescentOptimizer,
// MomentumOptimizer, AdamOptimizer) in a TF1 graph: minimize() is
// compute_gradients() (graph_gradients over the trainable variables) and
// apply_gradients() (one update per variable, then the step counter, all
// behind one NoOp named after the optimizer). The updates are TF's kernels'
// formulas (training_ops.cc: ApplyGradientDescent, ApplyMomentum,
// ApplyAdam), built from ops; slot variables are graph variables, so
// global_variables_initializer() made after the optimizer initializes them.
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/api/compat_v1.h"
#include "runtime/api/graph_gradients.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/core/finally.h"
#include "runtime/graph/graph.h"
#include "runtime/value/tensor_shape_value.h"
#include "runtime/value/object_model.h"
#include "runtime/value/variable_value.h"
#include "runtime/value/convert.h"

namespace ag::tf {
namespace {

using common::apply;

struct V1OptimizerState;

/// One optimizer's rule: its slots (created zero, per variable, in this
/// order) and the update of one variable given its gradient.
struct V1Rule {
  std::vector<std::string> slots;
  /// Builds the update of `var` with gradient `grad`; returns its
  /// assignments (the slots' and the variable's).
  std::function<std::vector<Node*>(V1OptimizerState&, const Value& var, const TensorHandle& grad)> update;
  /// Variables made once per optimizer (Adam's "beta1_power"), each
  /// starting at a hyperparameter and multiplied by it after every step.
  std::vector<std::pair<std::string, std::string>> powers;
};

struct V1OptimizerState : NativeState {
  std::string name;
  const V1Rule* rule = nullptr;
  std::map<std::string, Value> hyper;
  /// slots[var id][slot name]
  std::map<int64_t, std::map<std::string, Value>> slots;
  std::map<std::string, Value> powers;
};

V1OptimizerState& opt(const Value& v) { return *native_state<V1OptimizerState>(v); }

Graph& v1_graph_or_error(const char* what) {
  Graph* g = current_graph();
  if (g == nullptr || !g->v1()) {
    throw RuntimeError(std::string("agc: tf.compat.v1.train optimizers run in a TF1 graph (") + what +
                       " was called outside one); use tf.keras.optimizers with tf.GradientTape in TF2 code");
  }
  return *g;
}

/// `v` (a hyperparameter: a number, or a tensor such as a placeholder) as
/// a tensor of `dtype` in the graph being built.
TensorHandle hyper(V1OptimizerState& s, const std::string& name, DType dtype) {
  TensorHandle h = to_tensor(s.hyper.at(name));
  return h.dtype() == dtype ? h : apply(op::Cast, {h}, name + "_cast", Attrs{{"DstT", dtype}});
}

TensorHandle read(const Value& var) { return variable_value::read(var); }

Node* assign(const Value& var, const TensorHandle& value, OpType op) {
  std::vector<TensorHandle> in{value};
  apply_op(op, in, Attrs{{"var", var.as_variable()->id()}}, op.name());
  return current_graph()->nodes().back().get();
}

const Value& slot(V1OptimizerState& s, const Value& var, const std::string& name) {
  return s.slots.at(var.as_variable()->id()).at(name);
}

/// Makes the slots of `var` (zeros like it, named "<var>/<optimizer>[_i]" as TF's).
void make_slots(V1OptimizerState& s, const Value& var) {
  auto& mine = s.slots[var.as_variable()->id()];
  if (!mine.empty()) return;
  const ag::Variable& v = *var.as_variable();
  for (size_t i = 0; i < s.rule->slots.size(); ++i) {
    Value zeros = tf::zeros(tensor_shape_dims_for_conversion(v.shape()), v.dtype());
    std::string n = v.name() + "/" + s.name + (i == 0 ? "" : "_" + std::to_string(i));
    mine[s.rule->slots[i]] = variable_value::create(zeros, v.dtype(), Value(n), Value(), false);
  }
}

const V1Rule& gradient_descent_rule() {
  static const V1Rule r{{}, [](V1OptimizerState& s, const Value& var, const TensorHandle& g) {
                          TensorHandle lr = hyper(s, "learning_rate", g.dtype());
                          return std::vector<Node*>{
                              assign(var, apply(op::Mul, {g, lr}, "mul"), op::AssignSubVariableOp)};
                        },
                        {}};
  return r;
}

const V1Rule& momentum_rule() {
  static const V1Rule r{{"momentum"}, [](V1OptimizerState& s, const Value& var, const TensorHandle& g) {
                          TensorHandle lr = hyper(s, "learning_rate", g.dtype());
                          TensorHandle mu = hyper(s, "momentum", g.dtype());
                          const Value& accum = slot(s, var, "momentum");
                          // accum = accum * momentum + grad; var -= accum * lr
                          // (Nesterov: var -= grad * lr + accum * momentum * lr).
                          TensorHandle a = apply(op::AddV2, {apply(op::Mul, {read(accum), mu}, "mul"), g}, "add");
                          Node* set_accum = assign(accum, a, op::AssignVariableOp);
                          TensorHandle step = apply(op::Mul, {a, lr}, "mul");
                          if (truthy(s.hyper.at("use_nesterov"))) {
                            step = apply(op::AddV2,
                                         {apply(op::Mul, {g, lr}, "mul"),
                                          apply(op::Mul, {apply(op::Mul, {a, mu}, "mul"), lr}, "mul")},
                                         "add");
                          }
                          return std::vector<Node*>{set_accum, assign(var, step, op::AssignSubVariableOp)};
                        },
                        {}};
  return r;
}

const V1Rule& adam_rule() {
  static const V1Rule r{
      {"m", "v"},
      [](V1OptimizerState& s, const Value& var, const TensorHandle& g) {
        DType t = g.dtype();
        TensorHandle lr = hyper(s, "learning_rate", t);
        TensorHandle b1 = hyper(s, "beta1", t);
        TensorHandle b2 = hyper(s, "beta2", t);
        TensorHandle eps = hyper(s, "epsilon", t);
        TensorHandle one = to_tensor(Value(1.0), t);
        TensorHandle b1p = read(s.powers.at("beta1_power"));
        TensorHandle b2p = read(s.powers.at("beta2_power"));
        // alpha = lr * sqrt(1 - beta2_power) / (1 - beta1_power)
        TensorHandle alpha = apply(op::RealDiv,
                                   {apply(op::Mul, {lr, apply(op::Sqrt, {apply(op::Sub, {one, b2p}, "sub")}, "Sqrt")}, "mul"),
                                    apply(op::Sub, {one, b1p}, "sub")},
                                   "truediv");
        const Value& m = slot(s, var, "m");
        const Value& v = slot(s, var, "v");
        // m += (grad - m) * (1 - beta1); v += (grad^2 - v) * (1 - beta2)
        TensorHandle mr = read(m), vr = read(v);
        TensorHandle m1 = apply(op::AddV2,
                                {mr, apply(op::Mul, {apply(op::Sub, {g, mr}, "sub"), apply(op::Sub, {one, b1}, "sub")}, "mul")},
                                "add");
        TensorHandle v1 = apply(
            op::AddV2,
            {vr, apply(op::Mul, {apply(op::Sub, {apply(op::Square, {g}, "Square"), vr}, "sub"), apply(op::Sub, {one, b2}, "sub")},
                       "mul")},
            "add");
        Node* set_m = assign(m, m1, op::AssignVariableOp);
        Node* set_v = assign(v, v1, op::AssignVariableOp);
        // var -= m * alpha / (sqrt(v) + epsilon)
        TensorHandle step = apply(op::RealDiv,
                                  {apply(op::Mul, {m1, alpha}, "mul"),
                                   apply(op::AddV2, {apply(op::Sqrt, {v1}, "Sqrt"), eps}, "add")},
                                  "truediv");
        return std::vector<Node*>{set_m, set_v, assign(var, step, op::AssignSubVariableOp)};
      },
      {{"beta1_power", "beta1"}, {"beta2_power", "beta2"}}};
  return r;
}

/// compute_gradients: [(gradient or None, variable)] over `var_list`
/// (default: the graph's trainable variables).
Value compute_gradients(const Value& loss, const Value& var_list) {
  Graph& g = v1_graph_or_error("compute_gradients");
  if (loss.is_callable()) throw UnimplementedError("agc: a callable loss in a TF1 graph; pass the loss tensor");
  std::vector<Value> vars;
  if (var_list.is_none()) {
    for (const auto& v : g.v1_variables()) {
      if (v.var->trainable()) vars.push_back(Value::variable(v.var));
    }
  } else {
    vars = var_list.is_list() || var_list.is_tuple() ? var_list.items() : std::vector<Value>{var_list};
  }
  if (vars.empty()) throw ValueError("No variables to optimize.");
  TensorHandle target = to_tensor(loss);
  std::optional<TensorHandle> seed[] = {std::nullopt};
  common::NameScope scope("gradients");
  auto grads = graph_gradients(g, std::span<const TensorHandle>(&target, 1), seed, vars);
  std::vector<Value> pairs;
  for (size_t i = 0; i < vars.size(); ++i) {
    pairs.push_back(Value::tuple({grads[i] ? Value(*grads[i]) : Value(), vars[i]}));
  }
  return Value::list(std::move(pairs));
}

Value apply_gradients(const Value& self, const Value& grads_and_vars, const Value& global_step, const Value& name) {
  Graph& g = v1_graph_or_error("apply_gradients");
  V1OptimizerState& s = opt(self);
  std::vector<std::pair<TensorHandle, Value>> todo;
  std::vector<std::string> names;
  for (const Value& gv : iterate(grads_and_vars)) {
    const std::vector<Value>& pair = gv.items();
    if (!pair.at(1).is_variable()) throw TypeError("apply_gradients: not a variable: " + repr(pair.at(1)));
    names.push_back(pair[1].as_variable()->name());
    if (!pair[0].is_none()) todo.emplace_back(to_tensor(pair[0]), pair[1]);
  }
  if (todo.empty()) {
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + std::string("'") + n + ":0'";
    throw ValueError("No gradients provided for any variable: [" + list + "].");
  }
  for (const auto& [n, h] : s.rule->powers) {
    if (!s.powers.count(n)) {
      DType t = todo.front().second.as_variable()->dtype();
      s.powers[n] = variable_value::create(s.hyper.at(h), t, Value(n), Value(), false);
    }
  }
  for (const auto& [grad, var] : todo) make_slots(s, var);
  std::string op_name = name.is_none() ? s.name : name.as_str();
  common::NameScope scope(op_name);
  std::vector<Node*> updates;
  for (const auto& [grad, var] : todo) {
    for (Node* n : s.rule->update(s, var, grad)) updates.push_back(n);
  }
  // What runs after every update: the powers' steps, then the step counter.
  const Graph::Scope saved = g.scope();
  Finally restore([&] { g.scope() = saved; });
  g.scope().control = updates;
  for (const auto& [n, h] : s.rule->powers) {
    const Value& power = s.powers.at(n);
    TensorHandle next = apply(op::Mul, {read(power), hyper(s, h, power.as_variable()->dtype())}, "mul");
    updates.push_back(assign(power, next, op::AssignVariableOp));
  }
  if (!global_step.is_none()) {
    if (!global_step.is_variable()) throw TypeError("global_step must be a tf.Variable, got " + repr(global_step));
    g.scope().control = updates;
    DType t = global_step.as_variable()->dtype();
    updates = {assign(global_step, to_tensor(Value(int64_t{1}), t), op::AssignAddVariableOp)};
  }
  g.scope().control.clear();
  Node* done = g.add_node(op::NoOp, {}, {}, scope.self());
  done->control_inputs = updates;
  return v1_operation(done);
}

/// A TF1 optimizer class named `cls` whose __init__ takes `params` (after
/// self, "name" among them); those named in `hyper` are its hyperparameters.
Value optimizer_class(const std::string& cls, std::vector<Param> params, const V1Rule& rule,
                      std::vector<std::string> hyper) {
  Param self{"self", std::nullopt};
  params.insert(params.begin(), self);
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method(cls + ".__init__", "__init__", params,
                                [params, &rule, hyper](const std::vector<Value>& a) {
                                  auto st = std::make_shared<V1OptimizerState>();
                                  st->rule = &rule;
                                  for (size_t i = 1; i < params.size(); ++i) {
                                    if (params[i].name == "name") st->name = a[i].as_str();
                                    if (std::find(hyper.begin(), hyper.end(), params[i].name) != hyper.end()) {
                                      st->hyper[params[i].name] = a[i];
                                    }
                                  }
                                  a[0].as_object().native = st;
                                  return Value();
                                }));
  attrs.push_back(native_method(cls + ".compute_gradients", "compute_gradients",
                                {self, {"loss", std::nullopt}, {"var_list", Value()}, {"gate_gradients", Value(1)},
                                 {"aggregation_method", Value()}, {"colocate_gradients_with_ops", Value(false)},
                                 {"grad_loss", Value()}},
                                [](const std::vector<Value>& a) { return compute_gradients(a[1], a[2]); }));
  attrs.push_back(native_method(cls + ".apply_gradients", "apply_gradients",
                                {self, {"grads_and_vars", std::nullopt}, {"global_step", Value()}, {"name", Value()}},
                                [](const std::vector<Value>& a) { return apply_gradients(a[0], a[1], a[2], a[3]); }));
  attrs.push_back(native_method(cls + ".minimize", "minimize",
                                {self, {"loss", std::nullopt}, {"global_step", Value()}, {"var_list", Value()},
                                 {"gate_gradients", Value(1)}, {"aggregation_method", Value()},
                                 {"colocate_gradients_with_ops", Value(false)}, {"name", Value()},
                                 {"grad_loss", Value()}},
                                [](const std::vector<Value>& a) {
                                  return apply_gradients(a[0], compute_gradients(a[1], a[3]), a[2], a[7]);
                                }));
  attrs.push_back(native_method(cls + ".get_slot", "get_slot", {self, {"var", std::nullopt}, {"name", std::nullopt}},
                                [](const std::vector<Value>& a) -> Value {
                                  V1OptimizerState& s = opt(a[0]);
                                  auto it = s.slots.find(a[1].as_variable()->id());
                                  if (it == s.slots.end() || !it->second.count(a[2].as_str())) return Value();
                                  return it->second.at(a[2].as_str());
                                }));
  attrs.push_back(native_method(cls + ".get_name", "get_name", {self},
                                [](const std::vector<Value>& a) { return Value(opt(a[0]).name); }));
  return make_class(cls, {}, std::move(attrs));
}

}  // namespace

const Value& api::v1_train_GradientDescentOptimizer() {
  static const Value cls = optimizer_class(
      "GradientDescentOptimizer",
      {{"learning_rate", std::nullopt}, {"use_locking", Value(false)}, {"name", Value("GradientDescent")}},
      gradient_descent_rule(), {"learning_rate"});
  return cls;
}

const Value& api::v1_train_MomentumOptimizer() {
  static const Value cls = optimizer_class("MomentumOptimizer",
                                           {{"learning_rate", std::nullopt},
                                            {"momentum", std::nullopt},
                                            {"use_locking", Value(false)},
                                            {"name", Value("Momentum")},
                                            {"use_nesterov", Value(false)}},
                                           momentum_rule(), {"learning_rate", "momentum", "use_nesterov"});
  return cls;
}

const Value& api::v1_train_AdamOptimizer() {
  static const Value cls = optimizer_class("AdamOptimizer",
                                           {{"learning_rate", Value(0.001)},
                                            {"beta1", Value(0.9)},
                                            {"beta2", Value(0.999)},
                                            {"epsilon", Value(1e-08)},
                                            {"use_locking", Value(false)},
                                            {"name", Value("Adam")}},
                                           adam_rule(), {"learning_rate", "beta1", "beta2", "epsilon"});
  return cls;
}

}  // namespace ag::tf
