// Calls as C++, resolved at transpile time: tf.* names to ag::tf::api
// functions, builtins to ag::py, exception classes to exception values,
// super() to ag::super_getattr, nested defs emitted as lambdas to direct C++
// calls, and AutoGraph's ag__.* operators to ag::autograph (with the nested
// defs they receive adapted to the operators' C++ signatures).
#include <functional>
#include <optional>

#include <fmt/format.h>

#include "transpiler/analysis/ag_operators.h"
#include "transpiler/ast/visitor.h"
#include "transpiler/base/check.h"
#include "transpiler/base/suggestions.h"
#include "transpiler/emit/cpp_emitter_impl.h"
#include "transpiler/emit/call_check.h"
#include "transpiler/emit/cpp_text.h"
#include "transpiler/emit/public_api.h"
#include "transpiler/emit/tf_api_table.h"

namespace agc::emit::cpp {

using namespace agc::ast;
using analysis::ag_operator;
using analysis::unwrap_ld;

namespace {

/// The keyword arguments of converted_call's third argument: None,
/// `dict(a=1)` or `{'a': 1}`.
bool converted_kwargs(const Ref& e, Refs& out) {
  if (auto* c = e->dyn<Constant>()) return c->value.kind == ConstantValue::Kind::None;
  if (auto* call = e->dyn<Call>()) {
    auto* f = call->func->dyn<Name>();
    if (!f || f->id != "dict" || !call->args.empty()) return false;
    out = call->keywords;
    return true;
  }
  if (auto* d = e->dyn<Dict>()) {
    for (size_t i = 0; i < d->keys.size(); ++i) {
      auto* k = d->keys[i] ? d->keys[i]->dyn<Constant>() : nullptr;
      if (!k || k->value.kind != ConstantValue::Kind::Str) return false;
      auto kw = make<Keyword>(d->keys[i]->span);
      kw->arg = k->value.text;
      kw->value = d->values[i];
      out.push_back(kw);
    }
    return true;
  }
  return false;
}

}  // namespace

// A call of `func` with `args` / `keywords`, resolved at transpile time.
// Arguments with `*`/`**` are unpacked at run time; the TypeErrors that can
// raise name the callee as CPython does ("print()", "__main__.f()").
std::string Emitter::call(const Node& at_node, const Ref& func_in, const Refs& args, const Refs& keywords) {
  const Ref& func = unwrap_ld(func_in);
  // A row of one of the runtime's tables (tf.*, np.*, math.*): a function
  // is called, a value (a class) is called through its value.
  auto table_call = [&](std::string_view ns, const TfApiEntry& entry, const std::string& python_name) {
    std::string callee = python_name + "()";
    const char* value = entry.kind == TfApiEntry::Kind::Function ? "" : "()";
    return fmt::format("ag::{}::api::{}{}({}, {})", ns, entry.cpp_name, value, arg_list(args, callee),
                       kwarg_list(keywords, callee));
  };
  std::string path;
  if (tf_path(func, path)) {
    if (auto entry = find_tf_api(path)) {
      if (auto instead = table_call_instead(at_node, "tensorflow", "tf", path, args, keywords)) return *instead;
      return table_call("tf", *entry, "tf." + path);
    }
    // tf.errors.X(node_def, op, message) constructs, as any class does.
    if (!find_exception_type(path, true)) return unknown_member(*func, "tensorflow", "tf", path, true);
  }
  std::string alias;
  if (np_path(func, path, alias)) {
    if (auto entry = find_np_api(path)) {
      if (auto instead = table_call_instead(at_node, "numpy", alias, path, args, keywords)) return *instead;
      return table_call("np", *entry, "numpy." + path);
    }
    return unknown_member(*func, "numpy", alias, path, true);
  }
  if (py_module_path(func, path, alias)) {
    if (auto entry = find_py_api(path)) {
      const std::string module = path.substr(0, path.find('.'));
      if (auto instead = table_call_instead(at_node, module, alias, path.substr(module.size() + 1), args, keywords)) {
        return *instead;
      }
      return table_call("pymod", *entry, path);
    }
    if (!py_value_member(func)) return py_unknown(*func, alias, path, true);
    // A method of a module's value (os.environ.get(k)): called at run time below.
  }
  bool unpacks = false;
  for (const Ref& a : args) unpacks = unpacks || a->is<Starred>();
  for (const Ref& k : keywords) unpacks = unpacks || k->as<Keyword>().arg.empty();
  if (auto* n = func->dyn<Name>()) {
    // A def of the program whose name certainly means it here: its
    // parameters are known, and a call that cannot bind raises TypeError.
    if (const FunctionDef* f = local_function(n->id)) {
      // A local def is a C++ lambda called directly, which needs its
      // arguments to bind: one that cannot is not called, only named (its
      // only call may be this one, and an unused lambda fails -Werror).
      if (auto instead = unbound_call(at_node, SignatureShape::of(*f, local_qualname(n->id)), args, keywords)) {
        return fmt::format("(static_cast<void>({}), {})", cpp_ident(n->id), *instead);
      }
    } else if (auto def = module_defs_.find(n->id); def != module_defs_.end() && !owner(n->id)) {
      if (auto instead = unbound_call(at_node, SignatureShape::of(*def->second, n->id), args, keywords)) return *instead;
    }
    if (local_function(n->id) && keywords.empty() && !unpacks) {
      std::vector<std::string> parts;
      for (const Ref& a : args) parts.push_back(value(a));
      return fmt::format("{}({})", cpp_ident(n->id), join(parts));
    }
    if (builtin_name(n->id)) {
      std::string callee = n->id + "()";
      if (const char* b = find_builtin(n->id)) {
        return fmt::format("ag::py::{}({}, {})", b, arg_list(args, callee), kwarg_list(keywords, callee));
      }
      if (find_exception_type(n->id, false)) {
        if (!keywords.empty()) error(at_node, fmt::format("{}() takes no keyword arguments", n->id));
        return fmt::format("ag::make_exception(\"{}\", {})", n->id, arg_list(args, callee));
      }
    }
  }
  Refs super_args;
  if (auto* a = func->dyn<Attribute>(); a && is_super_call(a->value, &super_args)) {
    std::string callee = a->attr + "()";
    return fmt::format("{}({}, {})", super_attr(at_node, super_args, a->attr), arg_list(args, callee),
                       kwarg_list(keywords, callee));
  }
  if (unpacks) {
    // One braced initializer: the callee, then the parts, left to right.
    return fmt::format("ag::call_unpacked({{{}, {}, {}}})", value(func), arg_parts(args), kwarg_parts(keywords));
  }
  return fmt::format("{}({}, {})", operand(func), arg_list(args), kwarg_list(keywords));
}

std::string Emitter::super_attr(const Node& at_node, const Refs& super_args, const std::string& attr) {
  // super(Cls, obj): the attribute after Cls in obj's class's MRO, anywhere.
  if (super_args.size() == 2) {
    return fmt::format("ag::super_getattr({}, {}, {})", value(super_args[0]), value(super_args[1]), cpp_string(attr));
  }
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
    if (!it->class_name.empty()) {
      return fmt::format("ag::super_getattr({}, {}, {})", cpp_ident(it->class_name), variable(it->self_name),
                         cpp_string(attr));
    }
    // Python's super() takes the class and self of the function it is
    // written in; a nested def or lambda has neither (RuntimeError).
    if (it->closure && it->closure->parent && it->closure->escapes) {
      error(at_node, "super() without arguments works only in a method's own body, not in a nested function or lambda");
      return "ag::Value()";
    }
  }
  error(at_node, "super() is only supported inside a method of a module-level class");
  return "ag::Value()";
}

