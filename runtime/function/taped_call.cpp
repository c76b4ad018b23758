#include "runtime/function/taped_call.h"

#include <optional>
#include <unordered_map>

#include "runtime/core/error.h"
#include "runtime/core/variable.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/tape.h"

namespace ag {

std::optional<std::vector<TensorHandle>> run_graph_taped(const Graph& graph, std::span<const TensorHandle> inputs) {
  for (const auto& n : graph.nodes()) {
    if (!n->subgraphs.empty()) return std::nullopt;
  }
  if (graph.inputs().size() != inputs.size()) {
    throw InternalError("a taped call of " + graph.name() + " got " + std::to_string(inputs.size()) +
                        " inputs for " + std::to_string(graph.inputs().size()) + " placeholders");
  }
  std::unordered_map<const Node*, std::vector<TensorHandle>> values;
  for (size_t i = 0; i < inputs.size(); ++i) values[graph.inputs()[i]] = {inputs[i]};
  for (const auto& n : graph.nodes()) {
    if (values.count(n.get())) continue;  // an input
    if (n->op->role() == OpRole::Constant) {
      values[n.get()] = {TensorHandle(n->attrs.get<Tensor>("value"))};
      continue;
    }
    std::vector<TensorHandle> in;
    in.reserve(n->inputs.size());
    for (const Output& o : n->inputs) in.push_back(values.at(o.node).at(o.index));
    values[n.get()] = apply_op(OpType(n->op->name), in, n->attrs, n->name);
  }
  std::vector<TensorHandle> out;
  for (const Output& o : graph.outputs()) out.push_back(values.at(o.node).at(o.index));
  return out;
}

namespace {

/// Every variable read in `g` and the graphs nested in it: (id, dtype).
void variables_read(const Graph& g, std::vector<std::pair<int64_t, DType>>& out) {
  for (const auto& n : g.nodes()) {
    if (n->op->traits.reads_variable) out.emplace_back(n->attrs.get<int64_t>("var"), n->outputs[0].dtype);
    for (const auto& sub : n->subgraphs) variables_read(*sub, out);
  }
}

}  // namespace

void record_untaped_call(const Graph& graph, const std::string& function_name, std::span<const TensorHandle> inputs,
                         std::span<const TensorHandle> outputs) {
  TapeEntry e;
  e.inputs.assign(inputs.begin(), inputs.end());
  e.outputs.assign(outputs.begin(), outputs.end());
  for (const TensorHandle& t : inputs) {
    e.input_keys.push_back(key_of(t));
    e.input_dtypes.push_back(t.dtype());
  }
  std::vector<std::pair<int64_t, DType>> variables;
  variables_read(graph, variables);
  for (auto [id, dtype] : variables) {
    note_variable_read(id, Variable::lookup(id)->trainable());
    e.input_keys.push_back(variable_key(id));
    e.input_dtypes.push_back(dtype);
  }
  e.name = function_name;
  e.backward = [function_name](std::span<const std::optional<TensorHandle>>) -> std::vector<std::optional<TensorHandle>> {
    throw UnimplementedError("agc: the gradient of tf.function " + function_name +
                             " called under a GradientTape is not available yet: its graph holds a tf.cond or a "
                             "loop over tensors, whose gradients agc does not compute yet.");
  };
  record_call(e);
}

}  // namespace ag
