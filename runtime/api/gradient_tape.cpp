// tf.GradientTape (GRADIENTS.md section 1): the Python class over the tape
// (graph/tape.h) and the backward walk (graph/gradients.h), with TF's
// lifecycle, nested structures and error texts.
#include <algorithm>
#include <functional>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_api.h"
#include "runtime/function/function.h"
#include "runtime/graph/gradients.h"
#include "runtime/graph/tape.h"
#include "runtime/ops/eager.h"
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
        tf_warning(std::string("The dtype of the watched tensor must be floating (e.g. tf.float32), got tf.") +
             dtype_name(t.dtype()));
      }
      tape.watch(t);
    } else {
      (void)source_of(leaf);  // TF's ValueError for anything else
    }
  }
  return Value();
}

/// The tape for one set of gradients (or jacobians): TF's errors when it is
/// gone, and a non-persistent tape stops recording first.
std::shared_ptr<Tape> tape_for_gradient(TapeState& st) {
  if (!st.tape) {
    throw RuntimeError("A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)");
  }
  if (st.tape->recording()) {
    if (!st.persistent) {
      st.tape->stop();
    } else if (!st.warned_inside) {
      st.warned_inside = true;
      tf_warning("Calling GradientTape.gradient on a persistent tape inside its context is significantly less efficient "
           "than calling it outside the context (it causes the gradient ops to be recorded on the tape, leading to "
           "increased CPU and memory usage). Only call GradientTape.gradient inside the context if you actually want "
           "to trace the gradient in order to compute higher order derivatives.");
    }
  }
  std::shared_ptr<Tape> tape = st.tape;
  if (!st.persistent) {
    st.watched_variables = tape->watched_variables();
    st.tape = nullptr;  // one set of gradients
  }
  return tape;
}

/// A tensor of `dtype` and `shape`, one where `hot(i)` holds for flat index i.
Tensor indicator(DType dtype, const Shape& shape, const std::function<bool(int64_t)>& hot) {
  Tensor t = Tensor::zeros(DType::Float64, shape);
  for (int64_t i = 0; i < t.num_elements(); ++i) t.data<double>()[i] = hot(i) ? 1.0 : 0.0;
  return run_op1(op::Cast, std::span<const Tensor>(&t, 1), Attrs{{"SrcT", DType::Float64}, {"DstT", dtype}, {"Truncate", false}});
}

/// Stacks `rows` (one per seed; None for an unconnected one) of a source like
/// `like` along `axis`, then reshapes to `shape`: None when every row is None
/// and zeros are not asked for.
Value stack_rows(std::vector<std::optional<TensorHandle>> rows, const TensorHandle& like, int axis, const Shape& shape,
                 bool zeros) {
  bool any = false;
  for (const auto& r : rows) any = any || r.has_value();
  if (!any && !zeros) return Value();
  std::vector<TensorHandle> in;
  for (auto& r : rows) {
    in.push_back(r ? *r : apply_op1(op::ZerosLike, std::span<const TensorHandle>(&like, 1), {}, "zeros_like"));
  }
  const auto n = static_cast<int64_t>(in.size());
  TensorHandle stacked = apply_op1(op::Pack, in, Attrs{{"axis", int64_t{axis}}, {"N", n}}, "stack");
  TensorHandle pair[] = {stacked, common::int32_vector({shape.dims().begin(), shape.dims().end()})};
  return Value(apply_op1(op::Reshape, pair, {}, "Reshape"));
}

Shape concat_shapes(const Shape& a, std::span<const int64_t> b) {
  std::vector<int64_t> d(a.dims().begin(), a.dims().end());
  d.insert(d.end(), b.begin(), b.end());
  return Shape(std::span<const int64_t>(d));
}

