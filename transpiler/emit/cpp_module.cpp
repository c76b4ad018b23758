// The module as C++: its globals, two C++ functions per module-level def or
// method (as written, and converted), run() holding the module-level
// statements, the header a C++ app includes, and main().
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "transpiler/ast/python_printer.h"
#include "transpiler/ast/visitor.h"
#include "transpiler/base/check.h"
#include "transpiler/emit/cpp_emitter.h"
#include "transpiler/emit/cpp_emitter_impl.h"
#include "transpiler/emit/cpp_library.h"
#include "transpiler/emit/cpp_text.h"
#include "transpiler/emit/tf_api_table.h"
#include "transpiler/passes/pass.h"
#include "transpiler/passes/unsupported_features.h"

namespace agc::emit {

using namespace agc::ast;

namespace {

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

struct ModuleEmitter {
  const passes::ConvertedModule& cm;
  const Module& m;
  std::string stem;
  std::string ns;
  DiagnosticSink& sink;
  cpp::Emitter em;
  std::set<std::string> value_globals;

  /// The program may call tf.autograph.to_code: it carries its functions'
  /// converted text (as `agc to-code` prints it), which only that reads.
  bool carries_converted_code = false;

  ModuleEmitter(const passes::ConvertedModule& c, const std::string& s, DiagnosticSink& sk)
      : cm(c), m(c.module), stem(s), ns(cpp_namespace(s)), sink(sk), em(*c.module.file, sk) {
    struct ToCode : AstVisitor {
      bool found = false;
      void visit_Attribute(const Ptr<Attribute>& n) override {
        found = found || n->attr == "to_code";
        visit_children(*n);
      }
    } to_code;
    to_code.visit_all(m.body);
    carries_converted_code = to_code.found;
  }

  /// The C++ functions of a module-level def or method are named from one
  /// base, f or Class_f: plain__f (the def as written) and tf__f (its
  /// conversion). Python rebinds a name defined twice (notebooks do it
  /// constantly) and a method's name may spell another def's (A.b_c and
  /// A_b.c), so each def gets its own base, the later ones numbered (f_2),
  /// in source order.
  const std::string& cpp_base(const FunctionDef& f, const std::string& cls) {
    auto it = cpp_bases_.find(&f);
    if (it != cpp_bases_.end()) return it->second;
    std::string base = cls.empty() ? f.name : cls + "_" + f.name;
    std::string name = base;
    for (int n = 2; !used_cpp_bases_.insert(name).second; ++n) name = base + "_" + std::to_string(n);
    return cpp_bases_.emplace(&f, name).first->second;
  }
  std::map<const FunctionDef*, std::string> cpp_bases_;
  std::set<std::string> used_cpp_bases_;

  std::vector<std::string> params_of(const FunctionDef& f) { return cpp::param_names(f.args->as<Arguments>()); }

  /// `f`, or `Class.f` for a method: how diagnostics and a generator's repr
  /// name it (a traceback names a frame `f`, CPython 3.11's co_name).
  static std::string python_name(const FunctionDef& f, const std::string& cls) {
    return cls.empty() ? f.name : cls + "." + f.name;
  }

  /// Problems in the module's own code, which run() compiles: they fail the file.
  void fail_file(const std::vector<Diagnostic>& problems) {
    for (Diagnostic d : problems) {
      d.raises.clear();
      sink.report(std::move(d));
    }
  }

