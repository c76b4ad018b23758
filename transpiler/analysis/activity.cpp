#include "transpiler/analysis/activity.h"

#include <functional>
#include <vector>

#include "transpiler/ast/visitor.h"

namespace agc::analysis {

using namespace ast;

QNSet Scope::referenced() const {
  QNSet out;
  for (const Scope* s = this; s; s = s->parent) out.insert_all(s->read);
  return out;
}

bool Scope::reserves(const std::string& name) const {
  for (const Scope* s = this; s; s = s->parent) {
    if (s->read.size() <= 32) {  // small scopes: a scan beats building a set
      for (const auto& q : s->read) {
        if (const std::string_view* piece = q.reserved_piece(); piece && *piece == name) return true;
      }
      continue;
    }
    if (!s->reserved_) {
      s->reserved_ = std::make_unique<std::unordered_set<std::string>>();
      for (const auto& q : s->read) {
        if (const std::string_view* piece = q.reserved_piece()) s->reserved_->emplace(*piece);
      }
    }
    if (s->reserved_->count(name)) return true;
  }
  return false;
}

Namer::Reserved reserved_by(std::initializer_list<const Scope*> scopes) {
  std::vector<const Scope*> list(scopes);
  return [list](const std::string& name) {
    for (const Scope* s : list) {
      if (s && s->reserves(name)) return true;
    }
    return false;
  };
}

std::set<std::string> reserved_names(const QNSet& qns) {
  std::set<std::string> out;
  for (const auto& q : qns) {
    if (const std::string_view* piece = q.reserved_piece()) out.emplace(*piece);
  }
  return out;
}

class ActivityAnalyzer {
 public:
  ActivityAnalyzer(Activity& out, bool functions_only) : out_(out), functions_only_(functions_only) {}

  void run(const Ref& root) {
    enter(true);  // the module-level scope the entity is defined in
    statement(root);
    exit();
  }

 private:
  Scope* enter(bool isolated) {
    Scope* reused = nullptr;
    if (!free_.empty()) {
      reused = free_.back();
      free_.pop_back();
      *reused = Scope();
    }
    Scope& s = reused ? *reused : out_.scopes_.emplace_back();
    // A scope kept alone has no parent to point at: the enclosing ones are reused.
    s.parent = stack_.empty() || functions_only_ ? nullptr : stack_.back();
    s.isolated = isolated;
    stack_.push_back(&s);
    from_inner_.emplace_back();
    return &s;
  }

  /// What the scopes inside a scope pass to it, gathered unsorted and added
  /// to its sets once, when it is finalized: a block of n statements would
  /// otherwise insert into its sorted sets n times (quadratic for a function
  /// of 100,000 loops).
  struct Gathered {
    std::vector<QN> read, modified, bound, deleted, globals, nonlocals;
  };

  /// Finalizes the innermost scope: a block passes everything to its parent,
  /// an isolated (function) scope only its free reads.
  const Scope* exit() {
    Scope* s = stack_.back();
    stack_.pop_back();
    {
      Gathered& g = from_inner_.back();
      s->read.insert(g.read.begin(), g.read.end());
      s->modified.insert(g.modified.begin(), g.modified.end());
      s->bound.insert(g.bound.begin(), g.bound.end());
      s->deleted.insert(g.deleted.begin(), g.deleted.end());
      s->globals.insert(g.globals.begin(), g.globals.end());
      s->nonlocals.insert(g.nonlocals.begin(), g.nonlocals.end());
      from_inner_.pop_back();
    }
    if (!stack_.empty()) {
      Gathered& p = from_inner_.back();
      if (!s->isolated) {
        p.read.insert(p.read.end(), s->read.begin(), s->read.end());
        p.modified.insert(p.modified.end(), s->modified.begin(), s->modified.end());
        p.bound.insert(p.bound.end(), s->bound.begin(), s->bound.end());
        p.deleted.insert(p.deleted.end(), s->deleted.begin(), s->deleted.end());
        p.globals.insert(p.globals.end(), s->globals.begin(), s->globals.end());
        p.nonlocals.insert(p.nonlocals.end(), s->nonlocals.begin(), s->nonlocals.end());
      } else if (!s->comprehension) {
        for (const auto& q : s->read) {
          if (!s->bound.count(q)) p.read.push_back(q);
        }
      } else {
        // What a comprehension reads through its targets (`x.a` for target
        // x) stays inside it too, as track() never recorded it.
        for (const auto& q : s->read) {
          if (!reaches_through(q, s->bound)) p.read.push_back(q);
        }
      }
    }
    return s;
  }