/// jacobian(target, sources, unconnected_gradients, parallel_iterations,
/// experimental_use_pfor): one gradient per target element (agc loops where
/// TF vectorizes with pfor), shaped target.shape + source.shape.
Value jacobian(const std::vector<Value>& a) {
  TapeState& st = state(a[0]);
  bool zeros = zeros_for_unconnected(a[3]);
  if (st.tape && !truthy(a[5]) && current_graph() == nullptr && !st.persistent) {
    throw RuntimeError("GradientTape must be created with persistent=True to compute the jacobian with eager "
                       "execution enabled and with  experimental_use_pfor set to False.");
  }
  std::shared_ptr<Tape> tape = tape_for_gradient(st);
  TensorHandle target = a[1].is_variable() ? TensorHandle(a[1].as_variable()->read()) : to_tensor(a[1]);
  const Shape& ts = target.shape();
  if (!ts.fully_defined()) throw UnimplementedError("agc: jacobian needs the target's shape known while tracing");
  std::vector<Value> leaves = flat(a[2]);
  std::vector<Source> sources;
  std::vector<GradientSource> keys;
  for (const Value& v : leaves) {
    sources.push_back(source_of(v));
    keys.push_back(sources.back().key);
  }
  std::vector<std::vector<std::optional<TensorHandle>>> per_source(sources.size());
  for (int64_t i = 0; i < ts.num_elements(); ++i) {
    std::optional<TensorHandle> seed[] = {TensorHandle(indicator(target.dtype(), ts, [i](int64_t k) { return k == i; }))};
    auto g = compute_gradient(tape->entries(), std::span<const TensorHandle>(&target, 1), seed, keys);
    for (size_t s = 0; s < sources.size(); ++s) per_source[s].push_back(std::move(g[s]));
  }
  std::vector<Value> results;
  for (size_t s = 0; s < sources.size(); ++s) {
    results.push_back(stack_rows(std::move(per_source[s]), sources[s].like, 0,
                                 concat_shapes(ts, sources[s].key.spec.shape.dims()), zeros));
  }
  size_t next = 0;
  return pack(a[2], results, next);
}

/// batch_jacobian(target, source, ...): for target [b, ...] and source [b,
/// ...] whose examples are independent, result[i] is the jacobian of
/// target[i] with respect to source[i].
Value batch_jacobian(const std::vector<Value>& a) {
  TapeState& st = state(a[0]);
  bool zeros = zeros_for_unconnected(a[3]);
  if (st.tape && !truthy(a[5]) && current_graph() == nullptr && !st.persistent) {
    throw RuntimeError("GradientTape must be created with persistent=True to compute the batch_jacobian with eager "
                       "execution enabled and with experimental_use_pfor set to False.");
  }
  TensorHandle target = to_tensor(a[1]);
  Source source = source_of(a[2]);
  const Shape& ts = target.shape();
  const Shape& ss = source.key.spec.shape;
  for (const Shape* s : {&ts, &ss}) {
    if (s->rank_known() && s->rank() < 2) {
      throw ValueError("Shape " + s->str() + " must have rank at least 2");
    }
  }
  if (ts.rank_known() && ss.rank_known() && ts.dim(0) >= 0 && ss.dim(0) >= 0 && ts.dim(0) != ss.dim(0)) {
    throw ValueError("Need first dimension of target shape (" + ts.str() + ") and source shape (" + ss.str() +
                     ") to match.");
  }
  if (!ts.fully_defined()) throw UnimplementedError("agc: batch_jacobian needs the target's shape known while tracing");
  std::shared_ptr<Tape> tape = tape_for_gradient(st);
  const int64_t batch = ts.dim(0);
  const int64_t per_example = ts.num_elements() / std::max<int64_t>(batch, 1);
  std::vector<std::optional<TensorHandle>> rows;
  for (int64_t j = 0; j < per_example; ++j) {
    // Element j of every example at once: the examples do not interact.
    std::optional<TensorHandle> seed[] = {
        TensorHandle(indicator(target.dtype(), ts, [j, per_example](int64_t k) { return k % per_example == j; }))};
    GradientSource key[] = {source.key};
    rows.push_back(std::move(compute_gradient(tape->entries(), std::span<const TensorHandle>(&target, 1), seed, key)[0]));
  }
  std::vector<int64_t> out{batch};
  out.insert(out.end(), ts.dims().begin() + 1, ts.dims().end());
  out.insert(out.end(), ss.dims().begin() + 1, ss.dims().end());
  return stack_rows(std::move(rows), source.like, 1, Shape(std::span<const int64_t>(out)), zeros);
}

Value gradient(const std::vector<Value>& a) {
  TapeState& st = state(a[0]);
  const Value& target = a[1];
  if (st.tape && target.is_none()) {
    throw TypeError("Argument `target` should be a list or nested structure of Tensors, Variables or "
                    "CompositeTensors to be differentiated, but received None.");
  }
  bool zeros = zeros_for_unconnected(a[4]);
  std::shared_ptr<Tape> tape = tape_for_gradient(st);

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
       native_method("GradientTape.jacobian", "jacobian",
                     {{"self", std::nullopt},
                      {"target", std::nullopt},
                      {"sources", std::nullopt},
                      {"unconnected_gradients", Value("none")},
                      {"parallel_iterations", Value()},
                      {"experimental_use_pfor", Value(true)}},
                     jacobian),
       native_method("GradientTape.batch_jacobian", "batch_jacobian",
                     {{"self", std::nullopt},
                      {"target", std::nullopt},
                      {"source", std::nullopt},
                      {"unconnected_gradients", Value("none")},
                      {"parallel_iterations", Value()},
                      {"experimental_use_pfor", Value(true)}},
                     batch_jacobian),
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
