#include "runtime/ops/registry.h"

#include <algorithm>

#include "runtime/core/error.h"

namespace ag {

const OpRegistry& OpRegistry::global() {
  static const OpRegistry* reg = [] {
    auto* r = new OpRegistry();
    register_builtin_ops(*r);
    return r;
  }();
  return *reg;
}

OpBuilder& OpBuilder::tf_signature(std::string_view spec) {
  def_->tf_signature = parse_tf_signature(def_->name, spec);
  // Input i's type attr, for single inputs before any list (their index is fixed).
  int index = 0;
  for (const TfArg& a : def_->tf_signature->inputs) {
    if (a.is_list()) break;
    if (a.resource) continue;  // agc's variable ops name the variable by attr
    if (!a.type_attr.empty() &&
        std::none_of(def_->type_attrs.begin(), def_->type_attrs.end(), [&](const auto& t) { return t.first == a.type_attr; })) {
      def_->type_attrs.emplace_back(a.type_attr, index);
    }
    ++index;
  }
  return *this;
}

OpBuilder OpRegistry::op(std::string name) {
  if (by_name_.count(name)) throw InternalError("op '" + name + "' registered twice");
  auto def = std::make_unique<OpDef>();
  def->name = name;
  def->id = static_cast<int>(ops_.size());
  OpDef& ref = *def;
  for (const OpType& t : op::kAll) {
    if (t.name() == name) by_constant_[t.index()] = def.get();
  }
  by_name_.emplace(std::move(name), def.get());
  ops_.push_back(std::move(def));
  return OpBuilder(ref);
}

OpBuilder OpRegistry::extend(OpType type) {
  auto it = by_name_.find(std::string(type.name()));
  if (it == by_name_.end()) throw InternalError("op '" + std::string(type.name()) + "' extended before it is registered");
  return OpBuilder(*it->second);
}

const OpDef* OpRegistry::find(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : it->second;
}

const OpDef& OpRegistry::get(OpType type) const {
  const OpDef* d = type.index() >= 0 ? by_constant_[type.index()] : find(type.name());
  if (d == nullptr) throw NotFoundError("Op type not registered '" + std::string(type.name()) + "'");
  return *d;
}

}  // namespace ag
