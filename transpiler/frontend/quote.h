// Builds AST from Python-text templates, as AutoGraph's templates.replace does:
//
//   quote(R"(
//     def body_name():
//       nonlocal_declarations
//       body
//   )", {{"body_name", "if_body"}, {"nonlocal_declarations", decls}, {"body", stmts}}, span)
//
// A placeholder is a plain name in the template. It is replaced by an
// identifier (string), by one node, or by a list of nodes spliced into the
// enclosing list (statement block, tuple elements, call arguments). Replaced
// expressions are copied and take the store/load context of the placeholder.
// Nodes made from the template get `span`; substituted nodes keep their own.
// A node (or list) wrapped in Unshared is spliced in as is: for a node the
// caller has just built and puts nowhere else, such as the growing tail of a
// chain built link by link (copying it at each link would make the chain
// quadratic), or a statement's parts moved into the code that replaces it
// (the tree is immutable: the pass's input may keep them too, but no tree
// may hold one node twice, since analyses key their results by node).
// Templates are string literals: each is parsed once per thread and cached by
// its address, so building from a template costs no parsing or hashing of text.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <variant>

#include "transpiler/ast/ast.h"

namespace agc::frontend {

/// Nodes quote() may splice in without copying: the result holds them nowhere else.
struct Unshared {
  std::variant<ast::Ref, ast::Refs> nodes;
  Unshared(ast::Ref node) : nodes(std::move(node)) {}     // NOLINT
  Unshared(ast::Refs nodes) : nodes(std::move(nodes)) {}  // NOLINT
};

struct Replacement {
  std::variant<std::string, ast::Ref, ast::Refs> value;
  bool copy = true;  // false for Unshared: the node goes in as is


  Replacement(const char* identifier) : value(std::string(identifier)) {}
  Replacement(std::string identifier) : value(std::move(identifier)) {}
  Replacement(ast::Ref node) : value(std::move(node)) {}
  Replacement(ast::Refs nodes) : value(std::move(nodes)) {}
  Replacement(Unshared u) : copy(false) {
    if (auto* one = std::get_if<ast::Ref>(&u.nodes)) value = std::move(*one);
    else value = std::move(std::get<ast::Refs>(u.nodes));
  }
  template <class T>
  Replacement(std::shared_ptr<T> node) : value(ast::Ref(std::move(node))) {}
};

using Replacements = std::map<std::string, Replacement, std::less<>>;

/// The statements of the template `text` (a string literal) with placeholders substituted.
ast::Refs quote(const char* text, const Replacements& replacements, SourceSpan span);
/// The single expression of the template `text` (a string literal) with placeholders substituted.
ast::Ref quote_expr(const char* text, const Replacements& replacements, SourceSpan span);

}  // namespace agc::frontend
