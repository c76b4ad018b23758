// Expressions as C++: every Python expression becomes a C++ expression of type
// ag::Value (bare literals where C++ converts them implicitly). Calls resolve
// at transpile time: tf.* and builtins to ag::tf::api / ag::py functions,
// ag__.* operators to ag::autograph, nested defs emitted as C++ lambdas to
// direct calls, anything else to Value::operator().
#include <fmt/format.h>

#include "transpiler/analysis/ag_operators.h"
#include "transpiler/analysis/module_scope.h"
#include "transpiler/base/check.h"
#include "transpiler/emit/cpp_emitter_impl.h"
#include "transpiler/emit/cpp_text.h"
#include "transpiler/emit/tf_api_table.h"

namespace agc::emit::cpp {

using namespace agc::ast;
using analysis::ag_operator;
using analysis::unwrap_ld;

namespace {

bool is_literal(const Ref& e) {
  return e->is<Constant>() || (e->is<UnaryOp>() && e->as<UnaryOp>().operand->is<Constant>());
}

/// `l op r` for a comparison.
std::string compare_code(const std::string& l, CmpOpKind op, const std::string& r) {
  auto infix = [&](const char* text) { return fmt::format("({} {} {})", l, text, r); };
  switch (op) {
    case CmpOpKind::Eq: return infix("==");
    case CmpOpKind::NotEq: return infix("!=");
    case CmpOpKind::Lt: return infix("<");
    case CmpOpKind::LtE: return infix("<=");
    case CmpOpKind::Gt: return infix(">");
    case CmpOpKind::GtE: return infix(">=");
    case CmpOpKind::Is: return fmt::format("ag::Value(ag::Value({}).is({}))", l, r);
    case CmpOpKind::IsNot: return fmt::format("ag::Value(!ag::Value({}).is({}))", l, r);
    case CmpOpKind::In: return fmt::format("ag::Value(ag::contains({}, {}))", r, l);
    case CmpOpKind::NotIn: return fmt::format("ag::Value(!ag::contains({}, {}))", r, l);
  }
  AGC_UNREACHABLE("comparison operator");
}

}  // namespace

std::string binop_code(BinOpKind op, const std::string& l, const std::string& r) {
  auto infix = [&](const char* text) { return fmt::format("({} {} {})", l, text, r); };
  switch (op) {
    case BinOpKind::Add: return infix("+");
    case BinOpKind::Sub: return infix("-");
    case BinOpKind::Mult: return infix("*");
    case BinOpKind::Div: return infix("/");
    case BinOpKind::Mod: return infix("%");
    case BinOpKind::LShift: return infix("<<");
    case BinOpKind::RShift: return infix(">>");
    case BinOpKind::BitOr: return infix("|");
    case BinOpKind::BitXor: return infix("^");
    case BinOpKind::BitAnd: return infix("&");
    case BinOpKind::FloorDiv: return fmt::format("ag::floordiv({}, {})", l, r);
    case BinOpKind::Pow: return fmt::format("ag::pow({}, {})", l, r);
    case BinOpKind::MatMult: return fmt::format("ag::matmul_operator({}, {})", l, r);
  }
  AGC_UNREACHABLE("binary operator");
}

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

/// `super()` or `super(Cls, obj)`, or their converted form
/// `ag__.converted_call(ag__.ld(super), (...), None, fscope)`: its explicit
/// arguments (none or two) in `args`.
bool is_super_call(const Ref& e, Refs* args) {
  const Call* c = e->dyn<Call>();
  if (!c) return false;
  const Refs* given = nullptr;
  if (ag_operator(e) == "converted_call") {
    if (c->args.size() < 2) return false;
    const Ref& f = unwrap_ld(c->args[0]);
    if (!f->is<Name>() || f->as<Name>().id != "super" || !c->args[1]->is<Tuple>()) return false;
    given = &c->args[1]->as<Tuple>().elts;
  } else {
    if (!c->func->is<Name>() || c->func->as<Name>().id != "super" || !c->keywords.empty()) return false;
    given = &c->args;
  }
  if (given->size() != 0 && given->size() != 2) return false;
  if (args) *args = *given;
  return true;
}


bool Emitter::module_path(const Ref& e, std::string_view module, std::string& path, std::string* alias) const {
  std::vector<std::string> parts;
  const Ref* cur = &e;
  while (auto* a = (*cur)->dyn<Attribute>()) {
    parts.push_back(a->attr);
    cur = &a->value;
  }
  const Ref& root = unwrap_ld(*cur);
  auto* n = root->dyn<Name>();
  if (!n || owner(n->id)) return false;
  auto it = imports_.find(n->id);
  if (it == imports_.end()) return false;
  // The root is the module (`import numpy as np`: np.zeros) or a name
  // imported from inside it (`from tensorflow import keras`: keras.layers.Dense
  // is tf's "keras.layers.Dense"; `from numpy import zeros`: zeros).
  const std::string& imported = it->second;
  path.clear();
  if (imported != module) {
    if (imported.size() <= module.size() || imported.compare(0, module.size(), module) != 0 ||
        imported[module.size()] != '.') {
      return false;
    }
    path = imported.substr(module.size() + 1);
  } else if (parts.empty()) {
    return false;  // the module itself as a value
  }
  for (auto p = parts.rbegin(); p != parts.rend(); ++p) {
    if (!path.empty()) path += '.';
    path += *p;
  }
  if (alias) *alias = imported == module ? n->id : std::string(module);
  return true;
}

bool Emitter::tf_path(const Ref& e, std::string& path) const {
  if (!module_path(e, "tensorflow", path, nullptr)) return false;
  // tf.compat.v1.X is X where TF 1 and 2 share X (most of the API); the
  // table lists the TF1-only names (placeholder, Session) under compat.v1.
  std::string_view bare = analysis::without_tf_compat(path);
  if (bare.size() != path.size() && !find_tf_api(path) && (find_tf_api(bare) || find_exception_type(bare, true))) {
    path = std::string(bare);
  }
  return true;
}

bool Emitter::np_path(const Ref& e, std::string& path, std::string& alias) const {
  return module_path(e, "numpy", path, &alias);
}

bool Emitter::py_value_member(const Ref& e) const {
  const Attribute* attr = e->dyn<Attribute>();
  std::string base, alias;
  if (!attr || !py_module_path(attr->value, base, alias)) return false;
  auto entry = find_py_api(base);
  return entry && entry->kind == TfApiEntry::Kind::Value;
}

bool Emitter::py_module_path(const Ref& e, std::string& path, std::string& alias) const {
  const Ref* cur = &e;
  while (auto* a = (*cur)->dyn<Attribute>()) cur = &a->value;
  auto* n = unwrap_ld(*cur)->dyn<Name>();
  if (!n) return false;
  auto it = imports_.find(n->id);
  if (it == imports_.end()) return false;
  const std::string module = it->second.substr(0, it->second.find('.'));
  if (!is_py_module(module) || !module_path(e, module, path, &alias)) return false;
  path = module + "." + path;
  return true;
}

/// An attribute, or a name imported from a module: a tf.*, np.* or standard
/// module member resolved through the runtime's tables, else a run-time
/// attribute read.
std::string Emitter::module_member(const Ref& e) {
  const Attribute* attr = e->dyn<Attribute>();
  // A name an unsupported import binds: the import is the file's error,
  // and each use would only repeat it.
  const Ref* root = &e;
  while (auto* a = (*root)->dyn<Attribute>()) root = &a->value;
  if (auto* n = unwrap_ld(*root)->dyn<Name>(); n && !owner(n->id) && unsupported_import(n->id)) return "ag::Value()";
  std::string path;
  if (tf_path(e, path)) {
    if (auto entry = find_tf_api(path)) {
      if (entry->kind == TfApiEntry::Kind::Value) return fmt::format("ag::tf::api::{}()", entry->cpp_name);
      return fmt::format("ag::builtin_value(\"tf.{}\", ag::tf::api::{})", path, entry->cpp_name);
    }
    // tf.errors' classes are values like Python's exception classes.
    if (find_exception_type(path, true)) {
      return fmt::format("ag::exception_class({})", cpp_string(path.substr(path.find('.') + 1)));
    }
    // A member of a tf.* value or class (tf.UnconnectedGradients.ZERO,
    // tf.errors.NotFoundError.__name__) is read at run time.
    std::string base;
    if (attr && tf_path(attr->value, base)) {
      auto entry = find_tf_api(base);
      if ((entry && entry->kind == TfApiEntry::Kind::Value) || find_exception_type(base, true)) {
        return fmt::format("{}.getattr({})", operand(attr->value), cpp_string(attr->attr));
      }
    }
    return unknown_member(*e, "tensorflow", "tf", path, false);
  }
  std::string alias;
  if (np_path(e, path, alias)) {
    if (auto entry = find_np_api(path)) {
      if (entry->kind == TfApiEntry::Kind::Value) return fmt::format("ag::np::api::{}()", entry->cpp_name);
      return fmt::format("ag::builtin_value(\"numpy.{}\", ag::np::api::{})", path, entry->cpp_name);
    }
    return unknown_member(*e, "numpy", alias, path, false);
  }
  if (py_module_path(e, path, alias)) {
    if (auto entry = find_py_api(path)) {
      if (entry->kind == TfApiEntry::Kind::Value) return fmt::format("ag::pymod::api::{}()", entry->cpp_name);
      return fmt::format("ag::builtin_value(\"{}\", ag::pymod::api::{})", path, entry->cpp_name);
    }
    // A member of a module's value (os.environ.get, datetime.date.today's
    // siblings) is read at run time.
    if (py_value_member(e)) return fmt::format("{}.getattr({})", operand(attr->value), cpp_string(attr->attr));
    return py_unknown(*e, alias, path, false);
  }
  if (!attr) return name_load(e->as<Name>());
  const Attribute& a = *attr;
  if (Refs super_args; is_super_call(a.value, &super_args)) return super_attr(*e, super_args, a.attr);
  return marked(*e, [&] { return fmt::format("{}.getattr({})", operand(a.value), attribute_name(a.attr)); });
}

std::string Emitter::name_load(const Name& n) {
  if (class_scope.count(n.id)) return class_local(n.id);
  if (const analysis::Closure* o = owner(n.id)) {
    // A local function is only ever called (analysis::Closures decides so).
    AGC_CHECK(!local_function(n.id)) << "local function '" << n.id << "' used as a value";
    // Python checks that a local read in its own def was assigned (converted
    // code checks through ag__.ld).
    if (o == current() && runs_as_written(*o)) {
      const auto& params = param_names(o->node->as<FunctionDef>().args->as<Arguments>());
      if (std::find(params.begin(), params.end(), n.id) == params.end()) {
        return "ag::autograph::read_local(" + variable(n.id) + ")";
      }
    }
    return variable(n.id);
  }
  if (module_globals_.count(n.id) && !imports_.count(n.id)) return cpp_ident(n.id);
  if (imports_.count(n.id)) {
    error(n, fmt::format("module '{}' cannot be used as a value; use its functions, e.g. {}.constant(...)", n.id, n.id));
    return "ag::Value()";
  }
  // The module's name (kName, cpp_module.cpp), unless the module binds it.
  if (n.id == "__name__") return "ag::Value(kName)";
  if (const char* b = find_builtin(n.id)) return fmt::format("ag::builtin_value(\"{}\", ag::py::{})", n.id, b);
  if (find_exception_type(n.id, false)) return fmt::format("ag::exception_class({})", cpp_string(n.id));
  error(n, fmt::format("name '{}' is not defined", n.id), "NameError");
  return "ag::Value()";
}

std::string Emitter::attribute_name(const std::string& attr) const {
  // Python mangles `obj.__x` written in a class to `obj._Class__x` (the class
  // name without its leading underscores); AutoGraph does not convert such a
  // function, which then runs as written.
  bool mangled = attr.size() > 2 && attr.compare(0, 2, "__") == 0 && attr.compare(attr.size() - 2, 2, "__") != 0;
  for (auto it = scopes.rbegin(); mangled && it != scopes.rend(); ++it) {
    if (it->class_name.empty()) continue;
    size_t first = it->class_name.find_first_not_of('_');
    if (first == std::string::npos) break;
    return cpp_string("_" + it->class_name.substr(first) + attr);
  }
  return cpp_string(attr);
}

std::string Emitter::value(const Ref& e) {
  std::string s = expr(e);
  return is_literal(e) ? "ag::Value(" + s + ")" : s;
}

std::string Emitter::operand(const Ref& e) {
  std::string s = value(e);
  return s[0] == '*' ? "(" + s + ")" : s;  // only a cell's read starts with `*`
}

std::string Emitter::truthy(const Ref& e) {
  if (auto* c = e->dyn<Constant>(); c && c->value.kind == ConstantValue::Kind::Bool) return c->value.boolean ? "true" : "false";
  return "ag::truthy(" + expr(e) + ")";
}

namespace {
bool any_starred(const Refs& elts) {
  for (const Ref& a : elts) {
    if (a->is<Starred>()) return true;
  }
  return false;
}
bool any_double_starred(const Refs& keywords) {
  for (const Ref& k : keywords) {
    if (k->as<Keyword>().arg.empty()) return true;
  }
  return false;
}
}  // namespace

std::string Emitter::arg_parts(const Refs& args) {
  std::vector<std::string> parts;
  for (const Ref& a : args) {
    if (auto* s = a->dyn<Starred>()) {
      parts.push_back(fmt::format("ag::ArgPart{{{}, true}}", value(s->value)));
    } else {
      parts.push_back(fmt::format("ag::ArgPart{{{}}}", value(a)));
    }
  }
  return "{" + join(parts) + "}";
}

std::string Emitter::kwarg_parts(const Refs& keywords) {
  std::vector<std::string> parts;
  for (const Ref& k : keywords) {
    const Keyword& kw = k->as<Keyword>();
    parts.push_back(fmt::format("ag::KwargPart{{{}, {}}}", cpp_string(kw.arg), value(kw.value)));
  }
  return "{" + join(parts) + "}";
}

std::string Emitter::arg_list(const Refs& args, const std::string& callee) {
  if (any_starred(args)) return fmt::format("ag::unpack_args({}, {})", cpp_string(callee), arg_parts(args));
  std::vector<std::string> parts;
  for (const Ref& a : args) parts.push_back(expr(a));
  return "{" + join(parts) + "}";
}

std::string Emitter::kwarg_list(const Refs& keywords, const std::string& callee) {
  if (any_double_starred(keywords)) {
    return fmt::format("ag::unpack_kwargs({}, {})", cpp_string(callee), kwarg_parts(keywords));
  }
  std::vector<std::string> parts;
  for (const Ref& k : keywords) {
    const Keyword& kw = k->as<Keyword>();
    parts.push_back(fmt::format("{{{}, {}}}", cpp_string(kw.arg), expr(kw.value)));
  }
  return "{" + join(parts) + "}";
}

std::string Emitter::index_parts(const Ref& slice) {
  auto slice_spec = [&](const Slice& sl) {
    auto part = [&](const Ref& p) { return p ? value(p) : std::string("ag::Value()"); };
    return fmt::format("ag::SliceSpec{{{}, {}, {}}}", part(sl.lower), part(sl.upper), part(sl.step));
  };
  if (auto* sl = slice->dyn<Slice>()) return fmt::format("std::vector<ag::IndexPart>{{{}}}", slice_spec(*sl));
  if (auto* t = slice->dyn<Tuple>()) {
    bool parts_needed = false;
    for (const Ref& e : t->elts) parts_needed = parts_needed || e->is<Slice>();
    if (parts_needed) {
      std::vector<std::string> parts;
      for (const Ref& e : t->elts) {
        parts.push_back(e->is<Slice>() ? slice_spec(e->as<Slice>()) : fmt::format("ag::IndexPart({})", value(e)));
      }
      return fmt::format("std::vector<ag::IndexPart>{{{}}}", join(parts));
    }
  }
  return "";
}

std::string Emitter::subscript(const Subscript& s) {
  std::string v = value(s.value);
  if (auto* sl = s.slice->dyn<Slice>()) {
    auto part = [&](const Ref& p) { return p ? value(p) : std::string("ag::Value()"); };
    return fmt::format("ag::getslice({}, ag::SliceSpec{{{}, {}, {}}})", v, part(sl->lower), part(sl->upper),
                       part(sl->step));
  }
  std::string parts = index_parts(s.slice);
  if (!parts.empty()) return fmt::format("ag::getitem({}, {})", v, parts);
  return fmt::format("ag::getitem({}, {})", v, value(s.slice));
}

std::string Emitter::compare(const Compare& c) {
  auto one = compare_code;
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
        case ConstantValue::Kind::Ellipsis: return "ag::Value::ellipsis()";
        case ConstantValue::Kind::Bytes:
          return fmt::format("ag::bytes_value::make(std::string({}, {}))", cpp_string(v.text, true), v.text.size());
        case ConstantValue::Kind::Complex: error(*e, "complex literals are not supported"); return "ag::Value()";
      }
      AGC_UNREACHABLE("constant kind");
    }
    case NodeKind::Name:
      // A name imported from a module (`from tensorflow.keras import layers`)
      // resolves as the module's path does.
      if (!owner(e->as<Name>().id) && imports_.count(e->as<Name>().id)) return module_member(e);
      return name_load(e->as<Name>());
    case NodeKind::Attribute: return module_member(e);
    case NodeKind::BinOp:
      return marked(*e, [&] {
        const BinOp& b = e->as<BinOp>();
        // ag::floordiv / ag::pow take Values; an infix operator needs one
        // Value operand (two literals would be C++ arithmetic).
        if (b.op == BinOpKind::FloorDiv || b.op == BinOpKind::Pow) {
          return binop_code(b.op, value(b.left), value(b.right));
        }
        bool literals = b.op != BinOpKind::MatMult && is_literal(b.left) && is_literal(b.right);
        return binop_code(b.op, literals ? value(b.left) : expr(b.left), expr(b.right));
      });
    case NodeKind::UnaryOp: {
      const UnaryOp& u = e->as<UnaryOp>();
      if (u.op == UnaryOpKind::USub && u.operand->is<Constant>()) {
        std::string s = expr(u.operand);
        return s.empty() || s[0] == '-' ? s : "-" + s;
      }
      return marked(*e, [&] {
        switch (u.op) {
          case UnaryOpKind::USub: return fmt::format("(-{})", value(u.operand));
          case UnaryOpKind::UAdd: return fmt::format("(+{})", value(u.operand));
          case UnaryOpKind::Invert: return fmt::format("(~{})", value(u.operand));
          case UnaryOpKind::Not: return fmt::format("ag::not_({})", value(u.operand));
        }
        AGC_UNREACHABLE("unary operator");
      });
    }
    case NodeKind::BoolOp: {
      const BoolOp& b = e->as<BoolOp>();
      const char* op = b.op == BoolOpKind::And ? "and_" : "or_";
      // a and b and c nests to the right: and_(A, [&] { return and_(B, C); }).
      // Written front to back once: wrapping each operand's text around the
      // rest copied an n-operand chain n times. Operands are emitted last
      // first, as the nesting did (fresh names count).
      std::vector<std::string> values(b.values.size());
      for (size_t i = b.values.size(); i-- > 0;) values[i] = value(b.values[i]);
      std::string out;
      for (size_t i = 0; i + 1 < values.size(); ++i) {
        out += fmt::format("ag::autograph::{}([&]() -> ag::Value {{ return ", op);
        out += values[i];
        out += "; }, [&]() -> ag::Value { return ";
      }
      out += values.back();
      for (size_t i = 0; i + 1 < values.size(); ++i) out += "; })";
      return out;
    }
    case NodeKind::Compare: return marked(*e, [&] { return compare(e->as<Compare>()); });
    case NodeKind::Call: {
      const Call& c = e->as<Call>();
      std::string_view op = ag_operator(e);
      if (!op.empty()) {
        // AutoGraph's reads of variables (Python's own loads) are no operations.
        if (op == "ld" || op == "ldu" || op == "Undefined" || op == "UndefinedReturnValue" || op == "autograph_artifact") {
          return ag_call(c, op);
        }
        return marked(*e, [&] { return ag_call(c, op); });
      }
      if (auto* a = c.func->dyn<Attribute>(); a && a->attr == "ret" && c.args.size() == 2) {
        // fscope.ret(retval_, do_return): the converted function's FunctionScope.
        auto* n = a->value->dyn<Name>();
        for (const Scope& s : scopes) {
          if (n && n->id == s.fscope) {
            return fmt::format("{}.ret({}, {})", cpp_ident(n->id), expr(c.args[0]), expr(c.args[1]));
          }
        }
      }
      return marked(*e, [&] { return call(c, c.func, c.args, c.keywords); });
    }
    case NodeKind::Subscript: return marked(*e, [&] { return subscript(e->as<Subscript>()); });
    case NodeKind::List: {
      const Refs& elts = e->as<List>().elts;
      if (any_starred(elts)) return "ag::Value::list(ag::display_items(" + arg_parts(elts) + "))";
      std::vector<std::string> items;
      for (const Ref& x : elts) items.push_back(expr(x));
      return "ag::Value::list({" + join(items) + "})";
    }
    case NodeKind::Tuple: {
      const Refs& elts = e->as<Tuple>().elts;
      if (any_starred(elts)) return "ag::Value::tuple(ag::display_items(" + arg_parts(elts) + "))";
      std::vector<std::string> items;
      for (const Ref& x : elts) items.push_back(expr(x));
      return "ag::Value::tuple({" + join(items) + "})";
    }
    case NodeKind::Dict: {
      const Dict& d = e->as<Dict>();
      std::vector<std::string> items;
      bool unpacks = false;
      for (size_t i = 0; i < d.keys.size(); ++i) {
        // `**m` (no key) merges a mapping's entries where it stands.
        unpacks = unpacks || !d.keys[i];
        items.push_back(d.keys[i] ? fmt::format("{{{}, {}}}", value(d.keys[i]), value(d.values[i]))
                                  : fmt::format("{{ag::Value(), {}, true}}", value(d.values[i])));
      }
      if (unpacks) return "ag::dict_display({" + join(items) + "})";
      return "ag::Value::dict({" + join(items) + "})";
    }
    case NodeKind::IfExp: {
      const IfExp& i = e->as<IfExp>();
      return fmt::format("({} ? {} : {})", truthy(i.test), value(i.body), value(i.orelse));
    }
    case NodeKind::Lambda: return lambda(e->as<Lambda>());
    case NodeKind::ListComp: {
      const ListComp& l = e->as<ListComp>();
      return comprehension(l, l.elt, nullptr, l.generators, "list");
    }
    case NodeKind::Yield: {
      if (!yield_allowed(*e)) return "ag::Value()";
      const Ref& v = e->as<Yield>().value;
      return fmt::format("(co_yield {})", v ? value(v) : "ag::Value()");
    }
    case NodeKind::YieldFrom:
      if (yield_allowed(*e)) error(*e, "'yield from' is only supported as a statement of its own");
      return "ag::Value()";
    case NodeKind::GeneratorExp: return generator_expression(e->as<GeneratorExp>());
    case NodeKind::DictComp: {
      const DictComp& d = e->as<DictComp>();
      return comprehension(d, d.value, d.key, d.generators, "dict");
    }
    case NodeKind::JoinedStr: return fstring(e->as<JoinedStr>());
    case NodeKind::Set: {
      const Refs& elts = e->as<Set>().elts;
      if (any_starred(elts)) return "ag::set_value::make(ag::display_items(" + arg_parts(elts) + "))";
      std::vector<std::string> items;
      for (const Ref& x : elts) items.push_back(value(x));
      return "ag::set_value::make({" + join(items) + "})";
    }
    case NodeKind::SetComp: {
      const SetComp& s = e->as<SetComp>();
      return comprehension(s, s.elt, nullptr, s.generators, "set");
    }
    case NodeKind::Starred: error(*e, "starred expressions are not supported here"); return "ag::Value()";
    case NodeKind::FormattedValue: AGC_UNREACHABLE("a FormattedValue outside its f-string");
    case NodeKind::Slice: AGC_UNREACHABLE("a Slice outside a subscript");
#define AGC_STMT(Name, Fields) case NodeKind::Name:
#define AGC_EXPR(Name, Fields)
#define AGC_AUX(Name, Fields) case NodeKind::Name:
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
      AGC_UNREACHABLE("an expression holds only expressions");
  }
  AGC_UNREACHABLE("node kind");
}

bool Emitter::yield_allowed(const Node& e) {
  // A coroutine can suspend in its own statements only: not in the C++
  // lambdas the emitter makes of finally clauses and of subexpressions, and
  // not in a catch handler (C++ forbids co_yield there).
  const char* problem = nullptr;
  if (scopes.empty() || !scopes.back().generator) {
    problem = "a yield is only supported in a generator defined at module level or in a class";
  } else if (in_finally_ > 0) {
    problem = "a yield in a finally clause is not supported; yield after the try statement";
  } else if (!handler_tracebacks_.empty()) {
    problem = "a yield in an except clause is not supported; set a flag there and yield after the try statement";
  } else if (yield_position_ != &e) {
    problem = "a yield inside an expression is not supported; yield on a line of its own, or assign its value "
              "(x = yield v)";
  }
  if (problem) error(e, problem);
  return problem == nullptr;
}

}  // namespace agc::emit::cpp