  /// `ag::Value NAME(ag::Value a, ...) { ... }` for `fn`, a form of
  /// `original`; `declaration` gets `ag::Value NAME(ag::Value a, ...);`.
  std::string definition(const FunctionDef& original, const Ref& fn, const std::string& cpp_name,
                         const std::string& cls, std::string& declaration) {
    const FunctionDef& f = fn->as<FunctionDef>();
    em.set_root(fn);
    std::string sig = em.value_params(f);
    declaration = fmt::format("ag::Value {}({});\n", cpp_name, sig);
    em.pending_class_ = cls;
    std::string name = python_name(original, cls);
    std::string body = em.function_body(f, is_generator(f) ? name : original.name);
    em.pending_class_.clear();
    std::string head = fmt::format("// {}:{}: def {}{}\nag::Value {}({}) {{\n", m.file->path(),
                                   m.file->line_col(original.span.begin).line, name,
                                   f.name == original.name ? " (as written)" : "", cpp_name, sig);
    if (!is_generator(f)) {
      // In place: the body of a large function is most of the module's text.
      body.insert(0, head);
      return body += "}\n\n";
    }
    // A generator: calling it makes a generator object over its body, a
    // coroutine taking the parameters by value (runtime/api/generator.h).
    std::string args;
    for (const std::string& p : cpp::param_names(f.args->as<Arguments>())) args += ", std::move(" + cpp_ident(p) + ")";
    return fmt::format("{}  return ag::make_generator(kFile, {}, [](ag::GeneratorFrame& ag_frame{}) -> ag::Generator {{\n"
                       "{}}}{});\n}}\n\n",
                       head, cpp_string(name), sig.empty() ? "" : ", " + sig, body, args);
  }

  /// What a module-level def or method compiled to.
  struct Compiled {
    /// It has its converted form (tf__f) besides its plain one (plain__f).
    bool converted = false;
    /// It could not be compiled: the function value is failed__f, which
    /// raises this Python exception, with the first problem's text.
    std::string raises;
  };
  std::map<const FunctionDef*, Compiled> compiled_;

  /// What tf.autograph.to_code returns of each converted function, when
  /// the program may ask for it (code__f constants).
  std::string converted_code_;

  /// Both forms of a module-level def or method, as far as they compile,
  /// added to `parts` (their definitions and declarations; to_code's text
  /// of the converted form to converted_code_).
  /// Valid Python agc cannot handle fails only this function, as TF fails
  /// only a function it cannot convert: if only the conversion failed, the
  /// function runs as written (TF's fallback); if it cannot be compiled at
  /// all, calling it raises. Its problems are warnings then.
  void definitions(const FunctionDef& original, const std::string& cls, CppOutput::Parts& parts) {
    const passes::ConvertedEntity* entity = cm.entity(&original);
    AGC_CHECK(entity && entity->requested) << "emit_cpp of a module whose function was not converted: "
                                           << original.name;
    const std::string& base = cpp_base(original, cls);
    // AutoGraph never converts a generator, nor a function defining one:
    // only what keeps its plain form from compiling is a problem then.
    bool only_generators = std::all_of(entity->problems.begin(), entity->problems.end(), [](const Diagnostic& d) {
      return d.message == passes::kGeneratorNotConverted;
    });
    bool generator = is_generator(original) || (!entity->problems.empty() && only_generators);
    std::vector<Diagnostic> problems;
    if (!entity->plain || !generator) problems = entity->problems;
    Compiled& out = compiled_[&original];
    std::string text, declarations;
    auto add = [&] {
      parts.definitions.push_back(std::move(text));
      parts.declarations.push_back(std::move(declarations));
    };
    // A form compiles when emitting it (and the function's parameter list)
    // reports nothing; else its first problem is why.
    auto emit = [&](const Ref& form, const std::string& cpp_name) -> std::optional<Diagnostic> {
      DiagnosticSink local;
      DiagnosticSink* outer = em.report_to(&local);
      std::string declaration;
      std::string t = definition(original, form, cpp_name, cls, declaration);
      em.params_list(original.args->as<Arguments>());
      em.report_to(outer);
      // A warning (a call that raises TypeError where it runs) is the
      // program's, said as is; an error is a problem with this form.
      for (const Diagnostic& d : local.diagnostics()) {
        if (d.severity == Severity::Warning) {
          sink.report(d);
        } else {
          problems.push_back(d);
        }
      }
      if (local.has_errors()) return local.diagnostics().front();
      if (text.empty()) {
        text = std::move(t);
      } else {
        text += t;
      }
      declarations += declaration;
      return std::nullopt;
    };
    std::string name = python_name(original, cls);
    std::string outcome;
    std::optional<Diagnostic> failed = entity->plain ? emit(entity->plain, "plain__" + base) : problems.front();
    if (failed) {
      out.raises = failed->raises;
      text = failed_definition(original, base, cls, *failed);
      declarations = fmt::format("ag::Value failed__{}();\n", base);
      outcome = fmt::format("calling '{}' raises {}", name, out.raises);
    } else if (!entity->converted && generator) {
      // AutoGraph never converts a generator: running it as written is what
      // TF does with every generator, nothing to warn about.
      return add();
    } else if (!entity->converted) {
      outcome = fmt::format("'{}' runs as written, as TensorFlow runs a function AutoGraph cannot convert", name);
    } else {
      out.converted = !emit(entity->converted, "tf__" + base);
      outcome = fmt::format("'{}' runs as written: agc cannot compile its conversion", name);
      if (out.converted && carries_converted_code) {
        // What tf.autograph.to_code(f) returns: the function and a newline.
        converted_code_ += fmt::format("inline constexpr const char* code__{} = {};\n\n", base,
                                       raw_string(ast::to_source(entity->converted) + "\n"));
      }
    }
    for (Diagnostic& d : problems) {
      d.severity = Severity::Warning;
      d.notes.push_back({Severity::Note, def_keyword(original), outcome, {}, {}});
      sink.report(std::move(d));
    }
    add();
  }

