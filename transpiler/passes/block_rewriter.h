// Visiting a statement block where a statement may redirect the statements
// after it into one of its own sub-blocks (pyct's visit_block with an
// after_visit returning a new destination). Used by continue and return
// canonicalization, which wrap "the rest of the block" in a guard.
#pragma once

#include <functional>

#include "transpiler/ast/ast.h"
#include "transpiler/ast/mutator.h"

namespace agc::passes {

/// What after_visit decided for a visited statement: the nodes to emit and,
/// optionally, an If among them whose body or orelse receives every following
/// statement of the block.
struct Placement {
  ast::Stmts nodes;
  const ast::Node* into = nullptr;  // an If in `nodes`, or null
  bool into_orelse = false;
};

/// Most guards one block may stack (CPython parses at most 100 indentation
/// levels, so deeper output could not be read back anyway).
inline constexpr int kMaxGuardNesting = 100;

/// Visits `stmts` in order; `visit` rewrites one statement, `after` (called only
/// when `visit` produced something) places the result. Returns `stmts` itself
/// (no copy) when nothing changed. Throws DiagnosticError past kMaxGuardNesting.
ast::Refs visit_block(const ast::Refs& stmts, const std::function<ast::Stmts(const ast::Ref&)>& visit,
                      const std::function<Placement(ast::Stmts)>& after);

}  // namespace agc::passes