std::optional<std::string> Emitter::table_call_instead(const Node& at, std::string_view library,
                                                       const std::string& shown, const std::string& path,
                                                       const Refs& args, const Refs& keywords) {
  std::string_view text = table_signature(library, path);
  if (text.empty()) return std::nullopt;
  SignatureShape ours = SignatureShape::parse(text);
  // Deferred: the row's own binding raises the same TypeError when it runs.
  if (call_deferred() || call_error(ours, args, keywords).empty()) return std::nullopt;
  // The library's own signature, where known, decides whose the problem
  // is: a call it takes only lacks agc's support; one it rejects is the
  // program's TypeError, worded from it. A C function's (positional-only,
  // "math.sqrt(x, /)") TypeErrors are CPython's own texts: left to run time.
  std::optional<PublicName> theirs = find_public(library, path);
  if (theirs && theirs->kind == NameKind::Function && theirs->params != "?") {
    if (theirs->params.find('/') != std::string_view::npos) return std::nullopt;
    SignatureShape library_sig = SignatureShape::parse_params(ours.name(), theirs->params);
    if (call_error(library_sig, args, keywords).empty()) {
      error(at, fmt::format("'{}.{}' takes these arguments, but agc's '{}' does not yet: {} (docs/api.md gives the "
                            "signatures agc supports)",
                            shown, path, ours.name(), call_error(ours, args, keywords)));
      return "ag::Value()";
    }
    return unbound_call(at, library_sig, args, keywords);
  }
  return unbound_call(at, ours, args, keywords);
}

