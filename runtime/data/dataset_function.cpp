#include "runtime/data/dataset_function.h"

#include <unordered_map>

#include "runtime/graph/tracing.h"

namespace ag::data {
namespace {

/// Runs `plan` on `in` into `out`.
void run_plan(const Executable& e, std::span<const Tensor> in, std::vector<Tensor>& out) {
  const Tensor* ptrs[16];
  std::vector<const Tensor*> many;
  std::span<const Tensor* const> args;
  if (in.size() <= 16) {
    for (size_t i = 0; i < in.size(); ++i) ptrs[i] = &in[i];
    args = std::span<const Tensor* const>(ptrs, in.size());
  } else {
    for (const Tensor& t : in) many.push_back(&t);
    args = many;
  }
  out.resize(e.plan().num_outputs());
  e.plan().run(args, out);
}

/// `g` rebuilt on placeholders with a leading unknown (batch) dimension, when
/// every node is a placeholder, constant, identity or stateless elementwise
/// op and every output is its element shape with the batch dimension first;
/// else null. The shape rules run again on the batched inputs, so a
/// broadcast that would mix the batch dimension with an element's fails here.
std::shared_ptr<Graph> batched_graph(const Graph& g) {
  auto b = std::make_shared<Graph>(g.name());
  std::unordered_map<const Node*, Node*> map;
  auto mapped = [&](const Output& o) { return Output{map.at(o.node), o.index}; };
  for (const auto& n : g.nodes()) {
    if (!n->subgraphs.empty() || !n->control_inputs.empty() || n->stateful()) return nullptr;
    switch (n->op->role()) {
      case OpRole::Argument: {
        const TensorSpec& s = n->outputs[0];
        if (!s.shape.rank_known()) return nullptr;
        Shape shape{kUnknownDim};
        for (int64_t d : s.shape.dims()) shape.push_back(d);
        map[n.get()] = b->placeholder({s.dtype, shape}, n->name).node;
        continue;
      }
      case OpRole::Constant:
      case OpRole::Identity: break;
      case OpRole::Compute:
        if (n->op->elementwise == nullptr) return nullptr;
        break;
      default: return nullptr;
    }
    std::vector<Output> inputs;
    for (const Output& in : n->inputs) inputs.push_back(mapped(in));
    map[n.get()] = b->add_node(*n->op, std::move(inputs), n->attrs, n->name);
  }
  for (const Output& o : g.outputs()) {
    Output out = mapped(o);
    const TensorSpec& element = o.spec();
    const TensorSpec& batch = out.spec();
    if (!element.shape.rank_known() || !batch.shape.rank_known() || batch.shape.rank() != element.shape.rank() + 1 ||
        batch.shape.dim(0) != kUnknownDim) {
      return nullptr;
    }
    for (int d = 0; d < element.shape.rank(); ++d) {
      if (batch.shape.dim(d + 1) != element.shape.dim(d)) return nullptr;
    }
    b->outputs().push_back(out);
  }
  return b;
}

}  // namespace

std::vector<ElementSpec> element_arguments(const ElementSpec& element) {
  if (element.kind == ElementSpec::Kind::Tuple) return element.children;
  return {element};
}

DatasetFunction::DatasetFunction(const Value& fn, const std::vector<ElementSpec>& args, std::string what)
    : graph_(std::make_shared<Graph>(what)) {
  if (!fn.is_callable() && !(fn.is_object() && fn.hasattr("__call__"))) {
    throw TypeError("`" + what + "` expects a callable, got " + fn.type_name());
  }
  // Placeholders in flat order over all arguments, named as TF names them.
  std::vector<Value> values;
  int index = 0;
  for (const ElementSpec& a : args) {
    std::vector<TensorHandle> handles;
    for (const TensorSpec& s : a.flat_specs()) handles.emplace_back(graph_->placeholder(s, "args_" + std::to_string(index++)));
    values.push_back(pack_handles(a, handles));
  }
  std::vector<TensorHandle> results;
  {
    TraceScope scope(*graph_);
    Value result = fn(values);
    output_ = structure_of_result(result, results);
    for (const TensorHandle& h : results) {
      Output out = graph_->add_node(op::Identity, {in_graph(*graph_, h)}, {}, "Identity")->output(0);
      graph_->outputs().push_back(out);
    }
  }
  executable_ = compile(*graph_);
  // Composite elements (a RaggedTensor's components differ in length from
  // element to element) never stack into a batch: element by element.
  bool composite = output_.contains_composite();
  for (const ElementSpec& a : args) composite = composite || a.contains_composite();
  try {
    batched_ = composite ? nullptr : batched_graph(*graph_);
  } catch (const Error&) {
    batched_ = nullptr;  // a shape rule refused the batched inputs: element by element
  }
  if (batched_) batched_executable_ = compile(*batched_);
}

void DatasetFunction::run(std::span<const Tensor> in, std::vector<Tensor>& out) const {
  run_plan(executable_, in, out);
}

void DatasetFunction::run_batch(std::span<const Tensor> in, std::vector<Tensor>& out) const {
  run_plan(batched_executable_, in, out);
}

}  // namespace ag::data
