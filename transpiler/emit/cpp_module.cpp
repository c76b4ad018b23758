// The module as C++: its globals, one C++ function per converted def or
// method, run() holding the module-level statements, the header a C++ app
// includes, and main().
#include <fmt/format.h>

#include "transpiler/base/check.h"
#include "transpiler/emit/cpp_emitter.h"
#include "transpiler/emit/cpp_emitter_impl.h"
#include "transpiler/emit/cpp_text.h"

namespace agc::emit {

using namespace agc::ast;

namespace {

// Modules whose names the emitter resolves; any other import is a diagnostic.
bool known_module(const std::string& path) { return path == "tensorflow" || path == "numpy" || path == "sys"; }

std::string raw_string(std::string_view text) {
  std::string delim = "agc";
  while (text.find(")" + delim + "\"") != std::string_view::npos) delim += "_";
  return fmt::format("R\"{}({}){}\"", delim, text, delim);
}

std::string cpp_namespace(const std::string& stem) {
  std::string out;
  for (char c : stem) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "m_" + out;
  return cpp_ident(out);
}

/// A C++ default argument for a literal Python default, or "".
std::string literal_default(const Ref& d) {
  auto* c = d->dyn<Constant>();
  if (!c) return "";
  switch (c->value.kind) {
    case ConstantValue::Kind::None: return "ag::Value()";
    case ConstantValue::Kind::Bool: return c->value.boolean ? "ag::Value(true)" : "ag::Value(false)";
    case ConstantValue::Kind::Int: {
      std::string s = cpp_int(c->value.text);
      return s.empty() ? "" : "ag::Value(" + s + ")";
    }
    case ConstantValue::Kind::Float: return "ag::Value(" + cpp_double(c->value.number) + ")";
    case ConstantValue::Kind::Str: return "ag::Value(" + cpp_string(c->value.text) + ")";
    case ConstantValue::Kind::Complex:
    case ConstantValue::Kind::Bytes:
    case ConstantValue::Kind::Ellipsis: return "";
  }
  AGC_UNREACHABLE("constant kind");
}

struct ModuleEmitter {
  const passes::ConvertedModule& cm;
  const Module& m;
  std::string stem;
  std::string ns;
  DiagnosticSink& sink;
  cpp::Emitter em;
  std::set<std::string> value_globals;

  ModuleEmitter(const passes::ConvertedModule& c, const std::string& s, DiagnosticSink& sk)
      : cm(c), m(c.module), stem(s), ns(cpp_namespace(s)), sink(sk), em(*c.module.file, sk) {}

  static std::string method_cpp_name(const std::string& cls, const std::string& fn) {
    return "tf__" + cls + "_" + fn;
  }

  std::vector<std::string> params_of(const FunctionDef& f) { return cpp::param_names(f.args->as<Arguments>()); }

  /// `ag::Value tf__f(ag::Value a, ...) { ... }` for one converted def.
  std::string definition(const FunctionDef& original, const std::string& cpp_name, const std::string& cls) {
    const Ref& converted = cm.converted(&original);
    AGC_CHECK(converted) << "emit_cpp of a module with an unconverted function: " << original.name;
    const FunctionDef& conv = converted->as<FunctionDef>();
    em.set_root(converted);
    std::string sig = em.value_params(conv);
    em.pending_class_ = cls;
    std::string body = em.function_body(conv, cls.empty() ? original.name : cls + "." + original.name);
    em.pending_class_.clear();
    return fmt::format("// {}:{}: def {}\nag::Value {}({}) {{\n{}}}\n\n", m.file->path(),
                       m.file->line_col(original.span.begin).line, cls.empty() ? original.name : cls + "." + original.name,
                       cpp_name, sig, body);
  }

  /// The function value of a def: make_function over its C++ function, decorated.
  std::string function_value(const FunctionDef& f, const std::string& cpp_name) {
    std::vector<std::string> params = params_of(f);
    std::string args;
    for (size_t i = 0; i < params.size(); ++i) args += fmt::format("{}ag_args[{}]", i ? ", " : "", i);
    auto [open, close] = em.decorators(f.decorator_list);
    return fmt::format("{}ag::make_function({}, {}, []({}) -> ag::Value {{ return {}({}); }}){}", open,
                       cpp_string(f.name), em.params_list(f.args->as<Arguments>()), cpp::value_lambda_params(params.size()),
                       cpp_name, args, close);
  }