bool Emitter::call_deferred() const {
  // What a problem fails is the innermost def or the module-level
  // statement; a call in a lambda or generator expression inside it runs
  // only when that is called or iterated, so failing the def (or the
  // statement) would raise where Python does not. The binding at run time
  // raises it, when and if the call runs.
  for (auto it = scopes.rbegin(); it != scopes.rend() && it->closure; ++it) {
    switch (it->closure->kind) {
      case analysis::Closure::Kind::Function: return false;
      case analysis::Closure::Kind::Lambda: return true;
      case analysis::Closure::Kind::Comprehension:
        if (it->closure->node->is<GeneratorExp>()) return true;
        break;
    }
  }
  return false;
}

std::optional<std::string> Emitter::unbound_call(const Node& at, const SignatureShape& sig, const Refs& args,
                                                 const Refs& keywords) {
  std::string problem = call_error(sig, args, keywords);
  if (problem.empty()) return std::nullopt;
  if (!call_deferred() && catching_type_error_ == 0) {
    std::string_view keyword = unexpected_keyword(sig, keywords);
    std::string suggestion = keyword.empty() ? "" : std::string(closest_name(keyword, sig.keyword_names()));
    Diagnostic d;
    d.severity = Severity::Warning;
    d.span = at.span;
    d.message = problem;
    d.suggestion = suggestion;
    Diagnostic note;
    note.severity = Severity::Note;
    note.span = at.span;
    note.message = "this call raises TypeError when it runs";
    d.notes.push_back(std::move(note));
    sink_->report(std::move(d));
  }
  return fmt::format("[]() -> ag::Value {{ ag::raise_value(ag::make_exception(\"TypeError\", {{{}}})); }}()",
                     cpp_string(problem));
}

std::string Emitter::local_qualname(const std::string& name) const {
  // Python's qualname of a nested def: the defs around it, each followed by
  // "<locals>" ("outer.<locals>.inner"); a converted def is its original's.
  std::string out = name;
  for (const analysis::Closure* c = owner(name); c && c->kind == analysis::Closure::Kind::Function; c = c->parent) {
    std::string_view def = c->node->as<FunctionDef>().name;
    if (def.starts_with("tf__")) def.remove_prefix(4);
    out = std::string(def) + ".<locals>." + out;
  }
  return out;
}

