#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/graph/optimize/rewrite.h"

namespace ag {

void remove_identities(Graph& g) {
  const auto& nodes = g.nodes();
  std::vector<bool> output_node(nodes.size(), false);
  for (const Output& o : g.outputs()) output_node[static_cast<size_t>(o.node->id)] = true;
  std::vector<std::vector<Output>> to(nodes.size());
  std::vector<bool> keep(nodes.size(), true);
  bool any = false;
  for (const auto& n : nodes) {
    if (n->op->role() != OpRole::Identity || n->stateful() || output_node[static_cast<size_t>(n->id)] ||
        !n->control_inputs.empty()) {
      continue;
    }
    to[static_cast<size_t>(n->id)] = {n->inputs[0]};
    keep[static_cast<size_t>(n->id)] = false;
    any = true;
  }
  if (!any) return;
  // Nothing may keep a control edge to a removed node (Identity is not
  // stateful, so none do; checked to be safe).
  for (const auto& n : nodes) {
    for (Node* c : n->control_inputs) {
      if (!keep[static_cast<size_t>(c->id)]) keep[static_cast<size_t>(c->id)] = true;
    }
  }
  opt::redirect(g, to);
  g.remove_nodes(keep);
}

}  // namespace ag