  void check_imports() {
    for (const Ref& s : m.body) {
      const Refs* names = nullptr;
      if (auto* i = s->dyn<Import>()) names = &i->names;
      if (auto* i = s->dyn<ImportFrom>()) {
        sink.error(s->span, fmt::format("'from {} import ...' is not supported; use '{}'", i->module,
                                        i->module == "numpy" ? "import numpy as np" : "import tensorflow as tf"));
        continue;
      }
      if (!names) continue;
      for (const Ref& a : *names) {
        const Alias& al = a->as<Alias>();
        if (!known_module(al.name)) {
          sink.error(a->span, fmt::format("module '{}' is not supported: agc compiles TensorFlow code and Python "
                                          "builtins, and '{}' has no C++ equivalent in agc",
                                          al.name, al.name));
        }
      }
    }
  }

  CppOutput run(bool library) {
    check_imports();
    if (cm.has_errors() || sink.has_errors()) return {};
    for (const std::string& n : *cm.names) {
      if (!cm.imports.count(n)) value_globals.insert(n);
    }
    em.set_module(value_globals, cm.imports);
    em.scopes.push_back(cpp::Scope{});  // the module's own code

    // Converted functions and methods.
    std::string functions;
    for (const Ref& s : m.body) {
      if (auto* f = s->dyn<FunctionDef>()) functions += definition(*f, "tf__" + f->name, "");
      if (auto* c = s->dyn<ClassDef>()) {
        for (const Ref& b : c->body) {
          if (auto* f = b->dyn<FunctionDef>()) functions += definition(*f, method_cpp_name(c->name, f->name), c->name);
        }
      }
    }

    // run(): the module-level statements.
    em.indent = 1;
    em.line("ag::Frame ag_frame(kFile, \"<module>\");");
    for (const Ref& s : m.body) {
      em.set_root(s);
      if (auto* f = s->dyn<FunctionDef>()) {
        em.at(*s);
        em.line(fmt::format("{} = {};", cpp_ident(f->name), function_value(*f, "tf__" + f->name)));
      } else if (auto* c = s->dyn<ClassDef>()) {
        em.at(*s);
        em.line(class_statement(*c));
      } else {
        em.stmt(s);
      }
    }
    std::string run_body = em.take_output();
    if (sink.has_errors()) return {};

    std::string path(m.file->path());
    CppOutput out;
    out.source = fmt::format("// Generated by agc from {}: do not edit.\n#include \"{}.h\"\n\nnamespace {}::py {{\n\n",
                             path, stem, ns);
    out.source += fmt::format("constexpr const char* kFile = {};\nconstexpr const char* kSource = {};\n\n",
                              cpp_string(path), raw_string(m.file->text()));
    out.source += "// The module's global names.\n";
    for (const std::string& g : value_globals) out.source += fmt::format("ag::Value {};\n", cpp_ident(g));
    out.source += "\n" + functions;
    out.source += fmt::format("// The module-level code of {}.\nvoid run() {{\n{}}}\n\n}}  // namespace {}::py\n\n",
                              path, run_body, ns);
    out.header = fmt::format(
        "// Generated by agc from {0}: do not edit.\n#pragma once\n\n#include <ag/ag.h>\n\nnamespace {1} {{\n\n"
        "/// Runs {0}'s module-level code, once; the functions below call it first.\nvoid init();\n",
        path, ns);
    out.source += fmt::format("namespace {} {{\n\nvoid init() {{\n  static const bool ag_done = (py::run(), true);\n"
                              "  (void)ag_done;\n}}\n",
                              ns);
    for (const Ref& s : m.body) {
      auto* f = s->dyn<FunctionDef>();
      if (!f) continue;
      header_function(*f, out);
    }
    out.header += fmt::format("\n}}  // namespace {}\n", ns);
    out.source += fmt::format("\n}}  // namespace {}\n", ns);
    if (!library) {
      std::string table;
      for (const std::string& g : value_globals) {
        table += fmt::format("       {{{}, &{}::py::{}}},\n", cpp_string(g), ns, cpp_ident(g));
      }
      out.source += fmt::format(
          "\nint main(int argc, char** argv) {{\n  return ag::program_main(argc, argv,\n"
          "      {{{}, {}::py::kFile, {}::py::kSource, {}::py::run, {{\n{}      }}}});\n}}\n",
          cpp_string(stem), ns, ns, ns, table);
    }
    return out;
  }

