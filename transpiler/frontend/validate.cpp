#include "transpiler/frontend/validate.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "transpiler/ast/visitor.h"

namespace agc::frontend {

using namespace ast;

namespace {

/// Starred expressions may only be elements of a tuple, list or set display,
/// positional call arguments, or subscript tuples; one per assignment target.
class StarredChecker : public AstVisitor {
 public:
  explicit StarredChecker(DiagnosticSink& sink) : sink_(sink) {}

 protected:
  void visit_Starred(const Ptr<Starred>& n) override {
    if (!allowed_.count(n.get())) {
      sink_.error(n->span, n->ctx == ExprContext::Store ? "starred assignment target must be in a list or tuple"
                                                        : "can't use starred expression here");
    }
    visit_children(*n);
  }
  void visit_Tuple(const Ptr<Tuple>& n) override { sequence(*n, n->elts, n->ctx); }
  void visit_List(const Ptr<List>& n) override { sequence(*n, n->elts, n->ctx); }
  void visit_Set(const Ptr<Set>& n) override { sequence(*n, n->elts, ExprContext::Load); }
  void visit_Call(const Ptr<Call>& n) override {
    for (const auto& a : n->args) {
      if (a->is<Starred>()) allowed_.insert(a.get());
    }
    visit_children(*n);
  }

 private:
  void sequence(const Node& n, const Refs& elts, ExprContext ctx) {
    int stars = 0;
    for (const auto& e : elts) {
      if (!e->is<Starred>()) continue;
      allowed_.insert(e.get());
      if (ctx == ExprContext::Store && ++stars == 2) sink_.error(e->span, "multiple starred expressions in assignment");
    }
    visit_children(n);
  }

  DiagnosticSink& sink_;
  std::set<const Node*> allowed_;
};

/// Names a function binds, and the global/nonlocal declarations it makes.
struct FunctionSymbols {
  std::set<std::string> params, bound, nonlocals;
  bool is_class = false;
};

/// The binding statements of one scope (not descending into nested scopes).
class BindingCollector : public AstVisitor {
 public:
  explicit BindingCollector(FunctionSymbols& sym) : sym_(sym) {}
  void body(const Refs& stmts) { visit_all(stmts); }

 protected:
  void visit_FunctionDef(const Ptr<FunctionDef>& n) override { sym_.bound.insert(n->name); }
  void visit_ClassDef(const Ptr<ClassDef>& n) override { sym_.bound.insert(n->name); }
  void visit_Lambda(const Ptr<Lambda>&) override {}
  void visit_ListComp(const Ptr<ListComp>&) override {}
  void visit_SetComp(const Ptr<SetComp>&) override {}
  void visit_DictComp(const Ptr<DictComp>&) override {}
  void visit_GeneratorExp(const Ptr<GeneratorExp>&) override {}
  void visit_Name(const Ptr<Name>& n) override {
    if (n->ctx != ExprContext::Load) sym_.bound.insert(n->id);
  }
  void visit_Alias(const Ptr<Alias>& n) override {
    if (n->name != "*") sym_.bound.insert(n->asname.empty() ? n->name.substr(0, n->name.find('.')) : n->asname);
  }
  void visit_ExceptHandler(const Ptr<ExceptHandler>& n) override {
    if (!n->name.empty()) sym_.bound.insert(n->name);
    visit_children(*n);
  }
  void visit_Nonlocal(const Ptr<Nonlocal>& n) override {
    for (const auto& name : n->names) sym_.nonlocals.insert(name);
  }

 private:
  FunctionSymbols& sym_;
};

/// The global/nonlocal rules of Python's symbol table.
class ScopeChecker : public AstVisitor {
 public:
  explicit ScopeChecker(DiagnosticSink& sink) : sink_(sink) {}

  void module(const Refs& body) {
    scopes_.push_back({});
    check_declarations(body);
    visit_all(body);
    scopes_.pop_back();
  }

