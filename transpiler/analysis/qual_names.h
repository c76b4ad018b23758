// Qualified names, as AutoGraph's pyct.qual_names: a plain symbol (`x`) or a
// composite reached from one by attribute or constant/symbol subscript
// (`self.count`, `a[0]`, `a[i]`). Analyses track QNs; passes turn them back into
// AST with ast().
//
// QNs are interned: each distinct name exists once for the process, so a QN is
// one pointer, equality is pointer equality, and sets of them are cheap.
#pragma once

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "transpiler/ast/ast.h"

namespace agc::analysis {

class QN {
 public:
  static QN symbol(std::string_view name);
  /// A constant used as a subscript (`0`, `'k'`).
  static QN literal(const ast::ConstantValue& value);
  static QN attribute(QN parent, std::string_view attr);
  static QN subscript(QN parent, QN index);

  /// Printed form: "x", "self.count", "a[0]".
  const std::string& str() const { return node_->text; }
  bool is_composite() const { return node_->kind == Kind::Attribute || node_->kind == Kind::Subscript; }
  bool is_simple() const { return !is_composite(); }
  /// False only for literals.
  bool is_symbol() const { return node_->kind != Kind::Literal; }
  bool has_attr() const { return node_->kind == Kind::Attribute; }
  bool has_subscript() const { return node_->kind == Kind::Subscript; }
  QN parent() const;
  /// The plain symbols (and literals) a composite depends on: {a} for a.b, {a, i} for a[i].
  std::vector<QN> support_set() const;
  /// Identifier-safe form: self_count, a_sub_0.
  std::string ssf() const;
  /// Names this QN reserves against fresh names (AutoGraph's `qn` pieces: a
  /// symbol's name, an attribute's attribute name).
  const std::string* reserved_piece() const;
  /// AST that reads (or stores to) this name; new nodes, not from source.
  ast::Ref ast(ast::ExprContext ctx, SourceSpan span) const;

  /// Identity order: fast, but not stable across runs. Sort with ByName before
  /// anything reaches output.
  bool operator<(const QN& o) const { return node_ < o.node_; }
  bool operator==(const QN& o) const { return node_ == o.node_; }
  bool operator!=(const QN& o) const { return node_ != o.node_; }
  const void* id() const { return node_; }

  /// Lexicographic order by printed form, as AutoGraph sorts.
  struct ByName {
    bool operator()(const QN& a, const QN& b) const { return a.str() < b.str(); }
  };

 private:
  enum class Kind : uint8_t { Symbol, Literal, Attribute, Subscript };
  struct Node {
    Kind kind;
    std::string text;   // printed form
    std::string piece;  // symbol name, attribute name, or literal repr
    const Node* parent = nullptr;
    const Node* index = nullptr;
    ast::ConstantValue value;  // literals
  };
  friend class QNInterner;
  explicit QN(const Node* n) : node_(n) {}
  const Node* node_;
};

/// A small set of QNs: a sorted vector (by identity). The analyses build many
/// little sets; this keeps them to one allocation each.
class QNSet {
 public:
  QNSet() = default;
  QNSet(std::initializer_list<QN> qns) {
    for (const auto& q : qns) insert(q);
  }

  bool insert(const QN& q) {
    auto it = std::lower_bound(v_.begin(), v_.end(), q);
    if (it != v_.end() && *it == q) return false;
    v_.insert(it, q);
    return true;
  }
  /// Large insertions sort once: element-wise inserts into the sorted vector
  /// would shift it each time (quadratic for sets built from a bit set).
  template <class It>
  void insert(It first, It last) {
    if (std::distance(first, last) <= 16) {
      for (; first != last; ++first) insert(*first);
      return;
    }
    auto mid = static_cast<std::ptrdiff_t>(v_.size());
    for (; first != last; ++first) {
      if (!std::binary_search(v_.begin(), v_.begin() + mid, *first)) v_.push_back(*first);
    }
    if (v_.size() == static_cast<size_t>(mid)) return;
    std::sort(v_.begin() + mid, v_.end());
    std::inplace_merge(v_.begin(), v_.begin() + mid, v_.end());
    v_.erase(std::unique(v_.begin(), v_.end()), v_.end());
  }
  void insert_all(const QNSet& o) { insert(o.begin(), o.end()); }
  size_t count(const QN& q) const { return std::binary_search(v_.begin(), v_.end(), q) ? 1 : 0; }
  void erase(const QN& q) {
    auto it = std::lower_bound(v_.begin(), v_.end(), q);
    if (it != v_.end() && *it == q) v_.erase(it);
  }
  size_t size() const { return v_.size(); }
  bool empty() const { return v_.empty(); }
  std::vector<QN>::const_iterator begin() const { return v_.begin(); }
  std::vector<QN>::const_iterator end() const { return v_.end(); }
  bool operator==(const QNSet& o) const { return v_ == o.v_; }
  bool operator!=(const QNSet& o) const { return v_ != o.v_; }
  /// The members in AutoGraph's (lexicographic) order.
  std::vector<QN> sorted_by_name() const {
    std::vector<QN> out = v_;
    std::sort(out.begin(), out.end(), QN::ByName());
    return out;
  }

 private:
  std::vector<QN> v_;
};

/// The QN an expression denotes, if it is a name, or an attribute or subscript
/// of one (with a constant or named index).
std::optional<QN> qn_of(const ast::Ref& expr);

}  // namespace agc::analysis
