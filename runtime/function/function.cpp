#include "runtime/function/function.h"

#include <atomic>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/function/retrace_reason.h"
#include "runtime/function/structure.h"
#include "runtime/value/tensor_spec_value.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/composite_tensor.h"
#include "runtime/value/convert.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/nest.h"
#include "runtime/value/tensor_shape_value.h"
#include "runtime/value/variable_value.h"

namespace ag {
namespace {

std::atomic<bool> g_run_eagerly{false};

std::mutex g_sink_mu;
std::function<void(const std::string&)>& warning_sink() {
  static std::function<void(const std::string&)> sink = [](const std::string& msg) {
    std::fflush(stdout);
    std::fprintf(stderr, "WARNING:tensorflow:%s\n", msg.c_str());
    std::fflush(stderr);
  };
  return sink;
}

// TF's _FrequentTracingDetector: the recent history is at most 10 calls; a
// trace warns once 5 traces fall within it.
constexpr int kMaxCallHistory = 10;
constexpr int kWarningThreshold = 5;

/// The value a parameter is traced with: a placeholder for each tensor (named
/// after the parameter, as TF names them), a composite of placeholders for
/// each composite (one per component spec of its TypeSpec, as TF's
/// placeholder_value makes them), the value itself for the rest.
Value placeholders_for(Graph& g, const Value& v, const TraceType& type, const std::string& name) {
  switch (type.kind()) {
    case TraceType::Kind::Tensor: return Value(g.placeholder(type.spec(), name));
    case TraceType::Kind::Composite: {
      const TypeSpecState& spec = *type_spec_state(type.type_spec());
      std::vector<TensorHandle> components;
      for (const TensorSpec& c : spec.component_specs()) components.emplace_back(g.placeholder(c, name));
      return spec.from_components(std::move(components));
    }
    case TraceType::Kind::List:
    case TraceType::Kind::Tuple: {
      std::vector<Value> items;
      for (size_t i = 0; i < type.children().size(); ++i) {
        items.push_back(placeholders_for(g, v.items()[i], type.children()[i], name));
      }
      return type.kind() == TraceType::Kind::List ? Value::list(std::move(items)) : Value::tuple(std::move(items));
    }
    case TraceType::Kind::Dict: {
      // The traced dict keeps the caller's key order (nest.pack_sequence_as
      // does); its type holds the keys sorted.
      std::vector<std::pair<Value, Value>> items;
      for (const auto& [k, item] : v.as_dict().entries) {
        items.emplace_back(k, placeholders_for(g, item, type.child(k), name));
      }
      return Value::dict(std::move(items));
    }
    default: return v;
  }
}

/// The traced result with each tensor made a graph output through an Identity
/// node (TF's "Identity", "Identity_1", ...).
/// TF converts what a traced body returns to tensors (func_graph's
/// convert_to_tensor over the structure): Python numbers, bools and strs in
/// it become constants, a TensorShape its dims (a partially known one fails,
/// as TF's conversion does); None, tensors and other values stay as they are.
Value python_leaves_as_tensors(const Value& v) {
  return nest::map_structure(v, [](const Value& leaf) -> Value {
    if (tensor_shape_of(leaf)) return Value(to_tensor(leaf));
    switch (leaf.kind()) {
      case Kind::Bool:
      case Kind::Int:
      case Kind::Float:
      case Kind::Str:
      case Kind::NDArray: return Value(to_tensor(leaf));
      default: return leaf;
    }
  });
}

/// TF's _convert_numpy_inputs: NumPy arrays and scalars among a call's
/// arguments (nested in lists, tuples and dicts) become constant tensors, so
/// they trace as tensors of their dtype and shape. Structures without one
/// are passed on as they are.
std::vector<Value> numpy_inputs_as_tensors(std::vector<Value> args) {
  auto convert = [](const Value& v) -> Value {
    if (!ndarray::contains_ndarray(v)) return v;
    return nest::map_structure(v, [](const Value& leaf) { return leaf.is_ndarray() ? Value(to_tensor(leaf)) : leaf; });
  };
  for (Value& a : args) a = convert(a);
  return args;
}

Value outputs_of(Graph& g, const Value& result_in) {
  Value result = python_leaves_as_tensors(result_in);
  return map_tensors(result, [&](const Value& v) {
    const TensorHandle& h = v.as_tensor();
    Output src = in_graph(g, h);
    Output out = g.add_node(op::Identity, {src}, {}, "Identity")->output(0);
    g.outputs().push_back(out);
    return Value(out);
  });
}

}  // namespace

void run_functions_eagerly(bool on) { g_run_eagerly.store(on); }
bool functions_run_eagerly() { return g_run_eagerly.load(); }

void tf_warning(const std::string& msg) {
  std::lock_guard<std::mutex> lock(g_sink_mu);
  warning_sink()(msg);
}

void set_warning_sink(std::function<void(const std::string&)> sink) {
  std::lock_guard<std::mutex> lock(g_sink_mu);
  warning_sink() = std::move(sink);
}

bool explain_retracing_enabled() {
  const char* v = std::getenv("AGC_EXPLAIN_RETRACING");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

size_t Function::KeyHash::operator()(const std::vector<TraceType>& k) const {
  size_t h = k.size();
  for (const TraceType& t : k) h = h * 1000003u ^ t.hash();
  return h;
}

Function::Function(std::string name, std::vector<Param> params, Body body, FunctionOptions options)
    : name_(std::move(name)), params_(std::move(params)), body_(std::move(body)), options_(std::move(options)) {
  if (options_.input_signature) {
    for (const Value& s : *options_.input_signature) {
      if (!tensor_spec_of(s) && type_spec_state(s) == nullptr) throw TypeError("input_signature must be a possibly nested sequence of TensorSpec objects");
    }
  }
}

namespace {

/// repr of an input_signature entry: a TensorSpec or a composite's TypeSpec.
std::string signature_entry_repr(const Value& entry) {
  if (const TypeSpecState* ts = type_spec_state(entry)) return type_spec_repr(*ts);
  return tensor_spec_repr(*tensor_spec_of(entry), tensor_spec_name(entry));
}

}  // namespace

std::vector<Value> Function::apply_input_signature(const std::vector<Value>& args) const {
  const std::vector<Value>& sig = *options_.input_signature;
  auto incompatible = [&]() {
    std::string msg = "Python inputs incompatible with input_signature:\n  inputs: (\n    ";
    for (size_t i = 0; i < args.size(); ++i) msg += (i ? ",\n    " : "") + str(args[i]);
    msg += ")\n  input_signature: (\n    ";
    for (size_t i = 0; i < sig.size(); ++i) msg += (i ? ",\n    " : "") + signature_entry_repr(sig[i]);
    return ValueError(msg + ")");
  };
  if (args.size() != sig.size()) throw incompatible();
  std::vector<Value> out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (const TypeSpecState* want = type_spec_state(sig[i])) {
      // A composite must be one of the signature's TypeSpec (TF's is_subtype_of).
      const CompositeState* c = composite_state(args[i]);
      if (c == nullptr || !spec_is_subtype_of(*type_spec_state(c->type_spec()), *want)) throw incompatible();
      out.push_back(args[i]);
      continue;
    }
    TensorSpec spec = *tensor_spec_of(sig[i]);
    TensorHandle t = [&] {
      try {
        if (composite_state(args[i]) != nullptr) throw incompatible();
        return args[i].is_tensor() ? args[i].as_tensor() : to_tensor(args[i], spec.dtype);
      } catch (const Error&) {
        throw incompatible();
      }
    }();
    if (t.dtype() != spec.dtype || !spec.shape.is_supertype_of(t.shape())) throw incompatible();
    out.push_back(Value(t));
  }
  return out;
}

std::vector<Value> Function::apply_input_signature_specs(const std::vector<Value>& args) const {
  // TensorSpecs compatible with the signature are accepted as they are.
  bool all_specs = args.size() == options_.input_signature->size();
  for (size_t i = 0; all_specs && i < args.size(); ++i) {
    if (const TypeSpecState* want = type_spec_state((*options_.input_signature)[i])) {
      const TypeSpecState* given = type_spec_state(args[i]);
      all_specs = given != nullptr && spec_is_subtype_of(*given, *want);
      continue;
    }
    auto given = tensor_spec_of(args[i]);
    auto want = tensor_spec_of((*options_.input_signature)[i]);
    all_specs = given && given->dtype == want->dtype && want->shape.is_supertype_of(given->shape);
  }
  if (!all_specs) apply_input_signature(args);  // throws TF's ValueError when incompatible
  return *options_.input_signature;
}

ConcreteFunction* Function::fast_path_trace(std::span<const Value* const> args) {
  if (args.size() != params_.size() || options_.input_signature || functions_run_eagerly()) return nullptr;
  // One argument per parameter means one value each only without *args/**kwargs.
  for (const Param& p : params_) {
    if (p.kind == ParamKind::VarPositional || p.kind == ParamKind::VarKeyword) return nullptr;
  }
  ConcreteFunction* last = last_.load(std::memory_order_acquire);
  if (last == nullptr || !last->matches_exactly(args)) return nullptr;
  // Counted for the retracing detector; a relaxed load and store, not a
  // read-modify-write, since the count is advisory (a lost update between
  // racing threads only delays a warning about retracing).
  fast_calls_.store(fast_calls_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  return last;
}

Value Function::call_positional(std::span<const Value* const> args) {
  if (!current_graph()) {
    if (ConcreteFunction* last = fast_path_trace(args)) return last->call_matched(args);
  }
  std::vector<Value> copies;
  copies.reserve(args.size());
  for (const Value* a : args) copies.push_back(*a);
  return (*this)(std::move(copies));
}

namespace {

/// Pointers to `args` for the fast path, when there are few enough to keep on the stack.
constexpr size_t kFastPathArgs = 8;
bool refs_of(std::span<const Value> args, const Value* (&refs)[kFastPathArgs]) {
  if (args.size() > kFastPathArgs) return false;
  for (size_t i = 0; i < args.size(); ++i) refs[i] = &args[i];
  return true;
}

}  // namespace

Value Function::operator()(std::initializer_list<Value> args) {
  const Value* refs[kFastPathArgs];
  if (refs_of(std::span<const Value>(args.begin(), args.size()), refs)) {
    return call_positional(std::span<const Value* const>(refs, args.size()));
  }
  return (*this)(std::vector<Value>(args));
}

Value Function::operator()(std::vector<Value> args, Kwargs kwargs) {
  if (current_graph()) {
    return call_in_graph(numpy_inputs_as_tensors(bind_arguments(name_, params_, std::move(args), std::move(kwargs))));
  }
  // Fast path: positional arguments of exactly the last trace's types.
  const Value* refs[kFastPathArgs];
  if (kwargs.empty() && refs_of(args, refs)) {
    std::span<const Value* const> view(refs, args.size());
    if (ConcreteFunction* last = fast_path_trace(view)) return last->call_matched(view);
  }
  std::vector<Value> bound = numpy_inputs_as_tensors(bind_arguments(name_, params_, std::move(args), std::move(kwargs)));
  if (functions_run_eagerly()) {
    // TF calls the Python function itself, as written.
    AutographScope autograph(false);
    return body_(bound);
  }
  if (options_.input_signature) bound = apply_input_signature(bound);
  std::shared_ptr<ConcreteFunction> f = lookup_or_trace(bound);
  last_.store(f.get(), std::memory_order_release);
  return f->call_bound(bound);
}

Value Function::call_in_graph(std::vector<Value> bound) {
  // Called while another function is traced (a Function calling a Function,
  // or itself recursively on Python values): as TF does, this one is traced
  // once per signature, into a graph of its own, and the caller's graph gets
  // a call of it.
  if (functions_run_eagerly()) {
    AutographScope autograph(false);
    return body_(bound);
  }
  if (options_.input_signature) bound = apply_input_signature(bound);
  // Only calls made eagerly count for the retracing warning (TF's detector).
  return lookup_or_trace(bound, /*counted=*/false)->call_in_graph(bound);
}

std::shared_ptr<ConcreteFunction> Function::get_concrete_function(std::vector<Value> args, Kwargs kwargs) {
  // f.get_concrete_function() with an input_signature: the signature's trace.
  if (options_.input_signature && args.empty() && kwargs.empty()) return lookup_or_trace(*options_.input_signature);
  std::vector<Value> bound = numpy_inputs_as_tensors(bind_arguments(name_, params_, std::move(args), std::move(kwargs)));
  // With an input_signature there is one trace, for the signature's specs.
  return lookup_or_trace(options_.input_signature ? apply_input_signature_specs(bound) : bound);
}

std::shared_ptr<ConcreteFunction> Function::lookup_or_trace(const std::vector<Value>& args, bool counted) {
  std::vector<TraceType> types;
  types.reserve(args.size());
  if (options_.input_signature) {
    for (const Value& s : *options_.input_signature) types.push_back(TraceType::of(s));
  } else {
    for (const Value& a : args) types.push_back(TraceType::of(a));
  }
  std::lock_guard<std::recursive_mutex> lock(mu_);
  if (auto it = exact_.find(types); it != exact_.end()) {
    if (counted) note_call(false);
    return it->second;
  }
  // The most specific trace whose types are supertypes of these.
  std::shared_ptr<ConcreteFunction> best;
  auto subtype = [](const std::vector<TraceType>& a, const std::vector<TraceType>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!a[i].is_subtype_of(b[i])) return false;
    }
    return true;
  };
  for (const auto& t : traces_) {
    if (subtype(types, t->input_types()) && (!best || subtype(t->input_types(), best->input_types()))) best = t;
  }
  if (best) {
    if (counted) note_call(false);
    return best;
  }
  // The types of the call itself, before reduce_retracing relaxes them: what
  // the explanation compares with the cached traces.
  std::vector<TraceType> call_types = options_.reduce_retracing ? types : std::vector<TraceType>{};
  if (options_.reduce_retracing) {
    // Trace once for the most specific type covering this call and an earlier one.
    for (const auto& t : traces_) {
      std::vector<TraceType> general;
      for (size_t i = 0; i < types.size() && t->input_types().size() == types.size(); ++i) {
        auto c = types[i].common_supertype(t->input_types()[i]);
        if (!c) break;
        general.push_back(*c);
      }
      if (general.size() == types.size()) {
        types = std::move(general);
        break;
      }
    }
  }
  // agc's explained retraces: every miss after the first trace says which
  // arguments differ from the closest trace, by the same subtype rule the
  // lookup above just failed. A trace nested in this one's (recursion on
  // Python values) may be the first, so then it is explained after.
  const std::vector<TraceType>& given = options_.reduce_retracing ? call_types : types;
  std::optional<std::string> reason;
  if (!traces_.empty()) reason = explain_miss(given, types, traces_.size());
  std::shared_ptr<ConcreteFunction> traced = trace(args, types);
  if (!reason && traces_.size() > 1) reason = explain_miss(given, types, traces_.size() - 1);
  if (reason) retrace_reasons_.push_back(std::move(*reason));
  if (counted) note_call(true);
  return traced;
}

