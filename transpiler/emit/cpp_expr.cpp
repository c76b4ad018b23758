// Expressions as C++: every Python expression becomes a C++ expression of type
// ag::Value (bare literals where C++ converts them implicitly). Calls resolve
// at transpile time: tf.* and builtins to ag::tf::api / ag::py functions,
// ag__.* operators to ag::autograph, nested defs emitted as C++ lambdas to
// direct calls, anything else to Value::operator().
#include <fmt/format.h>

#include "transpiler/emit/cpp_emitter_impl.h"
#include "transpiler/emit/cpp_text.h"
#include "transpiler/emit/tf_api_table.h"

namespace agc::emit::cpp {

using namespace agc::ast;

namespace {

bool is_literal(const Ref& e) {
  return e->is<Constant>() || (e->is<UnaryOp>() && e->as<UnaryOp>().operand->is<Constant>());
}

const char* binop_text(BinOpKind op) {
  switch (op) {
    case BinOpKind::Add: return "+";
    case BinOpKind::Sub: return "-";
    case BinOpKind::Mult: return "*";
    case BinOpKind::Div: return "/";
    case BinOpKind::Mod: return "%";
    case BinOpKind::LShift: return "<<";
    case BinOpKind::RShift: return ">>";
    case BinOpKind::BitOr: return "|";
    case BinOpKind::BitXor: return "^";
    case BinOpKind::BitAnd: return "&";
    default: return nullptr;
  }
}

const char* cmp_text(CmpOpKind op) {
  switch (op) {
    case CmpOpKind::Eq: return "==";
    case CmpOpKind::NotEq: return "!=";
    case CmpOpKind::Lt: return "<";
    case CmpOpKind::LtE: return "<=";
    case CmpOpKind::Gt: return ">";
    case CmpOpKind::GtE: return ">=";
    default: return nullptr;
  }
}

std::string join(const std::vector<std::string>& parts, const char* sep = ", ") {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

/// `ag__.ld(x)` -> x; anything else unchanged.
const Ref& unwrap_ld(const Ref& e) {
  if (ag_operator(e) == "ld" && e->as<Call>().args.size() == 1) return e->as<Call>().args[0];
  return e;
}

/// `super()` or its converted form `ag__.converted_call(ag__.ld(super), (), None, fscope)`.
bool is_super_call(const Ref& e) {
  const Call* c = e->dyn<Call>();
  if (!c) return false;
  if (ag_operator(e) == "converted_call") {
    if (c->args.size() < 2) return false;
    const Ref& f = unwrap_ld(c->args[0]);
    return f->is<Name>() && f->as<Name>().id == "super" && c->args[1]->is<Tuple>() &&
           c->args[1]->as<Tuple>().elts.empty();
  }
  return c->func->is<Name>() && c->func->as<Name>().id == "super" && c->args.empty();
}

}  // namespace

const Scope* Emitter::scope_of(const std::string& name) const {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
    if (it->kind == Scope::Kind::Module) return nullptr;
    if (it->globals.count(name)) return nullptr;
    if (it->locals.count(name) || it->lambda_defs.count(name)) return &*it;
  }
  return nullptr;
}

bool Emitter::tf_path(const Ref& e, std::string& path) const {
  std::vector<std::string> parts;
  const Ref* cur = &e;
  while (auto* a = (*cur)->dyn<Attribute>()) {
    parts.push_back(a->attr);
    cur = &a->value;
  }
  const Ref& root = unwrap_ld(*cur);
  auto* n = root->dyn<Name>();
  if (!n || parts.empty() || scope_of(n->id)) return false;
  auto it = imports_.find(n->id);
  if (it == imports_.end() || it->second != "tensorflow") return false;
  path.clear();
  for (auto p = parts.rbegin(); p != parts.rend(); ++p) {
    if (!path.empty()) path += '.';
    path += *p;
  }
  return true;
}

std::string Emitter::name_load(const Name& n) {
  if (const Scope* s = scope_of(n.id)) {
    if (s->lambda_defs.count(n.id)) {
      error(n, fmt::format("internal: nested function '{}' used as a value", n.id));
      return "ag::Value()";
    }
    return cpp_ident(n.id);
  }
  if (module_globals_.count(n.id) && !imports_.count(n.id)) return cpp_ident(n.id);
  if (imports_.count(n.id)) {
    error(n, fmt::format("module '{}' cannot be used as a value; use its functions, e.g. {}.constant(...)", n.id, n.id));
    return "ag::Value()";
  }
  if (const char* b = find_builtin(n.id)) return fmt::format("ag::builtin_value(\"{}\", ag::py::{})", n.id, b);
  if (find_exception_type(n.id, false)) {
    return fmt::format("ag::builtin_value(\"{0}\", [](std::vector<ag::Value> args, ag::Kwargs) {{ return ag::make_exception(\"{0}\", std::move(args)); }})", n.id);
  }
  error(n, fmt::format("name '{}' is not defined", n.id));
  return "ag::Value()";
}

std::string Emitter::value(const Ref& e) {
  std::string s = expr(e);
  return is_literal(e) ? "ag::Value(" + s + ")" : s;
}

std::string Emitter::truthy(const Ref& e) {
  if (auto* c = e->dyn<Constant>(); c && c->value.kind == ConstantValue::Kind::Bool) return c->value.boolean ? "true" : "false";
  return "ag::truthy(" + expr(e) + ")";
}

std::string Emitter::arg_list(const Refs& args) {
  std::vector<std::string> parts;
  for (const Ref& a : args) {
    if (a->is<Starred>()) {
      error(*a, "unpacking arguments with * in a call is not supported yet; pass them one by one");
      continue;
    }
    parts.push_back(expr(a));
  }
  return "{" + join(parts) + "}";
}

std::string Emitter::kwarg_list(const Refs& keywords) {
  std::vector<std::string> parts;
  for (const Ref& k : keywords) {
    const Keyword& kw = k->as<Keyword>();
    if (kw.arg.empty()) {
      error(*k, "unpacking keyword arguments with ** in a call is not supported yet; pass them by name");
      continue;
    }
    parts.push_back(fmt::format("{{{}, {}}}", cpp_string(kw.arg), expr(kw.value)));
  }
  return "{" + join(parts) + "}";
}

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
std::string Emitter::call(const Node& at_node, const Ref& func_in, const Refs& args, const Refs& keywords) {
  const Ref& func = unwrap_ld(func_in);
  std::string path;
  if (tf_path(func, path)) {
    if (auto entry = find_tf_api(path)) {
      if (entry->kind == TfApiEntry::Kind::Function) {
        return fmt::format("ag::tf::api::{}({}, {})", entry->cpp_name, arg_list(args), kwarg_list(keywords));
      }
      return fmt::format("ag::tf::api::{}()({}, {})", entry->cpp_name, arg_list(args), kwarg_list(keywords));
    }
    return tf_unknown(*func, path);
  }
  if (auto* n = func->dyn<Name>()) {
    const Scope* s = scope_of(n->id);
    if (s && s->lambda_defs.count(n->id) && keywords.empty()) {
      std::vector<std::string> parts;
      for (const Ref& a : args) parts.push_back(value(a));
      return fmt::format("{}({})", cpp_ident(n->id), join(parts));
    }
    bool global_or_builtin = !s && !module_globals_.count(n->id);
    if (global_or_builtin) {
      if (const char* b = find_builtin(n->id)) {
        return fmt::format("ag::py::{}({}, {})", b, arg_list(args), kwarg_list(keywords));
      }
      if (find_exception_type(n->id, false)) {
        if (!keywords.empty()) error(at_node, fmt::format("{}() takes no keyword arguments", n->id));
        return fmt::format("ag::make_exception(\"{}\", {})", n->id, arg_list(args));
      }
    }
  }
  if (auto* a = func->dyn<Attribute>(); a && is_super_call(a->value)) {
    return fmt::format("{}({}, {})", super_attr(at_node, a->attr), arg_list(args), kwarg_list(keywords));
  }
  return fmt::format("{}({}, {})", value(func), arg_list(args), kwarg_list(keywords));
}

std::string Emitter::super_attr(const Node& at_node, const std::string& attr) {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
    if (!it->class_name.empty()) {
      return fmt::format("ag::super_getattr({}, {}, {})", cpp_ident(it->class_name), cpp_ident(it->self_name),
                         cpp_string(attr));
    }
  }
  error(at_node, "super() is only supported inside a method of a module-level class");
  return "ag::Value()";
}