  /// The `def` of a def statement (its span starts at its first decorator).
  SourceSpan def_keyword(const FunctionDef& f) {
    uint32_t from = f.decorator_list.empty() ? f.span.begin : f.decorator_list.back()->span.end;
    size_t at = m.file->text().find("def", from);
    if (at == std::string_view::npos || at >= f.span.end) return f.span;
    return {m.file.get(), static_cast<uint32_t>(at), static_cast<uint32_t>(at + 3)};
  }

  /// The C++ of a def that cannot be compiled: it raises `problem.raises`
  /// with the problem's text, its frame on the problem's line.
  std::string failed_definition(const FunctionDef& original, const std::string& base, const std::string& cls,
                                const Diagnostic& problem) {
    std::string name = python_name(original, cls);
    uint32_t line = m.file->line_col(problem.span.begin).line;
    return fmt::format(
        "// {}:{}: def {} (not compiled: calling it raises {})\nag::Value failed__{}() {{\n"
        "  ag::Frame ag_frame(kFile, {});\n  ag_frame.at({});\n"
        "  ag::raise_value(ag::make_exception({}, {{{}}}));\n}}\n\n",
        m.file->path(), m.file->line_col(original.span.begin).line, name, problem.raises, base, cpp_string(original.name), line,
        cpp_string(problem.raises), cpp_string(problem.message));
  }

  /// The function value of a def: make_function over its C++ functions, decorated.
  std::string function_value(const FunctionDef& f, const std::string& cls) {
    const std::string& base = cpp_base(f, cls);
    const Compiled& c = compiled_.at(&f);
    // A def that did not compile binds a function that raises, whatever it is
    // called with (its decorators are not applied).
    if (!c.raises.empty()) {
      return fmt::format("ag::Value::callable({}, [](std::vector<ag::Value>, ag::Kwargs) -> ag::Value {{ return "
                         "failed__{}(); }})",
                         cpp_string(f.name), base);
    }
    std::vector<std::string> params = params_of(f);
    std::string args;
    for (size_t i = 0; i < params.size(); ++i) args += fmt::format("{}ag_args[{}]", i ? ", " : "", i);
    auto body = [&](const std::string& cpp_name) {
      return fmt::format("[]({}) -> ag::Value {{ return {}({}); }}", cpp::value_lambda_params(params.size()), cpp_name,
                         args);
    };
    std::string converted = c.converted ? body("tf__" + base) : "nullptr";
    auto [open, close] = em.decorators(f.decorator_list);
    std::string fn = fmt::format("ag::make_function({}, {}, {}, {})", cpp_string(f.name),
                                 em.params_list(f.args->as<Arguments>()), body("plain__" + base), converted);
    if (c.converted && carries_converted_code) fn = fmt::format("ag::with_converted_code({}, code__{})", fn, base);
    return open + fn + close;
  }

