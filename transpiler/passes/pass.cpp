#include "transpiler/passes/pass.h"

#include "transpiler/analysis/activity.h"

namespace agc::passes {

using namespace ast;

const analysis::Activity& PassContext::naming(const Ref& fn) {
  return analyses.get<analysis::Activity>(original ? original : fn);
}

const std::vector<std::string>& supported_optional_features() {
  static const std::vector<std::string> features = {"ASSERT_STATEMENTS", "BUILTIN_FUNCTIONS", "EQUALITY_OPERATORS"};
  return features;
}

std::string function_context_name(const FunctionDef& fn) {
  if (fn.body.empty()) return "";
  const auto* with = fn.body.back()->dyn<With>();
  if (!with || with->items.size() != 1) return "";
  const auto& item = with->items[0]->as<WithItem>();
  const auto* call = item.context_expr->dyn<Call>();
  const auto* var = item.optional_vars ? item.optional_vars->dyn<Name>() : nullptr;
  if (!call || !var) return "";
  const auto* attr = call->func->dyn<Attribute>();
  if (!attr || attr->attr != "FunctionScope") return "";
  const auto* base = attr->value->dyn<Name>();
  if (!base || base->id != "ag__") return "";
  return var->id;
}

std::string resolve_import_path(const Ref& expr, const std::map<std::string, std::string>& imports) {
  if (!expr) return "";
  if (const auto* n = expr->dyn<Name>()) {
    auto it = imports.find(n->id);
    return it == imports.end() ? "" : it->second;
  }
  if (const auto* a = expr->dyn<Attribute>()) {
    std::string base = resolve_import_path(a->value, imports);
    return base.empty() ? "" : base + "." + a->attr;
  }
  return "";
}

}  // namespace agc::passes
