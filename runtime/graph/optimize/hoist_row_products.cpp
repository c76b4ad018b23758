// Loop-invariant code motion for a loop's row products. In a While body,
// MatMul(X[i], W) with X and W the same on every iteration is row i of X·W:
// one product over all of X's rows before the loop does that work as one big
// GEMM (W packed once, both threads busy) instead of one small GEMM per
// iteration. An RNN's input projection `x[t] @ w` is the case it is for.
#include <optional>
#include <vector>

#include "runtime/graph/builders.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"

namespace ag {
namespace {

/// The largest product hoisted: a long sequence's projection of all steps at
/// once must not dwarf the memory the loop itself needed.
constexpr double kMaxHoistedBytes = 256.0 * 1024 * 1024;


/// The input of `loop` that feeds `p` when p is a captured placeholder of its
/// subgraph `which` (0: cond, 1: body): the While's inputs are the loop
/// variables, then the cond's captures, then the body's. Else nullptr.
const Output* captured_from(const Node& loop, int which, const Node* p) {
  const Graph& sub = *loop.subgraphs[static_cast<size_t>(which)];
  const size_t n = sub.num_args();
  const size_t skip = which == 1 ? loop.subgraphs[0]->captures().size() : 0;
  for (size_t j = n; j < sub.inputs().size(); ++j) {
    if (sub.inputs()[j] == p) return &loop.inputs[n + skip + (j - n)];
  }
  return nullptr;
}

/// The scalar integer `t` holds, if it is one.
std::optional<int64_t> scalar_int(const Tensor* t) {
  if (t == nullptr || t->shape().rank() != 0) return std::nullopt;
  if (t->dtype() == DType::Int32) return t->data<int32_t>()[0];
  if (t->dtype() == DType::Int64) return t->data<int64_t>()[0];
  return std::nullopt;
}

/// The value of `o`, a tensor of `loop`'s subgraph `which`, when it is the
/// same integer constant on every iteration: a Const there, or a captured one.
std::optional<int64_t> invariant_int(const Node& loop, int which, const Output& o) {
  if (const Tensor* t = Graph::constant_value(o)) return scalar_int(t);
  const Output* outer = captured_from(loop, which, o.node);
  return outer != nullptr ? scalar_int(Graph::constant_value(*outer)) : std::nullopt;
}

/// How many times `loop` runs its body, when its graph says so: a counter
/// starting from a Const, stepped by 1 in the body and tested `counter <
/// limit` against a loop-invariant Const (AutoGraph's `for i in
/// tf.range(n)`, and a `for` over a tensor's rows), capped by
/// maximum_iterations. Else nullopt (a data-dependent while, or a `break`,
/// whose flag joins the condition).
std::optional<int64_t> trip_count(const Node& loop) {
  const Graph& cond = *loop.subgraphs[0];
  const Graph& body = *loop.subgraphs[1];
  const size_t n = body.num_args();
  if (cond.outputs().size() != 1 || body.outputs().size() != n) return std::nullopt;
  const Node* less = cond.outputs()[0].node;
  if (less->op->traits.semantic != OpSemantic::Less) return std::nullopt;
  size_t counter = n;
  for (size_t i = 0; i < n; ++i) {
    if (less->inputs[0].node == cond.inputs()[i]) counter = i;
  }
  if (counter == n) return std::nullopt;
  const std::optional<int64_t> limit = invariant_int(loop, 0, less->inputs[1]);
  const std::optional<int64_t> start = scalar_int(Graph::constant_value(loop.inputs[counter]));
  const Node* step = body.outputs()[counter].node;
  if (!limit || !start || step->op->traits.semantic != OpSemantic::Add) return std::nullopt;
  const Node* self = body.inputs()[counter];
  const Output* other = step->inputs[0].node == self ? &step->inputs[1]
                        : step->inputs[1].node == self ? &step->inputs[0]
                                                       : nullptr;
  if (other == nullptr || invariant_int(loop, 1, *other) != 1) return std::nullopt;
  int64_t trips = *limit > *start ? *limit - *start : 0;
  const int64_t max_iter = loop.attrs.get_or<int64_t>("maximum_iterations", -1);
  if (max_iter >= 0 && max_iter < trips) trips = max_iter;
  return trips;
}

/// `s` selects row i of a [T, r, k] X captured by the body (its op's
/// selects_row trait: x[i] as getitem or a `for` over x's rows traces it). The
/// same node on X·W then selects the same row of the product, with the same
/// bounds check. Returns X's outer tensor (the While's input), else nullptr.
const Output* selected_row_of_capture(const Node& loop, const Node& s) {
  const NodeQuery selects_row = s.op->traits.selects_row;
  if (!s.control_inputs.empty() || selects_row == nullptr || !with_context(s, selects_row)) return nullptr;
  const Output* x = captured_from(loop, 1, s.inputs[0].node);
  if (x == nullptr) return nullptr;
  const Shape& shape = x->spec().shape;
  return shape.fully_defined() && shape.rank() == 3 && shape.dim(0) > 0 ? x : nullptr;
}

/// Hoists the row products of `loop`'s body into `g` (the loop's graph).
/// Returns the nodes it added to g, which must go before the loop.
std::vector<Node*> hoist_from(Graph& g, Node& loop) {
  std::vector<Node*> added;
  const std::optional<int64_t> trips = trip_count(loop);
  Graph& body = *loop.subgraphs[1];
  if (!trips || body.parent() != &g) return added;
  const size_t before = body.nodes().size();
  for (size_t id = 0; id < before; ++id) {
    Node& mm = *body.nodes()[id];
    if (mm.op->traits.semantic != OpSemantic::MatMul || !mm.control_inputs.empty() ||
        mm.attrs.get_or<bool>("transpose_a", false)) {
      continue;
    }
    const TensorSpec& out = mm.outputs[0];
    if ((out.dtype != DType::Float32 && out.dtype != DType::Float64) || !out.shape.fully_defined()) continue;
    const Node& row = *mm.inputs[0].node;
    const Output* x = selected_row_of_capture(loop, row);
    const Output* w = captured_from(loop, 1, mm.inputs[1].node);
    // Only when the loop runs at least once per row of X (the hoisted product
    // then costs no more multiply-adds than the loop's did), and when the
    // product's T rows fit in kMaxHoistedBytes (where the loop held one).
    if (x == nullptr || w == nullptr || x->spec().shape.dim(0) > *trips) continue;
    const Shape& xs = x->spec().shape;
    const int64_t rows = xs.dim(0), r = xs.dim(1), k = xs.dim(2), n = out.shape.dim(1);
    if (static_cast<double>(rows) * static_cast<double>(r) * static_cast<double>(n) *
            static_cast<double>(dtype_size(out.dtype)) >
        kMaxHoistedBytes) {
      continue;
    }
    const size_t first_added = g.nodes().size();
    Output flat = build::reshape(g, *x, Shape{rows * r, k});
    Output product = build::matmul(g, flat, *w, false, mm.attrs.get_or<bool>("transpose_b", false));
    Output all_rows = build::reshape(g, product, Shape{rows, r, n});
    for (size_t i = first_added; i < g.nodes().size(); ++i) added.push_back(g.nodes()[i].get());
    // The body selects row i of the product as it selected row i of X, from
    // a new capture (the While's inputs end with the body's captures).
    Output inner = body.capture(all_rows);
    loop.inputs.push_back(all_rows);
    mm.op = row.op;
    mm.inputs = row.inputs;
    mm.inputs[0] = inner;
    mm.attrs = row.attrs;
  }
  if (body.nodes().size() > before) {
    // The new capture placeholders were appended: they go first, so that the
    // slices reading them come after them.
    std::vector<Node*> order;
    for (size_t i = before; i < body.nodes().size(); ++i) order.push_back(body.nodes()[i].get());
    for (size_t i = 0; i < before; ++i) order.push_back(body.nodes()[i].get());
    body.reorder_nodes(order);
  }
  return added;
}

}  // namespace

void hoist_row_products(Graph& g) {
  const size_t count = g.nodes().size();
  std::vector<std::vector<Node*>> hoisted(count);
  bool any = false;
  for (size_t id = 0; id < count; ++id) {
    Node& n = *g.nodes()[id];
    if (n.op->role() == OpRole::While && n.subgraphs.size() == 2) {
      hoisted[id] = hoist_from(g, n);
      any = any || !hoisted[id].empty();
    }
  }
  if (!any) return;
  std::vector<Node*> order;
  for (size_t id = 0; id < count; ++id) {
    for (Node* n : hoisted[id]) order.push_back(n);
    order.push_back(g.nodes()[id].get());
  }
  g.reorder_nodes(order);
}

}  // namespace ag
