// Qualified names, as AutoGraph's pyct.qual_names: a plain symbol (`x`) or a
// composite reached from one by attribute or constant/symbol subscript
// (`self.count`, `a[0]`, `a[i]`). Analyses track QNs; passes turn them back into
// AST with ast().
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>

#include "transpiler/ast/ast.h"

namespace agc::analysis {

class QN {
 public:
  static QN symbol(std::string name);
  /// A constant used as a subscript (`0`, `'k'`).
  static QN literal(const ast::ConstantValue& value);
  static QN attribute(const QN& parent, std::string attr);
  static QN subscript(const QN& parent, const QN& index);

  /// Printed form, also the identity: "x", "self.count", "a[0]".
  const std::string& str() const { return node_->text; }
  bool is_composite() const { return node_->kind == Kind::Attribute || node_->kind == Kind::Subscript; }
  bool is_simple() const { return !is_composite(); }
  /// False only for literals.
  bool is_symbol() const { return node_->kind != Kind::Literal; }
  bool has_attr() const { return node_->kind == Kind::Attribute; }
  bool has_subscript() const { return node_->kind == Kind::Subscript; }
  QN parent() const;
  /// The plain symbols a composite depends on: {a} for a.b, {a, i} for a[i].
  std::set<QN> support_set() const;
  /// Identifier-safe form: self_count, a_sub_0.
  std::string ssf() const;
  /// Names this QN reserves against fresh names (AutoGraph's `qn` pieces).
  void reserved_names(std::set<std::string>& out) const;
  /// AST that reads (or stores to) this name; new nodes, not from source.
  ast::Ref ast(ast::ExprContext ctx, SourceSpan span) const;

  bool operator<(const QN& o) const { return str() < o.str(); }
  bool operator==(const QN& o) const { return str() == o.str(); }
  bool operator!=(const QN& o) const { return !(*this == o); }

 private:
  enum class Kind { Symbol, Literal, Attribute, Subscript };
  struct Node {
    Kind kind;
    std::string text;   // printed form
    std::string piece;  // symbol name, attribute name, or literal repr
    std::shared_ptr<const Node> parent;
    std::shared_ptr<const Node> index;
    ast::ConstantValue value;  // literals
  };
  explicit QN(std::shared_ptr<const Node> n) : node_(std::move(n)) {}
  std::shared_ptr<const Node> node_;
};

using QNSet = std::set<QN>;

/// The QN an expression denotes, if it is a name, or an attribute or subscript
/// of one (with a constant or named index).
std::optional<QN> qn_of(const ast::Ref& expr);

}  // namespace agc::analysis
