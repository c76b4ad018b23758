#include "transpiler/analysis/ag_operators.h"

#include <functional>

#include "transpiler/ast/visitor.h"

namespace agc::analysis {

using namespace ast;

std::string_view ag_attribute(const Ref& e) {
  const auto* a = e ? e->dyn<Attribute>() : nullptr;
  const auto* n = a ? a->value->dyn<Name>() : nullptr;
  return n && n->id == "ag__" && !n->from_source ? std::string_view(a->attr) : std::string_view();
}

std::string_view ag_operator(const Ref& e) {
  const auto* c = e ? e->dyn<Call>() : nullptr;
  return c ? ag_attribute(c->func) : std::string_view();
}

const Ref& unwrap_ld(const Ref& e) {
  if (ag_operator(e) == "ld" && e->as<Call>().args.size() == 1) return e->as<Call>().args[0];
  return e;
}

namespace {

bool none_starred(const Refs& args) {
  for (const Ref& a : args) {
    if (a->is<Starred>()) return false;
  }
  return true;
}

}  // namespace

const Ref* positional_callee(const Ref& call) {
  const Call& c = call->as<Call>();
  if (ag_operator(call) == "converted_call") {
    // converted_call(f, (args,), None, fscope)
    if (c.args.size() < 3) return nullptr;
    const auto* args = c.args[1]->dyn<Tuple>();
    const auto* kwargs = c.args[2]->dyn<Constant>();
    if (!args || !none_starred(args->elts) || !kwargs || kwargs->value.kind != ConstantValue::Kind::None) {
      return nullptr;
    }
    return &unwrap_ld(c.args[0]);
  }
  if (!c.keywords.empty() || !none_starred(c.args)) return nullptr;
  return &unwrap_ld(c.func);
}

std::set<std::string> list_mutation_targets(const Refs& body) {
  std::set<std::string> out;
  std::function<void(const Ref&)> visit = [&](const Ref& n) {
    if (!n) return;
    if (auto* a = n->dyn<Assign>()) {
      std::string_view op = ag_operator(a->value);
      const auto& args = op.empty() ? Refs{} : a->value->as<Call>().args;
      if ((op == "list_append" || op == "list_pop") && !args.empty()) {
        if (auto* nm = unwrap_ld(args[0])->dyn<Name>()) out.insert(nm->id);
      }
    }
    for_each_child(*n, visit);
  };
  for (const Ref& s : body) visit(s);
  return out;
}

}  // namespace agc::analysis
