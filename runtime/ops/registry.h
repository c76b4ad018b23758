// The op registry: every op agc's runtime knows, by TF op type. Each layer
// registers its ops explicitly (no static-initializer self-registration: a
// static library may drop it and its order is unspecified): the families in
// ops/, the graph's own ops (Placeholder, If, While, the fused ops) in graph/,
// and the kernels of those in exec/; register_builtin_ops() calls them all.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/ops/op_def.h"
#include "runtime/ops/op_type.h"

namespace ag {

class OpRegistry;

/// Fluent registration: reg.op("AddV2").inputs(2).infer(...).cpu(...).not_differentiable();
/// Helpers that register a family's ops return the builder, so the family
/// chains what differs per op (its gradient, its TPU facts) at the call site.
class OpBuilder {
 public:
  explicit OpBuilder(OpDef& def) : def_(&def) {}
  OpBuilder& inputs(int n) { def_->min_inputs = def_->max_inputs = n; return *this; }
  OpBuilder& inputs(int min, int max) { def_->min_inputs = min; def_->max_inputs = max; return *this; }
  OpBuilder& outputs(int n) { def_->num_outputs = n; return *this; }
  OpBuilder& infer(InferFn f) { def_->infer = std::move(f); return *this; }
  OpBuilder& cpu(KernelFactory f) { return kernel(Backend::Cpu, std::move(f)); }
  OpBuilder& kernel(Backend b, KernelFactory f) { def_->kernels[static_cast<size_t>(b)] = std::move(f); return *this; }
  OpBuilder& elementwise(const ElementwiseDef* e) { def_->elementwise = e; return *this; }
  OpBuilder& canonicalize(CanonicalizeFn f) { def_->canonicalize = f; return *this; }
  OpBuilder& shape_value(ShapeValueFn f) { def_->shape_value = f; return *this; }
  /// TF's argument lists, as ops/tf_op_signature.h declares them. The type
  /// attrs of single (non-list) inputs become type_attrs too.
  OpBuilder& tf_signature(std::string_view spec);

  // ---- traits
  OpBuilder& role(OpRole r) { def_->traits.role = r; return *this; }
  OpBuilder& semantic(OpSemantic s) { def_->traits.semantic = s; return *this; }
  OpBuilder& stateful() { def_->traits.stateful = true; return *this; }
  OpBuilder& commutative() { def_->traits.commutative = true; return *this; }
  /// See OpTraits::speculatable; `fails_on` dtypes fail on some values of input `failing_input`.
  OpBuilder& speculatable(TypeMask fails_on = 0, int failing_input = -1) {
    def_->traits.speculatable = true;
    def_->traits.fails_on = fails_on;
    def_->traits.failing_input = failing_input;
    return *this;
  }
  OpBuilder& selects_row(NodeQuery q) { def_->traits.selects_row = q; return *this; }
  OpBuilder& reads_variable() { def_->traits.reads_variable = true; return *this; }

  // ---- the gradient decision (GradientDecision)
  OpBuilder& grad(GradFn f) { def_->gradient = {GradientDecision::Kind::Function, std::move(f)}; return *this; }
  OpBuilder& not_differentiable() { def_->gradient = {GradientDecision::Kind::NotDifferentiable, {}}; return *this; }
  OpBuilder& grad_unimplemented() { def_->gradient = {GradientDecision::Kind::Unimplemented, {}}; return *this; }

  // ---- cost and TPU facts
  OpBuilder& cost(CostKind k, ContractionFn contraction = nullptr) { def_->cost = {k, contraction}; return *this; }
  /// Runs on the TPU; `constant_inputs` must be compile-time constants there
  /// (negative: counted from the last input, ConcatV2's axis).
  OpBuilder& tpu(std::vector<int> constant_inputs = {}) {
    def_->tpu.kind = TpuFacts::Kind::Supported;
    def_->tpu.constant_inputs = std::move(constant_inputs);
    return *this;
  }
  OpBuilder& tpu_unsupported(std::string why) {
    def_->tpu.kind = TpuFacts::Kind::Unsupported;
    def_->tpu.reason = std::move(why);
    return *this;
  }
  OpBuilder& quantization(QuantRole r) { def_->tpu.quantization = r; return *this; }

  OpDef& def() const { return *def_; }

 private:
  OpDef* def_;
};

class OpRegistry {
 public:
  /// The process-wide registry with every builtin op (built on first use by
  /// register_builtin_ops, thread-safe).
  static const OpRegistry& global();

  /// Adds an op; InternalError if the name is taken.
  OpBuilder op(std::string name);
  /// The op `type` names, to add what another layer defines (a kernel);
  /// InternalError if it is not registered yet.
  OpBuilder extend(OpType type);
  /// The op of type `type`; NotFoundError "Op type not registered 'X'" if
  /// there is none (only possible for a type given as data: every ag::op
  /// constant is registered).
  const OpDef& get(OpType type) const;
  /// The op called `name` (data: a node attribute, a file), or nullptr.
  const OpDef* find(std::string_view name) const;
  const std::vector<std::unique_ptr<OpDef>>& ops() const { return ops_; }

 private:
  std::vector<std::unique_ptr<OpDef>> ops_;
  std::unordered_map<std::string, OpDef*> by_name_;
  /// Per ag::op constant (OpType::index()), its op once registered.
  const OpDef* by_constant_[op::detail::kCount] = {};
};

/// Registers every builtin op into `reg`, layer by layer. Declared here,
/// defined at the top of the runtime's layers (exec/register_builtin_ops.cpp),
/// which may see every layer's registration function.
void register_builtin_ops(OpRegistry& reg);

}  // namespace ag