 protected:
  void visit_FunctionDef(const Ptr<FunctionDef>& n) override {
    for (const auto& d : n->decorator_list) visit(d);
    visit(n->args);
    FunctionSymbols sym;
    const auto& a = n->args->as<Arguments>();
    for (const auto* list : {&a.posonlyargs, &a.args, &a.kwonlyargs}) {
      for (const auto& arg : *list) sym.params.insert(arg->as<Arg>().arg);
    }
    if (a.vararg) sym.params.insert(a.vararg->as<Arg>().arg);
    if (a.kwarg) sym.params.insert(a.kwarg->as<Arg>().arg);
    BindingCollector(sym).body(n->body);
    sym.bound.insert(sym.params.begin(), sym.params.end());
    scopes_.push_back(std::move(sym));
    check_declarations(n->body);
    visit_all(n->body);
    scopes_.pop_back();
  }

  void visit_ClassDef(const Ptr<ClassDef>& n) override {
    for (const auto& d : n->decorator_list) visit(d);
    for (const auto& b : n->bases) visit(b);
    FunctionSymbols sym;
    sym.is_class = true;
    scopes_.push_back(std::move(sym));
    check_declarations(n->body);
    visit_all(n->body);
    scopes_.pop_back();
  }

 private:
  /// Checks the global/nonlocal statements and `import *` of one scope's body.
  void check_declarations(const Refs& body) {
    struct Use {
      uint32_t at;
      bool store;
    };
    std::map<std::string, Use> first_use;  // first use of each name in this scope
    // Walk in source order, stopping at nested scopes.
    std::vector<const Node*> stack;
    std::function<void(const Ref&)> walk = [&](const Ref& n) {
      if (!n) return;
      switch (n->kind) {
        case NodeKind::FunctionDef:
        case NodeKind::ClassDef:
        case NodeKind::Lambda:
          return;
        case NodeKind::Name: {
          const auto& nm = n->as<Name>();
          first_use.emplace(nm.id, Use{n->span.begin, nm.ctx != ExprContext::Load});
          return;
        }
        case NodeKind::Global:
        case NodeKind::Nonlocal: {
          bool global = n->is<Global>();
          const auto& names = global ? n->as<Global>().names : n->as<Nonlocal>().names;
          for (const auto& name : names) declaration(*n, name, global, first_use);
          return;
        }
        case NodeKind::ImportFrom: {
          const auto& imp = n->as<ImportFrom>();
          bool star = !imp.names.empty() && imp.names[0]->as<Alias>().name == "*";
          if (star && scopes_.size() > 1 && !scopes_.back().is_class) {
            sink_.error(n->span, "import * only allowed at module level");
          }
          return;
        }
        default:
          for_each_child(*n, walk);
          return;
      }
    };
    for (const auto& s : body) walk(s);
  }

  template <class UseMap>
  void declaration(const Node& stmt, const std::string& name, bool global, const UseMap& first_use) {
    const char* kind = global ? "global" : "nonlocal";
    const FunctionSymbols& cur = scopes_.back();
    auto used = first_use.find(name);
    if (used != first_use.end() && used->second.at < stmt.span.begin) {
      sink_.error(stmt.span, fmt::format("name '{}' is {} {} declaration", name,
                                         used->second.store ? "assigned to before" : "used prior to", kind));
      return;
    }
    if (cur.params.count(name)) {
      sink_.error(stmt.span, fmt::format("name '{}' is parameter and {}", name, kind));
      return;
    }
    if (global) return;
    // nonlocal: an enclosing function (not a class, not the module) must bind it.
    if (scopes_.size() == 1 || (scopes_.size() == 2 && cur.is_class)) {
      sink_.error(stmt.span, "nonlocal declaration not allowed at module level");
      return;
    }
    for (size_t i = scopes_.size() - 1; i-- > 1;) {
      const FunctionSymbols& outer = scopes_[i];
      if (outer.is_class) continue;
      if (outer.bound.count(name) || outer.nonlocals.count(name)) return;
    }
    sink_.error(stmt.span, fmt::format("no binding for nonlocal '{}' found", name));
  }

  DiagnosticSink& sink_;
  std::vector<FunctionSymbols> scopes_;
};

}  // namespace

void validate_module(const Refs& body, DiagnosticSink& sink) {
  StarredChecker starred(sink);
  starred.visit_all(body);
  ScopeChecker(sink).module(body);
}

}  // namespace agc::frontend
