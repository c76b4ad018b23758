// CST → AST lowering: one walk over tree-sitter's concrete tree producing agc's
// closed set of node kinds, each with the span of the text it came from.
#pragma once

#include "transpiler/ast/ast.h"
#include "transpiler/base/diagnostic.h"
#include "transpiler/frontend/ts_handle.h"

namespace agc::frontend {

/// Lowers a syntax-error-free module CST. Unsupported constructs are reported to
/// `sink` and lowering continues past them so that all of them are reported.
/// `check_context` enables the checks that need the enclosing statement
/// ('return' outside function, 'break' outside loop, module-level nonlocal).
ast::Refs lower_module(TSNode root, const SourceFile& file, DiagnosticSink& sink, bool check_context = true);

/// Deepest AST nesting lowering accepts (Python's own parser stops near here too);
/// deeper input is reported instead of risking the stack in later recursive phases.
inline constexpr int kMaxNestingDepth = 200;

/// Deepest f-string nesting accepted. Past the four quote kinds, the printer
/// (like astunparse) must escape each inner level inside the next, which doubles
/// the printed text per level; 16 levels stay within a few kilobytes.
inline constexpr int kMaxFStringNesting = 16;

}  // namespace agc::frontend
