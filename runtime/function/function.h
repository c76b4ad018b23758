// tf.function: a Python function plus a cache of its traces. A call computes
// the arguments' TraceType; an exact match reuses its ConcreteFunction, else
// the most specific cached trace whose types are supertypes (unknown dims),
// else it traces anew: the body runs once on placeholders inside a graph,
// Python side effects (print) happen then, and later calls run the plan.
#pragma once

#include <atomic>
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "runtime/function/concrete_function.h"

namespace ag {

struct FunctionOptions {
  /// tf.function(input_signature=...): TensorSpec values, one per parameter.
  std::optional<std::vector<Value>> input_signature;
  /// tf.function(reduce_retracing=True): retrace with relaxed shapes.
  bool reduce_retracing = false;
  /// tf.function(autograph=False): traces run the body as written, not its
  /// AutoGraph conversion (see AutographScope).
  bool autograph = true;
  /// tf.function(jit_compile=...): None, or compile with XLA. agc records
  /// it (a SavedModel's FunctionSpec; the TPU converter's
  /// jit_compile_functions selects by it); every function is compiled anyway.
  std::optional<bool> jit_compile;
};

class Function {
 public:
  Function(std::string name, std::vector<Param> params, Body body, FunctionOptions options = {});

  /// Calls as Python would: bind, look up or trace, run.
  Value operator()(std::vector<Value> args = {}, Kwargs kwargs = {});
  /// Positional arguments only (`f({x, y})`): a cache hit builds no vector.
  Value operator()(std::initializer_list<Value> args);
  /// Positional arguments by reference (`f(x, y)`): a cache hit copies no Value.
  template <class... A>
    requires(sizeof...(A) > 0 && (std::is_same_v<std::remove_cvref_t<A>, Value> && ...))
  Value operator()(const A&... args) {
    const Value* refs[] = {&args...};
    return call_positional(std::span<const Value* const>(refs, sizeof...(A)));
  }
  /// The trace for these arguments (TensorSpec values allowed), tracing if needed.
  std::shared_ptr<ConcreteFunction> get_concrete_function(std::vector<Value> args = {}, Kwargs kwargs = {});
  /// Every trace's signature_summary(), in trace order, separated by blank lines.
  std::string pretty_printed_concrete_signatures() const;
  /// Its traces, in trace order (what a SavedModel saves).
  std::vector<std::shared_ptr<ConcreteFunction>> concrete_functions() const;
  /// How many times the body was traced (experimental_get_tracing_count()).
  int tracing_count() const;
  /// agc: why each trace after the first was made, in trace order
  /// (function/retrace_reason.h): the arguments that differed from the
  /// closest earlier trace, e.g. "x: float32[3] -> float32[4]; n: 3 -> 4".
  std::vector<std::string> retrace_reasons() const;

  const std::string& name() const { return name_; }
  const std::vector<Param>& params() const { return params_; }
  const Body& body() const { return body_; }
  const FunctionOptions& options() const { return options_; }

 private:
  /// The last trace, when it takes exactly these positional arguments (no
  /// kwargs, no input_signature, not running eagerly); else null.
  ConcreteFunction* fast_path_trace(std::span<const Value* const> args);
  /// A call with positional arguments only: the fast path, else the general one.
  Value call_positional(std::span<const Value* const> args);
  /// A call while another function is traced: the trace for these
  /// arguments (made once per signature) called from the graph being built.
  Value call_in_graph(std::vector<Value> bound);
  /// The trace for `args`, made if needed; `counted`: the call counts for
  /// the retracing warning.
  std::shared_ptr<ConcreteFunction> lookup_or_trace(const std::vector<Value>& args, bool counted = true);
  std::shared_ptr<ConcreteFunction> trace(const std::vector<Value>& args, const std::vector<TraceType>& types);
  /// One trace of the body into a new graph (not cached).
  std::shared_ptr<ConcreteFunction> trace_graph(const std::vector<Value>& args, const std::vector<TraceType>& types) const;
  /// Why a call of types `given` (traced as `traced`) missed the first
  /// `earlier` traces (retrace_reason.h), printed under AGC_EXPLAIN_RETRACING.
  std::string explain_miss(const std::vector<TraceType>& given, const std::vector<TraceType>& traced,
                           size_t earlier) const;
  std::vector<Value> apply_input_signature(const std::vector<Value>& args) const;
  /// The signature's specs, after checking `args` (tensors or TensorSpecs) against them.
  std::vector<Value> apply_input_signature_specs(const std::vector<Value>& args) const;
  void note_call(bool traced);

  std::string name_;
  std::vector<Param> params_;
  Body body_;
  FunctionOptions options_;

  /// The cache; tracing runs under it, so each signature traces once. A
  /// trace may call the Function again (recursion on Python values: a
  /// nested trace), hence recursive.
  mutable std::recursive_mutex mu_;
  /// The first trace created tf.Variables: later traces may not (TF's rule).
  bool created_variables_ = false;
  /// Variables its traces created (kernels hold variables only weakly).
  std::vector<std::shared_ptr<Variable>> owned_variables_;
  std::vector<std::shared_ptr<ConcreteFunction>> traces_;
  /// retrace_reasons(): one per trace after the first.
  std::vector<std::string> retrace_reasons_;
  struct KeyHash {
    size_t operator()(const std::vector<TraceType>& k) const;
  };
  std::unordered_map<std::vector<TraceType>, std::shared_ptr<ConcreteFunction>, KeyHash> exact_;
  // TF's frequent-tracing detector: calls per trace over the recent history.
  std::vector<int> calls_per_trace_;
  int recent_calls_ = 0;
  /// The last trace used: the call fast path checks it first, without the lock.
  /// Traces live as long as the Function, so a raw pointer is safe.
  std::atomic<ConcreteFunction*> last_{nullptr};
  /// Fast-path calls not yet counted by the detector (folded in under the lock).
  std::atomic<int> fast_calls_{0};
};

/// tf.config.run_functions_eagerly: when on, Functions run their bodies directly.
void run_functions_eagerly(bool on);
bool functions_run_eagerly();

/// Where warnings go (TF's logging: "WARNING:tensorflow:..." on stderr); tests replace it.
void set_warning_sink(std::function<void(const std::string&)> sink);
/// Logs `msg` as TF's `logging.warning` does, through the sink.
void tf_warning(const std::string& msg);

/// AGC_EXPLAIN_RETRACING=1 (read at each retrace): every trace after the
/// first prints "agc: retracing f: <reason>" to stderr.
bool explain_retracing_enabled();

}  // namespace ag