  void check_imports() {
    for (const Ref& s : m.body) {
      const Refs* names = nullptr;
      if (auto* i = s->dyn<Import>()) names = &i->names;
      if (auto* i = s->dyn<ImportFrom>()) {
        // `from tensorflow import keras`, `from tensorflow.keras.layers import
        // Dense`, `from math import sqrt`: each name resolves as the module's
        // path does (an unknown one at its use). Not *.
        const std::string top = i->module.substr(0, i->module.find('.'));
        bool star = !i->names.empty() && i->names[0]->as<Alias>().name == "*";
        if (i->level == 0 && !top.empty() && !is_known_module(top)) {
          sink.error(s->span, fmt::format("module '{}' is not supported: agc compiles TensorFlow code and Python "
                                          "builtins, and '{}' has no C++ equivalent in agc",
                                          top, top));
        } else if (i->level != 0 || star) {
          sink.error(s->span, fmt::format("'from {}{} import {}' is not supported; use 'import {}'",
                                          std::string(static_cast<size_t>(i->level), '.'), i->module,
                                          star ? "*" : "...", top.empty() ? "module" : top));
        }
        continue;
      }
      if (!names) continue;
      for (const Ref& a : *names) {
        const Alias& al = a->as<Alias>();
        if (!is_known_module(al.name.substr(0, al.name.find('.')))) {
          sink.error(a->span, fmt::format("module '{}' is not supported: agc compiles TensorFlow code and Python "
                                          "builtins, and '{}' has no C++ equivalent in agc",
                                          al.name, al.name));
        }
      }
    }
  }

  /// The module-level defs a call of their name certainly means where no
  /// local shadows it: the def binds the name, and nothing else anywhere in
  /// the module does (no other def, class, assignment, import, loop or with
  /// target, except clause or del of it), and it has no decorator but
  /// tf.function (which binds its arguments as the def does).
  std::map<std::string, const FunctionDef*> certain_defs() const {
    std::map<std::string, int> bindings;
    struct Binders : AstVisitor {
      std::map<std::string, int>* b;
      void visit_Name(const Ptr<Name>& n) override {
        if (n->ctx != ExprContext::Load) ++(*b)[n->id];
      }
      void visit_FunctionDef(const Ptr<FunctionDef>& n) override {
        ++(*b)[n->name];
        visit_children(*n);
      }
      void visit_ClassDef(const Ptr<ClassDef>& n) override {
        ++(*b)[n->name];
        visit_children(*n);
      }
      void visit_Alias(const Ptr<Alias>& n) override {
        ++(*b)[n->asname.empty() ? n->name.substr(0, n->name.find('.')) : n->asname];
      }
      void visit_ExceptHandler(const Ptr<ExceptHandler>& n) override {
        if (!n->name.empty()) ++(*b)[n->name];
        visit_children(*n);
      }
    } binders;
    binders.b = &bindings;
    binders.visit_all(m.body);
    std::map<std::string, const FunctionDef*> out;
    for (const Ref& s : m.body) {
      auto* f = s->dyn<FunctionDef>();
      if (!f || bindings[f->name] != 1) continue;
      bool plain = std::all_of(f->decorator_list.begin(), f->decorator_list.end(), [&](const Ref& d) {
        const Ref& target = d->is<Call>() ? d->as<Call>().func : d;
        return passes::resolve_import_path(target, cm.imports) == "tensorflow.function";
      });
      if (plain) out[f->name] = f;
    }
    return out;
  }