  Scope& cur() { return *stack_.back(); }

  /// Records `s` as `map`'s scope of `n`. An analysis of function scopes only
  /// keeps those: every other scope is reused by a later enter() once it has
  /// passed its names up, so memory holds one per nesting level instead of
  /// one per statement (a converted function's tree has a dozen per loop).
  void record(Activity::Map& map, const Node* n, const Scope* s) {
    if (functions_only_ && &map != &out_.function_) {
      free_.push_back(const_cast<Scope*>(s));
      return;
    }
    map[n] = s;
  }

  /// Whether `qn` is one of `names` or reached through one (`x.a`, `x[0]` for x).
  static bool reaches_through(QN qn, const QNSet& names) {
    for (;;) {
      if (names.count(qn)) return true;
      if (!qn.is_composite()) return false;
      qn = qn.parent();
    }
  }

  void track(const QN& qn, ExprContext ctx) {
    // Inside a comprehension, its own targets (and anything reached through
    // them) are local to it.
    for (const auto& targets : comprehension_targets_) {
      if (reaches_through(qn, targets)) return;
    }
    switch (ctx) {
      case ExprContext::Store:
        if (!comprehension_targets_.empty()) {
          comprehension_targets_.back().insert(qn);
          return;
        }
        cur().modified.insert(qn);
        cur().bound.insert(qn);
        if (in_aug_assign_) cur().read.insert(qn);
        return;
      case ExprContext::Load:
        cur().read.insert(qn);
        return;
      case ExprContext::Del:
        cur().read.insert(qn);
        cur().bound.insert(qn);
        cur().deleted.insert(qn);
        return;
    }
  }

  void bind_param(const Ref& arg) {
    if (!arg) return;
    cur().bound.insert(QN::symbol(arg->as<Arg>().arg));
  }

  void statement_scope(const Ref& n, const std::function<void()>& body) {
    enter(false);
    body();
    record(out_.scope_, n.get(), exit());
  }

  void block(const Refs& stmts) {
    for (const auto& s : stmts) statement(s);
  }

  const Scope* block_scope(const Refs& stmts) {
    enter(false);
    block(stmts);
    return exit();
  }

  void arg_annotations_and_defaults(const Arguments& a) {
    for (const auto& list : {&a.posonlyargs, &a.args, &a.kwonlyargs}) {
      for (const auto& arg : *list) expr(arg->as<Arg>().annotation);
    }
    if (a.vararg) expr(a.vararg->as<Arg>().annotation);
    if (a.kwarg) expr(a.kwarg->as<Arg>().annotation);
    for (const auto& d : a.defaults) expr(d);
    for (const auto& d : a.kw_defaults) expr(d);
  }

  void bind_params(const Arguments& a) {
    for (const auto& list : {&a.posonlyargs, &a.args, &a.kwonlyargs}) {
      for (const auto& arg : *list) bind_param(arg);
    }
    bind_param(a.vararg);
    bind_param(a.kwarg);
  }

