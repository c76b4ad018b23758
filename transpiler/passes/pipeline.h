// THE ordered list of conversion passes, and conversion of a whole module: each
// function (module-level, or a method of a module-level class) is one entity,
// converted on its own with a fresh namer, as tf.autograph converts one
// function at a time.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "transpiler/ast/ast.h"
#include "transpiler/base/diagnostic.h"
#include "transpiler/passes/pass.h"

namespace agc::passes {

/// The passes in order (the unsupported-features check is run before them).
std::vector<PassInfo> pipeline(const ConversionOptions& options);

/// Called after each pass that changed the entity (for --dump-after).
using PassObserver = std::function<void(const char* pass, const ast::Ref& fn)>;

/// A function to convert: the FunctionDef and its qualified name (`f`, `Count.__call__`).
struct Entity {
  ast::Ref fn;
  std::string qualified_name;
};

/// The functions of a module that agc converts, in source order.
std::vector<Entity> find_entities(const ast::Module& m);

/// Names the module binds at top level (the namer's global namespace).
std::shared_ptr<const std::set<std::string>> module_names(const ast::Module& m);
/// Module-level imports: local name → dotted module path.
std::map<std::string, std::string> module_imports(const ast::Module& m);

/// Converts one function into `tf__<name>`. Problems go to `sink`; returns null
/// when any were reported.
ast::Ref convert_entity(const ast::Ref& fn, const ConversionOptions& options,
                        const std::shared_ptr<const std::set<std::string>>& globals,
                        const std::map<std::string, std::string>& imports, DiagnosticSink& sink,
                        const PassObserver& observer = {});

}  // namespace agc::passes
