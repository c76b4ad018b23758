#include "runtime/graph/evaluate.h"

#include <unordered_map>
#include <vector>

#include "runtime/ops/eager.h"
#include "runtime/ops/kernels/array_common.h"

namespace ag {
namespace {

/// Limits of an evaluation: TF's shape refiner evaluates only small
/// constant subgraphs; a lifted initializer is run whatever it holds.
struct Limits {
  bool stateful = true;     // may run stateful nodes (random, variable reads)
  int max_nodes = -1;       // nodes it may run; -1: any number
  int64_t max_elements = -1;  // elements a node's output may have; -1: any
};

std::optional<Tensor> evaluate(const Output& o, const Limits& limits) {
  std::unordered_map<const Node*, std::vector<Tensor>> values;
  int budget = limits.max_nodes;
  // Depth first over the inputs; a node runs once its inputs have.
  auto run = [&](auto& self, const Node* n) -> bool {
    if (values.count(n)) return true;
    if (n->op->role() == OpRole::Argument || !n->subgraphs.empty()) return false;
    if (n->stateful() && !limits.stateful) return false;
    if (limits.max_elements >= 0) {
      for (const TensorSpec& out : n->outputs) {
        if (!out.shape.fully_defined() || out.shape.num_elements() > limits.max_elements) return false;
      }
    }
    if (n->op->role() == OpRole::Constant) {
      values[n] = {n->attrs.get<Tensor>("value")};
      return true;
    }
    if (budget == 0) return false;
    if (budget > 0) --budget;
    std::vector<Tensor> in;
    for (const Output& i : n->inputs) {
      if (!self(self, i.node)) return false;
      in.push_back(values.at(i.node).at(static_cast<size_t>(i.index)));
    }
    values[n] = run_op(*n->op, in, n->attrs);
    return true;
  };
  if (!run(run, o.node)) return std::nullopt;
  return values.at(o.node).at(static_cast<size_t>(o.index));
}

}  // namespace

std::optional<Tensor> lift_to_eager(const Output& o) { return evaluate(o, Limits{}); }

std::optional<Tensor> constant_value_of(const Output& o) {
  if (const Tensor* v = Graph::constant_value(o)) return *v;
  try {
    return evaluate(o, Limits{false, 16, 1024});
  } catch (const Error&) {
    return std::nullopt;  // a node that fails now fails when the graph runs
  }
}

std::optional<Shape> partial_shape_value(const Output& o) {
  const Shape& s = o.spec().shape;
  bool index = o.spec().dtype == DType::Int32 || o.spec().dtype == DType::Int64;
  if (!index || !s.rank_known() || s.rank() != 1) return std::nullopt;
  if (std::optional<Tensor> v = constant_value_of(o)) {
    std::vector<int64_t> dims = array::int_values(*v);
    for (int64_t& d : dims) d = d < 0 ? kUnknownDim : d;
    return Shape{std::span<const int64_t>(dims)};
  }
  const Node& n = *o.node;
  if (n.op->shape_value != nullptr && o.index == 0) {
    std::optional<Shape> known = with_context(n, [&](const InferContext& c) {
      return n.op->shape_value(ShapeValueQuery{c, [&n](size_t j) { return constant_value_of(n.inputs[j]); },
                                               [&n](size_t j) { return partial_shape_value(n.inputs[j]); }});
    });
    if (known) return known;
  }
  if (s.dim(0) != kUnknownDim) return Shape::unknown_dims(static_cast<int>(s.dim(0)));
  return std::nullopt;
}

}  // namespace ag
