// Functions and their scopes as C++, following analysis::Closures. A def that
// stays a local function of its frame (AutoGraph's if_body, loop_body,
// get_state, ..., and user defs only called in it) is a C++ lambda capturing
// the frame by reference: it runs while the frame does, and costs nothing
// more. Every other def, and every Python lambda, is a closure value
// (ag::make_function) that may outlive its frame: it copies the ag::Cells of
// the variables it uses, and a local that such a closure uses is declared as
// a Cell (runtime/value/cell.h) and read as `*x`; other locals stay plain
// ag::Values. A comprehension is a C++ lambda called where it stands.
//
//   def make_adder(n):                 ag::Value tf__make_adder(ag::Cell n) {
//     return lambda x: x + n             ...ag::make_function("<lambda>", {{"x", {}}}, [n](...) -> ag::Value {
//                                          ag::Value x = ag_args[0]; return (ag::autograph::ld(x) + ag::autograph::ld(*n)); })
#include <algorithm>

#include <fmt/format.h>

#include "transpiler/analysis/ag_operators.h"
#include "transpiler/ast/visitor.h"
#include "transpiler/base/check.h"
#include "transpiler/emit/cpp_emitter_impl.h"
#include "transpiler/emit/cpp_text.h"
#include "transpiler/emit/tf_api_table.h"
#include "transpiler/passes/pass.h"

