// Python's compile-time checks that need the whole AST rather than one CST
// node: where starred expressions may stand, and the symbol-table rules for
// global and nonlocal declarations and `import *`. Runs after lowering.
#pragma once

#include "transpiler/ast/ast.h"
#include "transpiler/base/diagnostic.h"

namespace agc::frontend {

/// Reports every violation to `sink`.
void validate_module(const ast::Refs& body, DiagnosticSink& sink);

}  // namespace agc::frontend
