#include "transpiler/report/value_flow.h"

#include <functional>
#include <optional>

#include "transpiler/ast/python_printer.h"
#include "transpiler/ast/visitor.h"

namespace agc::report {

using namespace ast;

namespace {

std::string line_suffix(const Node& n) {
  return n.span.known() ? " at line " + std::to_string(n.span.file->line_col(n.span.begin).line) : "";
}

/// What a walk changed: each name's new value (nullopt: unbound again).
using Changes = std::map<std::string, std::optional<ValueOf>>;

/// Whether two sets of changes hold the same kinds (reasons aside): a loop's
/// head is stable then.
bool same_kinds(const Changes& a, const Changes& b) {
  if (a.size() != b.size()) return false;
  for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
    if (ia->first != ib->first || ia->second.has_value() != ib->second.has_value()) return false;
    if (!ia->second) continue;
    const ValueOf &x = *ia->second, &y = *ib->second;
    if (x.kind != y.kind || x.python_type != y.python_type || x.literal != y.literal) return false;
  }
  return true;
}

/// Two paths meeting: a name bound on one path only keeps that path's value
/// (on the other it is undefined, which the conversion reports on its own).
std::optional<ValueOf> meet(const std::optional<ValueOf>& a, const std::optional<ValueOf>& b) {
  if (a && b) return join(*a, *b);
  return a ? a : b;
}

bool is_compound(const Node& s) {
  return s.is<If>() || s.is<While>() || s.is<For>() || s.is<With>() || s.is<Try>() || s.is<FunctionDef>() ||
         s.is<ClassDef>();
}

}  // namespace

class ValueWalker {
 public:
  ValueWalker(FunctionValues& out, Env& env) : out_(out), env_(env) {}

  /// A def: its parameters, then its body, recorded; the names it binds are
  /// its own, so the walk leaves `env_` as it found it.
  void function(const FunctionDef& fn, const Parameters& p) {
    trial([&] {
      parameters(fn, p);
      block(fn.body, true);
    });
  }

  void block(const Refs& stmts, bool record) {
    for (const Ref& s : stmts) stmt(s, record);
  }

 private:
  ValueOf eval(const Ref& e) const { return evaluate(e, env_, out_.imports_); }

  // ---- the environment, with undo

  void set(const std::string& name, std::optional<ValueOf> v) {
    if (!frames_.empty()) {
      Changes& first = frames_.back();
      if (!first.count(name)) first.emplace(name, lookup(name));
    }
    if (v) env_[name] = std::move(*v);
    else env_.erase(name);
  }

  std::optional<ValueOf> lookup(const std::string& name) const {
    auto it = env_.find(name);
    return it == env_.end() ? std::nullopt : std::optional<ValueOf>(it->second);
  }

  /// Runs `walk` and returns what it changed, with `env_` restored.
  template <class Walk>
  Changes trial(Walk&& walk) {
    frames_.emplace_back();
    walk();
    Changes before = std::move(frames_.back());
    frames_.pop_back();
    Changes after;
    for (auto& [name, old] : before) {
      after.emplace(name, lookup(name));
      if (old) env_[name] = std::move(*old);
      else env_.erase(name);
    }
    return after;
  }

  /// Makes `changes` (logged, so that an enclosing trial undoes them too).
  void apply(const Changes& changes) {
    for (const auto& [name, v] : changes) set(name, v);
  }

  // ---- binding

  void parameters(const FunctionDef& fn, const Parameters& p) {
    const Arguments& a = fn.args->as<Arguments>();
    size_t position = 0;
    // Defaults belong to the last positional parameters.
    const size_t positional = a.posonlyargs.size() + a.args.size();
    const size_t first_default = positional - std::min(positional, a.defaults.size());
    auto param = [&](const Ref& arg) {
      const std::string& id = arg->as<Arg>().arg;
      size_t i = position++;
      if (i == 0 && p.method) {
        set(id, ValueOf::of(Kind::Unknown, id + ": the object the method is called on"));
        return;
      }
      // An input_signature does not list a method's object.
      size_t spec = p.method ? i - 1 : i;
      if (spec < p.tensor_specs.size() && p.tensor_specs[spec]) {
        set(id, ValueOf::of(Kind::Tensor, id + ": a tf.TensorSpec in " + p.function + "'s input_signature"));
        return;
      }
      std::string reason = id + ": argument of " + p.function;
      if (i >= first_default && i < positional) {
        reason += " (default " + abbreviated(*a.defaults[i - first_default], 20) + ")";
      }
      set(id, ValueOf::of(Kind::Argument, reason));
    };
    for (const Ref& x : a.posonlyargs) param(x);
    for (const Ref& x : a.args) param(x);
    if (a.vararg) set(a.vararg->as<Arg>().arg, ValueOf::python("tuple"));
    for (const Ref& x : a.kwonlyargs) {
      const std::string& id = x->as<Arg>().arg;
      set(id, ValueOf::of(Kind::Argument, id + ": argument of " + p.function));
    }
    if (a.kwarg) set(a.kwarg->as<Arg>().arg, ValueOf::python("dict"));
  }