namespace agc::emit::cpp {

using namespace agc::ast;
using analysis::Closure;
using analysis::Closures;

namespace {

/// The SelfRef through which a recursive def named `name` reaches itself.
std::string self_ref(const std::string& name) { return "ag_self_" + cpp_ident(name); }

/// Whether the def's last statement (inside its FunctionScope, if converted) is a return.
bool ends_in_return(const FunctionDef& f, const std::string& fscope) {
  const Refs* body = fscope.empty() ? &f.body : &f.body.back()->as<With>().body;
  return !body->empty() && body->back()->is<Return>();
}

}  // namespace

std::string value_lambda_params(size_t num_params) {
  return num_params == 0 ? "const std::vector<ag::Value>&" : "const std::vector<ag::Value>& ag_args";
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

const Closure* Emitter::current() const { return scopes.empty() ? nullptr : scopes.back().closure; }

bool runs_as_written(const Closure& c) {
  if (c.kind != Closure::Kind::Function) return false;
  for (const Closure* s = &c; s; s = s->parent) {
    if (s->kind == Closure::Kind::Function && !passes::function_context_name(s->node->as<FunctionDef>()).empty()) {
      return false;
    }
  }
  return true;
}

const Closure& Emitter::closure_of(const Node& n) {
  const Closure* c = analyses_.get<Closures>(root_).scope(&n);
  AGC_CHECK(c) << "no closure for a " << kind_name(n.kind) << " of the current root";
  return *c;
}

const Closure* Emitter::owner(const std::string& name) const { return Closures::owner(current(), name); }

const FunctionDef* Emitter::local_function(const std::string& name) const {
  const Closure* o = owner(name);
  if (!o) return nullptr;
  auto it = o->local_functions.find(name);
  return it == o->local_functions.end() ? nullptr : it->second;
}

bool Emitter::in_cell(const std::string& name) const {
  const Closure* o = owner(name);
  return o && o->cells.count(name);
}

std::string Emitter::variable(const std::string& name) const {
  return in_cell(name) ? "*" + cpp_ident(name) : cpp_ident(name);
}

std::string Emitter::value_params(const FunctionDef& f) {
  // Every name the body mentions, nested defs and lambdas included (they
  // capture the parameter).
  struct Names : AstVisitor {
    std::set<std::string> ids;
    void visit_Name(const Ptr<Name>& n) override {
      ids.insert(n->id);
      visit_children(*n);
    }
  } names;
  names.visit_all(f.body);
  const Closure& c = closure_of(f);
  std::vector<std::string> out;
  for (const std::string& p : param_names(f.args->as<Arguments>())) {
    out.push_back(fmt::format("{}{} {}", names.ids.count(p) ? "" : "[[maybe_unused]] ",
                              c.cells.count(p) ? "ag::Cell" : "ag::Value", cpp_ident(p)));
  }
  return join(out);
}

void Emitter::declare_locals(const Closure& c, const std::vector<std::string>& params, const std::string& fscope) {
  for (const std::string& l : c.locals) {
    bool param = std::find(params.begin(), params.end(), l) != params.end();
    // The FunctionScope is a C++ object of its own; local functions are lambdas.
    if (param || l == fscope || c.local_functions.count(l)) continue;
    std::string init =
        l == c.self_name ? self_ref(l) + ".get()" : fmt::format("ag::autograph::Undefined({})", cpp_string(l));
    if (c.cells.count(l)) {
      line(fmt::format("ag::Cell {}({});", cpp_ident(l), init));
    } else {
      line(fmt::format("ag::Value {} = {};", cpp_ident(l), init));
    }
  }
}

std::string Emitter::captures(const Closure& c) const {
  std::vector<std::string> out;
  for (const std::string& n : c.free) {
    const Closure* o = Closures::owner(c.parent, n);
    AGC_CHECK(o && o->cells.count(n)) << "closure captures '" << n << "', which is no cell";
    out.push_back(cpp_ident(n));
  }
  if (!c.self_name.empty()) out.push_back(self_ref(c.self_name));
  return "[" + join(out) + "]";
}

std::vector<std::string> Emitter::unpack_args(const Closure& c, const std::vector<std::string>& params) const {
  std::vector<std::string> out;
  for (size_t i = 0; i < params.size(); ++i) {
    const char* type = c.cells.count(params[i]) ? "ag::Cell" : "ag::Value";
    out.push_back(fmt::format("{} {} = ag_args[{}];", type, cpp_ident(params[i]), i));
  }
  return out;
}

std::string Emitter::function_body(const FunctionDef& f, const std::string& python_name) {
  const Closure& c = closure_of(f);
  std::vector<std::string> params = param_names(f.args->as<Arguments>());
  Scope scope;
  scope.closure = &c;
  scope.fscope = passes::function_context_name(f);
  if (!current()) {
    // A method's class and self, for super().
    scope.class_name = pending_class_;
    scope.self_name = pending_class_.empty() || params.empty() ? "" : params[0];
  }
  // A generator's frame is its coroutine's parameter (see definition() in
  // cpp_module.cpp, and nested_def for one defined in a function).
  scope.generator = is_generator(f);
  bool own_frame = !python_name.empty() && !scope.generator;
  int saved_line = last_line_;
  std::string text = nested_text([&] {
    scopes.push_back(scope);
    if (own_frame) {
      line(fmt::format("ag::Frame ag_frame(kFile, {});", cpp_string(python_name)));
      last_line_ = -1;
    }
    declare_locals(c, params, scope.fscope);
    block(f.body);
    if (!ends_in_return(f, scope.fscope)) line(scope.generator ? "co_return ag::Value();" : "return ag::Value();");
    scopes.pop_back();
  });
  // The enclosing frame's line is where it was before the def's body.
  last_line_ = saved_line;
  return text;
}

void Emitter::nested_def(const FunctionDef& f) {
  const Closure& c = closure_of(f);
  // (A generator def always escapes: the generator may outlive the call.)
  if (!c.escapes) {
    // A def the user wrote (AutoGraph marks it) is a frame of its own in
    // tracebacks, as in Python; AutoGraph's if_body, loop_body, ... are not.
    bool user_def = !f.decorator_list.empty();
    std::string body = function_body(f, user_def ? f.name : "");
    line(fmt::format("auto {} = [&]({}) -> ag::Value {{", cpp_ident(f.name), value_params(f)));
    out_ += body;
    line("};");
    return;
  }
  // A closure value: stored, returned, passed on, decorated or recursive.
  std::vector<std::string> params = param_names(f.args->as<Arguments>());
  std::string plist = params_list(f.args->as<Arguments>());
  std::string body = function_body(f, f.name);
  std::string fn = fmt::format("ag::make_function({}, {}, {}({}) -> ag::Value {{", cpp_string(f.name), plist,
                               captures(c), value_lambda_params(params.size()));
  for (const std::string& u : unpack_args(c, params)) fn += "\n  " + u;
  if (is_generator(f)) {
    // Calling it makes a generator over a coroutine that takes the captured
    // cells and the arguments as parameters: its frame owns copies, so the
    // generator outlives the call and the closure object (generator.h).
    std::vector<std::string> coro_params{"ag::GeneratorFrame& ag_frame"};
    std::vector<std::string> coro_args;
    for (const std::string& n : c.free) {
      coro_params.push_back("[[maybe_unused]] ag::Cell " + cpp_ident(n));
      coro_args.push_back(cpp_ident(n));
    }
    if (!c.self_name.empty()) {
      coro_params.push_back("[[maybe_unused]] ag::HeldRef " + self_ref(c.self_name));
      coro_args.push_back("ag::HeldRef(" + self_ref(c.self_name) + ".get())");
    }
    std::string sig = value_params(f);
    if (!sig.empty()) coro_params.push_back(sig);
    for (const std::string& p : params) coro_args.push_back("std::move(" + cpp_ident(p) + ")");
    fn += fmt::format("\n  return ag::make_generator(kFile, {}, []({}) -> ag::Generator {{", cpp_string(f.name),
                      join(coro_params));
    body += fmt::format("}}{}{});\n", coro_args.empty() ? "" : ", ", join(coro_args));
  }
  auto [open, close] = decorators(f.decorator_list);
  if (!c.self_name.empty()) {
    line(fmt::format("ag::SelfRef {};", self_ref(f.name)));
    open = self_ref(f.name) + ".bind(" + open;
    close += ")";
  }
  line(fmt::format("{} = {}{}", variable(f.name), open, fn));
  out_ += body;
  line("})" + close + ";");
}

std::pair<std::string, std::string> Emitter::decorators(const Refs& decorator_list) {
  // @a @b def f: f = a(b(f)).
  std::string open, close;
  for (const Ref& d : decorator_list) {
    // AutoGraph marks the nested defs it converted; the mark changes nothing.
    if (analysis::ag_attribute(d) == "autograph_artifact") continue;
    std::string path;
    auto entry = tf_path(d, path) ? find_tf_api(path) : std::nullopt;
    if (entry && entry->kind == TfApiEntry::Kind::Function) {
      open += fmt::format("ag::tf::api::{}({{", entry->cpp_name);
    } else {
      open += operand(d) + "({";
    }
    close = "}, {})" + close;
  }
  return {open, close};
}

std::string Emitter::params_list(const Arguments& a) {
  // One ag::Param per parameter in param_names' order; defaults are
  // evaluated here, where the def or lambda runs (Python's rule).
  std::vector<std::string> out;
  auto add = [&](const Ref& arg, const Ref& default_value, const char* kind) {
    // The kind is written only when it is not the common positional-or-keyword.
    std::string k = std::string(kind) == "PositionalOrKeyword" ? "" : std::string(", ag::ParamKind::") + kind;
    out.push_back(fmt::format("{{{}, {}{}}}", cpp_string(arg->as<Arg>().arg),
                              default_value ? value(default_value) : std::string("{}"), k));
  };
  // `defaults` belong to the last positional parameters, posonly ones included.
  size_t positional = a.posonlyargs.size() + a.args.size();
  size_t first_default = positional - a.defaults.size();
  for (size_t i = 0; i < positional; ++i) {
    bool posonly = i < a.posonlyargs.size();
    const Ref& arg = posonly ? a.posonlyargs[i] : a.args[i - a.posonlyargs.size()];
    add(arg, i >= first_default ? a.defaults[i - first_default] : nullptr,
        posonly ? "PositionalOnly" : "PositionalOrKeyword");
  }
  if (a.vararg) add(a.vararg, nullptr, "VarPositional");
  for (size_t i = 0; i < a.kwonlyargs.size(); ++i) {
    add(a.kwonlyargs[i], i < a.kw_defaults.size() ? a.kw_defaults[i] : nullptr, "KeywordOnly");
  }
  if (a.kwarg) add(a.kwarg, nullptr, "VarKeyword");
  return "{" + join(out) + "}";
}

std::string Emitter::lambda(const Lambda& l) {
  const Closure& c = closure_of(l);
  const Arguments& a = l.args->as<Arguments>();
  std::vector<std::string> params = param_names(a);
  std::string plist = params_list(a);
  scopes.push_back(Scope{&c, "", "", ""});
  // Its body runs in a frame of its own, `<lambda>` in a traceback as in Python's.
  std::string body = operands_of(nullptr, [&] { return value(l.body); });
  scopes.pop_back();
  std::string unpack;
  for (const std::string& u : unpack_args(c, params)) unpack += u + " ";
  return fmt::format("ag::make_function(\"<lambda>\", {}, {}({}) -> ag::Value {{ {}ag::Frame ag_frame(kFile, "
                     "\"<lambda>\"); ag_frame.at({}); return {}; }})",
                     plist, captures(c), value_lambda_params(params.size()), unpack,
                     file_.line_col(l.body->span.begin).line, body);
}

std::string Emitter::thunk(const Lambda& l) {
  scopes.push_back(Scope{&closure_of(l), "", "", ""});
  std::string body = expr(l.body);
  scopes.pop_back();
  return fmt::format("[&]() -> ag::Value {{ return {}; }}", body);
}

std::string Emitter::comprehension_body(const Closure& c, const Refs& generators, const std::string& first_iter,
                                        const std::function<std::string(const std::string& pad)>& innermost) {
  std::string out;
  for (const std::string& l : c.locals) {
    out += fmt::format("  {} {};\n", c.cells.count(l) ? "ag::Cell" : "ag::Value", cpp_ident(l));
  }
  // One item at a time, as Python's comprehension runs: a generator's items
  // interleave with the comprehension's own work.
  std::string close;
  std::string pad = "  ";
  for (size_t i = 0; i < generators.size(); ++i) {
    const Comprehension& g = generators[i]->as<Comprehension>();
    std::string item = fresh("item");
    std::string iter = i == 0 ? first_iter : value(g.iter);
    out += fmt::format("{}for (const ag::Value& {} : ag::iteration({})) {{\n", pad, item, iter);
    pad += "  ";
    out += pad + assign_code(g.target, item) + "\n";
    for (const Ref& cond : g.ifs) out += fmt::format("{}if (!{}) continue;\n", pad, truthy(cond));
    close = pad.substr(2) + "}\n" + close;
  }
  return out + innermost(pad) + close;
}

std::string Emitter::generator_expression(const GeneratorExp& g) {
  const Closure& c = closure_of(g);
  // The first iterable is evaluated where the expression is (Python's rule).
  std::string first_iter = value(g.generators[0]->as<Comprehension>().iter);
  std::vector<std::string> coro_params{"[[maybe_unused]] ag::GeneratorFrame& ag_frame"};
  std::vector<std::string> coro_args;
  for (const std::string& n : c.free) {
    coro_params.push_back("[[maybe_unused]] ag::Cell " + cpp_ident(n));
    coro_args.push_back(cpp_ident(n));
  }
  coro_params.push_back("ag::Value ag_iter");
  coro_args.push_back(first_iter);
  Scope scope;
  scope.closure = &c;
  scope.generator = true;
  scopes.push_back(scope);
  std::string body = comprehension_body(c, g.generators, "ag_iter", [&](const std::string& pad) {
    // The value is computed before the co_yield: GCC 12 cannot keep the
    // temporaries of an argument list ({a, b}'s array) across a suspension.
    return fmt::format("{}ag_frame.at({});\n{}ag::Value ag_next = {};\n{}co_yield std::move(ag_next);\n", pad,
                       file_.line_col(g.elt->span.begin).line, pad, value(g.elt), pad);
  });
  scopes.pop_back();
  return fmt::format("ag::make_generator(kFile, \"<genexpr>\", []({}) -> ag::Generator {{\n{}  co_return "
                     "ag::Value();\n}}, {})",
                     join(coro_params), body, join(coro_args));
}

std::string Emitter::comprehension(const Node& n, const Ref& elt, const Ref& key, const Refs& generators,
                                   const char* kind) {
  // An immediately invoked lambda holding the comprehension's own scope.
  const Closure& c = closure_of(n);
  const std::string k = kind;
  std::string result = k == "dict" ? "ag::Value::dict()" : k == "set" ? "ag::set_value::make({})" : "ag::Value::list()";
  // The first iterable is evaluated in the enclosing scope (Python's rule).
  std::string first_iter = value(generators[0]->as<Comprehension>().iter);
  scopes.push_back(Scope{&c, "", "", ""});
  std::string body = comprehension_body(c, generators, first_iter, [&](const std::string& pad) {
    if (key) return fmt::format("{}ag::setitem(ag_result, {}, {});\n", pad, value(key), value(elt));
    if (k == "set") return fmt::format("{}ag_result.as_set().add({});\n", pad, value(elt));
    return fmt::format("{}ag_result.items().push_back({});\n", pad, value(elt));
  });
  scopes.pop_back();
  return fmt::format("[&] {{\n  ag::Value ag_result = {};\n{}  return ag_result;\n}}()", result, body);
}

}  // namespace agc::emit::cpp
