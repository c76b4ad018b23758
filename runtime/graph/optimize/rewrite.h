// Helpers shared by the optimizer passes: rewiring consumers of a tensor and
// counting uses.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace ag::opt {

/// Makes every input of `g`'s nodes, every graph output and every capture of
/// a nested graph that reads `from[i]` read `to[i]` instead (from: node id →
/// replacement per output, or empty when the node is not replaced).
inline void redirect(Graph& g, const std::vector<std::vector<Output>>& to) {
  auto fix = [&](Output& o) {
    // Follow chains (a replacement may itself be replaced).
    while (!to[static_cast<size_t>(o.node->id)].empty()) o = to[static_cast<size_t>(o.node->id)][static_cast<size_t>(o.index)];
  };
  for (const auto& n : g.nodes()) {
    for (Output& in : n->inputs) fix(in);
    for (const auto& sub : n->subgraphs) {
      sub->retarget_captures([&](Output o) {
        if (o.node->graph == &g) fix(o);
        return o;
      });
    }
  }
  for (Output& o : g.outputs()) fix(o);
}

/// Number of times each node's outputs are read (by inputs and graph outputs).
inline std::vector<int> use_counts(const Graph& g) {
  std::vector<int> uses(g.nodes().size(), 0);
  for (const auto& n : g.nodes()) {
    for (const Output& in : n->inputs) ++uses[static_cast<size_t>(in.node->id)];
  }
  for (const Output& o : g.outputs()) ++uses[static_cast<size_t>(o.node->id)];
  return uses;
}

/// True when `n` is the node of one of `g`'s outputs.
inline bool is_graph_output(const Graph& g, const Node* n) {
  for (const Output& o : g.outputs()) {
    if (o.node == n) return true;
  }
  return false;
}

}  // namespace ag::opt
