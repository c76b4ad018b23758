// A module converted once, as a value both emitters read: which functions agc
// converts (module-level defs and methods of module-level classes, each one
// entity converted on its own as tf.autograph converts one function at a
// time), their converted forms, the module's names and imports, and every
// diagnostic the conversion reported.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "transpiler/ast/ast.h"
#include "transpiler/base/diagnostic.h"
#include "transpiler/passes/pipeline.h"

namespace agc::passes {

/// A function to convert: the FunctionDef and its qualified name (`f`, `Count.__call__`).
struct Entity {
  ast::Ref fn;
  std::string qualified_name;
};

/// The functions of a module that agc converts, in source order: defs and
/// classes' methods at module level, including inside its if/for/while/with/try.
std::vector<Entity> find_entities(const ast::Module& m);

/// What to convert, and how.
struct ModuleRequest {
  ConversionOptions options;
  /// Functions to convert, by name or Class.name; empty means all. A name no
  /// function has is a diagnostic.
  std::vector<std::string> functions;
  /// Called after each pass that changed a function (conversion then runs on
  /// one thread, so calls come in order).
  PassObserver observer;
  /// Also convert a function with the features of its decorator
  /// `@tf.function(experimental_autograph_options=...)`, as its traces are
  /// (the C++ emitter's conversion). tf.autograph.to_code uses only its own
  /// options, and so does to-code.
  bool decorator_features = false;
  /// Keep what the passes decided (ConvertedEntity::facts), for `agc explain`.
  bool record_facts = false;
};

struct ConvertedEntity {
  Entity entity;
  /// Whether it was asked for (ModuleRequest::functions).
  bool requested = false;
  /// `tf__<name>`; null when it was not requested or its conversion failed.
  ast::Ref converted;
  /// The def as written, for the calls TF does not convert (module code,
  /// eager calls; see runtime AutographScope): its nested defs are their
  /// conversions, which run wherever they are called, as agc converts every
  /// nested def with its enclosing one. The def itself when its conversion
  /// failed (TF then runs it as written); null when it was not requested or
  /// its parsing found problems.
  ast::Ref plain;
  /// Valid Python in it that agc cannot convert (function_local() errors), as
  /// parsing or conversion found it: TF fails only this function, so
  /// to-code diagnoses it alone and the C++ emitter warns about it.
  std::vector<Diagnostic> problems;
  /// What the passes decided while converting it, when the request asked
  /// (ModuleRequest::record_facts).
  ConversionFacts facts;
};

struct ConvertedModule;

/// Converts the requested functions of `m`, independently and on every core.
/// `parse_problems`: the function_local() problems parsing reported; each
/// fails the entity that holds it (which is then not converted), or the file
/// when none does.
ConvertedModule convert_module(const ast::Module& m, const ModuleRequest& request = {},
                               const std::vector<Diagnostic>& parse_problems = {});

struct ConvertedModule {
  /// The module as parsed.
  ast::Module module;
  /// Every entity of the module, in source order.
  std::vector<ConvertedEntity> entities;
  /// Names the module binds at top level (analysis::module_names).
  std::shared_ptr<const std::set<std::string>> names;
  /// Module-level imports: local name → dotted module path.
  std::map<std::string, std::string> imports;
  /// What fails the whole file; emitters run only when it holds no error.
  /// The problems of single functions are their ConvertedEntity::problems.
  DiagnosticSink diagnostics;
  /// Valid Python agc cannot convert in the module's own code (outside any
  /// function): no function is converted from it, so it fails only the C++
  /// emitter, which compiles that code too.
  std::vector<Diagnostic> module_code_problems;

  bool has_errors() const { return diagnostics.has_errors(); }
  /// Every diagnostic: the file's, then each requested function's problems.
  DiagnosticSink all_diagnostics() const;
  /// The entity of the module-level def or method `original`, or null.
  const ConvertedEntity* entity(const ast::Node* original) const;

 private:
  friend ConvertedModule convert_module(const ast::Module& m, const ModuleRequest& request,
                                       const std::vector<Diagnostic>& parse_problems);
  std::unordered_map<const ast::Node*, size_t> index_;
};

/// Parses `file` and converts it. An error Python would stop the file for
/// leaves the result with only its diagnostics; valid Python agc cannot
/// convert fails only the function that holds it (ConvertedEntity::problems),
/// or the file when no function does.
ConvertedModule convert_file(std::shared_ptr<const SourceFile> file, const ModuleRequest& request = {});

}  // namespace agc::passes