  CppOutput run(bool library) {
    // An import of a module agc does not compile fails the file, but the
    // rest is still emitted so that one run reports every problem; the
    // names it binds are silently unusable (emitter's unsupported_import).
    check_imports();
    if (cm.has_errors()) return {};
    for (const std::string& n : *cm.names) {
      if (!cm.imports.count(n)) value_globals.insert(n);
    }
    em.set_module(value_globals, cm.imports);
    em.set_module_defs(certain_defs());
    em.scopes.push_back(cpp::Scope{});  // the module's own code

    // The functions and methods, as written and converted: the module's
    // defs, also those in its if/for/while/with/try blocks (emitted where
    // they stand in run(), through module_def), and its classes' methods
    // (classes elsewhere are not supported).
    CppOutput out;
    CppOutput::Parts& parts = out.parts;
    std::map<const Node*, std::string> methods;
    for (const Ref& s : m.body) {
      if (auto* c = s->dyn<ClassDef>()) {
        for (const Ref& b : c->body) methods[b.get()] = c->name;
      }
    }
    for (const passes::ConvertedEntity& e : cm.entities) {
      const FunctionDef& f = e.entity.fn->as<FunctionDef>();
      auto method = methods.find(&f);
      if (method != methods.end()) {
        definitions(f, method->second, parts);
      } else if (e.entity.qualified_name == f.name) {
        definitions(f, "", parts);
      }
    }
    em.module_def = [this](const FunctionDef& f) { return function_value(f, ""); };

    // run(): the module-level statements. A statement agc cannot compile
    // raises when it runs; any other problem there fails the file.
    DiagnosticSink module_problems;
    em.report_to(&module_problems);
    em.raise_failed_statements(cm.module_code_problems);
    // A long module (a script: most of its code at module level) is run in
    // parts, functions of their own that translation_units() deals out
    // like the definitions; they share run()'s frame.
    constexpr size_t kRunPartBytes = 16 * 1024;
    std::vector<std::string> run_parts;
    em.indent = 1;
    for (const Ref& s : m.body) {
      em.set_root(s);
      if (auto* c = s->dyn<ClassDef>()) {
        em.at(*s);
        em.line(class_statement(*c));
      } else {
        em.stmt(s);
      }
      if (em.output_size() > kRunPartBytes) run_parts.push_back(em.take_output());
    }
    std::string last = em.take_output();
    std::string run_body = "  ag::Frame ag_frame(kFile, \"<module>\");\n";
    if (run_parts.empty()) {
      run_body += last;
    } else {
      if (!last.empty()) run_parts.push_back(std::move(last));
      for (size_t k = 0; k < run_parts.size(); ++k) {
        std::string signature = fmt::format("void run_part{}(ag::Frame& ag_frame)", k + 1);
        parts.definitions.push_back(fmt::format("// The module-level code of {}, part {}.\n{} {{\n{}}}\n\n",
                                                m.file->path(), k + 1, signature, run_parts[k]));
        parts.declarations.push_back(signature + ";\n");
        run_body += fmt::format("  run_part{}(ag_frame);\n", k + 1);
      }
    }
    em.report_to(&sink);
    fail_file(em.end_failed_statements());
    fail_file(module_problems.diagnostics());
    if (sink.has_errors()) return {};

    std::string path(m.file->path());
    parts.head = fmt::format("// Generated by agc from {}: do not edit.\n#include \"{}.h\"\n\nnamespace {}::py {{\n\n",
                             path, stem, ns);
    // The module's __name__: a program's module is __main__; a library's is
    // imported, and named after its file. Only main() reads kSource (the
    // first unit's data), and only a module reading __name__ kName (Clang's
    // -Wunused-const-variable).
    parts.head += fmt::format("constexpr const char* kFile = {};\n[[maybe_unused]] constexpr const char* kName = {};\n\n",
                              cpp_string(path), cpp_string(library ? stem : "__main__"));
    parts.head += em.position_table();
    parts.head += "// The module's global names.\n";
    for (const std::string& g : value_globals) parts.head += fmt::format("inline ag::Value {};\n", cpp_ident(g));
    parts.head += "\n" + converted_code_;
    parts.data = fmt::format("[[maybe_unused]] constexpr const char* kSource = {};\n\n", raw_string(m.file->text()));
    parts.run = fmt::format("// The module-level code of {}.\nvoid run() {{\n{}}}\n\n", path, run_body);
    parts.close = fmt::format("}}  // namespace {}::py\n", ns);
    std::string& rest = parts.rest;
    LibraryApi api = library_api(m, cm.imports);
    out.header = fmt::format(
        "// Generated by agc from {0}: do not edit.\n//\n"
        "// {0} for a C++ app: namespace {1}, and <ag/ag.h>'s API (runtime/api/embedding.h).\n"
        "// Each function below runs the module's code first (init()). Arguments are\n"
        "// ag::Values (tensors, Python numbers, strings, lists, ...); a tf.function whose\n"
        "// input_signature is written out also has a typed overload, taking an\n"
        "// ag::TensorView<T> of the app's elements (borrowed for the call, not copied)\n"
        "// or a plain number for a scalar, with the spec's dtype and shape beside it.\n"
        "//\n"
        "// Errors: every function throws ag::Error and nothing else: type_name() is\n"
        "// TensorFlow's or Python's class name (\"InvalidArgumentError\", \"ValueError\",\n"
        "// \"TypeError\", ...) and what() the message TF would give, also for arguments\n"
        "// of the wrong shape, dtype or number.\n"
        "#pragma once\n\n#include <ag/ag.h>\n\nnamespace {1} {{\n\n"
        "/// Runs the module-level code of {0} once, {2}.\n"
        "/// It throws what that code raises, and a later call runs it again.\nvoid init();\n",
        path, ns,
        library ? fmt::format("as `import {}` would:\n/// __name__ is \"{}\", so an `if __name__ == \"__main__\":` "
                              "block does not run",
                              stem, stem)
                : "as the program's main module (__name__ is \"__main__\";\n/// build with --lib for a library)");
    out.header += api.declarations;
    rest = fmt::format("\nnamespace {} {{\n\nvoid init() {{\n  ag::library_call([] {{\n"
                       "    static const bool ag_done = (py::run(), true);\n    (void)ag_done;\n  }});\n}}\n",
                       ns);
    rest += api.definitions;
    out.header += fmt::format("\n}}  // namespace {}\n", ns);
    rest += fmt::format("\n}}  // namespace {}\n", ns);
    if (!library) {
      std::string table;
      for (const std::string& g : value_globals) {
        table += fmt::format("       {{{}, &{}::py::{}}},\n", cpp_string(g), ns, cpp_ident(g));
      }
      rest += fmt::format(
          "\nint main(int argc, char** argv) {{\n  return ag::program_main(argc, argv,\n"
          "      {{{}, {}::py::kFile, {}::py::kSource, {}::py::run, {{\n{}      }}}});\n}}\n",
          cpp_string(stem), ns, ns, ns, table);
    }
    return out;
  }

