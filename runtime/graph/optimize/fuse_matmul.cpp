#include "runtime/graph/optimize/fuse_matmul.h"

#include <string>
#include <vector>

#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/rewrite.h"
#include "runtime/graph/builders.h"
#include "runtime/ops/elementwise_def.h"

namespace ag {
namespace {

bool is_float(DType t) { return t == DType::Float32 || t == DType::Float64; }

/// The one node reading `n`'s only output, once, without control edges; or
/// nullptr. Fusing `n` into it then moves n's work to the consumer's place.
class SoleConsumers {
 public:
  explicit SoleConsumers(Graph& g) : of_(g.nodes().size(), nullptr) {
    std::vector<int> uses = opt::use_counts(g);
    std::vector<bool> controls(g.nodes().size(), false);
    for (const auto& n : g.nodes()) {
      for (const Node* c : n->control_inputs) {
        if (c->graph == &g) controls[static_cast<size_t>(c->id)] = true;
      }
      for (const Output& in : n->inputs) {
        if (in.node->graph == &g) of_[static_cast<size_t>(in.node->id)] = n.get();
      }
    }
    for (size_t i = 0; i < of_.size(); ++i) {
      const Node& n = *g.nodes()[i];
      if (uses[i] != 1 || controls[i] || opt::is_graph_output(g, &n) || n.outputs.size() != 1) of_[i] = nullptr;
    }
  }
  Node* of(const Node& n) const { return of_[static_cast<size_t>(n.id)]; }

 private:
  std::vector<Node*> of_;
};

/// A 2-D product whose result can be fused: float, fully defined [m, n], plain.
bool fusable_matmul(const Node& n, const Graph& g) {
  return n.op->traits.semantic == OpSemantic::MatMul && n.graph == &g && n.control_inputs.empty() &&
         n.outputs.size() == 1 && is_float(n.outputs[0].dtype) && n.outputs[0].shape.fully_defined();
}

/// An addition (NumPy broadcasting; BiasAdd is one after canonicalization).
bool is_add(const Node& n) { return n.op->traits.semantic == OpSemantic::Add && n.inputs.size() == 2; }

/// A unary elementwise op FusedMatMul can apply to its result in place.
bool is_activation(const Node& n, DType t) {
  const ElementwiseDef* e = n.op->elementwise;
  return e != nullptr && e->arity == 1 && !e->bool_result && e->block_for(t) != nullptr && !n.stateful();
}

/// The input of binary `n` that is not `from` (n reads `from` once).
const Output& other_input(const Node& n, const Node* from) {
  return n.inputs[0].node == from ? n.inputs[1] : n.inputs[0];
}

}  // namespace

void fuse_matmul(Graph& g) {
  const auto& nodes = g.nodes();
  SoleConsumers consumers(g);
  std::vector<bool> taken(nodes.size(), false), keep(nodes.size(), true);
  bool any = false;
  for (const auto& node : nodes) {
    Node* first = node.get();
    if (taken[static_cast<size_t>(first->id)] || !fusable_matmul(*first, g)) continue;
    const TensorSpec spec = first->outputs[0];
    const int64_t width = spec.shape.dim(1);
    auto same_spec = [&](const Node* n) { return n->outputs.size() == 1 && n->outputs[0] == spec; };
    std::vector<Node*> absorbed{first};
    std::vector<Output> inputs{first->inputs[0], first->inputs[1]};
    Attrs attrs{{"T", spec.dtype},
                {"transpose_a", first->attrs.get_or<bool>("transpose_a", false)},
                {"transpose_b", first->attrs.get_or<bool>("transpose_b", false)}};
    Node* last = first;
    // The sum with a second product.
    Node* next = consumers.of(*last);
    if (next != nullptr && is_add(*next) && same_spec(next)) {
      Node* second = other_input(*next, last).node;
      if (second != first && !taken[static_cast<size_t>(second->id)] && fusable_matmul(*second, g) &&
          consumers.of(*second) == next && same_spec(second)) {
        absorbed.push_back(second);
        absorbed.push_back(next);
        inputs.push_back(second->inputs[0]);
        inputs.push_back(second->inputs[1]);
        attrs.set("transpose_c", second->attrs.get_or<bool>("transpose_a", false));
        attrs.set("transpose_d", second->attrs.get_or<bool>("transpose_b", false));
        attrs.set("products", int64_t{2});
        last = next;
      }
    }
    // A matrix of the result's shape added (the input projection an RNN step
    // adds, a residual): the products accumulate onto it.
    next = consumers.of(*last);
    if (next != nullptr && is_add(*next) && same_spec(next)) {
      const Output& addend = other_input(*next, last);
      if (addend.node != last && addend.spec() == spec) {
        absorbed.push_back(next);
        inputs.push_back(addend);
        attrs.set("addend", true);
        last = next;
      }
    }
    // A bias vector ([n], broadcast over the rows).
    next = consumers.of(*last);
    if (next != nullptr && same_spec(next) && is_add(*next)) {
      const Output& bias = other_input(*next, last);
      if (bias.node != last && bias.spec().dtype == spec.dtype && bias.spec().shape == Shape{width}) {
        absorbed.push_back(next);
        inputs.push_back(bias);
        attrs.set("bias", true);
        last = next;
      }
    }
    // The activation.
    next = consumers.of(*last);
    if (next != nullptr && same_spec(next) && is_activation(*next, spec.dtype)) {
      absorbed.push_back(next);
      attrs.set("activation", next->op->name);
      last = next;
    }
    if (absorbed.size() < 2) continue;
    for (Node* n : absorbed) {
      taken[static_cast<size_t>(n->id)] = true;
      if (n != last) keep[static_cast<size_t>(n->id)] = false;
    }
    build::fused_matmul(*last, std::move(inputs), std::move(attrs));
    any = true;
  }
  if (any) g.remove_nodes(keep);
}

}  // namespace ag
