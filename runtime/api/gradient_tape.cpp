// tf.GradientTape (GRADIENTS.md section 1): the Python class over the tape
// (graph/tape.h) and the backward walk (graph/gradients.h), with TF's
// lifecycle, nested structures and error texts.
#include <cstdio>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/graph/gradients.h"
#include "runtime/graph/tape.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/variable_value.h"

namespace ag::tf {
namespace {

struct TapeState : NativeState {
  bool persistent = false;
  bool watch_accessed_variables = true;
  /// Null once a non-persistent tape has computed its gradient; the next
  /// `with` starts a new one (TF's `_tape = None`).
  std::shared_ptr<Tape> tape;
  bool entered = false;
  /// watched_variables() once the tape is gone (TF keeps the last answer).
  std::vector<int64_t> watched_variables;
  bool warned_inside = false;
};

TapeState& state(const Value& self) { return *native_state<TapeState>(self); }

Tape& live_tape(TapeState& st) {
  if (!st.tape) st.tape = std::make_shared<Tape>(st.persistent, st.watch_accessed_variables);
  return *st.tape;
}

void warn(const std::string& message) { std::fprintf(stderr, "WARNING:tensorflow:%s\n", message.c_str()); }

// ---- nest: the leaves of lists, tuples and dicts, and the structure rebuilt.
void flatten(const Value& v, std::vector<Value>& out) {
  if (v.is_list() || v.is_tuple()) {
    for (const Value& item : v.items()) flatten(item, out);
  } else if (v.is_dict()) {
    for (const auto& [k, item] : v.as_dict().entries) flatten(item, out);
  } else {
    out.push_back(v);
  }
}

std::vector<Value> flat(const Value& v) {
  std::vector<Value> out;
  flatten(v, out);
  return out;
}

Value pack(const Value& structure, const std::vector<Value>& leaves, size_t& next) {
  if (structure.is_list() || structure.is_tuple()) {
    std::vector<Value> items;
    for (const Value& item : structure.items()) items.push_back(pack(item, leaves, next));
    return structure.is_list() ? Value::list(std::move(items)) : Value::tuple(std::move(items));
  }
  if (structure.is_dict()) {
    std::vector<std::pair<Value, Value>> items;
    for (const auto& [k, item] : structure.as_dict().entries) items.emplace_back(k, pack(item, leaves, next));
    return Value::dict(std::move(items));
  }
  return leaves.at(next++);
}

/// A source as the walk keys it, and the tensor its zeros are shaped like.
struct Source {
  GradientSource key;
  TensorHandle like;
};

Source source_of(const Value& v) {
  if (v.is_variable()) {
    const ag::Variable& var = *v.as_variable();
    return {{variable_key(var.id()), {var.dtype(), var.shape()}}, TensorHandle(var.read())};
  }
  if (v.is_tensor()) {
    const TensorHandle& t = v.as_tensor();
    return {{key_of(t), {t.dtype(), t.shape()}}, t};
  }
  throw ValueError("Passed in object " + str(v) + " of type '" + v.type_name() +
                   "', not tf.Tensor or tf.Variable or ExtensionType.");
}

/// unconnected_gradients: 'none' or 'zero' (a string, or tf.UnconnectedGradients' member).
bool zeros_for_unconnected(const Value& v) {
  Value s = v.is_object() && v.hasattr("value") ? v.getattr("value") : v;
  std::string text = s.is_str() ? s.as_str() : repr(s);
  if (text == "none") return false;
  if (text == "zero") return true;
  throw ValueError("Unknown value for unconnected_gradients: " + repr(s));
}

Value watch(const std::vector<Value>& a) {
  TapeState& st = state(a[0]);
  Tape& tape = live_tape(st);
  static int dtype_warnings = 0;
  for (const Value& leaf : flat(a[1])) {
    if (leaf.is_variable()) {
      tape.watch_variable(leaf.as_variable()->id());
    } else if (leaf.is_tensor()) {
      const TensorHandle& t = leaf.as_tensor();
      if (!is_trainable_dtype(t.dtype()) && dtype_warnings < 5) {
        ++dtype_warnings;
        warn(std::string("The dtype of the watched tensor must be floating (e.g. tf.float32), got tf.") +
             dtype_name(t.dtype()));
      }
      tape.watch(t);
    } else {
      (void)source_of(leaf);  // TF's ValueError for anything else
    }
  }
  return Value();
}

Value gradient(const std::vector<Value>& a) {
  TapeState& st = state(a[0]);
  const Value& target = a[1];
  if (!st.tape) {
    throw RuntimeError("A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)");
  }
  if (st.tape->recording()) {
    if (!st.persistent) {
      st.tape->stop();
    } else if (!st.warned_inside) {
      st.warned_inside = true;
      warn("Calling GradientTape.gradient on a persistent tape inside its context is significantly less efficient "
           "than calling it outside the context (it causes the gradient ops to be recorded on the tape, leading to "
           "increased CPU and memory usage). Only call GradientTape.gradient inside the context if you actually want "
           "to trace the gradient in order to compute higher order derivatives.");
    }
  }
  if (target.is_none()) {
    throw TypeError("Argument `target` should be a list or nested structure of Tensors, Variables or "
                    "CompositeTensors to be differentiated, but received None.");
  }
  bool zeros = zeros_for_unconnected(a[4]);

  std::vector<TensorHandle> targets;
  for (const Value& t : flat(target)) targets.push_back(t.is_variable() ? TensorHandle(t.as_variable()->read()) : to_tensor(t));
  std::vector<std::optional<TensorHandle>> seeds(targets.size());
  if (!a[3].is_none()) {
    std::vector<Value> given = flat(a[3]);
    if (given.size() != targets.size()) {
      throw ValueError("output_gradients has " + std::to_string(given.size()) + " entries, but the target has " +
                       std::to_string(targets.size()));
    }
    for (size_t i = 0; i < given.size(); ++i) {
      if (!given[i].is_none()) seeds[i] = to_tensor(given[i], targets[i].dtype());
    }
  }
  std::vector<Value> source_leaves = flat(a[2]);
  std::vector<Source> sources;
  std::vector<GradientSource> keys;
  for (const Value& s : source_leaves) {
    sources.push_back(source_of(s));
    keys.push_back(sources.back().key);
  }

  std::shared_ptr<Tape> tape = st.tape;
  if (!st.persistent) {
    st.watched_variables = tape->watched_variables();
    st.tape = nullptr;  // one set of gradients
  }
  std::vector<std::optional<TensorHandle>> grads = compute_gradient(tape->entries(), targets, seeds, keys);

  std::vector<Value> results;
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i]) {
      results.emplace_back(*grads[i]);
    } else if (zeros) {
      results.emplace_back(apply_op1(op::ZerosLike, std::span<const TensorHandle>(&sources[i].like, 1), {}, "zeros_like"));
    } else {
      results.emplace_back();
    }
  }
  size_t next = 0;
  return pack(a[2], results, next);
}


