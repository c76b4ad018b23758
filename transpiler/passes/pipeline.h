// THE ordered list of conversion passes, and the conversion of one entity (a
// module-level function or a method of a module-level class) through them,
// with a fresh namer, as tf.autograph converts one function at a time
// (convert_module.h converts a whole module).
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

/// Converts one function into `tf__<name>`. Problems go to `sink`; returns null
/// when any were reported. `facts`, when given, receives what the passes decided.
ast::Ref convert_entity(const ast::Ref& fn, const ConversionOptions& options,
                        const std::shared_ptr<const std::set<std::string>>& globals,
                        const std::map<std::string, std::string>& imports, DiagnosticSink& sink,
                        const PassObserver& observer = {}, ConversionFacts* facts = nullptr);

}  // namespace agc::passes
