#include "runtime/core/error.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/ops/eager.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

/// TF's constant folding skips results larger than this (10 MiB).
constexpr size_t kMaxFoldedBytes = 10u << 20;

bool foldable(const Node& n) {
  if (n.stateful() || !n.subgraphs.empty() || !n.control_inputs.empty() || !n.op->cpu()) return false;
  if (n.outputs.size() != 1 || (n.op->role() != OpRole::Compute && n.op->role() != OpRole::Identity)) return false;
  for (const Output& in : n.inputs) {
    if (Graph::constant_value(in) == nullptr) return false;
  }
  return true;
}

/// The value of `n` computed from its constant inputs, or an undefined tensor
/// when it cannot (or should not) be folded.
Tensor evaluate(const Node& n) {
  std::vector<TensorSpec> specs;
  std::vector<const Tensor*> values;
  for (const Output& in : n.inputs) {
    const Tensor* v = Graph::constant_value(in);
    specs.push_back({v->dtype(), v->shape()});
    values.push_back(v);
  }
  try {
    std::vector<TensorSpec> out = infer_outputs(*n.op, specs, n.attrs, values);
    // A folded list would be one storage shared by every run of the graph.
    if (out.size() != 1 || !out[0].shape.fully_defined() || out[0].dtype == DType::Variant) return {};
    size_t bytes = 0;
    if (__builtin_mul_overflow(static_cast<size_t>(out[0].shape.num_elements()), dtype_size(out[0].dtype), &bytes) ||
        bytes > kMaxFoldedBytes) {
      return {};
    }
    Kernel kernel = n.op->cpu()(KernelSpec{n.op->name, specs, out, n.attrs});
    std::vector<Tensor> result(1);
    KernelContext ctx{values, result};
    kernel(ctx);
    return result[0];
  } catch (const Error&) {
    return {};  // the error stays where the graph runs (TF folds only what succeeds)
  }
}

}  // namespace

void fold_constants(Graph& g) {
  for (const auto& up : g.nodes()) {
    Node& n = *up;
    if (!foldable(n)) continue;
    Tensor v = evaluate(n);
    if (v.defined()) g.make_constant(n, std::move(v));
  }
}

}  // namespace ag
