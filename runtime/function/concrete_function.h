// ConcreteFunction: one trace of a tf.function — the graph as traced, its
// executable (compile(graph, cpu_target()): an optimized copy and its plan),
// and the structure of its inputs and outputs. Calling it binds arguments to the traced signature: tensors must
// match their placeholders, Python values must equal the traced ones.
#pragma once

#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "runtime/exec/compile.h"
#include "runtime/function/taped_call.h"
#include "runtime/function/trace_type.h"
#include "runtime/graph/graph.h"
#include "runtime/value/user_function.h"
#include "runtime/value/value.h"

namespace ag {

class ConcreteFunction {
 public:
  /// Built by Function::trace: `args` hold, per parameter, the traced value
  /// (placeholders where tensors go); `outputs` the traced result.
  /// `inference_name`: a saved function's own (default: a new one).
  ConcreteFunction(std::string name, std::vector<Param> params, std::vector<Value> args, std::vector<TraceType> types,
                   std::shared_ptr<Graph> graph, Value outputs, std::string inference_name = {});

  /// Calls with bound arguments, one per parameter.
  Value call_bound(const std::vector<Value>& args) const;
  /// True when `args` (one per parameter) have exactly the traced types: the
  /// cheap check of a Function's call fast path (it allocates nothing).
  bool matches_exactly(std::span<const Value* const> args) const;
  /// call_bound for arguments matches_exactly accepted: no checks repeated.
  Value call_matched(std::span<const Value* const> args) const;
  /// call_bound while a tape records: the graph runs op by op so the tape
  /// sees its ops (function/taped_call.h).
  Value call_taped(const std::vector<Value>& args) const;
  /// A call from the graph being traced (bound arguments of the traced
  /// types, tensors symbolic or eager): the graph gets a PartitionedCall of
  /// a copy of this graph; returns its outputs in the traced structure.
  Value call_in_graph(const std::vector<Value>& args) const;
  /// Calls as Python would, binding `args`/`kwargs` to the parameters.
  Value operator()(std::vector<Value> args, Kwargs kwargs = {}) const;

  const std::vector<Param>& params() const { return params_; }
  /// Per parameter, the value it was traced with (placeholders for tensors).
  const std::vector<Value>& traced_args() const { return args_; }
  /// The traced argument types, one per parameter.
  const std::vector<TraceType>& input_types() const { return types_; }
  /// The graph as traced (node names as TF gives them).
  const Graph& graph() const { return *graph_; }
  /// The graph as the CPU target optimized it, the one calls run.
  const Graph& optimized_graph() const { return executable_.graph(); }
  /// "__inference_<name>_<n>": the name errors use.
  const std::string& inference_name() const { return inference_name_; }
  const std::string& name() const { return name_; }
  /// The traced result, symbolic tensors included (structured_outputs).
  const Value& structured_outputs() const { return outputs_; }
  /// ((TensorSpec(shape=(), dtype=tf.string, name='a'),), {}): the traced
  /// arguments with each tensor a TensorSpec named after its path.
  Value structured_input_signature() const;

  /// "double(a)\n  Args:\n    a: int32 Tensor, shape=()\n  Returns:\n    ..." (no "ConcreteFunction ").
  std::string signature_summary() const;
  /// print(concrete): "ConcreteFunction " + signature_summary().
  std::string str() const { return "ConcreteFunction " + signature_summary(); }

 private:
  /// Runs the plan; `check`: check the tensors against its arguments first
  /// (false only when matches_exactly has).
  Value run_plan(std::span<const Tensor* const> tensors, bool check) const;
  /// Checks the eager tensor `given` against the placeholder `traced` and appends it.
  void flatten_tensor(const TensorHandle& traced, const TensorHandle& given, std::vector<const Tensor*>& tensors) const;
  void flatten_call(const Value& traced, const Value& given, const std::string& param,
                    std::vector<const Tensor*>& tensors) const;

  std::string name_;
  std::string inference_name_;
  std::vector<Param> params_;
  std::vector<Value> args_;
  std::vector<TraceType> types_;
  std::shared_ptr<Graph> graph_;
  Value outputs_;
  Executable executable_;
  /// The graph split for calls under a tape that cannot run op by op
  /// (function/taped_call.h), built on the first such call.
  mutable std::mutex split_mu_;
  mutable std::shared_ptr<const SplitGradient> split_;
};

/// Python's description of a literal in TF's messages: "int value 2".
std::string describe_literal(const Value& v);
/// "int32 Tensor, shape=()" as signatures print a tensor type.
std::string describe_tensor_spec(const TensorSpec& spec);

}  // namespace ag
