// FusedElementwise and FusedScalar (see fused_ops.h): the body builder and
// the ops' definitions. Their shape rules check the body against the ops'
// ElementwiseDefs, so the graph verifier, which runs them again after every
// optimizer pass, catches a malformed fusion.
#include "runtime/graph/fused_ops.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "runtime/core/error.h"
#include "runtime/ops/elementwise_def.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

[[noreturn]] void malformed(std::string_view op, const std::string& why) {
  throw InvalidArgumentError(std::string(op) + ": malformed body: " + why);
}

/// The node's body, after checking that the inputs feed its placeholders.
const Graph& checked_body(const InferContext& c, int max_inputs) {
  if (c.subgraphs.size() != 1 || c.subgraphs[0] == nullptr) malformed(c.op, "a fused node holds one subgraph");
  const Graph& body = *c.subgraphs[0];
  if (body.inputs().size() != c.inputs.size() || static_cast<int>(c.inputs.size()) > max_inputs) {
    malformed(c.op, std::to_string(c.inputs.size()) + " inputs for " + std::to_string(body.inputs().size()) +
                        " placeholders (at most " + std::to_string(max_inputs) + ")");
  }
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const TensorSpec& want = body.inputs()[i]->outputs[0];
    if (c.inputs[i].dtype != want.dtype || !want.shape.is_compatible_with(c.inputs[i].shape)) {
      malformed(c.op, "input " + std::to_string(i) + " does not fit its placeholder");
    }
  }
  return body;
}

/// The elementwise semantic of body node `n`, with the arity its inputs have.
const ElementwiseDef& body_op(std::string_view op, const Node& n) {
  const ElementwiseDef* e = n.op->elementwise;
  if (n.op->role() != OpRole::Compute || e == nullptr || n.stateful() || !n.control_inputs.empty() ||
      static_cast<int>(n.inputs.size()) != e->arity || n.outputs.size() != 1) {
    malformed(op, n.op->name + " is not a pure elementwise op");
  }
  return *e;
}

std::vector<TensorSpec> infer_fused_elementwise(const InferContext& c) {
  const Graph& body = checked_body(c, kFusedElementwiseMaxInputs);
  if (body.outputs().size() != 1 || body.nodes().empty() || body.outputs()[0].node != body.nodes().back().get()) {
    malformed(c.op, "its one output is its last node");
  }
  const TensorSpec out = body.outputs()[0].spec();
  int ops = 0;
  for (const auto& n : body.nodes()) {
    const TensorSpec& s = n->outputs[0];
    if (s.dtype != out.dtype) malformed(c.op, "every value must be " + std::string(dtype_name(out.dtype)));
    if (n->op->role() == OpRole::Argument) {
      if (!(s.shape == out.shape) && !(s.shape.rank_known() && s.shape.rank() == 0)) {
        malformed(c.op, "an input is neither of the output's shape nor a scalar");
      }
      continue;
    }
    const ElementwiseDef& e = body_op(c.op, *n);
    if (e.arity > 2 || e.result(out.dtype) != out.dtype || e.block_for(out.dtype) == nullptr || !(s.shape == out.shape)) {
      malformed(c.op, n->op->name + " cannot run in its loop on " + dtype_name(out.dtype));
    }
    ++ops;
  }
  if (ops > kFusedElementwiseMaxOps) malformed(c.op, "more than " + std::to_string(kFusedElementwiseMaxOps) + " ops");
  return {out};
}

std::vector<TensorSpec> infer_fused_scalar(const InferContext& c) {
  const Graph& body = checked_body(c, kFusedScalarMaxInputs);
  auto scalar = [](const TensorSpec& s) {
    return s.shape.rank_known() && s.shape.rank() == 0 && scalar_register_dtype(s.dtype);
  };
  int ops = 0;
  for (const auto& n : body.nodes()) {
    if (!scalar(n->outputs[0])) malformed(c.op, "every value must be a scalar of a register dtype");
    if (n->op->role() == OpRole::Argument) continue;
    const ElementwiseDef& e = body_op(c.op, *n);
    const DType operand = n->inputs[e.arity == 3 ? 1 : 0].spec().dtype;
    if (e.scalar_for(operand) == nullptr || e.result(operand) != n->outputs[0].dtype) {
      malformed(c.op, n->op->name + " has no scalar step for " + dtype_name(operand));
    }
    ++ops;
  }
  if (ops > kFusedScalarMaxOps) malformed(c.op, "more than " + std::to_string(kFusedScalarMaxOps) + " ops");
  std::vector<TensorSpec> out;
  for (const Output& o : body.outputs()) out.push_back(o.spec());
  return out;
}

}  // namespace

std::shared_ptr<Graph> fusion_body(Graph& g, std::span<Node* const> members, std::span<const Output> results,
                                   std::vector<Output>& inputs) {
  auto body = std::make_shared<Graph>(members.back()->name, &g);
  std::unordered_map<const Node*, Node*> copy;
  auto map = [&](const Output& o) -> Output {
    auto it = copy.find(o.node);
    if (it != copy.end()) return Output{it->second, o.index};
    auto known = std::find(inputs.begin(), inputs.end(), o);
    if (known != inputs.end()) return body->inputs()[static_cast<size_t>(known - inputs.begin())]->output();
    inputs.push_back(o);
    return body->placeholder(o.spec(), o.node->name);
  };
  for (Node* m : members) {
    std::vector<Output> in;
    in.reserve(m->inputs.size());
    for (const Output& o : m->inputs) in.push_back(map(o));
    copy[m] = body->add_copy(*m, std::move(in));
  }
  for (const Output& r : results) body->outputs().push_back(map(r));
  return body;
}

void register_fused_ops(OpRegistry& reg) {
  // Fusion runs after differentiation and placement: neither ever sees one.
  const char* const why = "fused nodes are made after device placement";
  reg.op("FusedElementwise")
      .inputs(1, kFusedElementwiseMaxInputs)
      .role(OpRole::Fused)
      .infer(infer_fused_elementwise)
      .cost(CostKind::Elementwise)
      .tpu_unsupported(why)
      .not_differentiable();
  reg.op("FusedScalar")
      .inputs(0, kFusedScalarMaxInputs)
      .outputs(-1)
      .role(OpRole::Fused)
      .infer(infer_fused_scalar)
      .cost(CostKind::Elementwise)
      .tpu_unsupported(why)
      .not_differentiable();
}

}  // namespace ag
