#include "transpiler/analysis/module_scope.h"

#include "transpiler/base/check.h"

namespace agc::analysis {

using namespace ast;

namespace {

void collect_bound_names(const Ref& target, std::set<std::string>& out) {
  if (!target) return;
  if (const auto* n = target->dyn<Name>()) {
    out.insert(n->id);
  } else if (const auto* t = target->dyn<Tuple>()) {
    for (const auto& e : t->elts) collect_bound_names(e, out);
  } else if (const auto* l = target->dyn<List>()) {
    for (const auto& e : l->elts) collect_bound_names(e, out);
  } else if (const auto* st = target->dyn<Starred>()) {
    collect_bound_names(st->value, out);
  }
}

void collect_module_names(const Refs& body, std::set<std::string>& out) {
  for (const auto& s : body) {
    switch (s->kind) {
      case NodeKind::FunctionDef: out.insert(s->as<FunctionDef>().name); break;
      case NodeKind::ClassDef: out.insert(s->as<ClassDef>().name); break;
      case NodeKind::Assign:
        for (const auto& t : s->as<Assign>().targets) collect_bound_names(t, out);
        break;
      case NodeKind::AugAssign: collect_bound_names(s->as<AugAssign>().target, out); break;
      case NodeKind::AnnAssign: collect_bound_names(s->as<AnnAssign>().target, out); break;
      case NodeKind::Delete:
        for (const auto& t : s->as<Delete>().targets) collect_bound_names(t, out);
        break;
      case NodeKind::Import:
      case NodeKind::ImportFrom: {
        const Refs& names = s->is<Import>() ? s->as<Import>().names : s->as<ImportFrom>().names;
        for (const auto& a : names) {
          const auto& al = a->as<Alias>();
          if (al.name == "*") continue;
          out.insert(al.asname.empty() ? al.name.substr(0, al.name.find('.')) : al.asname);
        }
        break;
      }
      case NodeKind::For:
        collect_bound_names(s->as<For>().target, out);
        collect_module_names(s->as<For>().body, out);
        collect_module_names(s->as<For>().orelse, out);
        break;
      case NodeKind::While:
        collect_module_names(s->as<While>().body, out);
        collect_module_names(s->as<While>().orelse, out);
        break;
      case NodeKind::If:
        collect_module_names(s->as<If>().body, out);
        collect_module_names(s->as<If>().orelse, out);
        break;
      case NodeKind::With:
        for (const auto& i : s->as<With>().items) collect_bound_names(i->as<WithItem>().optional_vars, out);
        collect_module_names(s->as<With>().body, out);
        break;
      case NodeKind::Try: {
        const auto& t = s->as<Try>();
        collect_module_names(t.body, out);
        for (const auto& h : t.handlers) {
          if (!h->as<ExceptHandler>().name.empty()) out.insert(h->as<ExceptHandler>().name);
          collect_module_names(h->as<ExceptHandler>().body, out);
        }
        collect_module_names(t.orelse, out);
        collect_module_names(t.finalbody, out);
        break;
      }
      case NodeKind::Return:
      case NodeKind::Raise:
      case NodeKind::Assert:
      case NodeKind::Global:
      case NodeKind::Nonlocal:
      case NodeKind::Expr:
      case NodeKind::Pass:
      case NodeKind::Break:
      case NodeKind::Continue:
        break;  // bind nothing
#define AGC_STMT(Name, Fields)
#define AGC_EXPR(Name, Fields) case NodeKind::Name:
#define AGC_AUX(Name, Fields) case NodeKind::Name:
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
        AGC_UNREACHABLE("a statement list holds only statements");
    }
  }
}

}  // namespace

std::shared_ptr<const std::set<std::string>> module_names(const Module& m) {
  auto out = std::make_shared<std::set<std::string>>();
  collect_module_names(m.body, *out);
  return out;
}

std::string_view without_tf_compat(std::string_view path) {
  for (std::string_view prefix : {"compat.v1.", "compat.v2."}) {
    if (path.substr(0, prefix.size()) == prefix) return path.substr(prefix.size());
  }
  return path;
}

std::map<std::string, std::string> module_imports(const Module& m) {
  std::map<std::string, std::string> out;
  for (const auto& s : m.body) {
    if (const auto* imp = s->dyn<Import>()) {
      for (const auto& a : imp->names) {
        const auto& al = a->as<Alias>();
        // Names resolve module-wide, not from the import on: a file that
        // imports tensorflow.compat.v1 as tf and later tensorflow as tf (a
        // TF1 example next to its TF2 port) keeps compat.v1, where TF2's
        // names resolve too (without_tf_compat).
        if (!al.asname.empty() && al.name == "tensorflow" && out[al.asname] == "tensorflow.compat.v1") continue;
        if (!al.asname.empty()) out[al.asname] = al.name;
        else out[al.name.substr(0, al.name.find('.'))] = al.name.substr(0, al.name.find('.'));
      }
    } else if (const auto* imp = s->dyn<ImportFrom>()) {
      if (imp->level != 0) continue;
      for (const auto& a : imp->names) {
        const auto& al = a->as<Alias>();
        if (al.name == "*") continue;
        out[al.asname.empty() ? al.name : al.asname] = imp->module + "." + al.name;
      }
    }
  }
  return out;
}

}  // namespace agc::analysis
