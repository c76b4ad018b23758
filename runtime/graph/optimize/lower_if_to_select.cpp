// If-conversion: a small If whose branches cannot fail becomes both branches
// inlined into the parent graph plus one SelectV2 per output on the (scalar)
// predicate. Running both sides costs a few scalar ops; running an If costs a
// branch plan, its argument checks and copying every unchanged state variable
// through the If's outputs, which is what dominates loops like fizzbuzz.
//
// Running the untaken branch must be unobservable, so every branch node has
// to be an op that can neither fail nor have an effect for any input values
// of the statically known (fully defined) shapes: its op's `speculatable`
// trait (elementwise math, integer arithmetic that wraps, comparisons,
// logical ops, Cast, Select, Identity, Const). An op that fails on some
// values of some dtypes (integer division by zero) qualifies when the input
// deciding it is a Const its own check accepts.
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/core/tensor.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/graph/optimize/splice.h"
#include "runtime/graph/builders.h"
#include "runtime/ops/elementwise_def.h"

namespace ag {
namespace {

/// Most work nodes (not Const, Placeholder or Identity) a branch may hold:
/// the lowered form runs both branches on every execution.
constexpr int kMaxBranchOps = 16;

/// The tensors of `n`'s inputs and outputs hold a dtype of `mask`.
bool touches(const Node& n, TypeMask mask) {
  for (const Output& in : n.inputs) {
    if ((mask & bit(in.spec().dtype)) != 0) return true;
  }
  for (const TensorSpec& out : n.outputs) {
    if ((mask & bit(out.dtype)) != 0) return true;
  }
  return false;
}

/// True when node `n` (of a branch) can run for any inputs of its static
/// specs without failing or any effect, so running it speculatively is safe:
/// its op is speculatable, and where its dtypes are ones it may fail on, the
/// input that decides it is a constant the op's own check accepts (integer
/// division by a Const holding no zero).
bool never_fails(const Node& n) {
  const OpTraits& t = n.op->traits;
  if (!t.speculatable || n.stateful() || !n.control_inputs.empty() || !n.subgraphs.empty()) return false;
  // A shape known only at run time could fail to broadcast.
  for (const Output& in : n.inputs) {
    if (!in.spec().shape.fully_defined()) return false;
  }
  for (const TensorSpec& out : n.outputs) {
    if (!out.shape.fully_defined() || has_object_elements(out.dtype)) return false;
  }
  if (!touches(n, t.fails_on)) return true;
  if (t.failing_input < 0 || static_cast<size_t>(t.failing_input) >= n.inputs.size() || n.op->elementwise == nullptr) {
    return false;
  }
  const Tensor* v = Graph::constant_value(n.inputs[static_cast<size_t>(t.failing_input)]);
  if (v == nullptr) return false;
  const CheckFn check = n.op->elementwise->check[static_cast<size_t>(v->dtype())];
  if (check == nullptr) return true;
  try {
    check(v->raw_data(), v->num_elements());
  } catch (const Error&) {
    return false;
  }
  return true;
}

/// Nodes that cost nothing once inlined (constants, arguments, forwards).
bool free_node(const Node& n) {
  const OpRole r = n.op->role();
  return r == OpRole::Constant || r == OpRole::Argument || r == OpRole::Identity;
}

/// True when `branch` is small and every node in it is safe to run always.
bool lowerable_branch(const Graph& branch) {
  int work = 0;
  for (const auto& n : branch.nodes()) {
    if (!never_fails(*n)) return false;
    for (const Output& in : n->inputs) {
      if (in.node->graph != &branch) return false;  // only captured through placeholders
    }
    if (!free_node(*n)) ++work;
  }
  for (const Output& o : branch.outputs()) {
    if (o.node->graph != &branch) return false;
  }
  return work <= kMaxBranchOps;
}

/// True when If node `n` can be replaced by both branches plus Selects.
bool lowerable(const Node& n) {
  if (n.op->role() != OpRole::If) return false;
  if (n.subgraphs.size() != 2 || n.inputs.empty()) return false;
  const TensorSpec& cond = n.inputs[0].spec();
  if (cond.dtype != DType::Bool || !cond.shape.rank_known() || cond.shape.rank() != 0) return false;
  const Graph& then_g = *n.subgraphs[0];
  const Graph& else_g = *n.subgraphs[1];
  if (then_g.outputs().size() != n.outputs.size() || else_g.outputs().size() != n.outputs.size()) return false;
  const size_t tc = then_g.captures().size(), ec = else_g.captures().size();
  if (then_g.inputs().size() < tc || else_g.inputs().size() < ec) return false;
  if (then_g.inputs().size() - tc != else_g.inputs().size() - ec) return false;
  if (n.inputs.size() != 1 + (then_g.inputs().size() - tc) + tc + ec) return false;
  // Select needs both sides of the If's static dtype and shape, so that its
  // result is exactly what the If returns.
  for (size_t k = 0; k < n.outputs.size(); ++k) {
    const TensorSpec& a = then_g.outputs()[k].spec();
    const TensorSpec& b = else_g.outputs()[k].spec();
    const TensorSpec& out = n.outputs[k];
    if (!out.shape.fully_defined() || a.dtype != out.dtype || b.dtype != out.dtype || !(a.shape == out.shape) ||
        !(b.shape == out.shape)) {
      return false;
    }
  }
  return lowerable_branch(then_g) && lowerable_branch(else_g);
}

/// Copies `branch`'s nodes into `g` (after its current last node), with the
/// branch's k-th placeholder reading `feeds[k]`. Returns the branch's outputs
/// as tensors of `g`.
std::vector<Output> inline_branch(Graph& g, const Graph& branch, const std::vector<Output>& feeds,
                                  const std::string& prefix) {
  std::unordered_map<const Node*, Node*> copy;
  std::unordered_map<const Node*, Output> placeholder_feed;
  for (size_t k = 0; k < branch.inputs().size(); ++k) placeholder_feed[branch.inputs()[k]] = feeds[k];
  auto map = [&](const Output& o) -> Output {
    auto fed = placeholder_feed.find(o.node);
    if (fed != placeholder_feed.end()) return fed->second;
    return Output{copy.at(o.node), o.index};
  };
  for (const auto& n : branch.nodes()) {
    if (n->op->role() == OpRole::Argument) continue;
    if (n->op->role() == OpRole::Identity) {  // forwarded: identity removal would drop it anyway
      placeholder_feed[n.get()] = map(n->inputs[0]);
      continue;
    }
    std::vector<Output> inputs;
    inputs.reserve(n->inputs.size());
    for (const Output& in : n->inputs) inputs.push_back(map(in));
    copy[n.get()] = g.add_node(*n->op, std::move(inputs), n->attrs, prefix + n->name);
  }
  std::vector<Output> outs;
  outs.reserve(branch.outputs().size());
  for (const Output& o : branch.outputs()) outs.push_back(map(o));
  return outs;
}

}  // namespace

void lower_if_to_select(Graph& g) {
  // Bottom-up: an If nested in a branch lowers first, which may make the
  // branch itself straight-line code that qualifies.
  for (const auto& n : g.nodes()) {
    for (const auto& sub : n->subgraphs) lower_if_to_select(*sub);
  }
  std::vector<Node*> ifs;
  for (const auto& n : g.nodes()) {
    if (lowerable(*n)) ifs.push_back(n.get());
  }
  if (ifs.empty()) return;

  // Each If's replacement nodes are appended, then moved into its place; an
  // ordering edge on an If (a stateful "If" whose branches turned out
  // stateless) moves to the If's own predecessors.
  opt::Splice splice(g);
  for (Node* n : ifs) {
    const Graph& then_g = *n->subgraphs[0];
    const Graph& else_g = *n->subgraphs[1];
    const size_t args = then_g.num_args();
    const size_t tc = then_g.captures().size();
    // Placeholders: the arguments, then the captures ([cond, args, then
    // captures, else captures] on the If).
    std::vector<Output> then_feeds, else_feeds;
    for (size_t k = 0; k < then_g.inputs().size(); ++k) then_feeds.push_back(n->inputs[1 + k]);
    for (size_t k = 0; k < else_g.inputs().size(); ++k) else_feeds.push_back(n->inputs[1 + k + (k < args ? 0 : tc)]);

    std::vector<Output> then_out = inline_branch(g, then_g, then_feeds, n->name + "/then/");
    std::vector<Output> else_out = inline_branch(g, else_g, else_feeds, n->name + "/else/");
    std::vector<Output> result;
    for (size_t k = 0; k < n->outputs.size(); ++k) {
      if (then_out[k] == else_out[k]) {
        result.push_back(then_out[k]);  // passed through by both branches: no Select
      } else {
        result.push_back(build::select(g, n->inputs[0], then_out[k], else_out[k], n->name + "/Select"));
      }
    }
    splice.replace(n, std::move(result));
  }
  splice.finish([](const Node* n) -> const std::vector<Node*>& { return n->control_inputs; });
}

}  // namespace ag