std::string Function::explain_miss(const std::vector<TraceType>& given, const std::vector<TraceType>& traced,
                                   size_t earlier) const {
  std::vector<const std::vector<TraceType>*> cached;
  for (size_t i = 0; i < earlier; ++i) cached.push_back(&traces_[i]->input_types());
  std::string reason = explain_retrace(params_, given, traced, cached);
  if (explain_retracing_enabled()) {
    std::fflush(stdout);
    std::fprintf(stderr, "agc: retracing %s: %s\n", name_.c_str(), reason.c_str());
    std::fflush(stderr);
  }
  return reason;
}

std::shared_ptr<ConcreteFunction> Function::trace_graph(const std::vector<Value>& args,
                                                        const std::vector<TraceType>& types) const {
  auto graph = std::make_shared<Graph>(name_);
  std::vector<Value> traced_args;
  for (size_t i = 0; i < params_.size(); ++i) {
    traced_args.push_back(placeholders_for(*graph, args[i], types[i], params_[i].name));
  }
  Value outputs;
  {
    TraceScope scope(*graph);
    AutographScope autograph(options_.autograph);
    Value result = body_(traced_args);
    outputs = outputs_of(*graph, result);
  }
  return std::make_shared<ConcreteFunction>(name_, params_, traced_args, types, graph, outputs);
}

