#include <algorithm>
#include <cstring>
#include <functional>
#include <unordered_map>

#include "runtime/core/hash_mix.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/graph/optimize/rewrite.h"

namespace ag {
namespace {

/// Hash of what makes two nodes interchangeable: op, inputs and, for Const,
/// the value's type and first bytes (so constants don't all collide).
size_t node_hash(const Node& n) {
  size_t h = std::hash<const void*>()(n.op);
  for (const Output& in : n.inputs) h = hash_mix(hash_mix(h, std::hash<const void*>()(in.node)), static_cast<size_t>(in.index));
  if (n.op->role() == OpRole::Constant) {
    const Tensor& v = n.attrs.get<Tensor>("value");
    h = hash_mix(h, static_cast<size_t>(v.dtype()));
    h = hash_mix(h, static_cast<size_t>(v.num_elements()));
    if (v.dtype() != DType::String && v.byte_size() > 0) {
      uint64_t head = 0;
      std::memcpy(&head, v.raw_data(), std::min<size_t>(sizeof head, v.byte_size()));
      h = hash_mix(h, static_cast<size_t>(head));
    }
  }
  return h;
}

/// A fixed order of tensors: by node position, then output index.
bool precedes(const Output& a, const Output& b) {
  if (a.node->graph != b.node->graph) return false;
  return a.node->id != b.node->id ? a.node->id < b.node->id : a.index < b.index;
}

bool same(const Node& a, const Node& b) {
  return a.op == b.op && a.inputs == b.inputs && a.outputs == b.outputs && a.attrs == b.attrs;
}

}  // namespace

void eliminate_common_subexpressions(Graph& g) {
  const auto& nodes = g.nodes();
  std::unordered_multimap<size_t, Node*> seen;
  std::vector<std::vector<Output>> to(nodes.size());
  std::vector<bool> keep(nodes.size(), true);
  bool any = false;
  for (const auto& up : nodes) {
    Node& n = *up;
    if (n.stateful() || !n.subgraphs.empty() || !n.control_inputs.empty() || n.op->role() == OpRole::Argument) continue;
    // Inputs of earlier merged nodes are already redirected (nodes are in
    // topological order), so equal computations now have equal inputs.
    for (Output& in : n.inputs) {
      while (!to[static_cast<size_t>(in.node->id)].empty()) in = to[static_cast<size_t>(in.node->id)][static_cast<size_t>(in.index)];
    }
    // a + b and b + a are one computation: a commutative op's operands in one order.
    if (n.op->traits.commutative && n.inputs.size() == 2 && precedes(n.inputs[1], n.inputs[0])) {
      std::swap(n.inputs[0], n.inputs[1]);
    }
    size_t h = node_hash(n);
    Node* match = nullptr;
    for (auto [it, end] = seen.equal_range(h); it != end; ++it) {
      if (same(*it->second, n)) {
        match = it->second;
        break;
      }
    }
    if (match == nullptr) {
      seen.emplace(h, &n);
      continue;
    }
    auto& rep = to[static_cast<size_t>(n.id)];
    for (int i = 0; i < static_cast<int>(n.outputs.size()); ++i) rep.push_back(match->output(i));
    keep[static_cast<size_t>(n.id)] = false;
    any = true;
  }
  if (!any) return;
  opt::redirect(g, to);
  g.remove_nodes(keep);
}

}  // namespace ag
