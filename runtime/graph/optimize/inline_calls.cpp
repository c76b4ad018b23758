// Function inlining (TF's grappler function optimizer): a call of a traced
// function whose graph is straight-line code becomes that graph's nodes in
// the caller, so the later passes (folding, CSE, fusion) see through it and
// no nested plan runs. The function's stateful nodes keep their order and
// take the call's place in the caller's chain of stateful nodes. A function
// holding an If or While stays a call (its kernel runs the body's plan).
#include <algorithm>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/graph/optimize/rewrite.h"

namespace ag {
namespace {

bool inlinable(const Node& n) {
  if (n.op->role() != OpRole::Call || n.subgraphs.size() != 1) return false;
  for (const auto& m : n.subgraphs[0]->nodes()) {
    if (!m->subgraphs.empty()) return false;
  }
  return true;
}

/// Copies call `call`'s function nodes into `g` (appended), its argument
/// and capture placeholders reading the call's inputs; returns the
/// function's outputs as tensors of `g`, and in `stateful` the copies of
/// its stateful nodes in order (their control edges are the caller's to set).
std::vector<Output> inline_body(Graph& g, const Node& call, std::vector<Node*>& stateful) {
  const Graph& body = *call.subgraphs[0];
  std::unordered_map<const Node*, Output> forwarded;
  for (size_t k = 0; k < body.inputs().size(); ++k) forwarded[body.inputs()[k]] = call.inputs[k];
  std::unordered_map<const Node*, Node*> copy;
  auto map = [&](const Output& o) -> Output {
    auto f = forwarded.find(o.node);
    if (f != forwarded.end()) return f->second;
    return Output{copy.at(o.node), o.index};
  };
  const std::string prefix = call.name + "/";
  for (const auto& n : body.nodes()) {
    if (n->op->role() == OpRole::Argument) continue;
    if (n->op->role() == OpRole::Identity && n->inputs.size() == 1) {
      forwarded[n.get()] = map(n->inputs[0]);
      continue;
    }
    std::vector<Output> inputs;
    inputs.reserve(n->inputs.size());
    for (const Output& in : n->inputs) inputs.push_back(map(in));
    Node* m = g.add_copy(*n, std::move(inputs), prefix + n->name);
    m->control_inputs.clear();
    if (m->stateful()) stateful.push_back(m);
    copy[n.get()] = m;
  }
  std::vector<Output> outs;
  for (const Output& o : body.outputs()) outs.push_back(map(o));
  return outs;
}

}  // namespace

void inline_calls(Graph& g) {
  std::vector<Node*> calls;
  for (const auto& n : g.nodes()) {
    if (inlinable(*n)) calls.push_back(n.get());
  }
  if (calls.empty()) return;

  // Each call's nodes are appended, then moved into its place.
  const size_t old_count = g.nodes().size();
  std::vector<std::vector<Node*>> inserted(old_count);
  std::unordered_map<const Node*, std::vector<Output>> replacement;
  // Per call, what a node that waited for it waits for instead: its
  // function's last stateful node, or what the call itself waited for.
  std::unordered_map<const Node*, std::vector<Node*>> waits_for;
  for (Node* call : calls) {
    const size_t first_new = g.nodes().size();
    std::vector<Node*> stateful;
    replacement[call] = inline_body(g, *call, stateful);
    for (size_t i = first_new; i < g.nodes().size(); ++i) {
      inserted[static_cast<size_t>(call->id)].push_back(g.node(static_cast<int>(i)));
    }
    // The function's stateful nodes continue the chain where the call was.
    std::vector<Node*> previous = call->control_inputs;
    for (Node* s : stateful) {
      s->control_inputs = previous;
      previous = {s};
    }
    waits_for[call] = std::move(previous);
  }
  std::vector<Node*> order;
  order.reserve(g.nodes().size());
  for (size_t i = 0; i < old_count; ++i) {
    for (Node* m : inserted[i]) order.push_back(m);
    order.push_back(g.node(static_cast<int>(i)));
  }
  g.reorder_nodes(order);

  std::vector<std::vector<Output>> to(g.nodes().size());
  std::vector<bool> keep(g.nodes().size(), true);
  for (auto& [call, outs] : replacement) {
    to[static_cast<size_t>(call->id)] = outs;
    keep[static_cast<size_t>(call->id)] = false;
  }
  opt::redirect(g, to);
  // A wait for an inlined call (possibly one that only waited for another).
  std::function<void(Node*, std::vector<Node*>&)> wait = [&](Node* c, std::vector<Node*>& control) {
    auto w = waits_for.find(c);
    if (w == waits_for.end()) {
      if (std::find(control.begin(), control.end(), c) == control.end()) control.push_back(c);
      return;
    }
    for (Node* p : w->second) wait(p, control);
  };
  for (const auto& m : g.nodes()) {
    std::vector<Node*> control;
    for (Node* c : m->control_inputs) wait(c, control);
    m->control_inputs = std::move(control);
  }
  g.remove_nodes(keep);
}

}  // namespace ag