  void bind(const Ref& target, const ValueOf& v, const std::string& reason) {
    if (const auto* n = target->dyn<Name>()) {
      set(n->id, v.explained_by(n->id + reason));
      return;
    }
    const Refs* elts = target->kind == NodeKind::Tuple ? &target->as<Tuple>().elts
                       : target->kind == NodeKind::List ? &target->as<List>().elts
                                                        : nullptr;
    if (elts) {
      for (const Ref& t : *elts) bind(t, element_of(v), reason);
    } else if (const auto* s = target->dyn<Starred>()) {
      bind(s->value, ValueOf::python("list"), reason);
    }
  }

  void assign(const Refs& targets, const Ref& value) {
    ValueOf v = eval(value);
    for (const Ref& t : targets) {
      // a, b = x, y binds item by item.
      const auto* tt = t->dyn<Tuple>();
      const auto* vt = value->dyn<Tuple>();
      if (tt && vt && tt->elts.size() == vt->elts.size()) {
        std::vector<ValueOf> items;
        for (const Ref& e : vt->elts) items.push_back(eval(e));
        for (size_t i = 0; i < tt->elts.size(); ++i) {
          bind(tt->elts[i], items[i], " = " + abbreviated(*vt->elts[i]) + line_suffix(*value));
        }
        continue;
      }
      bind(t, v, " = " + abbreviated(*value) + line_suffix(*value));
    }
  }

  // ---- statements

  /// A loop: `iteration` binds the target and walks the body once. Probing
  /// walks it until the head is stable (inner loops once each, so the cost
  /// grows with the nesting depth, not exponentially); then a recording walk
  /// starts from the stable head. After the loop its head holds or, for a
  /// loop that surely runs (a Python range or list that is not empty, a
  /// `while True`), what its last iteration leaves.
  template <class Iteration>
  void loop(const Node& n, bool record, bool surely_runs, FunctionValues::AtStatement at, Iteration iteration) {
    Changes head, last;
    for (int probe = 0; probe < (record ? 4 : 1); ++probe) {
      last = trial([&] {
        apply(head);
        iteration(false);
      });
      Changes next;
      for (const auto& [name, v] : last) next.emplace(name, meet(lookup(name), v));
      bool stable = same_kinds(next, head);
      head = std::move(next);
      if (stable) break;
    }
    if (record) {
      for (const auto& [name, v] : head) {
        if (std::optional<ValueOf> before = lookup(name)) at.entry.emplace(name, *before);
        if (v) at.head.emplace(name, *v);
      }
      last = trial([&] {
        apply(head);
        if (const auto* w = n.dyn<While>()) at.decider_at_head = eval(w->test);
        iteration(true);
      });
      for (const auto& [name, v] : last) head[name] = meet(lookup(name), meet(head[name], v));
      out_.at_[&n] = std::move(at);
    }
    apply(surely_runs ? last : head);
  }

  void conditionals(const Node& s) {
    FunctionValues::AtStatement at;
    std::function<void(const Ref&)> find = [&](const Ref& n) {
      if (!(n->kinds_below() & kind_bit(NodeKind::IfExp))) return;
      if (const auto* e = n->dyn<IfExp>()) at.conditionals.emplace_back(n.get(), eval(e->test));
      for_each_child(*n, find);
    };
    for_each_child(s, find);
    out_.at_[&s] = std::move(at);
  }

