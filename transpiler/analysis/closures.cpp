#include "transpiler/analysis/closures.h"

#include <map>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "transpiler/analysis/activity.h"
#include "transpiler/analysis/ag_operators.h"
#include "transpiler/analysis/analysis_cache.h"
#include "transpiler/ast/visitor.h"
#include "transpiler/base/check.h"

namespace agc::analysis {

using namespace ast;

const Closure* Closures::scope(const Node* n) const {
  auto it = by_node_.find(n);
  return it == by_node_.end() ? nullptr : it->second;
}

const Closure* Closures::owner(const Closure* from, const std::string& name) {
  for (const Closure* c = from; c; c = c->lookup_parent) {
    if (c->globals.count(name)) return nullptr;
    if (c->locals.count(name)) return c;
  }
  return nullptr;
}

namespace {

/// A def that may be a plain local function of its frame if every use of
/// its name allows it: no decorator but AutoGraph's marker, positional
/// parameters without defaults (a C++ lambda binds no Python arguments),
/// not a generator (the generator it makes may outlive the frame).
bool plain_def(const FunctionDef& f) {
  if (is_generator(f)) return false;
  for (const Ref& d : f.decorator_list) {
    if (ag_attribute(d) != "autograph_artifact") return false;
  }
  const Arguments& a = f.args->as<Arguments>();
  return a.posonlyargs.empty() && !a.vararg && a.kwonlyargs.empty() && !a.kwarg && a.defaults.empty();
}

}  // namespace

class ClosureBuilder : public AstVisitor {
 public:
  ClosureBuilder(Closures& out, const Activity& activity) : out_(out), activity_(activity) {}

  void run(const Ref& root) {
    if (const auto* f = root->dyn<FunctionDef>()) {
      // A module-level function: its decorators and defaults run at module
      // level, its body is a scope of its own (no def in an enclosing one).
      visit_all(f->decorator_list);
      visit_arguments(f->args->as<Arguments>());
      open(Closure::Kind::Function, *root);
      visit_all(f->body);
      close();
    } else {
      visit(root);
    }
    decide_escapes();
    find_self_references();
    capture();
  }

 private:
  /// A name read or written at `at` (null: module level).
  struct Use {
    Identifier name;
    Closure* at;
    bool store;
    /// A load as the callee of a positional call, or as a function handed to
    /// ag__.if_stmt/while_stmt/for_stmt: what a plain local function allows.
    bool call_like;
    size_t order;
  };
  struct Def {
    const FunctionDef* node;
    Closure* scope;
    Closure* parent;
    Identifier name;
    bool plain;
    /// Walk order once the def statement is complete: a use before it (its
    /// own body included) cannot reach a C++ lambda still being defined.
    size_t done;
  };

  Closure* open(Closure::Kind kind, const Node& n) {
    Closure& c = out_.scopes_.emplace_back();
    c.kind = kind;
    c.node = &n;
    c.parent = current_;
    // A lambda's names are its parameters, final here (only a def gains one
    // later, its self_name), so one without any can be skipped by owner().
    const Closure* p = current_;
    c.lookup_parent = p && p->kind == Closure::Kind::Lambda && p->locals.empty() ? p->lookup_parent : p;
    const Scope* s = activity_.function_scope(&n);
    AGC_CHECK(s) << "no activity scope for a " << kind_name(n.kind);
    for (const QN& q : s->globals) c.globals.emplace(q.str());
    for (const QN& q : s->bound) {
      if (q.is_simple() && q.is_symbol() && !s->globals.count(q) && !s->nonlocals.count(q)) c.locals.emplace(q.str());
    }
    out_.by_node_[&n] = &c;
    current_ = &c;
    return &c;
  }
  void close() { current_ = mut(current_->parent); }
  /// The builder owns every scope; the public view of one is const.
  static Closure* mut(const Closure* c) { return const_cast<Closure*>(c); }

  /// A binding of `name` where the walk is: a use that stores.
  void bind(Identifier name) {
    uses_.push_back({name, current_, true, false, ++order_});
    if (const Closure* t = Closures::owner(current_, name)) ++bindings_[{t, name}];
  }

