#include "runtime/graph/builders.h"

#include <vector>

#include "runtime/core/error.h"
#include "runtime/ops/eager.h"
#include "runtime/ops/registry.h"

namespace ag::build {

Output select(Graph& g, Output c, Output a, Output b, std::string_view name) {
  return g.add_node(op::SelectV2, {c, a, b}, {}, name)->output();
}

Output reshape(Graph& g, Output x, const Shape& shape, std::string_view name) {
  std::vector<int64_t> dims(shape.dims().begin(), shape.dims().end());
  Output s = g.constant(Tensor::from_vector<int64_t>(Shape{static_cast<int64_t>(dims.size())}, dims));
  return g.add_node(op::Reshape, {x, s}, {}, name)->output();
}

Output matmul(Graph& g, Output a, Output b, bool transpose_a, bool transpose_b, std::string_view name) {
  return g.add_node(op::MatMul, {a, b}, Attrs{{"transpose_a", transpose_a}, {"transpose_b", transpose_b}}, name)
      ->output();
}

namespace {

/// Replaces `at`'s op, inputs, attributes and subgraphs, checking with the
/// new op's shape rule that its outputs keep their types.
void become(Node& at, OpType type, std::vector<Output> inputs, Attrs attrs,
            std::vector<std::shared_ptr<Graph>> subgraphs = {}) {
  const OpDef& op = OpRegistry::global().get(type);
  std::vector<TensorSpec> specs;
  std::vector<const Tensor*> constants;
  for (const Output& in : inputs) {
    specs.push_back(in.spec());
    constants.push_back(Graph::constant_value(in));
  }
  std::vector<TensorSpec> out = infer_outputs(op, specs, attrs, constants, subgraphs);
  if (out.size() != at.outputs.size()) throw InternalError(op.name + " would change the outputs of " + at.name);
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i].dtype != at.outputs[i].dtype || !at.outputs[i].shape.is_compatible_with(out[i].shape)) {
      throw InternalError(op.name + " would change the type of " + at.name);
    }
  }
  at.op = &op;
  at.inputs = std::move(inputs);
  at.attrs = std::move(attrs);
  at.subgraphs = std::move(subgraphs);
}

}  // namespace

void fused_matmul(Node& at, std::vector<Output> inputs, Attrs attrs) {
  become(at, op::FusedMatMul, std::move(inputs), std::move(attrs));
}

void fused_elementwise(Node& at, std::shared_ptr<Graph> body, std::vector<Output> inputs) {
  become(at, op::FusedElementwise, std::move(inputs), {}, {std::move(body)});
}

Node* fused_scalar(Graph& g, std::shared_ptr<Graph> body, std::vector<Output> inputs, std::string_view name) {
  return g.add_node(OpRegistry::global().get(op::FusedScalar), std::move(inputs), {}, name, {std::move(body)});
}

}  // namespace ag::build
