// Elementwise fusion: chains of elementwise nodes of one dtype and shape
// become one FusedElementwise node holding them as its body (fused_ops.h).
#include <algorithm>

#include "runtime/graph/builders.h"
#include "runtime/graph/fused_ops.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/graph/optimize/rewrite.h"
#include "runtime/ops/elementwise_def.h"

namespace ag {
namespace {

/// A node FusedElementwise can run: a pure op whose ElementwiseDef has a
/// block step on its dtype (unary or binary, result of the operands' dtype),
/// a float type, whose inputs have its (fully defined) shape or are scalars.
bool elementwise_candidate(const Node& n) {
  const ElementwiseDef* e = n.op->elementwise;
  if (e == nullptr || n.stateful() || !n.control_inputs.empty() || n.outputs.size() != 1) return false;
  if (e->arity > 2 || static_cast<int>(n.inputs.size()) != e->arity) return false;
  const TensorSpec& out = n.outputs[0];
  // Floats only: an integer chain is rarely long enough to pay for the kernel.
  if ((out.dtype != DType::Float32 && out.dtype != DType::Float64) || !out.shape.fully_defined()) return false;
  if (e->result(out.dtype) != out.dtype || e->block_for(out.dtype) == nullptr) return false;
  for (const Output& in : n.inputs) {
    const TensorSpec& s = in.spec();
    if (s.dtype != out.dtype) return false;
    if (!(s.shape == out.shape) && !(s.shape.rank_known() && s.shape.rank() == 0)) return false;
  }
  return true;
}

}  // namespace

void fuse_elementwise(Graph& g) {
  const auto& nodes = g.nodes();
  const size_t n = nodes.size();
  std::vector<int> uses = opt::use_counts(g);
  std::vector<bool> is_output(n, false);
  for (const Output& o : g.outputs()) is_output[static_cast<size_t>(o.node->id)] = true;
  std::vector<bool> is_candidate(n), taken(n, false), keep(n, true);
  for (size_t i = 0; i < n; ++i) is_candidate[i] = elementwise_candidate(*nodes[i]);
  bool any = false;

  // Walk back from each root (latest first), absorbing producers whose only
  // use is inside the group: their work can move to the root's position.
  for (size_t r = n; r-- > 0;) {
    if (!is_candidate[r] || taken[r]) continue;
    Node& root = *nodes[r];
    std::vector<Node*> group{&root};
    std::vector<Node*> frontier{&root};
    while (!frontier.empty() && static_cast<int>(group.size()) < kFusedElementwiseMaxOps) {
      Node* m = frontier.back();
      frontier.pop_back();
      for (const Output& in : m->inputs) {
        const size_t p = static_cast<size_t>(in.node->id);
        if (in.node->graph != &g || !is_candidate[p] || taken[p] || uses[p] != 1 || is_output[p]) continue;
        if (!(in.node->outputs[0] == root.outputs[0])) continue;
        if (static_cast<int>(group.size()) >= kFusedElementwiseMaxOps) break;
        if (std::find(group.begin(), group.end(), in.node) != group.end()) continue;
        group.push_back(in.node);
        frontier.push_back(in.node);
      }
    }
    if (group.size() < 2) continue;
    std::sort(group.begin(), group.end(), [](const Node* a, const Node* b) { return a->id < b->id; });
    std::vector<Output> inputs;
    const Output result[1] = {root.output()};
    std::shared_ptr<Graph> body = fusion_body(g, group, result, inputs);
    if (static_cast<int>(inputs.size()) > kFusedElementwiseMaxInputs) continue;
    for (Node* m : group) {
      taken[static_cast<size_t>(m->id)] = true;
      if (m != &root) keep[static_cast<size_t>(m->id)] = false;
    }
    build::fused_elementwise(root, std::move(body), std::move(inputs));
    any = true;
  }
  if (any) g.remove_nodes(keep);
}

}  // namespace ag