std::string Emitter::unknown_member(const Node& n, std::string_view library, const std::string& shown,
                                    const std::string& path, bool called) {
  // What the library itself has decides what the program did wrong: a
  // name the library lacks fails in Python too (AttributeError, when the
  // line runs), a name agc lacks is agc's NotImplementedError.
  const std::vector<std::string_view> ours = table_paths(library);
  auto agc_has = [&](const std::string& p) {
    return std::any_of(ours.begin(), ours.end(), [&](std::string_view o) {
      return o == p || (o.size() > p.size() && o.starts_with(p) && o[p.size()] == '.');
    });
  };
  auto dotted = [](const std::string& module, std::string_view member) {
    return module.empty() ? std::string(member) : module + "." + std::string(member);
  };
  const std::string what = library == "tensorflow" ? "TensorFlow"
                           : library == "numpy"    ? "NumPy"
                                                   : fmt::format("module '{}'", library);
  PublicLookup found = lookup_public(library, path);
  if (found.outcome == PublicLookup::Outcome::Missing && agc_has(dotted(found.module, found.attr))) {
    found.outcome = PublicLookup::Outcome::Unknown;  // a name newer than the golden files
  }
  const std::string full = shown + "." + path;
  if (found.outcome == PublicLookup::Outcome::Found && found.found->path == path) {
    if (found.found->kind != NameKind::Module) {
      error(n, fmt::format("'{}' is in {} but not supported by agc yet (docs/api.md lists what agc supports)", full,
                           what));
    } else if (called) {
      error(n, "'module' object is not callable", "TypeError");
    } else {
      error(n, fmt::format("'{}' is a module: agc does not support a module as a value; name its members through "
                           "it ('{}.X')",
                           full, full));
    }
    return "ag::Value()";
  }
  if (found.outcome == PublicLookup::Outcome::Missing) {
    // Suggest a member of the same module, of a kind that fits where the
    // name stands: called, it is a function or class; followed by an
    // attribute, not a function.
    const bool last = found.module.size() + found.attr.size() + (found.module.empty() ? 0 : 1) == path.size();
    std::vector<std::string_view> candidates, preferred;
    for (const PublicName& m : public_members(library, found.module)) {
      bool callable = m.kind == NameKind::Function || m.kind == NameKind::Class;
      if ((last && called && !callable) || (!last && m.kind == NameKind::Function)) continue;
      std::string_view member = m.path.substr(m.path.rfind('.') + 1);
      candidates.push_back(member);
      if (agc_has(std::string(m.path))) preferred.push_back(member);
    }
    std::string msg = fmt::format("module '{}' has no attribute '{}'", python_module_name(library, found.module),
                                  found.attr);
    std::string_view near = closest_name(found.attr, candidates, preferred);
    error(n, msg, "AttributeError", near.empty() ? "" : shown + "." + dotted(found.module, near));
    return "ag::Value()";
  }
  // The library's listing does not reach this far: only agc's own names
  // of the same module are known.
  std::string msg = fmt::format("'{}' is not supported by agc", full);
  const size_t dot = path.rfind('.');
  const std::string module = dot == std::string::npos ? "" : path.substr(0, dot);
  std::vector<std::string_view> siblings;
  for (std::string_view o : ours) {
    size_t o_dot = o.rfind('.');
    if ((o_dot == std::string_view::npos ? std::string_view() : o.substr(0, o_dot)) == module) {
      siblings.push_back(o.substr(o_dot == std::string_view::npos ? 0 : o_dot + 1));
    }
  }
  std::string_view near = closest_name(std::string_view(path).substr(dot == std::string::npos ? 0 : dot + 1), siblings);
  error(n, msg, "NotImplementedError", near.empty() ? "" : shown + "." + dotted(module, near));
  return "ag::Value()";
}

/// A C++ callable for the function named by `e` (a nested def or any Value)
/// taking `params` ("" or "ag::Value itr").
std::string Emitter::callable_ref(const Ref& e, int nparams) {
  const Ref& f = unwrap_ld(e);
  if (auto* n = f->dyn<Name>(); n && local_function(n->id)) return cpp_ident(n->id);
  if (auto* c = f->dyn<Constant>(); c && c->value.kind == ConstantValue::Kind::None) return "{}";
  std::string v = operand(f);
  if (nparams == 0) return fmt::format("[&]() -> ag::Value {{ return {}({{}}, {{}}); }}", v);
  return fmt::format("[&](const ag::Value& ag_a) -> ag::Value {{ return {}({{ag_a}}, {{}}); }}", v);
}

