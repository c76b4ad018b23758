// Which names each C++ scope declares, and which nested defs can be plain
// C++ lambdas.
#include <functional>
#include <map>

#include "transpiler/ast/visitor.h"
#include "transpiler/emit/cpp_emitter_impl.h"
#include "transpiler/emit/cpp_text.h"

namespace agc::emit::cpp {

using namespace agc::ast;

namespace {

void bind_target(const Ref& t, std::set<std::string>& out) {
  if (!t) return;
  if (auto* n = t->dyn<Name>()) {
    out.insert(n->id);
  } else if (auto* tu = t->dyn<Tuple>()) {
    for (const Ref& e : tu->elts) bind_target(e, out);
  } else if (auto* l = t->dyn<List>()) {
    for (const Ref& e : l->elts) bind_target(e, out);
  } else if (auto* s = t->dyn<Starred>()) {
    bind_target(s->value, out);
  }
  // Attribute and Subscript targets bind nothing.
}

void walk_scope(const Ref& s, ScopeNames& out) {
  if (!s) return;
  switch (s->kind) {
    case NodeKind::FunctionDef: out.bound.insert(s->as<FunctionDef>().name); return;
    case NodeKind::ClassDef: out.bound.insert(s->as<ClassDef>().name); return;
    case NodeKind::Lambda:
    case NodeKind::ListComp:
    case NodeKind::SetComp:
    case NodeKind::DictComp:
    case NodeKind::GeneratorExp: return;
    case NodeKind::Assign:
      for (const Ref& t : s->as<Assign>().targets) bind_target(t, out.bound);
      break;
    case NodeKind::AugAssign: bind_target(s->as<AugAssign>().target, out.bound); break;
    case NodeKind::AnnAssign: bind_target(s->as<AnnAssign>().target, out.bound); break;
    case NodeKind::For: bind_target(s->as<For>().target, out.bound); break;
    case NodeKind::Delete:
      for (const Ref& t : s->as<Delete>().targets) bind_target(t, out.bound);
      break;
    case NodeKind::WithItem: bind_target(s->as<WithItem>().optional_vars, out.bound); break;
    case NodeKind::ExceptHandler:
      if (!s->as<ExceptHandler>().name.empty()) out.bound.insert(s->as<ExceptHandler>().name);
      break;
    case NodeKind::Import:
    case NodeKind::ImportFrom:
      for (const Ref& a : s->kind == NodeKind::Import ? s->as<Import>().names : s->as<ImportFrom>().names) {
        const Alias& al = a->as<Alias>();
        std::string n = al.asname.empty() ? al.name.substr(0, al.name.find('.')) : al.asname;
        out.bound.insert(n);
      }
      return;
    case NodeKind::Global:
      for (const std::string& n : s->as<Global>().names) out.globals.insert(n);
      return;
    case NodeKind::Nonlocal:
      for (const std::string& n : s->as<Nonlocal>().names) out.nonlocals.insert(n);
      return;
    default: break;
  }
  for_each_child(*s, [&](const Ref& c) { walk_scope(c, out); });
}

}  // namespace

std::string ag_operator(const Ref& e) {
  auto* c = e ? e->dyn<Call>() : nullptr;
  if (!c) return "";
  auto* a = c->func->dyn<Attribute>();
  if (!a) return "";
  auto* n = a->value->dyn<Name>();
  return n && n->id == "ag__" ? a->attr : "";
}

namespace {
bool is_ag_call(const Ref& e) { return !ag_operator(e).empty(); }

}  // namespace

ScopeNames scope_names(const Refs& body) {
  ScopeNames out;
  for (const Ref& s : body) walk_scope(s, out);
  for (const std::string& n : out.globals) out.bound.erase(n);
  for (const std::string& n : out.nonlocals) out.bound.erase(n);
  return out;
}

std::vector<std::string> param_names(const Arguments& args) {
  std::vector<std::string> out;
  for (const Ref& a : args.posonlyargs) out.push_back(a->as<Arg>().arg);
  for (const Ref& a : args.args) out.push_back(a->as<Arg>().arg);
  if (args.vararg) out.push_back(args.vararg->as<Arg>().arg);
  for (const Ref& a : args.kwonlyargs) out.push_back(a->as<Arg>().arg);
  if (args.kwarg) out.push_back(args.kwarg->as<Arg>().arg);
  return out;
}

std::string value_lambda_params(size_t num_params) {
  return num_params == 0 ? "const std::vector<ag::Value>&" : "const std::vector<ag::Value>& ag_args";
}

std::string value_params(const FunctionDef& f, const std::vector<std::string>& params) {
  // Every name the body mentions, nested defs and lambdas included (they
  // capture the parameter by reference).
  struct Names : AstVisitor {
    std::set<std::string> ids;
    void visit_Name(const Ptr<Name>& n) override {
      ids.insert(n->id);
      visit_children(*n);
    }
  } names;
  names.visit_all(f.body);
  std::string out;
  for (const std::string& p : params) {
    if (!out.empty()) out += ", ";
    if (!names.ids.count(p)) out += "[[maybe_unused]] ";
    out += "ag::Value " + cpp_ident(p);
  }
  return out;
}

std::set<std::string> lambda_defs(const Refs& body) {
  // Candidates: nested defs of this block with plain positional parameters.
  std::map<std::string, const FunctionDef*> defs;
  std::set<std::string> rejected;
  for (const Ref& s : body) {
    auto* f = s->dyn<FunctionDef>();
    if (!f) continue;
    const Arguments& a = f->args->as<Arguments>();
    bool plain = f->decorator_list.empty() && a.posonlyargs.empty() && !a.vararg && a.kwonlyargs.empty() &&
                 !a.kwarg && a.defaults.empty();
    if (defs.count(f->name) || !plain) rejected.insert(f->name);  // defined twice: a Value
    defs[f->name] = f;
  }
  // Every load of a candidate must be a positional call's callee or an
  // argument of an ag__ operator, and come after its definition; a load
  // anywhere else (stored, returned, inside its own body) makes it a Value.
  std::set<std::string> defined;
  std::function<void(const Ref&, bool)> visit = [&](const Ref& n, bool allowed) {
    if (!n) return;
    if (auto* nm = n->dyn<Name>()) {
      if (defs.count(nm->id) && (!allowed || !defined.count(nm->id))) rejected.insert(nm->id);
      return;
    }
    if (auto* c = n->dyn<Call>()) {
      std::string op = ag_operator(n);
      if (op == "if_stmt" || op == "while_stmt" || op == "for_stmt") {
        for (const Ref& a : c->args) visit(a, a->is<Name>());
        return;
      }
      if (op == "converted_call" && c->args.size() >= 3) {
        // converted_call(ag__.ld(f), (args,), None, fscope): a positional call of f.
        const Ref& callee = ag_operator(c->args[0]) == "ld" ? c->args[0]->as<Call>().args.at(0) : c->args[0];
        bool positional = c->args[2]->is<Constant>() && c->args[1]->is<Tuple>();
        if (positional) {
          for (const Ref& a : c->args[1]->as<Tuple>().elts) positional = positional && !a->is<Starred>();
        }
        visit(callee, positional && callee->is<Name>());
        for (size_t i = 1; i < c->args.size(); ++i) visit(c->args[i], false);
        return;
      }
      bool positional = c->keywords.empty();
      for (const Ref& a : c->args) positional = positional && !a->is<Starred>();
      visit(c->func, positional && c->func->is<Name>());
      for (const Ref& a : c->args) visit(a, false);
      for (const Ref& k : c->keywords) visit(k, false);
      return;
    }
    for_each_child(*n, [&](const Ref& c) { visit(c, false); });
  };
  for (const Ref& s : body) {
    if (auto* f = s->dyn<FunctionDef>()) {
      // A load of itself in its own body (recursion) comes before its
      // definition is complete: it must be a Value declared up front.
      for (const Ref& b : f->body) visit(b, false);
      defined.insert(f->name);
      continue;
    }
    visit(s, false);
  }
  std::set<std::string> out;
  for (const auto& [name, f] : defs) {
    if (!rejected.count(name)) out.insert(name);
  }
  return out;
}

std::set<std::string> list_symbols(const Refs& body) {
  std::set<std::string> out;
  std::function<void(const Ref&)> visit = [&](const Ref& n) {
    if (!n) return;
    if (auto* a = n->dyn<Assign>(); a && is_ag_call(a->value)) {
      const auto& call = a->value->as<Call>();
      const std::string& op = call.func->as<Attribute>().attr;
      if ((op == "list_append" || op == "list_pop") && !call.args.empty()) {
        const Ref& target = call.args[0];
        const Ref* t = &target;
        // ag__.list_append(ag__.ld(x), ...)
        if (is_ag_call(target) && !target->as<Call>().args.empty()) t = &target->as<Call>().args[0];
        if (auto* nm = (*t)->dyn<Name>()) out.insert(nm->id);
      }
    }
    for_each_child(*n, visit);
  };
  for (const Ref& s : body) visit(s);
  return out;
}

}  // namespace agc::emit::cpp
