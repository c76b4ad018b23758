// tf.custom_gradient and tf.recompute_grad (GRADIENTS.md 1.4): the wrapped
// function's ops run unrecorded and the tapes record the call as one entry.
// A custom gradient's backward calls grad_fn with the gradients of y's
// tensors; a recomputed one runs the function again under a tape of its own
// and differentiates that (memory for compute, as RevNet does by hand).
#include <algorithm>

#include "runtime/api/tf_call.h"
#include "runtime/function/structure.h"
#include "runtime/graph/gradients.h"
#include "runtime/graph/tape.h"
#include "runtime/core/variable.h"
#include "runtime/value/convert.h"
#include "runtime/value/user_function.h"

namespace ag::tf::impl {
namespace {

/// The tensor leaves of `v` (a variable counts as its value, as TF converts it).
void tensors_of(const Value& v, std::vector<TensorHandle>& out) {
  map_tensors(v, [&](const Value& t) {
    out.push_back(t.as_tensor());
    return t;
  });
}

/// A recorded call of `name` on `args` giving `y`: their tensors, the
/// arguments' as the inputs gradients flow to.
TapeEntry call_entry(const char* name, const std::vector<Value>& args, const Value& y) {
  TapeEntry e;
  e.name = name;
  for (const Value& a : args) tensors_of(a, e.inputs);
  tensors_of(y, e.outputs);
  for (const TensorHandle& t : e.inputs) {
    e.input_keys.push_back(key_of(t));
    e.input_dtypes.push_back(t.dtype());
  }
  return e;
}

/// Calls f(args, kwargs) with no tape recording its ops; returns its result
/// and the ids of the trainable variables it read (TF's VariableWatcher).
std::pair<Value, std::vector<int64_t>> call_watching_variables(const Value& f, std::vector<Value> args, Kwargs kwargs) {
  PauseTapes pause;
  Tape watcher(false, true);
  watcher.start();
  try {
    Value y = f(std::move(args), std::move(kwargs));
    watcher.stop();
    return {y, watcher.watched_variables()};
  } catch (...) {
    watcher.stop();
    throw;
  }
}

/// The recorded entry's inputs gain the variables `ids` (after the arguments').
void add_variable_inputs(TapeEntry& e, const std::vector<int64_t>& ids) {
  for (int64_t id : ids) {
    e.input_keys.push_back(variable_key(id));
    e.input_dtypes.push_back(Variable::lookup(id)->dtype());
  }
}

Value call_with_custom_gradient(const Value& f, std::vector<Value> args, Kwargs kwargs) {
  // Not a structured binding: lambdas below capture them (Clang 14 cannot).
  auto called = call_watching_variables(f, args, std::move(kwargs));
  Value result = std::move(called.first);
  std::vector<int64_t> variables = std::move(called.second);
  if (!(result.is_tuple() || result.is_list()) || result.items().size() != 2) {
    throw TypeError("a function decorated with tf.custom_gradient must return a pair (y, grad_fn); got " +
                    repr(result));
  }
  Value y = result.items()[0];
  Value grad_fn = result.items()[1];
  if (!variables.empty()) {
    const std::vector<Param>* params = function_params(grad_fn);
    if (params != nullptr &&
        std::none_of(params->begin(), params->end(), [](const Param& p) { return p.name == "variables"; })) {
      std::vector<Value> vars;
      for (int64_t id : variables) vars.push_back(Value::variable(Variable::lookup(id)));
      throw TypeError("@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function uses "
                      "variables: " + repr(Value::list(std::move(vars))));
    }
  }
  if (!any_tape_recording()) return y;

  TapeEntry e = call_entry("CustomGradient", args, y);
  const size_t n = e.inputs.size();
  add_variable_inputs(e, variables);
  // grad_fn(*dys) gives the arguments' gradients; with variables,
  // grad_fn(*dys, variables=[...]) gives (argument grads, variable grads).
  e.backward = [grad_fn, n, variables, outputs = e.outputs](std::span<const std::optional<TensorHandle>> dys) {
    std::vector<Value> upstream;
    for (size_t i = 0; i < dys.size(); ++i) {
      upstream.emplace_back(dys[i] ? *dys[i]
                                   : apply_op1(op::ZerosLike, std::span<const TensorHandle>(&outputs[i], 1), {},
                                               "zeros_like"));
    }
    auto items = [](const Value& g) { return g.is_list() || g.is_tuple() ? g.items() : std::vector<Value>{g}; };
    std::vector<Value> grads, variable_grads;
    if (variables.empty()) {
      grads = items(grad_fn(std::move(upstream), {}));
    } else {
      std::vector<Value> vars;
      for (int64_t id : variables) vars.push_back(Value::variable(Variable::lookup(id)));
      Value g = grad_fn(std::move(upstream), {{"variables", Value::list(std::move(vars))}});
      std::vector<Value> pair = items(g);
      if (pair.size() != 2) {
        throw ValueError("not enough values to unpack (expected 2, got " + std::to_string(pair.size()) + ")");
      }
      grads = items(pair[0]);
      variable_grads = items(pair[1]);
      if (variable_grads.size() != variables.size()) {
        throw ValueError("Must return gradient for each variable from @custom_gradient grad_fn.");
      }
    }
    if (grads.size() != n) {
      throw ValueError("custom_gradient function expected to return " + std::to_string(n) +
                       " gradients, but returned " + std::to_string(grads.size()) + " instead.");
    }
    grads.insert(grads.end(), variable_grads.begin(), variable_grads.end());
    std::vector<std::optional<TensorHandle>> out;
    for (const Value& v : grads) out.emplace_back(v.is_none() ? std::nullopt : std::optional(to_tensor(v)));
    return out;
  };
  record_call(e);
  return y;
}

/// Calls f(args, kwargs) without recording; records one entry for the tapes
/// whose backward reruns f and differentiates it with respect to the
/// arguments' tensors and the trainable variables f read.
Value call_recomputed(const Value& f, std::vector<Value> args, Kwargs kwargs) {
  auto called = call_watching_variables(f, args, kwargs);
  Value y = std::move(called.first);
  std::vector<int64_t> variables = std::move(called.second);
  if (!any_tape_recording()) return y;

  TapeEntry e = call_entry("RecomputeGrad", args, y);
  add_variable_inputs(e, variables);
  e.backward = [f, args, kwargs, inputs = e.inputs, outputs = e.outputs,
                variables](std::span<const std::optional<TensorHandle>> dys) {
    Tape tape(false, true);
    for (const TensorHandle& t : inputs) tape.watch(t);
    for (int64_t id : variables) tape.watch_variable(id);
    tape.start();
    Value again;
    try {
      again = f(args, kwargs);
    } catch (...) {
      tape.stop();
      throw;
    }
    tape.stop();
    std::vector<TensorHandle> targets;
    tensors_of(again, targets);
    std::vector<std::optional<TensorHandle>> seeds;
    for (size_t i = 0; i < targets.size(); ++i) {
      seeds.push_back(i < dys.size() && dys[i] ? dys[i]
                                              : std::optional(apply_op1(op::ZerosLike, std::span(&outputs[i], 1), {}, "zeros_like")));
    }
    std::vector<GradientSource> sources;
    for (const TensorHandle& t : inputs) sources.push_back({key_of(t), {t.dtype(), t.shape()}});
    for (int64_t id : variables) sources.push_back({variable_key(id), {Variable::lookup(id)->dtype(), Variable::lookup(id)->shape()}});
    return compute_gradient(tape.entries(), targets, seeds, sources);
  };
  record_call(e);
  return y;
}

/// A decorator-or-call row: `fn(f)` wraps f with `wrap`; `fn()` returns the decorator.
Value decorator(const char* name, const Value& f, Value (*wrap)(const Value&, std::vector<Value>, Kwargs)) {
  auto wrapped = [wrap](const Value& g) {
    return Value::callable("decorated", [g, wrap](std::vector<Value> a, Kwargs k) { return wrap(g, std::move(a), std::move(k)); });
  };
  if (!f.is_none()) return wrapped(f);
  return Value::callable(name, [name, wrapped](std::vector<Value> args, Kwargs) -> Value {
    if (args.size() != 1) throw TypeError(std::string(name) + "() takes 1 positional argument");
    return wrapped(args[0]);
  });
}

}  // namespace

Value recompute_grad(const TfCall& c) { return decorator("recompute_grad", c["f"], call_recomputed); }

Value custom_gradient(const TfCall& c) { return decorator("custom_gradient", c["f"], call_with_custom_gradient); }

}  // namespace ag::tf::impl