  void visit_FunctionDef(const Ptr<FunctionDef>& n) override {
    visit_all(n->decorator_list);
    visit_arguments(n->args->as<Arguments>());
    visit(n->returns);
    Closure* parent = current_;
    Closure* own = open(Closure::Kind::Function, *n);
    visit_all(n->body);
    close();
    Identifier name(n->name);
    defs_.push_back({n.get(), own, parent, name, parent && plain_def(*n), ++order_});
    bind(name);
  }
  void visit_ClassDef(const Ptr<ClassDef>& n) override {
    // A class body's names are no scope that nested functions see.
    visit_children(*n);
    bind(Identifier(n->name));
  }
  void visit_Lambda(const Ptr<Lambda>& n) override {
    visit_arguments(n->args->as<Arguments>());
    Closure* own = open(Closure::Kind::Lambda, *n);
    own->escapes = !thunks_.count(n.get());
    visit(n->body);
    close();
  }
  void visit_ListComp(const Ptr<ListComp>& n) override { comprehension(*n, n->generators, {n->elt}); }
  void visit_SetComp(const Ptr<SetComp>& n) override { comprehension(*n, n->generators, {n->elt}); }
  void visit_GeneratorExp(const Ptr<GeneratorExp>& n) override { comprehension(*n, n->generators, {n->elt}); }
  void visit_DictComp(const Ptr<DictComp>& n) override { comprehension(*n, n->generators, {n->key, n->value}); }
  void visit_Name(const Ptr<Name>& n) override {
    if (n->ctx != ExprContext::Load) {
      bind(n->id);
    } else {
      uses_.push_back({n->id, current_, false, call_like_.count(n.get()) > 0, ++order_});
    }
  }
  void visit_Call(const Ptr<Call>& n) override;
  void visit_Import(const Ptr<Import>& n) override { bind_aliases(n->names); }
  void visit_ImportFrom(const Ptr<ImportFrom>& n) override { bind_aliases(n->names); }
  void visit_ExceptHandler(const Ptr<ExceptHandler>& n) override {
    if (!n->name.empty()) bind(Identifier(n->name));
    visit_children(*n);
  }

  void bind_aliases(const Refs& names) {
    for (const Ref& a : names) {
      const auto& al = a->as<Alias>();
      if (al.name != "*") bind(Identifier(al.asname.empty() ? al.name.substr(0, al.name.find('.')) : al.asname));
    }
  }

  void visit_arguments(const Arguments& a) {
    // Defaults and annotations are evaluated where the def or lambda runs.
    visit_all(a.defaults);
    visit_all(a.kw_defaults);
    for (const Refs* list : {&a.posonlyargs, &a.args, &a.kwonlyargs}) {
      for (const Ref& arg : *list) visit(arg->as<Arg>().annotation);
    }
  }

  void comprehension(const Node& n, const Refs& generators, std::initializer_list<Ref> results) {
    // The first iterable is evaluated outside (Python's rule), the rest inside.
    visit(generators.front()->as<Comprehension>().iter);
    Closure* own = open(Closure::Kind::Comprehension, n);
    // A list, set or dict comprehension runs where it is written; a
    // generator expression makes a generator, which runs when iterated and
    // may outlive the frame (returned, stored).
    own->escapes = n.is<GeneratorExp>();
    for (size_t i = 0; i < generators.size(); ++i) {
      const auto& g = generators[i]->as<Comprehension>();
      if (i > 0) visit(g.iter);
      visit(g.target);
      visit_all(g.ifs);
    }
    for (const Ref& r : results) visit(r);
    close();
  }

  /// The scopes a use at `at` crosses to reach `owner` (owner excluded).
  template <class F>
  static void crossed(Closure* at, const Closure* owner, F&& f) {
    for (Closure* x = at; x && x != owner; x = mut(x->parent)) f(*x);
  }

  /// A plain def stays a local function of its frame while its name is
  /// bound once (by it) in a function scope, and every use of it comes after
  /// it, is call-like, and crosses no scope that escapes. Escaping is
  /// contagious (a def used inside an escaping one escapes), hence the loop.
  void decide_escapes() {
    std::map<std::pair<const Closure*, Identifier>, Def*> by_name;
    for (Def& d : defs_) {
      d.scope->escapes = true;
      bool local = d.parent && Closures::owner(d.parent, d.name) == d.parent;
      if (!d.plain || !local || bindings_[{d.parent, d.name}] != 1) continue;
      d.scope->escapes = false;
      by_name[{d.parent, d.name}] = &d;
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (const Use& u : uses_) {
        if (u.store) continue;  // the def itself, as counted by bindings_
        auto it = by_name.find({Closures::owner(u.at, u.name), u.name});
        if (it == by_name.end() || it->second->scope->escapes) continue;
        Def& d = *it->second;
        bool ok = u.call_like && u.order > d.done;
        crossed(u.at, d.parent, [&](Closure& x) { ok = ok && !x.escapes; });
        if (!ok) {
          d.scope->escapes = true;
          changed = true;
        }
      }
    }
    for (const auto& [key, d] : by_name) {
      if (!d->scope->escapes) d->parent->local_functions[d->name] = d->node;
    }
  }

