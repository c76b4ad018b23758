#include "runtime/function/restored_function.h"

#include "runtime/core/error.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/nest.h"
#include "runtime/value/tensor_spec_value.h"

namespace ag {
namespace {

/// `spec` with each TensorSpec replaced by the graph's next input.
Value bind_inputs(const Value& spec, const Graph& g, size_t& next, const std::string& function) {
  if (std::optional<TensorSpec> s = tensor_spec_of(spec)) {
    if (next >= g.inputs().size()) {
      throw InvalidArgumentError("saved function " + function + " has fewer arguments than its input signature");
    }
    Node* in = g.inputs()[next++];
    if (in->outputs[0].dtype != s->dtype) {
      throw InvalidArgumentError("saved function " + function + "'s argument " + in->name + " is " +
                                 dtype_name(in->outputs[0].dtype) + " where its input signature says " +
                                 dtype_name(s->dtype));
    }
    return Value(in->output(0));
  }
  if (spec.is_list() || spec.is_tuple()) {
    std::vector<Value> items;
    for (const Value& v : spec.items()) items.push_back(bind_inputs(v, g, next, function));
    return spec.is_list() ? Value::list(std::move(items)) : Value::tuple(std::move(items));
  }
  if (spec.is_dict()) {
    std::vector<std::pair<Value, Value>> items;
    for (const auto& [k, v] : spec.as_dict().entries) items.emplace_back(k, bind_inputs(v, g, next, function));
    return Value::dict(std::move(items));
  }
  return spec;
}

}  // namespace

std::shared_ptr<ConcreteFunction> restore_concrete_function(const std::string& name, const std::string& inference_name,
                                                            std::vector<Param> params, const std::vector<Value>& arg_specs,
                                                            std::shared_ptr<Graph> graph, const Value& output_specs) {
  std::vector<Value> args;
  std::vector<TraceType> types;
  size_t next = 0;
  for (const Value& spec : arg_specs) {
    types.push_back(TraceType::of(spec));
    args.push_back(bind_inputs(spec, *graph, next, inference_name));
  }
  if (next != graph->inputs().size()) {
    throw InvalidArgumentError("saved function " + inference_name + " takes " + std::to_string(graph->inputs().size()) +
                               " tensors where its input signature has " + std::to_string(next));
  }
  size_t out = 0;
  Value outputs = nest::map_structure(output_specs, [&](const Value& leaf) -> Value {
    if (!tensor_spec_of(leaf)) return leaf;
    if (out >= graph->outputs().size()) {
      throw InvalidArgumentError("saved function " + inference_name + " returns fewer tensors than its output signature");
    }
    return Value(graph->outputs()[out++]);
  });
  if (out != graph->outputs().size()) {
    throw InvalidArgumentError("saved function " + inference_name + " returns " + std::to_string(graph->outputs().size()) +
                               " tensors where its output signature has " + std::to_string(out));
  }
  return std::make_shared<ConcreteFunction>(name, std::move(params), std::move(args), std::move(types), std::move(graph),
                                            std::move(outputs), inference_name);
}

}  // namespace ag
