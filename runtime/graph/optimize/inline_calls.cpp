// Function inlining (TF's grappler function optimizer): a call of a traced
// function whose graph is straight-line code becomes that graph's nodes in
// the caller, so the later passes (folding, CSE, fusion) see through it and
// no nested plan runs. The function's stateful nodes keep their order and
// take the call's place in the caller's chain of stateful nodes. A function
// holding an If or While stays a call (its kernel runs the body's plan).
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/graph/optimize/splice.h"

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

  // Each call's nodes are appended, then moved into its place. A node that
  // waited for a call waits for its function's last stateful node, or for
  // what the call itself waited for.
  opt::Splice splice(g);
  std::unordered_map<const Node*, std::vector<Node*>> waits_for;
  for (Node* call : calls) {
    std::vector<Node*> stateful;
    std::vector<Output> outs = inline_body(g, *call, stateful);
    // The function's stateful nodes continue the chain where the call was.
    std::vector<Node*> previous = call->control_inputs;
    for (Node* s : stateful) {
      s->control_inputs = previous;
      previous = {s};
    }
    waits_for[call] = std::move(previous);
    splice.replace(call, std::move(outs));
  }
  splice.finish([&](const Node* call) -> const std::vector<Node*>& { return waits_for.at(call); });
}

}  // namespace ag
