#include "transpiler/analysis/qual_names.h"

#include "transpiler/emit/python_repr.h"

namespace agc::analysis {

QN QN::symbol(std::string name) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Symbol;
  n->text = name;
  n->piece = std::move(name);
  return QN(n);
}

QN QN::literal(const ast::ConstantValue& value) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Literal;
  // AutoGraph prints string literals in single quotes without escaping.
  n->text = value.kind == ast::ConstantValue::Kind::Str ? "'" + value.text + "'" : emit::repr_constant(value);
  n->piece = n->text;
  n->value = value;
  return QN(n);
}

QN QN::attribute(const QN& parent, std::string attr) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Attribute;
  n->text = parent.str() + "." + attr;
  n->piece = std::move(attr);
  n->parent = parent.node_;
  return QN(n);
}

QN QN::subscript(const QN& parent, const QN& index) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Subscript;
  n->text = parent.str() + "[" + index.str() + "]";
  n->parent = parent.node_;
  n->index = index.node_;
  return QN(n);
}

QN QN::parent() const {
  AGC_CHECK(node_->parent) << "QN " << str() << " has no parent";
  return QN(node_->parent);
}

std::set<QN> QN::support_set() const {
  std::set<QN> out;
  switch (node_->kind) {
    case Kind::Symbol:
    case Kind::Literal:
      out.insert(*this);
      break;
    case Kind::Attribute:
      out = parent().support_set();
      break;
    case Kind::Subscript: {
      out = parent().support_set();
      auto idx = QN(node_->index).support_set();
      out.insert(idx.begin(), idx.end());
      break;
    }
  }
  return out;
}

std::string QN::ssf() const {
  switch (node_->kind) {
    case Kind::Symbol:
      return node_->piece;
    case Kind::Literal: {
      std::string s;
      for (char c : node_->piece) {
        if (c != '\'' && c != '"') s += c;
      }
      return s;
    }
    case Kind::Attribute:
      return parent().ssf() + "_" + node_->piece;
    case Kind::Subscript:
      return parent().ssf() + "_sub_" + QN(node_->index).ssf();
  }
  return node_->text;
}

void QN::reserved_names(std::set<std::string>& out) const {
  // AutoGraph reserves the string pieces of a QN's `qn` tuple: the name of a
  // symbol, and the attribute of an attribute access.
  if (node_->kind == Kind::Symbol || node_->kind == Kind::Attribute) out.insert(node_->piece);
}

ast::Ref QN::ast(ast::ExprContext ctx, SourceSpan span) const {
  using namespace agc::ast;
  switch (node_->kind) {
    case Kind::Symbol:
      return name(node_->piece, ctx, span);
    case Kind::Literal:
      return constant(node_->value, span);
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
