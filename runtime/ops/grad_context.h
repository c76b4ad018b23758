// What an op's gradient function sees and builds with (GRADIENTS.md section
// 0). A GradFn is written once, in other ops, against this interface, and
// runs wherever a gradient is taken: eagerly under a tape (its ops run now,
// and an outer tape records them: higher derivatives), or adding nodes to the
// graph being traced (a tape inside a tf.function, a function's backward
// graph). The graph layer implements it (graph/gradients.cpp); the helpers
// below are written once here over the virtual core.
//
//   reg.op("Mul")...grad([](GradContext& c) {
//     GradTensor g = c.grad(0);
//     return grads(c.unbroadcast(c.mul(g, c.input(1)), c.input(0)),
//                  c.unbroadcast(c.mul(c.input(0), g), c.input(1)));
//   });
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <vector>

#include "runtime/ops/op_def.h"

namespace ag {

/// A tensor of a gradient computation: an index into its GradContext's
/// table. A default one is None (no gradient).
struct GradTensor {
  int32_t id = -1;
  explicit operator bool() const { return id >= 0; }
};

class GradContext {
 public:
  virtual ~GradContext() = default;

  // ---- the forward op
  virtual const OpDef& op() const = 0;
  virtual const Attrs& attrs() const = 0;
  virtual int num_inputs() const = 0;
  virtual int num_outputs() const = 0;
  virtual GradTensor input(int i) = 0;
  virtual GradTensor output(int i) = 0;
  /// The gradient flowing into output `i`: zeros of its type when none does
  /// (a GradFn runs when at least one output has one).
  virtual GradTensor grad(int i) = 0;
  /// True when output `i` has a gradient of its own (not zeros filled in).
  virtual bool has_grad(int i) const = 0;
  /// Whether input `i`'s gradient is wanted (TF's skip_input_indices): a
  /// GradFn may return None for the others and skip their work. For If and
  /// While, `i` past the inputs are the variables their subgraphs read.
  virtual bool needed(int i) const = 0;
  /// The forward node's subgraphs (If: then, else; While: cond, body).
  virtual std::span<const std::shared_ptr<Graph>> subgraphs() const = 0;

  // ---- building
  /// The static type of `t` (its exact shape when eager); the reference
  /// stays valid while the context lives.
  virtual const TensorSpec& spec(GradTensor t) const = 0;
  /// The value of `t` when known while building (eager, or a graph
  /// constant), else nullptr: GradFns use it to keep shapes static.
  virtual const Tensor* value(GradTensor t) const = 0;
  virtual std::vector<GradTensor> apply(OpType op, std::span<const GradTensor> inputs, const Attrs& attrs = {}) = 0;
  virtual GradTensor constant(Tensor value) = 0;

  // ---- helpers over the core (grad_context.cpp)
  GradTensor apply1(OpType op, std::initializer_list<GradTensor> inputs, const Attrs& attrs = {});
  DType dtype(GradTensor t) const { return spec(t).dtype; }
  /// A scalar of `t`'s dtype.
  GradTensor scalar_like(GradTensor t, double v);
  /// An int32 vector constant (axes, shapes, begins known while building).
  GradTensor ints(const std::vector<int64_t>& values);
  GradTensor add(GradTensor a, GradTensor b);
  GradTensor sub(GradTensor a, GradTensor b);
  GradTensor mul(GradTensor a, GradTensor b);
  GradTensor div(GradTensor a, GradTensor b);
  GradTensor neg(GradTensor a);
  GradTensor cast(GradTensor a, DType to);
  GradTensor zeros_like(GradTensor a);
  GradTensor ones_like(GradTensor a);
  /// where(c, a, b), broadcasting.
  GradTensor select(GradTensor c, GradTensor a, GradTensor b);
  GradTensor reshape(GradTensor a, GradTensor shape);
  /// tf.shape(a) as int32 (a constant when a's shape is static).
  GradTensor shape_of(GradTensor a);
  /// reduce_sum over `axes` (int32), keeping no dims.
  GradTensor sum(GradTensor a, GradTensor axes);
  GradTensor matmul(GradTensor a, GradTensor b, bool transpose_a, bool transpose_b);
  /// The broadcasting rule (GRADIENTS.md 3.1): `g`, the gradient of a value
  /// `x` was broadcast into, summed over the broadcast axes and reshaped to
  /// x's shape. Static shapes decide the axes while building; otherwise
  /// BroadcastGradientArgs does at run time. A no-op when shapes agree.
  GradTensor unbroadcast(GradTensor g, GradTensor x);
};

/// A GradFn's result from its per-input gradients: grads(gx, gy).
inline std::vector<GradTensor> grads(std::initializer_list<GradTensor> per_input) { return per_input; }

}  // namespace ag