  void find_self_references() {
    // The uses of each name, so each def reads only those of its own name
    // (a function with n loops has 3n generated defs).
    std::unordered_map<Identifier, std::vector<const Use*>> uses_of;
    for (const Use& u : uses_) uses_of[u.name].push_back(&u);
    for (Def& d : defs_) {
      if (!d.parent || Closures::owner(d.parent, d.name) != d.parent || bindings_[{d.parent, d.name}] != 1) continue;
      auto named = uses_of.find(d.name);
      if (named == uses_of.end()) continue;
      for (const Use* use : named->second) {
        const Use& u = *use;
        if (Closures::owner(u.at, u.name) != d.parent) continue;
        bool inside = false;
        crossed(u.at, d.parent, [&](Closure& x) { inside = inside || &x == d.scope; });
        if (inside) {
          d.scope->self_name = d.name;
          d.scope->locals.insert(d.name);
          break;
        }
      }
    }
  }

  void capture() {
    for (const Use& u : uses_) {
      const Closure* owner = Closures::owner(u.at, u.name);
      if (!owner || owner == u.at) continue;
      // A scope that already has the name free was crossed by an earlier use
      // of it, which went on to the same owner (no scope in between binds
      // it) and made it a cell if any scope from there escapes: stop there,
      // so a use n scopes deep costs O(n) once, not for every use below.
      bool escaping = false;
      for (Closure* x = u.at; x != owner; x = mut(x->parent)) {
        if (!x->free.insert(u.name).second) break;
        escaping = escaping || x->escapes;
      }
      if (escaping) mut(owner)->cells.insert(u.name);
    }
  }

  Closures& out_;
  const Activity& activity_;
  Closure* current_ = nullptr;
  size_t order_ = 0;
  std::vector<Use> uses_;
  std::vector<Def> defs_;
  std::map<std::pair<const Closure*, Identifier>, int> bindings_;
  std::unordered_set<const Node*> call_like_;
  std::unordered_set<const Node*> thunks_;
};

void ClosureBuilder::visit_Call(const Ptr<Call>& n) {
  const Call& c = *n;
  std::string_view op = ag_operator(n);
  auto thunk = [&](size_t i) {
    if (i < c.args.size() && c.args[i]->is<Lambda>()) thunks_.insert(c.args[i].get());
  };
  if (op == "if_stmt" || op == "while_stmt" || op == "for_stmt") {
    // They call the functions they get (bodies, tests, get/set_state)
    // before returning.
    for (const Ref& a : c.args) {
      if (a->is<Name>()) call_like_.insert(a.get());
    }
  } else if (op == "if_exp") {
    thunk(1);
    thunk(2);
  } else if (op == "and_" || op == "or_") {
    for (size_t i = 0; i < c.args.size(); ++i) thunk(i);
  } else if (op == "ldu") {
    thunk(0);
  }
  if (const Ref* callee = positional_callee(n); callee && (*callee)->is<Name>()) call_like_.insert(callee->get());
  if (op == "converted_call") {
    // Its fourth argument names the caller's FunctionScope, which tells
    // AutoGraph how to convert the callee: no value a closure needs.
    for (size_t i = 0; i < c.args.size() && i < 3; ++i) visit(c.args[i]);
    visit_all(c.keywords);
    return;
  }
  visit(c.func);
  visit_all(c.args);
  visit_all(c.keywords);
}

Closures Closures::compute(const Ref& root, AnalysisCache&) {
  Closures out;
  // Closures read only the function scopes of the activity they are built
  // from, and the C++ emitter asks for nothing else: not cached, it is freed
  // here instead of while the function is emitted.
  Activity activity = Activity::compute_function_scopes(root);
  ClosureBuilder(out, activity).run(root);
  return out;
}

}  // namespace agc::analysis
