// The CST → AST lowering walker, shared by lower.cpp (statements),
// lower_expr.cpp (expressions and parameters) and lower_strings.cpp (literals).
// Private to frontend/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "transpiler/ast/ast.h"
#include "transpiler/base/diagnostic.h"
#include "transpiler/frontend/ts_handle.h"

namespace agc::frontend {

/// Reads a binary operator token (`+`, `//`, ...); false if unknown.
bool binop_from_text(std::string_view text, ast::BinOpKind& op);

class Lowerer {
 public:
  Lowerer(const SourceFile& file, DiagnosticSink& sink, bool check_context);

  ast::Refs module(TSNode root);

 private:
  using Ref = ast::Ref;
  using Refs = ast::Refs;
  using Ctx = ast::ExprContext;

  // ---- CST helpers
  SourceSpan span(TSNode n) const;
  SourceSpan span(uint32_t begin, uint32_t end) const { return {&file_, begin, end}; }
  std::string_view text(TSNode n) const;
  Sym sym(TSNode n) const { return g_.sym(n); }
  TSNode field(TSNode n, TSFieldId id) const { return ts_node_child_by_field_id(n, id); }
  std::vector<TSNode> field_children(TSNode n, TSFieldId id) const;
  bool has_token(TSNode n, std::string_view token) const;
  /// The text of an identifier node; a Python keyword there is reported
  /// (tree-sitter's recovery sometimes reads `continue` or `else` as a name).
  std::string identifier(TSNode n);
  void error(TSNode n, std::string message);
  void error(SourceSpan s, std::string message);
  /// Valid Python that agc cannot convert: it fails only the function around
  /// it (see convert_module).
  void unsupported(TSNode n, std::string message);
  /// A construct Python accepts only in some places (yield in a function;
  /// await, async for/with/comprehensions in an async def): unsupported() where
  /// `valid`, Python's own compile error elsewhere.
  void unsupported_if_valid(bool valid, TSNode n, std::string message);
  /// Whether lowering is inside a def or lambda.
  bool in_function() const;
  /// A stand-in for a construct that was reported, so lowering can continue.
  Ref placeholder(TSNode n);

  // Nesting guard: lowering, printing and passes recurse, so depth is bounded here.
  struct DepthGuard {
    Lowerer& l;
    explicit DepthGuard(Lowerer& lw) : l(lw) { ++l.depth_; }
    ~DepthGuard() { --l.depth_; }
  };
  bool too_deep(TSNode n);

  // ---- statements (lower.cpp)
  void block(TSNode n, Refs& out);
  Refs body_of(TSNode block_node);
  void stmt(TSNode n, Refs& out);
  Ref expression_statement(TSNode n);
  Ref assignment(TSNode n);
  Ref aug_assignment(TSNode n);
  Ref if_statement(TSNode n);
  void elif_chain(const std::vector<TSNode>& alternatives, size_t i, Refs& orelse_out);
  Ref for_statement(TSNode n);
  Ref while_statement(TSNode n);
  Ref try_statement(TSNode n);
  Ref with_statement(TSNode n);
  Ref function_definition(TSNode n, Refs decorators, TSNode outer);
  Ref class_definition(TSNode n, Refs decorators, TSNode outer);
  Ref decorated_definition(TSNode n);
  Ref import_statement(TSNode n);
  Ref import_from_statement(TSNode n, bool future);
  std::string dotted_name(TSNode n);
  Ref alias(TSNode n);

  // ---- expressions (lower_expr.cpp)
  Ref expr(TSNode n, Ctx ctx = Ctx::Load);
  Ref expr_impl(TSNode n, Ctx ctx);
  /// An assignment/for/with/del target; rejects what cannot be assigned.
  Ref target(TSNode n, Ctx ctx = Ctx::Store);
  /// What an expression is, as Python's "cannot assign to ..." messages say it.
  std::string describe_expression(TSNode n) const;
  /// A right-hand side: expression lists become tuples.
  Ref value(TSNode n);
  Ref sequence(TSNode n, ast::NodeKind kind, Ctx ctx);
  Ref subscript(TSNode n, Ctx ctx);
  Ref slice(TSNode n);
  /// The `list_splat` tree-sitter put at the bottom of `n`'s leftmost
  /// operands (`[*a.b]` parses as attribute(list_splat(a), b)), or null.
  TSNode misplaced_splat(TSNode n) const;
  Ref call(TSNode n);
  Ref boolean_operator(TSNode n);
  Ref comparison(TSNode n);
  Ref lambda(TSNode n);
  Ref dictionary(TSNode n);
  Ref comprehension(TSNode n);
  Refs generators(TSNode n);
  Ref arguments(TSNode params, SourceSpan at);
  Ref type_annotation(TSNode type_node);

  // ---- literals (lower_strings.cpp)
  Ref string_literal(TSNode n);
  Ref number(TSNode n);
  /// Appends the parts of one `string` node to `parts`; returns false on error.
  struct StringParts;
  void string_part(TSNode n, StringParts& parts);
  Ref interpolation(TSNode n, bool raw);
  Ref format_spec(TSNode spec, bool raw);
  std::string literal_segment(std::string_view raw_text, bool raw, bool bytes, bool fstring, uint32_t at);

  const SourceFile& file_;
  DiagnosticSink& sink_;
  const Grammar& g_;
  const Fields& f_;
  bool check_context_;
  int depth_ = 0;
  bool depth_reported_ = false;
  // Statement context, for 'break' outside loop and friends.
  int loop_depth_ = 0;
  int fstring_depth_ = 0;  // f-strings being lowered around the current node
  std::vector<bool> scope_is_function_;  // innermost last; empty at module level
  int async_defs_ = 0;                    // async defs around the current code
  // The misplaced list_splat being lowered as its operand only (expr()).
  TSNode hoisted_splat_{};
};

}  // namespace agc::frontend
