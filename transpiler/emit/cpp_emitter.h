// The C++ emitter: a module's converted AST (the one to_code prints) as C++20
// against libagrt. Functions become C++ functions over ag::Value, each
// module-level def twice: as written and converted (which one a call runs is
// TF's rule, see runtime/value/user_function.h); the nested
// defs AutoGraph generates (if_body, loop_body, get_state, ...) become lambdas
// capturing by reference, which is what their `nonlocal` means; ag__.*
// operators become ag::autograph calls; tf.* and builtins resolve at transpile
// time to ag::tf::api / ag::py functions (runtime/api/python_api.h). The
// module's own statements become its run() function, called by main() (or by
// the header's functions in a library). Output depends only on the input.
#pragma once

#include <string>

#include "transpiler/base/diagnostic.h"
#include "transpiler/passes/convert_module.h"

namespace agc::emit {

struct CppOutput {
  /// <stem>.h: the module's functions for a C++ app.
  std::string header;
  /// <stem>.cpp: the module, and main() unless `library`.
  std::string source;
};

/// The C++ of a converted module (all of its entities). `stem` is the module's
/// name (the file name without .py) and becomes its C++ namespace. Problems
/// with the module's imports are reported to `sink` even when the conversion
/// failed; the output is empty when `cm` or `sink` holds an error.
CppOutput emit_cpp(const passes::ConvertedModule& cm, const std::string& stem, bool library, DiagnosticSink& sink);

}  // namespace agc::emit