std::shared_ptr<ConcreteFunction> Function::trace(const std::vector<Value>& args, const std::vector<TraceType>& types) {
  // TF's rule for tf.Variable inside a tf.function: the first trace may create
  // variables (their initial values are lifted out and set now); if it did, the
  // body is traced again with creation forbidden, and that trace is the one
  // that runs, so a body that creates a variable on every call fails and the
  // lazily-created pattern (`if self.v is None: self.v = tf.Variable(...)`)
  // works. A later trace that creates one fails too.
  std::shared_ptr<ConcreteFunction> concrete;
  if (created_variables_) {
    variable_value::CreationScope forbid(false);
    concrete = trace_graph(args, types);
  } else {
    bool created = false;
    {
      // The scope holds the variables it saw created (alive while the trace
      // compiles); the Function keeps them after, as TF's owns lifted variables.
      variable_value::CreationScope allow(true);
      concrete = trace_graph(args, types);
      created = !allow.created().empty();
      owned_variables_.insert(owned_variables_.end(), allow.created().begin(), allow.created().end());
    }
    if (created) {
      if (!traces_.empty()) throw ValueError(variable_value::kCreatedOnLaterCall);
      created_variables_ = true;
      variable_value::CreationScope forbid(false);
      concrete = trace_graph(args, types);
    }
  }
  traces_.push_back(concrete);
  exact_.emplace(types, concrete);
  return concrete;
}