  void statement(const Ref& n) {
    if (!n) return;
    switch (n->kind) {
      case NodeKind::FunctionDef: {
        const auto& f = n->as<FunctionDef>();
        statement_scope(n, [&] {
          for (const auto& d : f.decorator_list) expr(d);
          expr(f.returns);
          arg_annotations_and_defaults(f.args->as<Arguments>());
          cur().modified.insert(QN::symbol(f.name));
          cur().bound.insert(QN::symbol(f.name));
        });
        enter(true);
        statement_scope(f.args, [&] { bind_params(f.args->as<Arguments>()); });
        record(out_.body_, n.get(), block_scope(f.body));
        record(out_.function_, n.get(), exit());
        return;
      }
      case NodeKind::ClassDef: {
        const auto& c = n->as<ClassDef>();
        statement_scope(n, [&] {
          for (const auto& d : c.decorator_list) expr(d);
          for (const auto& b : c.bases) expr(b);
          for (const auto& k : c.keywords) expr(k);
          cur().modified.insert(QN::symbol(c.name));
          cur().bound.insert(QN::symbol(c.name));
        });
        enter(true);
        block(c.body);
        record(out_.body_, n.get(), exit());
        return;
      }
      case NodeKind::AugAssign: {
        const auto& a = n->as<AugAssign>();
        statement_scope(n, [&] {
          in_aug_assign_ = true;
          expr(a.target);
          in_aug_assign_ = false;
          expr(a.value);
        });
        return;
      }
      case NodeKind::Import:
      case NodeKind::ImportFrom: {
        const Refs& names = n->is<Import>() ? n->as<Import>().names : n->as<ImportFrom>().names;
        statement_scope(n, [&] {
          for (const auto& a : names) {
            const auto& al = a->as<Alias>();
            if (al.name == "*") continue;
            QN q = QN::symbol(al.asname.empty() ? al.name.substr(0, al.name.find('.')) : al.asname);
            cur().modified.insert(q);
            cur().bound.insert(q);
          }
        });
        return;
      }
      case NodeKind::Global:
        statement_scope(n, [&] {
          for (const auto& name : n->as<Global>().names) {
            cur().read.insert(QN::symbol(name));
            cur().globals.insert(QN::symbol(name));
          }
        });
        return;
      case NodeKind::Nonlocal:
        statement_scope(n, [&] {
          for (const auto& name : n->as<Nonlocal>().names) {
            cur().read.insert(QN::symbol(name));
            cur().bound.insert(QN::symbol(name));
            cur().nonlocals.insert(QN::symbol(name));
          }
        });
        return;
      case NodeKind::Pass:
      case NodeKind::Break:
      case NodeKind::Continue:
        return;
      case NodeKind::If: {
        const auto& s = n->as<If>();
        statement_scope(s.test, [&] { expr(s.test); });
        record(out_.body_, n.get(), block_scope(s.body));
        record(out_.orelse_, n.get(), block_scope(s.orelse));
        return;
      }
      case NodeKind::While: {
        const auto& s = n->as<While>();
        statement_scope(s.test, [&] { expr(s.test); });
        record(out_.body_, n.get(), block_scope(s.body));
        record(out_.orelse_, n.get(), block_scope(s.orelse));
        return;
      }
      case NodeKind::For: {
        const auto& s = n->as<For>();
        statement_scope(s.iter, [&] {
          expr(s.target);
          expr(s.iter);
        });
        enter(false);
        expr(s.target);
        if (s.extra_test) statement_scope(s.extra_test, [&] { expr(s.extra_test); });
        record(out_.iterate_, n.get(), exit());
        record(out_.body_, n.get(), block_scope(s.body));
        record(out_.orelse_, n.get(), block_scope(s.orelse));
        return;
      }
      case NodeKind::Try: {
        const auto& s = n->as<Try>();
        block(s.body);
        for (const auto& h : s.handlers) statement(h);
        block(s.orelse);
        block(s.finalbody);
        return;
      }
      case NodeKind::ExceptHandler: {
        const auto& h = n->as<ExceptHandler>();
        enter(false);
        expr(h.type);
        if (!h.name.empty()) track(QN::symbol(h.name), ExprContext::Store);
        block(h.body);
        record(out_.body_, n.get(), exit());
        return;
      }
      case NodeKind::With: {
        const auto& w = n->as<With>();
        enter(false);
        for (const auto& item : w.items) {
          statement_scope(item, [&] {
            expr(item->as<WithItem>().context_expr);
            expr(item->as<WithItem>().optional_vars);
          });
        }
        block(w.body);
        record(out_.body_, n.get(), exit());
        return;
      }
      default:
        // Expr, Assign, AnnAssign, Return, Raise, Assert, Delete.
        statement_scope(n, [&] { for_each_child(*n, [&](const Ref& c) { expr(c); }); });
        return;
    }
  }