struct StopState : NativeState {
  Value tape;  // the GradientTape
};

const Value& stop_recording_class() {
  static const Value cls = make_class(
      "_GeneratorContextManager", {},
      {native_method("stop_recording.__enter__", "__enter__", {{"self", std::nullopt}},
                     [](const std::vector<Value>& a) -> Value {
                       TapeState& st = state(native_state<StopState>(a[0])->tape);
                       if (!st.tape || !st.entered) {
                         throw RuntimeError("Trying to stop recording a tape which is not recording.");
                       }
                       if (!st.tape->recording()) throw ValueError("Tape is not recording.");
                       st.tape->stop();
                       return Value();
                     }),
       native_method("stop_recording.__exit__", "__exit__",
                     {{"self", std::nullopt}, {"type", std::nullopt}, {"value", std::nullopt}, {"traceback", std::nullopt}},
                     [](const std::vector<Value>& a) -> Value {
                       TapeState& st = state(native_state<StopState>(a[0])->tape);
                       if (st.tape) st.tape->start();
                       return Value();
                     })});
  return cls;
}

std::vector<Param> self_only() { return {{"self", std::nullopt}}; }

}  // namespace

const Value& api::GradientTape() {
  static const Value cls = make_class(
      "GradientTape", {},
      {native_method("GradientTape.__init__", "__init__",
                     {{"self", std::nullopt}, {"persistent", Value(false)}, {"watch_accessed_variables", Value(true)}},
                     [](const std::vector<Value>& a) -> Value {
                       auto st = std::make_shared<TapeState>();
                       st->persistent = truthy(a[1]);
                       st->watch_accessed_variables = truthy(a[2]);
                       a[0].as_object().native = std::move(st);
                       return Value();
                     }),
       native_method("GradientTape.__enter__", "__enter__", self_only(),
                     [](const std::vector<Value>& a) -> Value {
                       TapeState& st = state(a[0]);
                       live_tape(st).start();
                       st.entered = true;
                       return a[0];
                     }),
       native_method("GradientTape.__exit__", "__exit__",
                     {{"self", std::nullopt}, {"typ", std::nullopt}, {"value", std::nullopt}, {"traceback", std::nullopt}},
                     [](const std::vector<Value>& a) -> Value {
                       TapeState& st = state(a[0]);
                       if (st.tape) st.tape->stop();
                       return Value();
                     }),
       native_method("GradientTape.watch", "watch", {{"self", std::nullopt}, {"tensor", std::nullopt}}, watch),
       native_method("GradientTape.gradient", "gradient",
                     {{"self", std::nullopt},
                      {"target", std::nullopt},
                      {"sources", std::nullopt},
                      {"output_gradients", Value()},
                      {"unconnected_gradients", Value("none")}},
                     gradient),
       native_method("GradientTape.stop_recording", "stop_recording", self_only(),
                     [](const std::vector<Value>& a) -> Value {
                       auto st = std::make_shared<StopState>();
                       st->tape = a[0];
                       return native_object(stop_recording_class(), std::move(st));
                     }),
       native_method("GradientTape.reset", "reset", self_only(),
                     [](const std::vector<Value>& a) -> Value {
                       TapeState& st = state(a[0]);
                       if (!st.tape || !st.tape->recording()) throw ValueError("Tape is not recording.");
                       st.tape->stop();
                       st.tape->clear();
                       st.tape->start();
                       return Value();
                     }),
       native_method("GradientTape.watched_variables", "watched_variables", self_only(),
                     [](const std::vector<Value>& a) -> Value {
                       TapeState& st = state(a[0]);
                       if (st.tape) st.watched_variables = st.tape->watched_variables();
                       std::vector<Value> vars;
                       for (int64_t id : st.watched_variables) vars.push_back(Value::variable(ag::Variable::lookup(id)));
                       return Value::tuple(std::move(vars));
                     })});
  return cls;
}

}  // namespace ag::tf