  std::string class_statement(const ClassDef& c) {
    std::vector<std::string> bases;
    for (const Ref& b : c.bases) bases.push_back(em.value(b));
    if (!c.keywords.empty()) sink.error(c.keywords[0]->span, "class keywords (metaclass=...) are not supported");
    if (!c.decorator_list.empty()) sink.error(c.decorator_list[0]->span, "class decorators are not supported yet");
    std::vector<std::string> attrs;
    for (const Ref& b : c.body) {
      if (auto* f = b->dyn<FunctionDef>()) {
        attrs.push_back(fmt::format("{{{}, {}}}", cpp_string(f->name), function_value(*f, method_cpp_name(c.name, f->name))));
      } else if (auto* a = b->dyn<Assign>(); a && a->targets.size() == 1 && a->targets[0]->is<Name>()) {
        attrs.push_back(fmt::format("{{{}, {}}}", cpp_string(a->targets[0]->as<Name>().id), em.value(a->value)));
      } else if (b->is<Pass>() || (b->is<Expr>() && b->as<Expr>().value->is<Constant>())) {
        continue;  // pass, docstring
      } else {
        sink.error(b->span, "a class body may only hold methods and simple attribute assignments");
      }
    }
    std::string base_list, attr_list;
    for (size_t i = 0; i < bases.size(); ++i) base_list += (i ? ", " : "") + bases[i];
    for (const std::string& a : attrs) attr_list += "\n    " + a + ",";
    return fmt::format("{} = ag::make_class({}, {{{}}}, {{{}\n}});", cpp_ident(c.name), cpp_string(c.name), base_list,
                       attr_list);
  }

  void header_function(const FunctionDef& f, CppOutput& out) {
    const Arguments& a = f.args->as<Arguments>();
    if (!a.posonlyargs.empty() || a.vararg || !a.kwonlyargs.empty() || a.kwarg) return;
    std::vector<std::string> params = params_of(f);
    // C++ defaults must be trailing: keep the literal defaults of a suffix.
    std::vector<std::string> defaults(params.size());
    size_t first_default = params.size() - a.defaults.size();
    for (size_t i = params.size(); i-- > first_default;) {
      std::string d = literal_default(a.defaults[i - first_default]);
      if (d.empty()) break;
      defaults[i] = d;
    }
    std::string decl, def, call;
    for (size_t i = 0; i < params.size(); ++i) {
      std::string p = "ag::Value " + cpp_ident(params[i]);
      decl += (i ? ", " : "") + p + (defaults[i].empty() ? "" : " = " + defaults[i]);
      def += (i ? ", " : "") + p;
      call += (i ? ", " : "") + fmt::format("std::move({})", cpp_ident(params[i]));
    }
    std::string name = cpp_ident(f.name);
    out.header += fmt::format("\n/// {}:{}: def {}(...)\nag::Value {}({});\n", m.file->path(),
                              m.file->line_col(f.span.begin).line, f.name, name, decl);
    out.source += fmt::format("\nag::Value {}({}) {{\n  init();\n  return py::{}({{{}}}, {{}});\n}}\n", name, def, name,
                              call);
  }
};

}  // namespace

CppOutput emit_cpp(const passes::ConvertedModule& cm, const std::string& stem, bool library, DiagnosticSink& sink) {
  ModuleEmitter me(cm, stem, sink);
  CppOutput out = me.run(library);
  if (sink.has_errors()) return {};
  return out;
}

}  // namespace agc::emit