void Function::note_call(bool traced) {
  // Calls that took the fast path count as calls without tracing.
  if (int fast = fast_calls_.exchange(0)) {
    if (calls_per_trace_.empty()) calls_per_trace_.push_back(0);
    calls_per_trace_.back() += fast;
    recent_calls_ += fast;
  }
  if (traced) {
    ++recent_calls_;
    calls_per_trace_.push_back(1);
    while (!calls_per_trace_.empty() && recent_calls_ - calls_per_trace_.front() > kMaxCallHistory) {
      recent_calls_ -= calls_per_trace_.front();
      calls_per_trace_.erase(calls_per_trace_.begin());
    }
    int traces = static_cast<int>(calls_per_trace_.size());
    if (traces >= kWarningThreshold) {
      tf_warning(std::to_string(traces) + " out of the last " + std::to_string(recent_calls_) + " calls to <function " +
           name_ +
           "> triggered tf.function retracing. Tracing is expensive and the excessive number of tracings could be "
           "due to (1) creating @tf.function repeatedly in a loop, (2) passing tensors with different shapes, (3) "
           "passing Python objects instead of tensors. For (1), please define your @tf.function outside of the "
           "loop. For (2), @tf.function has reduce_retracing=True option that can avoid unnecessary retracing. For "
           "(3), please refer to https://www.tensorflow.org/guide/function#controlling_retracing and "
           "https://www.tensorflow.org/api_docs/python/tf/function for  more details." +
           // agc's addition, after TF's text: why the latest trace was made.
           (retrace_reasons_.empty() ? std::string() : "\nagc: the last retrace of " + name_ + ": " + retrace_reasons_.back()));
    }
  } else {
    if (calls_per_trace_.empty()) calls_per_trace_.push_back(0);
    ++calls_per_trace_.back();
    ++recent_calls_;
  }
}

std::string Function::pretty_printed_concrete_signatures() const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  std::string s;
  for (size_t i = 0; i < traces_.size(); ++i) s += (i ? "\n\n" : "") + traces_[i]->signature_summary();
  return s;
}

std::vector<std::shared_ptr<ConcreteFunction>> Function::concrete_functions() const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  return traces_;
}

int Function::tracing_count() const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  return static_cast<int>(traces_.size());
}

std::vector<std::string> Function::retrace_reasons() const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  return retrace_reasons_;
}

}  // namespace ag
