// The C++ emitter: a module's converted AST (the one to_code prints) as C++20
// against libagrt. Functions become C++ functions over ag::Value; the nested
// defs AutoGraph generates (if_body, loop_body, get_state, ...) become lambdas
// capturing by reference, which is what their `nonlocal` means; ag__.*
// operators become ag::autograph calls; tf.* and builtins resolve at transpile
// time to ag::tf::api / ag::py functions (runtime/api/python_api.h). The
// module's own statements become its run() function, called by main() (or by
// the header's functions in a library). Output depends only on the input.
#pragma once

#include <string>

#include "transpiler/ast/ast.h"
#include "transpiler/base/diagnostic.h"
#include "transpiler/passes/pass.h"

namespace agc::emit {

struct CppOutput {
  /// <stem>.h: the module's functions for a C++ app.
  std::string header;
  /// <stem>.cpp: the module, and main() unless `library`.
  std::string source;
};

/// `stem` is the module's name (the file name without .py) and becomes its C++
/// namespace. Problems go to `sink`; the output is then empty.
CppOutput emit_cpp(const ast::Module& m, const std::string& stem, const passes::ConversionOptions& options,
                   bool library, DiagnosticSink& sink);

}  // namespace agc::emit
