// Replacing nodes by nodes built for them, for the passes that expand a node
// in place (inline_calls: a call by its function's nodes; lower_if_to_select:
// an If by its branches and Selects). A pass appends each replacement's nodes
// to the graph, then reports it; finish() moves every replacement's nodes to
// where its node stood (its inputs are all earlier, its consumers all later),
// points consumers at the replacement outputs, moves control edges on a
// replaced node to what it stands for, and removes the replaced nodes.
#pragma once

#include <functional>
#include <unordered_map>
#include <vector>

#include "runtime/graph/graph.h"

namespace ag::opt {

class Splice {
 public:
  explicit Splice(Graph& g);

  /// Node `n` (of the graph as it was) is replaced by `outputs`; the nodes
  /// appended since the previous replace() (or construction) are its own.
  void replace(Node* n, std::vector<Output> outputs);

  /// Applies the replacements. `waits(n)`: what a node that waited for
  /// replaced node `n` waits for instead (followed through other replaced
  /// nodes).
  void finish(const std::function<const std::vector<Node*>&(const Node*)>& waits);

 private:
  Graph& g_;
  size_t old_count_;
  size_t mark_;
  std::vector<std::vector<Node*>> inserted_;  // per old node id: its replacement's nodes
  std::unordered_map<const Node*, std::vector<Output>> replacement_;
};

}  // namespace ag::opt