std::string Emitter::logical_chain(const Call& outer, std::string_view op) {
  // ag__.and_(lambda: a, lambda: b, lambda: c) nests to the right:
  //   and_(A, [&]() -> ag::Value { return and_(B, C); })
  // and the conversion nests a chain of n operands n calls deep, each in the
  // last thunk of the one before. Wrapping each level's text around the text
  // of the levels inside copied that text once per level (quadratic), so the
  // levels are collected first and the text written once, front to back.
  // Operands are emitted in the order the nesting emitted them (the last one
  // first, then backwards, outer levels after inner ones): fresh names count.
  std::vector<const Call*> levels{&outer};
  std::vector<const Lambda*> wrappers;  // wrappers[k]: the thunk holding levels[k + 1]
  const size_t base_scopes = scopes.size();
  for (;;) {
    const Call& c = *levels.back();
    const auto* l = c.args.back()->dyn<Lambda>();
    if (!l || ag_operator(l->body) != op || l->body->as<Call>().args.size() < 2) break;
    wrappers.push_back(l);
    scopes.push_back(Scope{&closure_of(*l), "", "", ""});
    levels.push_back(&l->body->as<Call>());
  }
  auto operand = [&](const Ref& e) {
    if (auto* l = e->dyn<Lambda>()) return thunk(*l);
    return callable_ref(e, 0);
  };
  std::string tail = operand(levels.back()->args.back());
  std::vector<std::vector<std::string>> operands(levels.size());
  for (size_t k = levels.size(); k-- > 0;) {
    scopes.erase(scopes.begin() + static_cast<std::ptrdiff_t>(base_scopes + k), scopes.end());  // in levels[k]'s thunks
    const Refs& args = levels[k]->args;
    operands[k].resize(args.size() - 1);
    for (size_t i = args.size() - 1; i-- > 0;) operands[k][i] = operand(args[i]);
  }
  std::string out;
  std::string closing;  // reversed: appended backwards at the end
  for (size_t k = 0; k < levels.size(); ++k) {
    if (k > 0) {
      out += "[&]() -> ag::Value { return ";
      closing += "} ;";
    }
    const std::vector<std::string>& ops = operands[k];
    for (size_t i = 0; i < ops.size(); ++i) {
      out += fmt::format("ag::autograph::{}(", op);
      out += ops[i];
      out += ", ";
      if (i + 1 < ops.size()) {
        out += "[&]() -> ag::Value { return ";
        closing += ")} ;";
      } else {
        closing += ")";
      }
    }
  }
  out += tail;
  out.append(closing.rbegin(), closing.rend());
  return out;
}