  void stmt(const Ref& s, bool record) {
    if (record && !is_compound(*s) && (s->kinds_below() & kind_bit(NodeKind::IfExp))) conditionals(*s);
    switch (s->kind) {
      case NodeKind::Assign: {
        const auto& a = s->as<Assign>();
        assign(a.targets, a.value);
        break;
      }
      case NodeKind::AnnAssign: {
        const auto& a = s->as<AnnAssign>();
        if (a.value) assign({a.target}, a.value);
        break;
      }
      case NodeKind::AugAssign: {
        const auto& a = s->as<AugAssign>();
        if (!a.target->is<Name>()) break;
        ValueOf v = arithmetic(eval(a.target), eval(a.value), a.op);
        bind(a.target, v, std::string(" ") + binop_text(a.op) + "= " + abbreviated(*a.value) + line_suffix(*s));
        break;
      }
      case NodeKind::If: {
        const auto& i = s->as<If>();
        if (record) out_.at_[s.get()].decider = eval(i.test);
        Changes body = trial([&] { block(i.body, record); });
        Changes orelse = trial([&] { block(i.orelse, record); });
        // A name one branch leaves alone keeps its value on that path.
        Changes both;
        for (const Changes* c : {&body, &orelse}) {
          for (const auto& change : *c) {
            const std::string& name = change.first;
            if (both.count(name)) continue;
            std::optional<ValueOf> now = lookup(name);
            auto b = body.find(name), o = orelse.find(name);
            both.emplace(name, meet(b == body.end() ? now : b->second, o == orelse.end() ? now : o->second));
          }
        }
        apply(both);
        break;
      }
      case NodeKind::While: {
        const auto& w = s->as<While>();
        FunctionValues::AtStatement at;
        if (record) at.decider = eval(w.test);
        const auto* forever = w.test->dyn<Constant>();
        bool runs = forever && forever->value.kind == ConstantValue::Kind::Bool && forever->value.boolean;
        loop(*s, record, runs, std::move(at), [&](bool rec) { block(w.body, rec); });
        block(w.orelse, record);
        break;
      }
      case NodeKind::For: {
        const auto& f = s->as<For>();
        FunctionValues::AtStatement at;
        ValueOf items = eval(f.iter);
        at.decider = items;
        std::string reason = " iterates over " + abbreviated(*f.iter) + line_suffix(*s);
        bool runs = items.kind == Kind::Python && items.length > 0;
        loop(*s, record, runs, std::move(at), [&](bool rec) {
          bind(f.target, element_of(items), reason);
          block(f.body, rec);
        });
        block(f.orelse, record);
        break;
      }
      case NodeKind::With: {
        const auto& w = s->as<With>();
        for (const Ref& item : w.items) {
          const auto& wi = item->as<WithItem>();
          if (wi.optional_vars) {
            bind(wi.optional_vars, ValueOf::of(Kind::Unknown, "what " + abbreviated(*wi.context_expr) + " gives"),
                 "");
          }
        }
        block(w.body, record);
        break;
      }
      case NodeKind::Try: {
        const auto& t = s->as<Try>();
        // A handler may start anywhere in the body: from before it or after it.
        Changes body = trial([&] { block(t.body, record); });
        std::vector<Changes> handlers;
        for (const Ref& h : t.handlers) {
          const auto& eh = h->as<ExceptHandler>();
          handlers.push_back(trial([&] {
            for (const auto& [name, v] : body) set(name, meet(lookup(name), v));
            if (!eh.name.empty()) set(eh.name, ValueOf::python("exception"));
            block(eh.body, record);
          }));
        }
        apply(body);
        block(t.orelse, record);
        for (const Changes& h : handlers) {
          for (const auto& [name, v] : h) set(name, meet(lookup(name), v));
        }
        block(t.finalbody, record);
        break;
      }
      case NodeKind::FunctionDef: {
        const auto& f = s->as<FunctionDef>();
        if (record) function(f, Parameters{f.name, false, {}});
        set(f.name, ValueOf::python("function"));
        break;
      }
      case NodeKind::ClassDef: set(s->as<ClassDef>().name, ValueOf::python("type")); break;
      case NodeKind::Import:
      case NodeKind::ImportFrom: {
        const Refs& names = s->kind == NodeKind::Import ? s->as<Import>().names : s->as<ImportFrom>().names;
        for (const Ref& n : names) {
          const auto& a = n->as<Alias>();
          set(a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname, ValueOf::python("module"));
        }
        break;
      }
      case NodeKind::Delete:
        for (const Ref& t : s->as<Delete>().targets) {
          if (const auto* n = t->dyn<Name>()) set(n->id, std::nullopt);
        }
        break;
      default: break;
    }
  }

  FunctionValues& out_;
  Env& env_;
  /// Per open trial, the value each name had before the trial first changed it.
  std::vector<Changes> frames_;
};

FunctionValues::FunctionValues(const FunctionDef& fn, const Parameters& params, const Env& outer,
                               const std::map<std::string, std::string>& imports)
    : imports_(imports) {
  Env env = outer;
  ValueWalker(*this, env).function(fn, params);
}

const FunctionValues::AtStatement* FunctionValues::at(const Node* stmt) const {
  auto it = at_.find(stmt);
  return it == at_.end() ? nullptr : &it->second;
}

Env module_values(const Module& m, const std::map<std::string, std::string>& imports) {
  // The module's code runs once, before any function is traced: its
  // top-level statements in order, without recording.
  Env env;
  FunctionValues scratch(imports);
  ValueWalker(scratch, env).block(m.body, false);
  return env;
}

}  // namespace agc::report
