#include <algorithm>

#include "runtime/exec/fused_elementwise.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/graph/optimize/rewrite.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

/// A node FusedElementwise can run: a known elementwise op on float32/float64
/// whose inputs have its (fully defined) shape or are scalars.
bool elementwise_candidate(const Node& n) {
  if (n.stateful() || !n.control_inputs.empty() || n.outputs.size() != 1) return false;
  const int arity = fusable_op_arity(n.op->name);
  if (arity == 0 || static_cast<int>(n.inputs.size()) != arity) return false;
  const TensorSpec& out = n.outputs[0];
  if ((out.dtype != DType::Float32 && out.dtype != DType::Float64) || !out.shape.fully_defined()) return false;
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
  const OpDef* fused_op = OpRegistry::global().find("FusedElementwise");
  if (fused_op == nullptr) return;
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
    while (!frontier.empty() && static_cast<int>(group.size()) < kFusedMaxOps) {
      Node* m = frontier.back();
      frontier.pop_back();
      for (const Output& in : m->inputs) {
        const size_t p = static_cast<size_t>(in.node->id);
        if (!is_candidate[p] || taken[p] || uses[p] != 1 || is_output[p] || in.node->graph != &g) continue;
        if (!(in.node->outputs[0].shape == root.outputs[0].shape) || in.node->outputs[0].dtype != root.outputs[0].dtype) {
          continue;
        }
        if (static_cast<int>(group.size()) >= kFusedMaxOps) break;
        if (std::find(group.begin(), group.end(), in.node) != group.end()) continue;
        group.push_back(in.node);
        frontier.push_back(in.node);
      }
    }
    if (group.size() < 2) continue;
    std::sort(group.begin(), group.end(), [](const Node* a, const Node* b) { return a->id < b->id; });
    // Registers: external inputs first, then one per member in order.
    std::vector<Output> inputs;
    std::vector<std::string> ops;
    std::vector<int64_t> operands;
    auto reg_of = [&](const Output& o) -> int64_t {
      auto it = std::find(group.begin(), group.end(), o.node);
      if (it != group.end()) return -1 - (it - group.begin());  // member k → -1-k, fixed below
      auto e = std::find(inputs.begin(), inputs.end(), o);
      if (e != inputs.end()) return e - inputs.begin();
      inputs.push_back(o);
      return static_cast<int64_t>(inputs.size()) - 1;
    };
    for (Node* m : group) {
      ops.push_back(m->op->name);
      operands.push_back(reg_of(m->inputs[0]));
      operands.push_back(m->inputs.size() > 1 ? reg_of(m->inputs[1]) : -1 - static_cast<int64_t>(kFusedMaxOps) * 4);
    }
    if (static_cast<int>(inputs.size()) > kFusedMaxInputs) continue;
    const auto n_in = static_cast<int64_t>(inputs.size());
    for (int64_t& v : operands) {
      if (v == -1 - static_cast<int64_t>(kFusedMaxOps) * 4) {
        v = -1;  // a unary op's missing operand
      } else if (v < 0) {
        v = n_in + (-1 - v);  // member k's result register
      }
    }
    for (Node* m : group) {
      taken[static_cast<size_t>(m->id)] = true;
      if (m != &root) keep[static_cast<size_t>(m->id)] = false;
    }
    const DType t = root.outputs[0].dtype;
    root.op = fused_op;
    root.inputs = std::move(inputs);
    root.attrs = Attrs{{"T", t}, {"ops", std::move(ops)}, {"operands", std::move(operands)}};
    any = true;
  }
  if (any) g.remove_nodes(keep);
}

}  // namespace ag