std::string Emitter::tf_unknown(const Node& n, const std::string& path) {
  std::string msg = fmt::format("'tf.{}' is not supported by agc", path);
  std::string near = closest_tf_api(path);
  if (!near.empty()) msg += fmt::format(" (did you mean 'tf.{}'?)", near);
  error(n, msg);
  return "ag::Value()";
}

/// A C++ callable for the function named by `e` (a nested def or any Value)
/// taking `params` ("" or "ag::Value itr").
std::string Emitter::callable_ref(const Ref& e, int nparams) {
  const Ref& f = unwrap_ld(e);
  if (auto* n = f->dyn<Name>()) {
    const Scope* s = scope_of(n->id);
    if (s && s->lambda_defs.count(n->id)) return cpp_ident(n->id);
  }
  if (auto* c = f->dyn<Constant>(); c && c->value.kind == ConstantValue::Kind::None) return "{}";
  std::string v = value(f);
  if (nparams == 0) return fmt::format("[&]() -> ag::Value {{ return {}({{}}, {{}}); }}", v);
  return fmt::format("[&](const ag::Value& ag_a) -> ag::Value {{ return {}({{ag_a}}, {{}}); }}", v);
}

std::string Emitter::ag_call(const Call& c, const std::string& op) {
  auto arg = [&](size_t i) -> const Ref& {
    static const Ref kNone = nullptr;
    return i < c.args.size() ? c.args[i] : kNone;
  };
  auto need = [&](size_t n) {
    if (c.args.size() < n) {
      error(c, fmt::format("internal: ag__.{} with {} arguments", op, c.args.size()));
      return false;
    }
    return true;
  };
  // `lambda: x` as the C++ thunk of and_/or_/if_exp/ldu.
  auto thunk = [&](const Ref& e) {
    if (auto* l = e->dyn<Lambda>()) {
      return fmt::format("[&]() -> ag::Value {{ return {}; }}", expr(l->body));
    }
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
    if (!need(1)) return "";
    const Ref& x = c.args[0];
    if (auto* n = x->dyn<Name>(); n && (scope_of(n->id) || module_globals_.count(n->id))) {
      return fmt::format("ag::autograph::ld({})", name_load(*n));
    }
    return expr(x);
  }
  if (op == "ldu") {
    if (!need(2)) return "";
    return fmt::format("ag::autograph::ldu({}, {})", thunk(c.args[0]), expr(c.args[1]));
  }
  if (op == "converted_call") {
    if (!need(3)) return "";
    Refs positional;
    if (auto* t = c.args[1]->dyn<Tuple>()) {
      positional = t->elts;
    } else {
      error(*c.args[1], "unpacking arguments with * in a call is not supported yet; pass them one by one");
    }
    Refs keywords;
    if (!converted_kwargs(c.args[2], keywords)) {
      error(*c.args[2], "unpacking keyword arguments with ** in a call is not supported yet; pass them by name");
    }
    return call(c, c.args[0], positional, keywords);
  }
  if (op == "if_stmt") {
    if (!need(7)) return "";
    return fmt::format("ag::autograph::if_stmt({}, {}, {}, {}, {}, {}, {})", value(arg(0)), callable_ref(arg(1), 0),
                       callable_ref(arg(2), 0), get_state(arg(3)), set_state(arg(4)), names_list(arg(5)), expr(arg(6)));
  }
  if (op == "while_stmt" || op == "for_stmt") {
    bool is_for = op == "for_stmt";
    size_t base = is_for ? 2 : 1;
    if (!need(base + 4)) return "";
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
    if (!need(3)) return "";
    return fmt::format("ag::autograph::if_exp({}, {}, {}, {})", value(arg(0)), thunk(arg(1)), thunk(arg(2)),
                       c.args.size() > 3 ? expr(arg(3)) : "\"\"");
  }
  if (op == "and_" || op == "or_") {
    if (!need(2)) return "";
    // ag__.and_(lambda: a, lambda: b, lambda: c) nests to the right.
    std::string out = thunk(c.args.back());
    for (size_t i = c.args.size() - 1; i-- > 0;) {
      if (i + 1 == c.args.size() - 1) {
        out = fmt::format("ag::autograph::{}({}, {})", op, thunk(c.args[i]), out);
      } else {
        out = fmt::format("ag::autograph::{}({}, [&]() -> ag::Value {{ return {}; }})", op, thunk(c.args[i]), out);
      }
    }
    return out;
  }
  if (op == "not_") {
    if (!need(1)) return "";
    return fmt::format("ag::autograph::not_({})", value(arg(0)));
  }
  if (op == "Undefined") {
    if (!need(1)) return "";
    return fmt::format("ag::autograph::Undefined({})", expr(arg(0)));
  }
  if (op == "UndefinedReturnValue") return "ag::autograph::UndefinedReturnValue()";
  if (op == "list_append") {
    if (!need(2)) return "";
    return fmt::format("ag::autograph::list_append({}, {})", value(arg(0)), value(arg(1)));
  }
  if (op == "list_pop") {
    if (!need(1)) return "";
    std::string i = c.args.size() > 1 ? value(arg(1)) : "ag::Value()";
    return fmt::format("[&] {{ auto [ag_list, ag_item] = ag::autograph::list_pop({}, {}); "
                       "return ag::Value::tuple({{ag_list, ag_item}}); }}()",
                       value(arg(0)), i);
  }
  if (op == "list_stack") {
    if (!need(1)) return "";
    return fmt::format("ag::autograph::list_stack({})", value(arg(0)));
  }
  if (op == "autograph_artifact") {
    if (!need(1)) return "";
    return expr(arg(0));
  }
  error(c, fmt::format("the AutoGraph operator ag__.{} is not supported by the C++ emitter yet", op));
  return "ag::Value()";
}

