// The backward walk over recorded ops (GRADIENTS.md 1.3; TF's
// tape.h ComputeGradient): from the targets, each recorded op whose outputs
// received gradients runs its GradFn once, in reverse recording order, and
// the gradients reaching one tensor are summed in a fixed order. GradFns
// build through apply_op, so the walk runs eagerly or adds nodes to the graph
// being traced, and a tape recording meanwhile records the gradient's ops
// (higher derivatives).
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "runtime/graph/tape.h"

namespace ag {

struct GradientSource {
  TensorKey key;
  /// Its static type, for unconnected_gradients='zero'.
  TensorSpec spec;
};

/// d(sum of targets · seeds)/d(source) for each source: nullopt where no
/// recorded path connects them (None). `seeds` holds one entry per target:
/// its upstream gradient, or nullopt for ones_like(target).
/// LookupError (TF's text) for an op on a path that has no gradient.
std::vector<std::optional<TensorHandle>> compute_gradient(std::span<const TapeEntry> entries,
                                                          std::span<const TensorHandle> targets,
                                                          std::span<const std::optional<TensorHandle>> seeds,
                                                          std::span<const GradientSource> sources);

/// The sum of `terms` (at least one), left to right.
TensorHandle add_all(std::span<const TensorHandle> terms);

/// The GradContext compute_gradient hands GradFns: every tensor it touches
/// is a TensorHandle, and building applies ops where the walk runs. The
/// graph's own GradFns (If, While) downcast to it to reach the forward node.
class TapeGradContext final : public GradContext {
 public:
  TapeGradContext(const TapeEntry& e, std::vector<std::optional<TensorHandle>> grads, std::vector<bool> needed);

  const OpDef& op() const override { return *e_.op; }
  const Attrs& attrs() const override { return e_.attrs; }
  int num_inputs() const override { return static_cast<int>(e_.inputs.size()); }
  int num_outputs() const override { return static_cast<int>(e_.outputs.size()); }
  GradTensor input(int i) override { return {i}; }
  GradTensor output(int i) override { return {static_cast<int32_t>(e_.inputs.size()) + i}; }
  GradTensor grad(int i) override;
  bool has_grad(int i) const override { return grads_[i].has_value(); }
  bool needed(int i) const override { return needed_[i]; }
  std::span<const std::shared_ptr<Graph>> subgraphs() const override { return e_.subgraphs; }
  const TensorSpec& spec(GradTensor t) const override { return specs_.at(t.id); }
  const Tensor* value(GradTensor t) const override;
  std::vector<GradTensor> apply(OpType op, std::span<const GradTensor> inputs, const Attrs& attrs) override;
  GradTensor constant(Tensor v) override { return wrap(TensorHandle(std::move(v))); }

  const TapeEntry& entry() const { return e_; }
  const TensorHandle& handle(GradTensor t) const { return table_.at(t.id); }
  GradTensor wrap(TensorHandle h);

 private:
  const TapeEntry& e_;
  std::vector<std::optional<TensorHandle>> grads_;
  std::vector<bool> needed_;
  std::vector<int32_t> grad_ids_;
  // Deques: spec() and handle() hand out references that building more
  // tensors must not invalidate.
  std::deque<TensorHandle> table_;
  std::deque<TensorSpec> specs_;
};

/// The gradient of a graph, built in the current graph (a gradient branch or
/// loop body, a function's backward graph): `g`'s outputs [0, seeds.size())
/// seeded by `seeds` (nullopt: none), differentiated with respect to its
/// argument placeholders, its captured placeholders and the variables it
/// reads (variables_read order). `g`'s own tensors are reached through the
/// current graph's foreign resolver (Graph::set_foreign_resolver). nullopt
/// where nothing connects.
struct GraphGradient {
  std::vector<std::optional<TensorHandle>> args;
  std::vector<std::optional<TensorHandle>> captures;
  std::vector<std::optional<TensorHandle>> variables;
};
GraphGradient differentiate_graph(const Graph& g, std::span<const std::optional<TensorHandle>> seeds);

}  // namespace ag
