// What every conversion pass receives, and the helpers several passes share.
// A pass is `ast::Ref convert_<name>(const ast::Ref& fn, PassContext& ctx)`: it
// takes the FunctionDef being converted (AutoGraph converts one entity at a
// time) and returns the rewritten one, or `fn` itself when nothing applied.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "transpiler/analysis/analysis_cache.h"
#include "transpiler/ast/ast.h"
#include "transpiler/base/diagnostic.h"
#include "transpiler/base/namer.h"
#include "transpiler/passes/conversion_facts.h"

namespace agc::analysis {
class Activity;
struct Scope;
}

namespace agc::passes {

/// How to convert, mirroring AutoGraph's ConversionOptions plus agc's own choices.
struct ConversionOptions {
  /// agc's list conversion (append/pop and item assignment in loops). On by
  /// default; `--autograph-compat` turns it off to print exactly what TF prints.
  bool lists = true;
  /// AutoGraph optional features by name (ASSERT_STATEMENTS, EQUALITY_OPERATORS,
  /// BUILTIN_FUNCTIONS); they change conversion and the printed ConversionOptions.
  std::set<std::string> optional_features;

  bool uses(std::string_view feature) const { return optional_features.count(std::string(feature)) > 0; }
};

/// Optional features agc implements, in the spelling of tf.autograph.experimental.Feature.
const std::vector<std::string>& supported_optional_features();

struct PassContext {
  DiagnosticSink& sink;
  Namer& namer;
  analysis::AnalysisCache& analyses;
  const ConversionOptions& options;
  /// Module-level imports: local name → dotted module path (`tf` → `tensorflow`).
  const std::map<std::string, std::string>& imports;
  /// The function as it was before any pass, whose analysis names generated
  /// symbols (see Activity::original_body_scope). Null means "the pass input".
  ast::Ref original = nullptr;
  /// Where the passes record what they decided (`agc explain`); null when
  /// nobody asked.
  ConversionFacts* facts = nullptr;

  /// Activity of the original function, for choosing fresh names.
  const analysis::Activity& naming(const ast::Ref& fn);
};

using PassFn = ast::Ref (*)(const ast::Ref& fn, PassContext& ctx);

struct PassInfo {
  const char* name;
  PassFn fn;
  /// Asks PassContext::naming: the original function's analysis must live
  /// until this pass has run.
  bool names_from_original = false;
};

/// The name of the `with ag__.FunctionScope(...) as <name>:` context a converted
/// function body opens (AutoGraph's 'function_context_name' annotation); empty
/// before the functions pass ran.
std::string function_context_name(const ast::FunctionDef& fn);
/// The name `w` binds if it is such a `with` statement, else "".
std::string function_context_name(const ast::With& w);

/// Whether `target = <changed copy of target>` may stand for an in-place
/// change of `target` (agc's list conversion) in the function whose scope is
/// `fn_scope`, keeping Python's meaning: assigning through an attribute or a
/// subscript rebinds no name, and a plain name must be the function's own
/// local, since rebinding a global or an enclosing function's variable would
/// make it a local of the function (UnboundLocalError).
bool may_rebind(const ast::Ref& target, const analysis::Scope* fn_scope);

/// The dotted path an expression denotes through the module's imports, e.g.
/// `tf.autograph.experimental.set_loop_options` →
/// "tensorflow.autograph.experimental.set_loop_options"; empty if it is not a
/// chain of attributes on an imported name.
std::string resolve_import_path(const ast::Ref& expr, const std::map<std::string, std::string>& imports);

}  // namespace agc::passes
