#include "runtime/function/taped_call.h"

#include <optional>
#include <unordered_map>

#include "runtime/core/error.h"
#include "runtime/core/variable.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/gradients.h"
#include "runtime/graph/tape.h"

namespace ag {

namespace {

/// True when every node of `g` runs as one op: no If or While, at any depth
/// of the function calls it makes (a call runs its function's nodes).
bool runs_op_by_op(const Graph& g) {
  for (const auto& n : g.nodes()) {
    if (n->subgraphs.empty()) continue;
    if (n->op->role() != OpRole::Call || !runs_op_by_op(*n->subgraphs[0])) return false;
  }
  return true;
}

std::vector<TensorHandle> run_op_by_op(const Graph& graph, std::span<const TensorHandle> inputs) {
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
    values[n.get()] = n->op->role() == OpRole::Call ? run_op_by_op(*n->subgraphs[0], in)
                                                   : apply_op(OpType(n->op->name), in, n->attrs, n->name);
  }
  std::vector<TensorHandle> out;
  for (const Output& o : graph.outputs()) out.push_back(values.at(o.node).at(o.index));
  return out;
}

}  // namespace

std::optional<std::vector<TensorHandle>> run_graph_taped(const Graph& graph, std::span<const TensorHandle> inputs) {
  if (!runs_op_by_op(graph)) return std::nullopt;
  return run_op_by_op(graph, inputs);
}

SplitGradient::SplitGradient(const Graph& traced, std::string name) : name_(std::move(name)) {
  std::shared_ptr<Graph> forward = traced.clone();
  auto backward = std::make_shared<Graph>(traced.name() + "_grad");
  num_outputs_ = forward->outputs().size();
  variables_ = variables_read(*forward);
  {
    TraceScope scope(*backward);
    std::vector<std::optional<TensorHandle>> seeds(num_outputs_);
    for (size_t k = 0; k < num_outputs_; ++k) {
      const TensorSpec& spec = forward->outputs()[k].spec();
      if (!is_trainable_dtype(spec.dtype)) continue;
      seeded_.push_back(k);
      seeds[k] = TensorHandle(backward->placeholder(spec, "grad"));
    }
    // A forward tensor the gradient reads becomes a forward output and a
    // backward argument (after the seeds); constants are copied.
    Graph& fwd = *forward;
    Graph& bwd = *backward;
    backward->set_foreign_resolver([&fwd, &bwd](const Output& t) -> std::optional<Output> {
      if (t.node->graph != &fwd) return std::nullopt;
      if (const Tensor* v = Graph::constant_value(t)) return bwd.constant(*v, t.node->name);
      fwd.outputs().push_back(t);
      return bwd.placeholder(t.spec(), "saved");
    });
    GraphGradient gr = differentiate_graph(fwd, seeds);
    backward->set_foreign_resolver(nullptr);
    auto take = [&](const std::optional<TensorHandle>& g) {
      if (!g) return grad_index_.push_back(-1);
      grad_index_.push_back(static_cast<int>(bwd.outputs().size()));
      bwd.outputs().push_back(in_graph(bwd, *g));
    };
    for (const auto& g : gr.args) take(g);
    for (const auto& g : gr.variables) take(g);
  }
  forward_ = compile(*forward);
  backward_ = compile(*backward);
}

std::vector<TensorHandle> SplitGradient::call(std::span<const TensorHandle> inputs) const {
  std::vector<const Tensor*> in;
  for (const TensorHandle& h : inputs) in.push_back(&h.value());
  auto results = std::make_shared<std::vector<Tensor>>(forward_.plan().num_outputs());
  forward_.plan().run(in, *results);
  std::vector<TensorHandle> outputs(results->begin(), results->begin() + static_cast<std::ptrdiff_t>(num_outputs_));

  TapeEntry e;
  e.inputs.assign(inputs.begin(), inputs.end());
  e.outputs = outputs;
  for (const TensorHandle& t : inputs) {
    e.input_keys.push_back(key_of(t));
    e.input_dtypes.push_back(t.dtype());
  }
  for (auto [id, dtype] : variables_) {
    note_variable_read(id, Variable::lookup(id)->trainable());
    e.input_keys.push_back(variable_key(id));
    e.input_dtypes.push_back(dtype);
  }
  e.name = name_;
  e.backward = [self = shared_from_this(), results](std::span<const std::optional<TensorHandle>> grads) {
    return self->run_backward(*results, grads);
  };
  record_call(e);
  return outputs;
}

std::vector<std::optional<TensorHandle>> SplitGradient::run_backward(
    const std::vector<Tensor>& results, std::span<const std::optional<TensorHandle>> grads) const {
  {
    if (any_tape_recording()) {
      throw UnimplementedError("agc: the gradient of tf.function " + name_ +
                               " (whose graph holds a tf.cond or a loop over tensors) is computed while a "
                               "GradientTape records: a second derivative through it is not supported yet.");
    }
    // The seeds (zeros for an output without a gradient), then the saved tensors.
    std::vector<Tensor> seeds;
    for (size_t k : seeded_) {
      const Tensor& out = results[k];
      seeds.push_back(grads[k] ? grads[k]->value() : Tensor::zeros(out.dtype(), out.shape()));
    }
    std::vector<const Tensor*> in;
    for (const Tensor& t : seeds) in.push_back(&t);
    for (size_t i = num_outputs_; i < results.size(); ++i) in.push_back(&results[i]);
    std::vector<Tensor> out(backward_.plan().num_outputs());
    backward_.plan().run(in, out);
    std::vector<std::optional<TensorHandle>> per_key;
    for (int index : grad_index_) {
      per_key.push_back(index < 0 ? std::nullopt : std::optional<TensorHandle>(TensorHandle(out[static_cast<size_t>(index)])));
    }
    return per_key;
  }
}

}  // namespace ag
