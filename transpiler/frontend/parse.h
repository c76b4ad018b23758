// Python text → agc AST. Parses with tree-sitter-python, reports every syntax
// error (ERROR and MISSING nodes) and every construct outside the supported
// subset as a diagnostic, and lowers the rest.
#pragma once

#include <memory>

#include "transpiler/ast/ast.h"
#include "transpiler/base/diagnostic.h"

namespace agc::frontend {

/// Parses and lowers `file`. Problems go to `sink`; when an error that fails
/// the whole file was reported (not a function_local() one: a construct agc
/// cannot convert in valid Python) the returned module has no statements.
ast::Module parse_module(std::shared_ptr<const SourceFile> file, DiagnosticSink& sink);

/// Like parse_module, for code templates: statements such as `return` or
/// `nonlocal` may stand outside the function they will be placed into.
ast::Module parse_template(std::shared_ptr<const SourceFile> file, DiagnosticSink& sink);

}  // namespace agc::frontend
