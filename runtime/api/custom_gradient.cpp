// tf.custom_gradient and tf.recompute_grad (GRADIENTS.md 1.4): the wrapped
// function's ops run unrecorded and the tapes record the call as one entry.
// A custom gradient's backward calls grad_fn with the gradients of y's
// tensors; a recomputed one runs the function again under a tape of its own
// and differentiates that (memory for compute, as RevNet does by hand).
#include "runtime/api/tf_call.h"
#include "runtime/function/structure.h"
#include "runtime/graph/gradients.h"
#include "runtime/graph/tape.h"
#include "runtime/core/variable.h"
#include "runtime/value/convert.h"

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

Value call_with_custom_gradient(const Value& f, std::vector<Value> args, Kwargs kwargs) {
  Value result;
  {
    PauseTapes pause;
    result = f(args, std::move(kwargs));
  }
  if (!(result.is_tuple() || result.is_list()) || result.items().size() != 2) {
    throw TypeError("a function decorated with tf.custom_gradient must return a pair (y, grad_fn); got " +
                    repr(result));
  }
  Value y = result.items()[0];
  Value grad_fn = result.items()[1];
  if (!any_tape_recording()) return y;

  TapeEntry e = call_entry("CustomGradient", args, y);
  const size_t n = e.inputs.size();
  e.backward = [grad_fn, n, outputs = e.outputs](std::span<const std::optional<TensorHandle>> dys) {
    std::vector<Value> upstream;
    for (size_t i = 0; i < dys.size(); ++i) {
      upstream.emplace_back(dys[i] ? *dys[i]
                                   : apply_op1(op::ZerosLike, std::span<const TensorHandle>(&outputs[i], 1), {},
                                               "zeros_like"));
    }
    Value g = grad_fn(std::move(upstream), {});
    std::vector<Value> grads = g.is_list() || g.is_tuple() ? g.items() : std::vector<Value>{g};
    if (grads.size() != n) {
      throw ValueError("custom_gradient function expected to return " + std::to_string(n) +
                       " gradients, but returned " + std::to_string(grads.size()) + " instead.");
    }
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
  Value y;
  std::vector<int64_t> variables;
  {
    PauseTapes pause;
    // A tape of its own finds the variables f reads (TF's VariableWatcher).
    Tape watcher(false, true);
    watcher.start();
    try {
      y = f(args, kwargs);
    } catch (...) {
      watcher.stop();
      throw;
    }
    watcher.stop();
    variables = watcher.watched_variables();
  }
  if (!any_tape_recording()) return y;

  TapeEntry e = call_entry("RecomputeGrad", args, y);
  for (int64_t id : variables) {
    e.input_keys.push_back(variable_key(id));
    e.input_dtypes.push_back(Variable::lookup(id)->dtype());
  }
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
