// The op registry: every op agc's runtime knows, by TF op type. Families
// register explicitly from register_builtin_ops() (no static-initializer
// self-registration: a static library may drop it and its order is unspecified).
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

/// Fluent registration: reg.op("AddV2").inputs(2).infer(...).cpu(...);
class OpBuilder {
 public:
  explicit OpBuilder(OpDef& def) : def_(def) {}
  OpBuilder& inputs(int n) { def_.min_inputs = def_.max_inputs = n; return *this; }
  OpBuilder& inputs(int min, int max) { def_.min_inputs = min; def_.max_inputs = max; return *this; }
  OpBuilder& outputs(int n) { def_.num_outputs = n; return *this; }
  OpBuilder& stateful() { def_.stateful = true; return *this; }
  OpBuilder& infer(InferFn f) { def_.infer = std::move(f); return *this; }
  OpBuilder& cpu(KernelFactory f) { def_.cpu = std::move(f); return *this; }

 private:
  OpDef& def_;
};

class OpRegistry {
 public:
  /// The process-wide registry with every builtin op (built on first use, thread-safe).
  static const OpRegistry& global();

  /// Adds an op; InternalError if the name is taken.
  OpBuilder op(std::string name);
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

/// Registers every family of builtin ops into `reg`.
void register_builtin_ops(OpRegistry& reg);

}  // namespace ag
