#include "transpiler/analysis/qual_names.h"

#include <memory>
#include <mutex>
#include <unordered_map>

#include "transpiler/ast/python_repr.h"

namespace agc::analysis {

/// The process-wide table of QNs. Names are never freed: the set of distinct
/// names in any program is small.
class QNInterner {
 public:
  static QNInterner& get() {
    static QNInterner* instance = new QNInterner();  // never destroyed: QNs may outlive statics
    return *instance;
  }

  const QN::Node* intern(QN::Kind kind, std::string_view piece, const QN::Node* parent, const QN::Node* index,
                         const ast::ConstantValue* value, std::string text) {
    std::string key;
    key.reserve(text.size() + 24);
    key += static_cast<char>('0' + static_cast<int>(kind));
    key.append(reinterpret_cast<const char*>(&parent), sizeof parent);
    key.append(reinterpret_cast<const char*>(&index), sizeof index);
    key += piece;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = table_.find(key);
    if (it != table_.end()) return it->second.get();
    auto n = std::make_unique<QN::Node>();
    n->kind = kind;
    n->text = std::move(text);
    // The piece is the text's tail: all of a symbol's or literal's, an
    // attribute's name after its dot; a subscript has none.
    n->piece = std::string_view(n->text).substr(n->text.size() - piece.size());
    AGC_CHECK(n->piece == piece) << "QN piece '" << piece << "' is not the end of '" << n->text << "'";
    n->parent = parent;
    n->index = index;
    if (value) n->value = std::make_unique<const ast::ConstantValue>(*value);
    const QN::Node* raw = n.get();
    table_.emplace(std::move(key), std::move(n));
    return raw;
  }

  static QN make(const QN::Node* n) { return QN(n); }

 private:
  std::mutex mu_;
  std::unordered_map<std::string, std::unique_ptr<QN::Node>> table_;
};

QN QN::symbol(std::string_view name) {
  // Plain names are by far the most looked up; a per-thread front cache skips
  // the shared table's lock.
  // Keyed by the node's own text (nodes are never freed).
  thread_local std::unordered_map<std::string_view, const Node*> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return QN(it->second);
  const Node* n = QNInterner::get().intern(Kind::Symbol, name, nullptr, nullptr, nullptr, std::string(name));
  cache.emplace(n->text, n);
  return QN(n);
}

QN QN::literal(const ast::ConstantValue& value) {
  // AutoGraph prints string literals in single quotes without escaping.
  std::string text =
      value.kind == ast::ConstantValue::Kind::Str ? "'" + value.text + "'" : ast::repr_constant(value);
  return QN(QNInterner::get().intern(Kind::Literal, text, nullptr, nullptr, &value, text));
}

QN QN::attribute(QN parent, std::string_view attr) {
  std::string text = parent.str() + "." + std::string(attr);
  return QN(QNInterner::get().intern(Kind::Attribute, attr, parent.node_, nullptr, nullptr, std::move(text)));
}

QN QN::subscript(QN parent, QN index) {
  std::string text = parent.str() + "[" + index.str() + "]";
  return QN(QNInterner::get().intern(Kind::Subscript, "", parent.node_, index.node_, nullptr, std::move(text)));
}

QN QN::parent() const {
  AGC_CHECK(node_->parent) << "QN " << str() << " has no parent";
  return QN(node_->parent);
}

std::vector<QN> QN::support_set() const {
  switch (node_->kind) {
    case Kind::Symbol:
    case Kind::Literal:
      return {*this};
    case Kind::Attribute:
      return parent().support_set();
    case Kind::Subscript: {
      auto out = parent().support_set();
      auto idx = QN(node_->index).support_set();
      for (const auto& q : idx) {
        if (std::find(out.begin(), out.end(), q) == out.end()) out.push_back(q);
      }
      return out;
    }
  }
  return {};
}

std::string QN::ssf() const {
  switch (node_->kind) {
    case Kind::Symbol:
      return std::string(node_->piece);
    case Kind::Literal: {
      std::string s;
      for (char c : node_->piece) {
        if (c != '\'' && c != '"') s += c;
      }
      return s;
    }
    case Kind::Attribute:
      return parent().ssf() + "_" + std::string(node_->piece);
    case Kind::Subscript:
      return parent().ssf() + "_sub_" + QN(node_->index).ssf();
  }
  return node_->text;
}

const std::string_view* QN::reserved_piece() const {
  // AutoGraph reserves the string pieces of a QN's `qn` tuple: the name of a
  // symbol, and the attribute of an attribute access.
  return node_->kind == Kind::Symbol || node_->kind == Kind::Attribute ? &node_->piece : nullptr;
}

ast::Ref QN::ast(ast::ExprContext ctx, SourceSpan span) const {
  using namespace agc::ast;
  switch (node_->kind) {
    case Kind::Symbol:
      return name(std::string(node_->piece), ctx, span);
    case Kind::Literal:
      return constant(*node_->value, span);
    case Kind::Attribute: {
      auto a = make<Attribute>(span);
      a->value = parent().ast(ExprContext::Load, span);
      a->attr = node_->piece;
      a->ctx = ctx;
      return a;
    }
    case Kind::Subscript: {
      auto s = make<Subscript>(span);
      s->value = parent().ast(ExprContext::Load, span);
      s->slice = QN(node_->index).ast(ExprContext::Load, span);
      s->ctx = ctx;
      return s;
    }
  }
  return nullptr;
}

std::optional<QN> qn_of(const ast::Ref& e) {
  using namespace agc::ast;
  if (!e) return std::nullopt;
  switch (e->kind) {
    case NodeKind::Name:
      return QN::symbol(e->as<Name>().id);
    case NodeKind::Attribute: {
      auto parent = qn_of(e->as<Attribute>().value);
      if (!parent) return std::nullopt;
      return QN::attribute(*parent, e->as<Attribute>().attr);
    }
    case NodeKind::Subscript: {
      const auto& s = e->as<Subscript>();
      std::optional<QN> index;
      if (const auto* c = s.slice->dyn<Constant>()) {
        if (c->value.kind == ConstantValue::Kind::Ellipsis) return std::nullopt;
        index = QN::literal(c->value);
      } else if (s.slice->is<Tuple>() || s.slice->is<Slice>()) {
        return std::nullopt;
      } else {
        index = qn_of(s.slice);
        if (!index) return std::nullopt;
      }
      auto parent = qn_of(s.value);
      if (!parent) return std::nullopt;
      return QN::subscript(*parent, *index);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace agc::analysis
