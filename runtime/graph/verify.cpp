#include "runtime/graph/verify.h"

#include <algorithm>
#include <string>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/graph/graph.h"
#include "runtime/ops/eager.h"

namespace ag {
namespace {

[[noreturn]] void broken(const Graph& g, const Node* n, const std::string& rule) {
  throw InternalError("graph verifier: graph '" + g.name() + "'" + (n ? ", node '" + n->name + "'" : std::string()) +
                      ": " + rule);
}

/// True when `producer` is a node of `g` placed before `consumer`.
bool earlier_in(const Graph& g, const Node* producer, const Node& consumer) {
  return producer != nullptr && producer->graph == &g && producer->id >= 0 &&
         static_cast<size_t>(producer->id) < g.nodes().size() && g.node(producer->id) == producer &&
         producer->id < consumer.id;
}

void check_order(const Graph& g) {
  for (size_t i = 0; i < g.nodes().size(); ++i) {
    const Node& n = *g.nodes()[i];
    if (n.id != static_cast<int>(i) || n.graph != &g) broken(g, &n, "its id or graph is not its position");
    if (g.find(n.name) != &n) broken(g, &n, "its name does not find it");
    for (const Output& in : n.inputs) {
      if (!earlier_in(g, in.node, n)) broken(g, &n, "an input is not an earlier node of the same graph");
      if (in.index < 0 || static_cast<size_t>(in.index) >= in.node->outputs.size()) {
        broken(g, &n, "an input reads output " + std::to_string(in.index) + " of '" + in.node->name + "'");
      }
    }
    for (const Node* c : n.control_inputs) {
      if (!earlier_in(g, c, n)) broken(g, &n, "a control input is not an earlier node of the same graph");
    }
  }
}

void check_signature(const Graph& g) {
  const auto& inputs = g.inputs();
  for (const Node* in : inputs) {
    if (in == nullptr || in->graph != &g || in->op->role() != OpRole::Argument) {
      broken(g, in, "an input of the graph is not one of its argument nodes");
    }
  }
  if (g.captures().size() > inputs.size()) broken(g, nullptr, "more captures than inputs");
  for (size_t k = 0; k < g.captures().size(); ++k) {
    const auto& [outer, inner] = g.captures()[k];
    if (inner.node != inputs[g.num_args() + k]) broken(g, inner.node, "a capture is not its placeholder, in order");
    if (g.parent() == nullptr || outer.node == nullptr || outer.node->graph != g.parent()) {
      broken(g, inner.node, "a captured tensor does not belong to the parent graph");
    }
  }
  for (const Output& o : g.outputs()) {
    if (o.node == nullptr || o.node->graph != &g || g.node(o.node->id) != o.node) {
      broken(g, nullptr, "an output is not a tensor of the graph");
    }
  }
}

/// Each stateful node depends on the one before it: its latest stateful
/// ancestor is that node.
void check_stateful_chain(const Graph& g) {
  const size_t n = g.nodes().size();
  std::vector<int> latest(n, -1);  // per node: the largest id of a stateful ancestor
  int previous = -1;
  for (size_t i = 0; i < n; ++i) {
    const Node& node = *g.nodes()[i];
    int best = -1;
    auto see = [&](const Node* p) {
      const int via = p->stateful() ? p->id : latest[static_cast<size_t>(p->id)];
      best = std::max(best, via);
    };
    for (const Output& in : node.inputs) see(in.node);
    for (const Node* c : node.control_inputs) see(c);
    latest[i] = best;
    if (!node.stateful()) continue;
    if (best != previous) {
      broken(g, &node, "it does not depend on the stateful node before it" +
                           (previous >= 0 ? ", '" + g.node(previous)->name + "'" : std::string()));
    }
    previous = node.id;
  }
}

void check_types(const Graph& g) {
  std::vector<TensorSpec> specs;
  std::vector<const Tensor*> constants;
  for (const auto& up : g.nodes()) {
    const Node& n = *up;
    for (const auto& sub : n.subgraphs) {
      if (sub == nullptr || sub->parent() != &g) broken(g, &n, "a subgraph is not nested in this graph");
      for (const auto& [outer, inner] : sub->captures()) {
        if (std::find(n.inputs.begin(), n.inputs.end(), outer) == n.inputs.end()) {
          broken(g, &n, "its subgraph '" + sub->name() + "' captures a tensor the node does not pass it");
        }
      }
    }
    specs.clear();
    constants.clear();
    for (const Output& in : n.inputs) {
      specs.push_back(in.spec());
      constants.push_back(Graph::constant_value(in));
    }
    std::vector<TensorSpec> out;
    try {
      out = infer_outputs(*n.op, specs, n.attrs, constants, n.subgraphs);
    } catch (const Error& e) {
      broken(g, &n, std::string("its op's shape rule rejects it now: ") + e.what());
    }
    if (out.size() != n.outputs.size()) broken(g, &n, "it has another number of outputs than its op gives");
    for (size_t k = 0; k < out.size(); ++k) {
      const TensorSpec& have = n.outputs[k];
      if (have.dtype != out[k].dtype || !have.shape.is_compatible_with(out[k].shape)) {
        broken(g, &n, "output " + std::to_string(k) + " is recorded as " + dtype_name(have.dtype) + have.shape.str() +
                          " but its op gives " + dtype_name(out[k].dtype) + out[k].shape.str());
      }
    }
  }
}

}  // namespace

void verify_graph(const Graph& g) {
  check_order(g);
  check_signature(g);
  check_stateful_chain(g);
  check_types(g);
  for (const auto& n : g.nodes()) {
    for (const auto& sub : n->subgraphs) verify_graph(*sub);
  }
}

}  // namespace ag
