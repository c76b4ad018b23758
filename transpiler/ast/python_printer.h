// Prints agc's AST as Python source exactly as astunparse does, which is what
// tf.autograph.to_code shows: four-space indents, a blank line before every
// def and class, and every unary, binary, comparison, boolean and conditional
// expression in parentheses (`return (x > 1)`, `(x,) = vars_`).
#pragma once

#include <string>

#include "transpiler/ast/ast.h"

namespace agc::ast {

/// Source text of a statement list, with leading and trailing whitespace removed
/// (AutoGraph's `parser.unparse(..., include_encoding_marker=False)`).
std::string to_source(const ast::Refs& stmts);
/// Source text of one node (statement or expression).
std::string to_source(const ast::Ref& node);
/// A binary operator's Python symbol: "+", "//", "@".
const char* binop_text(BinOpKind k);

}  // namespace agc::ast