std::string Emitter::ag_call(const Call& c, std::string_view op) {
  auto arg = [&](size_t i) -> const Ref& {
    static const Ref kNone = nullptr;
    return i < c.args.size() ? c.args[i] : kNone;
  };
  // The conversion calls each operator with its arguments (only ag__ as the
  // conversion spells it is an operator).
  auto need = [&](size_t n) {
    AGC_CHECK(c.args.size() >= n) << "ag__." << op << " with " << c.args.size() << " arguments";
  };
  // `lambda: x` as the C++ thunk of and_/or_/if_exp/ldu.
  auto thunk = [&](const Ref& e) {
    if (auto* l = e->dyn<Lambda>()) return this->thunk(*l);
    return callable_ref(e, 0);
  };
  auto names_list = [&](const Ref& e) {
    std::vector<std::string> names;
    if (auto* t = e->dyn<Tuple>()) {
      for (const Ref& x : t->elts) {
        if (auto* k = x->dyn<Constant>()) names.push_back(cpp_string(k->value.text));
      }
    }
    return "{" + join(names) + "}";
  };
  auto get_state = [&](const Ref& e) {
    return fmt::format("[&] {{ return ag::iterate({}()); }}", callable_ref(e, 0));
  };
  auto set_state = [&](const Ref& e) {
    const Ref& f = unwrap_ld(e);
    std::string fn = callable_ref(f, 1);
    return fmt::format("[&](const std::vector<ag::Value>& ag_vars) {{ {}(ag::Value::tuple(ag_vars)); }}", fn);
  };

  if (op == "ld") {
    need(1);
    const Ref& x = c.args[0];
    if (auto* n = x->dyn<Name>(); n && (owner(n->id) || module_globals_.count(n->id))) {
      return fmt::format("ag::autograph::ld({})", name_load(*n));
    }
    return expr(x);
  }
  if (op == "ldu") {
    need(2);
    return fmt::format("ag::autograph::ldu({}, {})", thunk(c.args[0]), expr(c.args[1]));
  }
  if (op == "converted_call") {
    need(3);
    // AutoGraph passes the positional arguments as a tuple display, or with
    // `*xs` as an expression (`(a,) + tuple(xs)`), and the keywords as None,
    // `dict(k=v, **kw)` or a dict display.
    Refs positional;
    if (auto* t = c.args[1]->dyn<Tuple>()) {
      positional = t->elts;
    } else {
      auto star = make<Starred>(c.args[1]->span);
      star->value = c.args[1];
      positional.push_back(star);
    }
    Refs keywords;
    if (!converted_kwargs(c.args[2], keywords)) {
      auto kw = make<Keyword>(c.args[2]->span);
      kw->value = c.args[2];
      keywords.push_back(kw);
    }
    // Converted code calls `print` through converted_call only under the
    // BUILTIN_FUNCTIONS feature, and then it is AutoGraph's overload.
    if (auto* n = unwrap_ld(c.args[0])->dyn<Name>(); n && n->id == "print" && builtin_name(n->id)) {
      return fmt::format("ag::autograph::print_({}, {})", arg_list(positional, "print()"),
                         kwarg_list(keywords, "print()"));
    }
    // converted_call gives range AutoGraph's overload: tensors make a tf.range.
    if (auto* n = unwrap_ld(c.args[0])->dyn<Name>(); n && n->id == "range" && builtin_name(n->id)) {
      return fmt::format("ag::autograph::range_({}, {})", arg_list(positional, "range()"),
                         kwarg_list(keywords, "range()"));
    }
    return call(c, c.args[0], positional, keywords);
  }
  if (op == "if_stmt") {
    need(7);
    return fmt::format("ag::autograph::if_stmt({}, {}, {}, {}, {}, {}, {})", value(arg(0)), callable_ref(arg(1), 0),
                       callable_ref(arg(2), 0), get_state(arg(3)), set_state(arg(4)), names_list(arg(5)), expr(arg(6)));
  }
  if (op == "while_stmt" || op == "for_stmt") {
    bool is_for = op == "for_stmt";
    size_t base = is_for ? 2 : 1;
    need(base + 4);
    const Ref& body = arg(base);
    std::string opts = loop_options(c.args.size() > base + 4 ? arg(base + 4) : nullptr, body);
    if (is_for) {
      return fmt::format("ag::autograph::for_stmt({}, {}, {}, {}, {}, {}, {})", value(arg(0)), callable_ref(arg(1), 0),
                         callable_ref(body, 1), get_state(arg(base + 1)), set_state(arg(base + 2)),
                         names_list(arg(base + 3)), opts);
    }
    return fmt::format("ag::autograph::while_stmt({}, {}, {}, {}, {}, {})", callable_ref(arg(0), 0),
                       callable_ref(body, 0), get_state(arg(base + 1)), set_state(arg(base + 2)),
                       names_list(arg(base + 3)), opts);
  }
  if (op == "if_exp") {
    need(3);
    return fmt::format("ag::autograph::if_exp({}, {}, {}, {})", value(arg(0)), thunk(arg(1)), thunk(arg(2)),
                       c.args.size() > 3 ? expr(arg(3)) : "\"\"");
  }
  if (op == "and_" || op == "or_") {
    need(2);
    return logical_chain(c, op);
  }
  if (op == "not_") {
    need(1);
    return fmt::format("ag::autograph::not_({})", value(arg(0)));
  }
  if (op == "Undefined") {
    need(1);
    return fmt::format("ag::autograph::Undefined({})", expr(arg(0)));
  }
  if (op == "UndefinedReturnValue") return "ag::autograph::UndefinedReturnValue()";
  if (op == "list_append") {
    need(2);
    return fmt::format("ag::autograph::list_append({}, {})", value(arg(0)), value(arg(1)));
  }
  if (op == "list_pop") {
    need(1);
    std::string i = c.args.size() > 1 ? value(arg(1)) : "ag::Value()";
    return fmt::format("[&] {{ auto [ag_list, ag_item] = ag::autograph::list_pop({}, {}); "
                       "return ag::Value::tuple({{ag_list, ag_item}}); }}()",
                       value(arg(0)), i);
  }
  if (op == "set_item") {
    need(3);
    return fmt::format("ag::autograph::set_item({}, {}, {})", value(arg(0)), value(arg(1)), value(arg(2)));
  }
  if (op == "list_stack") {
    need(1);
    return fmt::format("ag::autograph::list_stack({})", value(arg(0)));
  }
  if (op == "autograph_artifact") {
    need(1);
    return expr(arg(0));
  }
  // The optional features' operators.
  if (op == "assert_stmt") {
    need(2);
    return fmt::format("ag::autograph::assert_stmt({}, {})", value(arg(0)), thunk(arg(1)));
  }
  if (op == "eq" || op == "not_eq") {
    need(2);
    return fmt::format("ag::autograph::{}({}, {})", op == "eq" ? "eq" : "not_eq_", value(arg(0)), value(arg(1)));
  }
  error(c, fmt::format("the AutoGraph operator ag__.{} is not supported by the C++ emitter yet", op));
  return "ag::Value()";
}

