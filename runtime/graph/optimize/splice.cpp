#include "runtime/graph/optimize/splice.h"

#include <algorithm>

#include "runtime/graph/optimize/rewrite.h"

namespace ag::opt {

Splice::Splice(Graph& g)
    : g_(g), old_count_(g.nodes().size()), mark_(g.nodes().size()), inserted_(g.nodes().size()) {}

void Splice::replace(Node* n, std::vector<Output> outputs) {
  std::vector<Node*>& mine = inserted_[static_cast<size_t>(n->id)];
  for (size_t i = mark_; i < g_.nodes().size(); ++i) mine.push_back(g_.node(static_cast<int>(i)));
  mark_ = g_.nodes().size();
  replacement_[n] = std::move(outputs);
}

void Splice::finish(const std::function<const std::vector<Node*>&(const Node*)>& waits) {
  if (replacement_.empty()) return;
  std::vector<Node*> order;
  order.reserve(g_.nodes().size());
  for (size_t i = 0; i < old_count_; ++i) {
    for (Node* m : inserted_[i]) order.push_back(m);
    order.push_back(g_.node(static_cast<int>(i)));
  }
  g_.reorder_nodes(order);

  std::vector<std::vector<Output>> to(g_.nodes().size());
  std::vector<bool> keep(g_.nodes().size(), true);
  for (auto& [n, outs] : replacement_) {
    to[static_cast<size_t>(n->id)] = outs;
    keep[static_cast<size_t>(n->id)] = false;
  }
  redirect(g_, to);
  std::function<void(Node*, std::vector<Node*>&)> wait = [&](Node* c, std::vector<Node*>& control) {
    if (!replacement_.count(c)) {
      if (std::find(control.begin(), control.end(), c) == control.end()) control.push_back(c);
      return;
    }
    for (Node* p : waits(c)) wait(p, control);
  };
  for (const auto& m : g_.nodes()) {
    std::vector<Node*> control;
    for (Node* c : m->control_inputs) wait(c, control);
    m->control_inputs = std::move(control);
  }
  g_.remove_nodes(keep);
}

}  // namespace ag::opt