  void expr(const Ref& n) {
    if (!n) return;
    switch (n->kind) {
      case NodeKind::Name:
        track(QN::symbol(n->as<Name>().id), n->as<Name>().ctx);
        return;
      case NodeKind::Attribute: {
        const auto& a = n->as<Attribute>();
        expr(a.value);
        if (auto q = qn_of(n)) track(*q, a.ctx);
        return;
      }
      case NodeKind::Subscript: {
        const auto& s = n->as<Subscript>();
        expr(s.value);
        expr(s.slice);
        if (auto q = qn_of(n)) track(*q, s.ctx);
        return;
      }
      case NodeKind::Call: {
        const auto& c = n->as<Call>();
        enter(false);
        for (const auto& a : c.args) expr(a);
        for (const auto& k : c.keywords) expr(k);
        record(out_.args_, n.get(), exit());
        expr(c.func);
        return;
      }
      case NodeKind::Lambda: {
        const auto& l = n->as<Lambda>();
        const auto& a = l.args->as<Arguments>();
        for (const auto& d : a.defaults) expr(d);
        for (const auto& d : a.kw_defaults) expr(d);
        // Inside the lambda, the targets of comprehensions around it are free
        // variables it reads, not names of its own scope to skip.
        std::vector<QNSet> outer_targets = std::move(comprehension_targets_);
        comprehension_targets_.clear();
        enter(true);
        bind_params(a);
        expr(l.body);
        const Scope* s = exit();
        comprehension_targets_ = std::move(outer_targets);
        record(out_.function_, n.get(), s);
        if (!functions_only_) out_.scope_[n.get()] = s;
        return;
      }
      case NodeKind::ListComp:
      case NodeKind::SetComp:
      case NodeKind::GeneratorExp:
      case NodeKind::DictComp: {
        const Refs* gens = nullptr;
        if (const auto* c = n->dyn<ListComp>()) gens = &c->generators;
        else if (const auto* c = n->dyn<SetComp>()) gens = &c->generators;
        else if (const auto* c = n->dyn<GeneratorExp>()) gens = &c->generators;
        else gens = &n->as<DictComp>().generators;
        // The first iterable is evaluated in the enclosing scope (Python's
        // rule); the rest runs in the comprehension's own scope, where its
        // targets are local.
        expr(gens->front()->as<Comprehension>().iter);
        Scope* own = enter(true);
        own->comprehension = true;
        comprehension_targets_.emplace_back();
        for (size_t i = 0; i < gens->size(); ++i) {
          const auto& c = (*gens)[i]->as<Comprehension>();
          if (i > 0) expr(c.iter);
          expr(c.target);
          for (const auto& cond : c.ifs) expr(cond);
        }
        if (const auto* c = n->dyn<ListComp>()) expr(c->elt);
        else if (const auto* c = n->dyn<SetComp>()) expr(c->elt);
        else if (const auto* c = n->dyn<GeneratorExp>()) expr(c->elt);
        else {
          expr(n->as<DictComp>().key);
          expr(n->as<DictComp>().value);
        }
        own->bound = std::move(comprehension_targets_.back());
        own->modified = own->bound;
        comprehension_targets_.pop_back();
        record(out_.function_, n.get(), exit());
        return;
      }
      default:
        for_each_child(*n, [&](const Ref& c) { expr(c); });
        return;
    }
  }

  Activity& out_;
  const bool functions_only_;
  std::vector<Scope*> free_;  // scopes record() did not keep, for reuse
  std::vector<Gathered> from_inner_;  // parallel to stack_
  std::vector<Scope*> stack_;
  std::vector<QNSet> comprehension_targets_;
  bool in_aug_assign_ = false;
};

Activity Activity::compute(const ast::Ref& root, AnalysisCache&) {
  Activity a;
  ActivityAnalyzer(a, false).run(root);
  return a;
}

Activity Activity::compute_function_scopes(const ast::Ref& root) {
  Activity a;
  ActivityAnalyzer(a, true).run(root);
  return a;
}

const Scope* Activity::find_original(const Map& m, const ast::Node* n) const {
  if (const Scope* s = find(m, n)) return s;
  if (!by_span_built_) {
    for (const auto* map : {&body_, &args_}) {
      for (const auto& [node, scope] : *map) {
        by_span_.emplace(std::make_tuple(static_cast<int>(node->kind), node->span.begin, node->span.end), node);
      }
    }
    by_span_built_ = true;
  }
  auto it = by_span_.find(std::make_tuple(static_cast<int>(n->kind), n->span.begin, n->span.end));
  return it == by_span_.end() ? nullptr : find(m, it->second);
}

}  // namespace agc::analysis
