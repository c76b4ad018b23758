#include "transpiler/passes/pass.h"

#include "transpiler/analysis/activity.h"
#include "transpiler/analysis/module_scope.h"

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
  const auto* with = fn.body.empty() ? nullptr : fn.body.back()->dyn<With>();
  return with ? function_context_name(*with) : "";
}

std::string function_context_name(const With& w) {
  if (w.items.size() != 1) return "";
  const auto& item = w.items[0]->as<WithItem>();
  const auto* call = item.context_expr->dyn<Call>();
  const auto* var = item.optional_vars ? item.optional_vars->dyn<Name>() : nullptr;
  const auto* attr = call ? call->func->dyn<Attribute>() : nullptr;
  const auto* base = attr ? attr->value->dyn<Name>() : nullptr;
  // The single-pass goldens spell the functions pass's output in source, so
  // any `ag__` counts here.
  if (!var || !base || base->id != "ag__" || attr->attr != "FunctionScope") return "";
  return var->id;
}

bool may_rebind(const Ref& target, const analysis::Scope* fn_scope) {
  const auto* n = target->dyn<Name>();
  if (!n) return true;
  analysis::QN q = analysis::QN::symbol(n->id);
  return fn_scope && fn_scope->bound.count(q) && !fn_scope->globals.count(q) && !fn_scope->nonlocals.count(q);
}

namespace {
std::string resolve_path(const Ref& expr, const std::map<std::string, std::string>& imports) {
  if (!expr) return "";
  if (const auto* n = expr->dyn<Name>()) {
    auto it = imports.find(n->id);
    return it == imports.end() ? "" : it->second;
  }
  if (const auto* a = expr->dyn<Attribute>()) {
    std::string base = resolve_path(a->value, imports);
    return base.empty() ? "" : base + "." + a->attr;
  }
  return "";
}
}  // namespace

std::string resolve_import_path(const Ref& expr, const std::map<std::string, std::string>& imports) {
  std::string path = resolve_path(expr, imports);
  const std::string_view tf = "tensorflow.";
  if (path.compare(0, tf.size(), tf) != 0) return path;
  return std::string(tf) + std::string(analysis::without_tf_compat(std::string_view(path).substr(tf.size())));
}

}  // namespace agc::passes
