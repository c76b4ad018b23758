// Scalar fusion: runs of scalar (rank-0) ops FusedScalar can run become one
// FusedScalar node with one output per value used outside the run. A run is
// cut before any other node that reads one of its values (so the fused node,
// placed where the run's last op stood, comes before every reader), and when
// it reaches FusedScalar's size limits, and before a stateful node (so errors
// keep their place in program order). Nodes without inputs (Const,
// Placeholder) never cut a run.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "runtime/graph/builders.h"
#include "runtime/graph/fused_ops.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/graph/optimize/rewrite.h"
#include "runtime/ops/elementwise_def.h"

namespace ag {
namespace {

bool scalar(const TensorSpec& s) { return s.shape.rank_known() && s.shape.rank() == 0; }

/// A node FusedScalar can run: a pure op on scalars whose ElementwiseDef has
/// a scalar step for its operands' dtype.
bool scalar_candidate(const Node& n) {
  const ElementwiseDef* e = n.op->elementwise;
  if (e == nullptr || n.stateful() || !n.control_inputs.empty() || n.outputs.size() != 1) return false;
  if (static_cast<int>(n.inputs.size()) != e->arity || !scalar(n.outputs[0])) return false;
  for (const Output& o : n.inputs) {
    if (!scalar(o.spec())) return false;
  }
  const DType operand = n.inputs[e->arity == 3 ? 1 : 0].spec().dtype;
  return e->scalar_for(operand) != nullptr && e->result(operand) == n.outputs[0].dtype;
}

struct Group {
  std::vector<Node*> members;
  Node* fused = nullptr;
};

}  // namespace

void fuse_scalar(Graph& g) {
  const size_t n = g.nodes().size();
  std::vector<int> group_of(n, -1);
  std::vector<Group> groups;
  std::vector<Node*> current;
  std::vector<Output> current_inputs;  // the run's outside inputs, for FusedScalar's limit

  auto flush = [&] {
    if (current.size() >= 2) {
      for (Node* m : current) group_of[static_cast<size_t>(m->id)] = static_cast<int>(groups.size());
      groups.push_back(Group{current, nullptr});
    }
    current.clear();
    current_inputs.clear();
  };
  auto in_current = [&](const Node* m) { return std::find(current.begin(), current.end(), m) != current.end(); };

  for (const auto& node : g.nodes()) {
    Node* m = node.get();
    if (scalar_candidate(*m)) {
      // The external inputs this node adds to the run.
      std::vector<Output> added;
      for (const Output& in : m->inputs) {
        if (in_current(in.node)) continue;
        if (std::find(current_inputs.begin(), current_inputs.end(), in) != current_inputs.end()) continue;
        if (std::find(added.begin(), added.end(), in) != added.end()) continue;
        added.push_back(in);
      }
      if (static_cast<int>(current.size()) >= kFusedScalarMaxOps ||
          static_cast<int>(current_inputs.size() + added.size()) > kFusedScalarMaxInputs) {
        flush();
        added.clear();
        for (const Output& in : m->inputs) {
          if (std::find(added.begin(), added.end(), in) == added.end()) added.push_back(in);
        }
      }
      current.push_back(m);
      current_inputs.insert(current_inputs.end(), added.begin(), added.end());
      continue;
    }
    // A fused op that fails (integer division by zero) must still fail
    // before a later print or assignment runs: stateful nodes cut the run.
    bool reads_run = m->stateful();
    for (const Output& in : m->inputs) reads_run = reads_run || in_current(in.node);
    for (Node* c : m->control_inputs) reads_run = reads_run || in_current(c);
    if (reads_run) flush();
  }
  flush();
  if (groups.empty()) return;

  // Outputs: every member value read outside its group (or returned).
  std::vector<std::vector<Node*>> exported(groups.size());
  auto mark = [&](const Output& o, int reader_group) {
    const int gi = group_of[static_cast<size_t>(o.node->id)];
    if (gi < 0 || gi == reader_group) return;
    auto& e = exported[static_cast<size_t>(gi)];
    if (std::find(e.begin(), e.end(), o.node) == e.end()) e.push_back(o.node);
  };
  for (const auto& node : g.nodes()) {
    for (const Output& in : node->inputs) mark(in, group_of[static_cast<size_t>(node->id)]);
  }
  for (const Output& o : g.outputs()) mark(o, -1);

  std::unordered_map<const Node*, Output> replacement;
  std::vector<Node*> after(n, nullptr);  // fused node to place after old node i
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    Group& grp = groups[gi];
    std::vector<Node*>& outs = exported[gi];
    // Results in member order, so the node reads like the code it replaces.
    std::sort(outs.begin(), outs.end(), [](const Node* a, const Node* b) { return a->id < b->id; });
    std::vector<Output> results, inputs;
    for (Node* m : outs) results.push_back(m->output());
    std::shared_ptr<Graph> body = fusion_body(g, grp.members, results, inputs);
    grp.fused = build::fused_scalar(g, std::move(body), std::move(inputs), "FusedScalar");
    for (size_t k = 0; k < outs.size(); ++k) replacement[outs[k]] = grp.fused->output(static_cast<int>(k));
    after[static_cast<size_t>(grp.members.back()->id)] = grp.fused;
  }

  std::vector<Node*> order;
  order.reserve(g.nodes().size());
  for (size_t i = 0; i < n; ++i) {
    order.push_back(g.node(static_cast<int>(i)));
    if (after[i] != nullptr) order.push_back(after[i]);
  }
  g.reorder_nodes(order);

  std::vector<std::vector<Output>> to(g.nodes().size());
  std::vector<bool> keep(g.nodes().size(), true);
  for (const Group& grp : groups) {
    for (Node* m : grp.members) {
      keep[static_cast<size_t>(m->id)] = false;
      auto it = replacement.find(m);
      if (it != replacement.end()) to[static_cast<size_t>(m->id)] = {it->second};
    }
  }
  opt::redirect(g, to);
  g.remove_nodes(keep);
}

}  // namespace ag