std::string Emitter::loop_options(const Ref& opts, const Ref& body) {
  std::vector<std::string> fields;
  std::string shape_invariants, maximum_iterations, iterate_names;
  if (opts) {
    auto* d = opts->dyn<Dict>();
    if (!d) {
      error(*opts, "internal: loop options are not a dict");
    } else {
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
  }
  std::set<std::string> lists;
  if (auto* n = unwrap_ld(body)->dyn<Name>()) {
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
      auto f = it->nested_defs.find(n->id);
      if (f != it->nested_defs.end()) {
        lists = list_symbols(f->second->body);
        break;
      }
    }
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

std::string Emitter::subscript(const Subscript& s) {
  std::string v = value(s.value);
  auto slice_spec = [&](const Slice& sl) {
    auto part = [&](const Ref& p) { return p ? value(p) : std::string("ag::Value()"); };
    return fmt::format("ag::SliceSpec{{{}, {}, {}}}", part(sl.lower), part(sl.upper), part(sl.step));
  };
  auto check_ellipsis = [&](const Ref& e) {
    if (auto* k = e->dyn<Constant>(); k && k->value.kind == ConstantValue::Kind::Ellipsis) {
      error(*e, "Ellipsis (...) in a subscript is not supported yet; spell the dimensions out with ':'");
      return true;
    }
    return false;
  };
  if (auto* sl = s.slice->dyn<Slice>()) return fmt::format("ag::getslice({}, {})", v, slice_spec(*sl));
  if (auto* t = s.slice->dyn<Tuple>()) {
    bool parts_needed = false;
    for (const Ref& e : t->elts) {
      if (check_ellipsis(e)) return "ag::Value()";
      parts_needed = parts_needed || e->is<Slice>();
    }
    if (parts_needed) {
      std::vector<std::string> parts;
      for (const Ref& e : t->elts) {
        parts.push_back(e->is<Slice>() ? slice_spec(e->as<Slice>()) : fmt::format("ag::IndexPart({})", value(e)));
      }
      return fmt::format("ag::getitem({}, std::vector<ag::IndexPart>{{{}}})", v, join(parts));
    }
  }
  check_ellipsis(s.slice);
  return fmt::format("ag::getitem({}, {})", v, value(s.slice));
}

std::string Emitter::fstring(const JoinedStr& j) {
  std::vector<std::string> parts;
  for (const Ref& p : j.values) {
    if (auto* k = p->dyn<Constant>()) {
      parts.push_back(cpp_string(k->value.text));
      continue;
    }
    const FormattedValue& f = p->as<FormattedValue>();
    std::string v = value(f.value);
    if (f.conversion == 'r' || f.conversion == 'a') v = fmt::format("ag::Value(ag::repr({}))", v);
    if (f.conversion == 's') v = fmt::format("ag::Value(ag::str({}))", v);
    std::string spec = "\"\"";
    if (f.format_spec) {
      // The spec is itself an f-string: a literal, or computed ({x:{width}}).
      const JoinedStr* js = f.format_spec->dyn<JoinedStr>();
      if (js && js->values.size() == 1 && js->values[0]->is<Constant>()) {
        spec = cpp_string(js->values[0]->as<Constant>().value.text);
      } else {
        spec = fmt::format("ag::str({})", expr(f.format_spec));
      }
    }
    parts.push_back(fmt::format("ag::format({}, {})", v, spec));
  }
  if (parts.empty()) return "ag::Value(\"\")";
  return "ag::Value(std::string() + " + join(parts, " + ") + ")";
}

std::string Emitter::comprehension(const Ref& elt, const Ref& key, const Refs& generators,
                                   const char* kind) {
  // An immediately invoked lambda with a scope of its own for the targets.
  Scope scope;
  scope.kind = Scope::Kind::Comprehension;
  for (const Ref& g : generators) {
    auto a = make<Assign>(g->span);
    a->targets = {g->as<Comprehension>().target};
    a->value = g->as<Comprehension>().iter;
    for (const std::string& b : scope_names({a}).bound) scope.locals.insert(b);
  }
  std::string out = "[&] {\n";
  std::string result = std::string(kind) == "dict" ? "ag::Value::dict()" : "ag::Value::list()";
  out += "  ag::Value ag_result = " + result + ";\n";
  // The first iterable is evaluated in the enclosing scope (Python's rule).
  std::string first_iter = value(generators[0]->as<Comprehension>().iter);
  scopes.push_back(scope);
  for (const std::string& l : scopes.back().locals) out += "  ag::Value " + cpp_ident(l) + ";\n";
  std::string close;
  std::string pad = "  ";
  for (size_t i = 0; i < generators.size(); ++i) {
    const Comprehension& g = generators[i]->as<Comprehension>();
    std::string item = fresh("item");
    std::string iter = i == 0 ? first_iter : value(g.iter);
    out += fmt::format("{}for (const ag::Value& {} : ag::iterate({})) {{\n", pad, item, iter);
    pad += "  ";
    out += pad + assign_code(g.target, item) + "\n";
    for (const Ref& cond : g.ifs) out += fmt::format("{}if (!{}) continue;\n", pad, truthy(cond));
    close = pad.substr(2) + "}\n" + close;
  }
  if (key) {
    out += fmt::format("{}ag::setitem(ag_result, {}, {});\n", pad, value(key), value(elt));
  } else {
    out += fmt::format("{}ag_result.items().push_back({});\n", pad, value(elt));
  }
  out += close + "  return ag_result;\n}()";
  scopes.pop_back();
  return out;
}

std::string Emitter::lambda(const Lambda& l) {
  const Arguments& a = l.args->as<Arguments>();
  Scope scope;
  scope.kind = Scope::Kind::Lambda;
  for (const std::string& p : param_names(a)) scope.locals.insert(p);
  std::string params = params_list(a);
  bool at_module = scopes.back().kind == Scope::Kind::Module;
  scopes.push_back(scope);
  std::string body = value(l.body);
  scopes.pop_back();
  std::string unpack;
  size_t i = 0;
  for (const std::string& p : param_names(a)) unpack += fmt::format("ag::Value {} = ag_args[{}]; ", cpp_ident(p), i++);
  return fmt::format("ag::make_function(\"<lambda>\", {}, {}(const std::vector<ag::Value>& ag_args) -> ag::Value {{ "
                     "{}return {}; }})",
                     params, at_module ? "[]" : "[&]", unpack, body);
}

std::string Emitter::params_list(const Arguments& a) {
  if (!a.posonlyargs.empty() || a.vararg || !a.kwonlyargs.empty() || a.kwarg) {
    error(a, "*args, **kwargs and keyword-only or positional-only parameters are not supported yet");
  }
  std::vector<std::string> out;
  size_t first_default = a.args.size() - a.defaults.size();
  for (size_t i = 0; i < a.args.size(); ++i) {
    const std::string& name = a.args[i]->as<Arg>().arg;
    if (i >= first_default) {
      out.push_back(fmt::format("{{{}, {}}}", cpp_string(name), value(a.defaults[i - first_default])));
    } else {
      out.push_back(fmt::format("{{{}, {{}}}}", cpp_string(name)));
    }
  }
  return "{" + join(out) + "}";
}

std::string Emitter::expr(const Ref& e) {
  switch (e->kind) {
    case NodeKind::Constant: {
      const ConstantValue& v = e->as<Constant>().value;
      switch (v.kind) {
        case ConstantValue::Kind::None: return "ag::Value()";
        case ConstantValue::Kind::Bool: return v.boolean ? "true" : "false";
        case ConstantValue::Kind::Int: {
          std::string s = cpp_int(v.text);
          if (s.empty()) {
            error(*e, fmt::format("integer {} does not fit in 64 bits", v.text));
            return "0";
          }
          return s;
        }
        case ConstantValue::Kind::Float: return cpp_double(v.number);
        case ConstantValue::Kind::Str:
          if (v.text.find('\0') != std::string::npos) {
            return fmt::format("ag::Value(std::string_view({}, {}))", cpp_string(v.text), v.text.size());
          }
          return cpp_string(v.text);
        case ConstantValue::Kind::Ellipsis:
          error(*e, "Ellipsis (...) is only supported in subscripts");
          return "ag::Value()";
        default: error(*e, "bytes and complex literals are not supported"); return "ag::Value()";
      }
    }
    case NodeKind::Name: return name_load(e->as<Name>());
    case NodeKind::Attribute: {
      const Attribute& a = e->as<Attribute>();
      std::string path;
      if (tf_path(e, path)) {
        if (auto entry = find_tf_api(path)) {
          if (entry->kind == TfApiEntry::Kind::Value) return fmt::format("ag::tf::api::{}()", entry->cpp_name);
          return fmt::format("ag::builtin_value(\"tf.{}\", ag::tf::api::{})", path, entry->cpp_name);
        }
        return tf_unknown(*e, path);
      }
      if (auto* root = unwrap_ld(a.value)->dyn<Name>(); root && !scope_of(root->id)) {
        auto it = imports_.find(root->id);
        if (it != imports_.end()) {
          if (it->second == "sys" && (a.attr == "stdout" || a.attr == "stderr")) {
            return fmt::format("ag::Value(\"sys.{}\")", a.attr);
          }
          error(*e, fmt::format("'{}.{}' is not supported: agc compiles TensorFlow code, and module '{}' has no "
                                "C++ equivalent",
                                root->id, a.attr, it->second));
          return "ag::Value()";
        }
      }
      if (is_super_call(a.value)) return super_attr(*e, a.attr);
      return fmt::format("{}.getattr({})", value(a.value), cpp_string(a.attr));
    }
    case NodeKind::BinOp: {
      const BinOp& b = e->as<BinOp>();
      if (b.op == BinOpKind::FloorDiv) return fmt::format("ag::floordiv({}, {})", value(b.left), value(b.right));
      if (b.op == BinOpKind::Pow) return fmt::format("ag::pow({}, {})", value(b.left), value(b.right));
      if (b.op == BinOpKind::MatMult) {
        return fmt::format("ag::tf::api::matmul({{{}, {}}}, {{}})", expr(b.left), expr(b.right));
      }
      std::string l = is_literal(b.left) && is_literal(b.right) ? value(b.left) : expr(b.left);
      return fmt::format("({} {} {})", l, binop_text(b.op), expr(b.right));
    }
    case NodeKind::UnaryOp: {
      const UnaryOp& u = e->as<UnaryOp>();
      switch (u.op) {
        case UnaryOpKind::USub:
          if (u.operand->is<Constant>()) {
            std::string s = expr(u.operand);
            return s.empty() || s[0] == '-' ? s : "-" + s;
          }
          return fmt::format("(-{})", value(u.operand));
        case UnaryOpKind::UAdd: return fmt::format("(+{})", value(u.operand));
        case UnaryOpKind::Invert: return fmt::format("(~{})", value(u.operand));
        case UnaryOpKind::Not: return fmt::format("ag::not_({})", value(u.operand));
      }
      return "";
    }
    case NodeKind::BoolOp: {
      const BoolOp& b = e->as<BoolOp>();
      const char* op = b.op == BoolOpKind::And ? "and_" : "or_";
      std::string out = value(b.values.back());
      for (size_t i = b.values.size() - 1; i-- > 0;) {
        out = fmt::format("ag::autograph::{}([&]() -> ag::Value {{ return {}; }}, [&]() -> ag::Value {{ return {}; }})",
                          op, value(b.values[i]), out);
      }
      return out;
    }
    case NodeKind::Compare: {
      const Compare& c = e->as<Compare>();
      auto one = [&](const std::string& l, CmpOpKind op, const std::string& r) -> std::string {
        switch (op) {
          case CmpOpKind::Is: return fmt::format("ag::Value(ag::Value({}).is({}))", l, r);
          case CmpOpKind::IsNot: return fmt::format("ag::Value(!ag::Value({}).is({}))", l, r);
          case CmpOpKind::In: return fmt::format("ag::Value(ag::contains({}, {}))", r, l);
          case CmpOpKind::NotIn: return fmt::format("ag::Value(!ag::contains({}, {}))", r, l);
          default: return fmt::format("({} {} {})", l, cmp_text(op), r);
        }
      };
      if (c.ops.size() == 1) {
        bool both = is_literal(c.left) && is_literal(c.comparators[0]);
        return one(both ? value(c.left) : expr(c.left), c.ops[0], expr(c.comparators[0]));
      }
      // a < b < c: each operand evaluated once, stopping at the first false.
      std::string out = "[&]() -> ag::Value {\n  ag::Value ag_l = " + value(c.left) + ";\n";
      for (size_t i = 0; i < c.ops.size(); ++i) {
        out += fmt::format("  ag::Value ag_r{} = {};\n", i, value(c.comparators[i]));
        std::string test = one("ag_l", c.ops[i], fmt::format("ag_r{}", i));
        if (i + 1 == c.ops.size()) {
          out += "  return " + test + ";\n";
        } else {
          out += fmt::format("  ag::Value ag_t{0} = {1};\n  if (!ag::truthy(ag_t{0})) return ag_t{0};\n  ag_l = ag_r{0};\n",
                             i, test);
        }
      }
      return out + "}()";
    }
    case NodeKind::Call: {
      const Call& c = e->as<Call>();
      std::string op = ag_operator(e);
      if (!op.empty()) return ag_call(c, op);
      if (auto* a = c.func->dyn<Attribute>()) {
        if (auto* n = a->value->dyn<Name>(); n && n->id == "fscope" && a->attr == "ret" && c.args.size() == 2) {
          return fmt::format("fscope.ret({}, {})", expr(c.args[0]), expr(c.args[1]));
        }
      }
      return call(c, c.func, c.args, c.keywords);
    }
    case NodeKind::Subscript: return subscript(e->as<Subscript>());
    case NodeKind::List: {
      std::vector<std::string> items;
      for (const Ref& x : e->as<List>().elts) items.push_back(expr(x));
      return "ag::Value::list({" + join(items) + "})";
    }
    case NodeKind::Tuple: {
      std::vector<std::string> items;
      for (const Ref& x : e->as<Tuple>().elts) items.push_back(expr(x));
      return "ag::Value::tuple({" + join(items) + "})";
    }
    case NodeKind::Dict: {
      const Dict& d = e->as<Dict>();
      std::vector<std::string> items;
      for (size_t i = 0; i < d.keys.size(); ++i) {
        if (!d.keys[i]) {
          error(*d.values[i], "** unpacking in a dict display is not supported yet");
          continue;
        }
        items.push_back(fmt::format("{{{}, {}}}", value(d.keys[i]), value(d.values[i])));
      }
      return "ag::Value::dict({" + join(items) + "})";
    }
    case NodeKind::IfExp: {
      const IfExp& i = e->as<IfExp>();
      return fmt::format("({} ? {} : {})", truthy(i.test), value(i.body), value(i.orelse));
    }
    case NodeKind::Lambda: return lambda(e->as<Lambda>());
    case NodeKind::ListComp: {
      const ListComp& l = e->as<ListComp>();
      return comprehension(l.elt, nullptr, l.generators, "list");
    }
    case NodeKind::GeneratorExp: {
      const GeneratorExp& g = e->as<GeneratorExp>();
      return comprehension(g.elt, nullptr, g.generators, "list");
    }
    case NodeKind::DictComp: {
      const DictComp& d = e->as<DictComp>();
      return comprehension(d.value, d.key, d.generators, "dict");
    }
    case NodeKind::JoinedStr: return fstring(e->as<JoinedStr>());
    case NodeKind::Set:
    case NodeKind::SetComp: error(*e, "sets are not supported yet; use a list or a dict"); return "ag::Value()";
    case NodeKind::Starred: error(*e, "starred expressions are not supported here"); return "ag::Value()";
    default: error(*e, fmt::format("internal: unexpected {} in an expression", kind_name(e->kind))); return "ag::Value()";
  }
}

}  // namespace agc::emit::cpp