std::string Emitter::loop_options(const Ref& opts, const Ref& body) {
  std::vector<std::string> fields;
  std::string shape_invariants, maximum_iterations, iterate_names;
  if (opts) {
    auto* d = opts->dyn<Dict>();
    AGC_CHECK(d) << "loop options are not a dict";
    for (size_t i = 0; i < d->keys.size(); ++i) {
      auto* k = d->keys[i] ? d->keys[i]->dyn<Constant>() : nullptr;
      if (!k) continue;
      const std::string& key = k->value.text;
      const Ref& v = d->values[i];
      if (key == "iterate_names") {
        iterate_names = expr(v);
      } else if (key == "maximum_iterations") {
        maximum_iterations = fmt::format("ag::Value({}).as_int()", expr(v));
      } else if (key == "shape_invariants") {
        std::vector<std::string> pairs;
        auto* items = v->dyn<List>();
        const Refs* elts = items ? &items->elts : v->is<Tuple>() ? &v->as<Tuple>().elts : nullptr;
        for (const Ref& p : elts ? *elts : Refs{}) {
          auto* t = p->dyn<Tuple>();
          if (!t || t->elts.size() != 2 || !unwrap_ld(t->elts[0])->is<Name>()) {
            error(*p, "shape_invariants entries must be (variable, shape) pairs naming a loop variable");
            continue;
          }
          pairs.push_back(fmt::format("{{{}, ag::shape_from_value({})}}",
                                      cpp_string(unwrap_ld(t->elts[0])->as<Name>().id), value(t->elts[1])));
        }
        shape_invariants = "{" + join(pairs) + "}";
      }
      // parallel_iterations / swap_memory: accepted and ignored, as on CPU.
    }
  }
  std::set<std::string> lists;
  if (auto* n = unwrap_ld(body)->dyn<Name>()) {
    if (const FunctionDef* f = local_function(n->id)) lists = analysis::list_mutation_targets(f->body);
  }
  // Set field by field: GCC warns about the fields a designated initializer omits.
  if (!shape_invariants.empty()) fields.push_back("o.shape_invariants = " + shape_invariants + ";");
  if (!maximum_iterations.empty()) fields.push_back("o.maximum_iterations = " + maximum_iterations + ";");
  if (!iterate_names.empty()) fields.push_back("o.iterate_names = " + iterate_names + ";");
  if (!lists.empty()) {
    std::vector<std::string> names;
    for (const std::string& l : lists) names.push_back(cpp_string(l));
    fields.push_back("o.list_symbols = {" + join(names) + "};");
  }
  if (fields.empty()) return "{}";
  return "[&] { ag::autograph::LoopOptions o; " + join(fields, " ") + " return o; }()";
}

}  // namespace agc::emit::cpp
