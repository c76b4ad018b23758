// Qualified names, as AutoGraph's pyct.qual_names: a plain symbol (`x`) or a
// composite reached from one by attribute or constant/symbol subscript
// (`self.count`, `a[0]`, `a[i]`). Analyses track QNs; passes turn them back into
// AST with ast().
//
// QNs are interned: each distinct name exists once for the process, so a QN is
// one pointer, equality is pointer equality, and sets of them are cheap.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
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
  const std::string_view* reserved_piece() const;
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
    std::string text;        // printed form
    std::string_view piece;  // in `text`: symbol name, attribute name, or literal repr
    const Node* parent = nullptr;
    const Node* index = nullptr;
    // Literals only. (Every distinct name of a program is a node, and a
    // large function has hundreds of thousands: each field counts.)
    std::unique_ptr<const ast::ConstantValue> value;
  };
  friend class QNInterner;
  explicit QN(const Node* n) : node_(n) {}
  const Node* node_;
};

/// A small set of QNs: a sorted array (by identity) in one allocation that
/// holds its own size and capacity, so an empty set is one null pointer. The
/// analyses keep six per scope and a scope per statement: as three-word
/// vectors, the sets were most of a scope's size.
class QNSet {
 public:
  QNSet() = default;
  QNSet(std::initializer_list<QN> qns) {
    for (const auto& q : qns) insert(q);
  }
  QNSet(const QNSet& o) { assign(o.begin(), o.end()); }
  QNSet(QNSet&& o) noexcept : b_(std::exchange(o.b_, nullptr)) {}
  QNSet& operator=(const QNSet& o) {
    if (this != &o) {
      clear();
      assign(o.begin(), o.end());
    }
    return *this;
  }
  QNSet& operator=(QNSet&& o) noexcept {
    std::swap(b_, o.b_);
    return *this;
  }
  ~QNSet() { ::operator delete(b_); }

  bool insert(const QN& q) {
    QN* it = std::lower_bound(data(), data() + size(), q);
    if (it != data() + size() && *it == q) return false;
    size_t at = static_cast<size_t>(it - data());
    reserve(size() + 1);
    std::copy_backward(data() + at, data() + size(), data() + size() + 1);
    data()[at] = q;
    ++b_->size;
    return true;
  }
  /// Large insertions sort once: element-wise inserts into the sorted array
  /// would shift it each time (quadratic for sets built from a bit set).
  template <class It>
  void insert(It first, It last) {
    if (std::distance(first, last) <= 16) {
      for (; first != last; ++first) insert(*first);
      return;
    }
    std::vector<QN> added;
    for (; first != last; ++first) {
      if (!count(*first)) added.push_back(*first);
    }
    if (added.empty()) return;
    std::sort(added.begin(), added.end());
    added.erase(std::unique(added.begin(), added.end()), added.end());
    size_t mid = size();
    reserve(mid + added.size());
    std::copy(added.begin(), added.end(), data() + mid);
    b_->size = static_cast<uint32_t>(mid + added.size());
    std::inplace_merge(data(), data() + mid, data() + size());
  }
  void insert_all(const QNSet& o) { insert(o.begin(), o.end()); }
  size_t count(const QN& q) const { return std::binary_search(begin(), end(), q) ? 1 : 0; }
  void erase(const QN& q) {
    QN* it = std::lower_bound(data(), data() + size(), q);
    if (it == data() + size() || *it != q) return;
    std::copy(it + 1, data() + size(), it);
    --b_->size;
  }
  void clear() {
    ::operator delete(b_);
    b_ = nullptr;
  }
  size_t size() const { return b_ ? b_->size : 0; }
  bool empty() const { return size() == 0; }
  const QN* begin() const { return b_ ? b_->items() : nullptr; }
  const QN* end() const { return begin() + size(); }
  bool operator==(const QNSet& o) const { return std::equal(begin(), end(), o.begin(), o.end()); }
  bool operator!=(const QNSet& o) const { return !(*this == o); }
  /// The members in AutoGraph's (lexicographic) order.
  std::vector<QN> sorted_by_name() const {
    std::vector<QN> out(begin(), end());
    std::sort(out.begin(), out.end(), QN::ByName());
    return out;
  }

 private:
  // The allocation: this header, then `cap` QNs.
  struct Block {
    uint32_t size;
    uint32_t cap;
    QN* items() { return reinterpret_cast<QN*>(this + 1); }
  };
  static_assert(sizeof(Block) == sizeof(QN) && std::is_trivially_copyable_v<QN>);
  QN* data() { return b_ ? b_->items() : nullptr; }
  void reserve(size_t n) {
    size_t cap = b_ ? b_->cap : 0;
    if (n <= cap) return;
    size_t grown = std::max<size_t>(n, cap < 4 ? cap * 2 : cap + cap / 2);  // 1, 2, 4, 6, 9, ...
    auto* b = static_cast<Block*>(::operator new(sizeof(Block) + grown * sizeof(QN)));
    b->size = static_cast<uint32_t>(size());
    b->cap = static_cast<uint32_t>(grown);
    if (b_) std::copy(b_->items(), b_->items() + b_->size, b->items());
    ::operator delete(b_);
    b_ = b;
  }
  template <class It>
  void assign(It first, It last) {
    size_t n = static_cast<size_t>(std::distance(first, last));
    if (n == 0) return;
    reserve(n);
    std::copy(first, last, data());
    b_->size = static_cast<uint32_t>(n);
  }
  Block* b_ = nullptr;
};

/// The QN an expression denotes, if it is a name, or an attribute or subscript
/// of one (with a constant or named index).
std::optional<QN> qn_of(const ast::Ref& expr);

}  // namespace agc::analysis
