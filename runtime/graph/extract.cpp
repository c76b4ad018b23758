#include "runtime/graph/extract.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "runtime/core/error.h"

namespace ag {

std::shared_ptr<Graph> extract_subgraph(const Graph& g, std::span<const Output> feeds,
                                        std::span<const Output> fetches, std::span<Node* const> targets) {
  auto fed = [&](const Output& o) { return std::find(feeds.begin(), feeds.end(), o) != feeds.end(); };
  // Which nodes run: a walk back from what is fetched, through inputs that
  // are not fed and through control inputs.
  std::vector<bool> needed(g.nodes().size(), false);
  std::vector<Node*> stack;
  auto reach = [&](Node* n) {
    if (n->graph != &g) throw InvalidArgumentError("Tensor " + n->name + " is not an element of this graph.");
    if (!needed[static_cast<size_t>(n->id)]) {
      needed[static_cast<size_t>(n->id)] = true;
      stack.push_back(n);
    }
  };
  for (const Output& o : fetches) {
    if (!fed(o)) reach(o.node);
  }
  for (Node* t : targets) reach(t);
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    if (n->op->role() == OpRole::Argument) {
      const TensorSpec& spec = n->outputs[0];
      throw InvalidArgumentError(std::string("You must feed a value for placeholder tensor '") + n->name +
                                 "' with dtype " + dtype_tf_string(spec.dtype) +
                                 (spec.shape.rank_known() ? " and shape " + spec.shape.debug_string() : "") +
                                 "\n\t [[{{node " + n->name + "}}]]");
    }
    for (const Output& in : n->inputs) {
      if (!fed(in)) reach(in.node);
    }
    for (Node* c : n->control_inputs) reach(c);
  }

  auto run = std::make_shared<Graph>(g.name());
  std::map<std::pair<const Node*, int>, Output> map;
  for (const Output& f : feeds) {
    if (!map.count({f.node, f.index})) map[{f.node, f.index}] = run->placeholder(f.spec(), f.node->name);
  }
  std::vector<Node*> copies(g.nodes().size(), nullptr);
  // Node order is topological and program order, so copies keep both (the
  // copy's stateful chain orders reads and updates as they were built).
  for (const auto& n : g.nodes()) {
    if (!needed[static_cast<size_t>(n->id)]) continue;
    std::vector<Output> inputs;
    for (const Output& in : n->inputs) {
      auto it = map.find({in.node, in.index});
      inputs.push_back(it != map.end() ? it->second : copies[static_cast<size_t>(in.node->id)]->output(in.index));
    }
    Node* c = run->add_copy(*n, std::move(inputs), n->name);
    for (Node* ci : n->control_inputs) {
      Node* cc = copies[static_cast<size_t>(ci->id)];
      if (std::find(c->control_inputs.begin(), c->control_inputs.end(), cc) == c->control_inputs.end()) {
        c->control_inputs.push_back(cc);
      }
    }
    copies[static_cast<size_t>(n->id)] = c;
    for (int i = 0; i < static_cast<int>(n->outputs.size()); ++i) {
      map.emplace(std::pair{n.get(), i}, c->output(i));
    }
  }
  for (const Output& o : fetches) run->outputs().push_back(map.at({o.node, o.index}));
  return run;
}

}  // namespace ag