  /// A class statement as a C++ block: the bases, then the body's bindings
  /// in order as locals (a later binding of a name replaces its value but
  /// keeps its place, as a class namespace dict does), then the class.
  std::string class_statement(const ClassDef& c) {
    std::vector<std::string> bases;
    for (const Ref& b : c.bases) bases.push_back(em.value(b));
    if (!c.keywords.empty()) sink.error(c.keywords[0]->span, "class keywords (metaclass=...) are not supported");
    if (!c.decorator_list.empty()) sink.error(c.decorator_list[0]->span, "class decorators are not supported yet");
    std::vector<std::string> names, steps;
    auto bind = [&](const std::string& name, const std::string& value) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
      steps.push_back(fmt::format("  {} = {};", cpp::Emitter::class_local(cpp_ident(name)), value));
      em.class_scope.insert(name);
    };
    for (const Ref& b : c.body) {
      if (auto* f = b->dyn<FunctionDef>()) {
        bind(f->name, function_value(*f, c.name));
      } else if (auto* a = b->dyn<Assign>(); a && a->targets.size() == 1 && a->targets[0]->is<Name>()) {
        bind(a->targets[0]->as<Name>().id, em.value(a->value));
      } else if (b->is<Pass>() || (b->is<Expr>() && b->as<Expr>().value->is<Constant>())) {
        continue;  // pass, docstring
      } else {
        sink.error(b->span, "a class body may only hold methods and simple attribute assignments");
      }
    }
    em.class_scope.clear();
    std::string locals, attrs;
    for (const std::string& n : names) {
      locals += (locals.empty() ? "" : ", ") + cpp::Emitter::class_local(cpp_ident(n));
      attrs += fmt::format("\n      {{{}, {}}},", cpp_string(n), cpp::Emitter::class_local(cpp_ident(n)));
    }
    std::string out = fmt::format("{{\n  std::vector<ag::Value> ag_bases{{{}}};\n", cpp::join(bases));
    if (!names.empty()) out += "  ag::Value " + locals + ";\n";
    for (const std::string& s : steps) out += s + "\n";
    return out + fmt::format("  {} = ag::make_class({}, std::move(ag_bases), {{{}\n  }});\n}}", cpp_ident(c.name),
                             cpp_string(c.name), attrs);
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
