// Generated traversals: for_each_child, AstVisitor dispatch, AstMutator dispatch
// and rebuild. Everything here is driven by nodes.def.
#include "transpiler/ast/mutator.h"
#include "transpiler/ast/visitor.h"

namespace agc::ast {

// ---- for_each_child
#define AGC_EACH_ONE(f) if (src.f) fn(src.f);
#define AGC_EACH_OPT(f) if (src.f) fn(src.f);
#define AGC_EACH_LIST(f) for (const auto& c : src.f) if (c) fn(c);
#define AGC_EACH_OPTLIST(f) for (const auto& c : src.f) if (c) fn(c);
#define AGC_EACH_STMTS(f) for (const auto& c : src.f) if (c) fn(c);
#define AGC_EACH_HIDDEN(f)
#define AGC_EACH_STR(f)
#define AGC_EACH_IDENT(f)
#define AGC_EACH_STRS(f)
#define AGC_EACH_BOOL(f)
#define AGC_EACH_INT(f)
#define AGC_EACH_CTX(f)
#define AGC_EACH_BINOP(f)
#define AGC_EACH_UNOP(f)
#define AGC_EACH_BOOLOP(f)
#define AGC_EACH_CMPOPS(f)
#define AGC_EACH_CONST(f)
#define AGC_EACH_LOOPOPTS(f)

void for_each_child(const Node& n, const std::function<void(const Ref&)>& fn) {
  switch (n.kind) {
#define FIELD(kind, name) AGC_EACH_##kind(name)
#define AGC_CASE(Name, Fields)                      \
  case NodeKind::Name: {                            \
    [[maybe_unused]] const auto& src = n.as<Name>(); \
    Fields return;                                  \
  }
#define AGC_STMT(Name, Fields) AGC_CASE(Name, Fields)
#define AGC_EXPR(Name, Fields) AGC_CASE(Name, Fields)
#define AGC_AUX(Name, Fields) AGC_CASE(Name, Fields)
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
#undef AGC_CASE
#undef FIELD
  }
}

KindMask Node::kinds_below() const {
  KindMask m = kinds_below_.load(std::memory_order_relaxed);
  if (m != 0) return m;
  m = kind_bit(kind);
  for_each_child(*this, [&m](const Ref& c) { m |= c->kinds_below(); });
  // Hidden annotations are rewritten by some passes too.
  if (const auto* f = dyn<For>()) {
    if (f->extra_test) m |= f->extra_test->kinds_below();
    for (const auto& o : f->loop_opts) m |= o.value->kinds_below();
  } else if (const auto* w = dyn<While>()) {
    for (const auto& o : w->loop_opts) m |= o.value->kinds_below();
  }
  kinds_below_.store(m, std::memory_order_relaxed);
  return m;
}

// ---- AstVisitor
void AstVisitor::visit(const Ref& n) {
  if (!n) return;
  switch (n->kind) {
#define AGC_CASE(Name, Fields) \
  case NodeKind::Name:         \
    return visit_##Name(std::static_pointer_cast<const Name>(n));
#define AGC_STMT(Name, Fields) AGC_CASE(Name, Fields)
#define AGC_EXPR(Name, Fields) AGC_CASE(Name, Fields)
#define AGC_AUX(Name, Fields) AGC_CASE(Name, Fields)
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
#undef AGC_CASE
  }
}

void AstVisitor::visit_children(const Node& n) {
  for_each_child(n, [this](const Ref& c) { visit(c); });
}

// ---- AstMutator
bool AstMutator::rewrite_block(const Refs& stmts, Refs& out) {
  bool changed = false;
  for (size_t i = 0; i < stmts.size(); ++i) {
    Stmts r = mutate_stmt(stmts[i]);
    if (!changed) {
      if (r.size() == 1 && r[0] == stmts[i]) continue;
      changed = true;
      out.assign(stmts.begin(), stmts.begin() + static_cast<long>(i));
    }
    out.insert(out.end(), r.begin(), r.end());
  }
  return changed;
}

bool AstMutator::rewrite_list(const Refs& items, Refs& out) {
  bool changed = false;
  for (size_t i = 0; i < items.size(); ++i) {
    Ref r = mutate(items[i]);
    if (!changed) {
      if (r == items[i]) continue;
      changed = true;
      out.assign(items.begin(), items.begin() + static_cast<long>(i));
    }
    out.push_back(std::move(r));
  }
  return changed;
}

Refs AstMutator::mutate_block(const Refs& stmts) {
  Refs out;
  return rewrite_block(stmts, out) ? out : stmts;
}

Refs AstMutator::mutate_list(const Refs& items) {
  Refs out;
  return rewrite_list(items, out) ? out : items;
}

Ref AstMutator::mutate_node(const Ref& n) {
  if (!(n->kinds_below() & interest_)) return n;
  switch (n->kind) {
#define AGC_STMT(Name, Fields) \
  case NodeKind::Name:         \
    AGC_UNREACHABLE("statement " #Name " in expression position");
#define AGC_EXPR(Name, Fields) \
  case NodeKind::Name:         \
    return visit_##Name(std::static_pointer_cast<const Name>(n));
#define AGC_AUX(Name, Fields) AGC_EXPR(Name, Fields)
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
  }
  return n;
}

Stmts AstMutator::mutate_statement(const Ref& s) {
  if (!s) return {};
  if (!(s->kinds_below() & interest_)) return s;
  switch (s->kind) {
#define AGC_STMT(Name, Fields) \
  case NodeKind::Name:         \
    return visit_##Name(std::static_pointer_cast<const Name>(s));
#define AGC_EXPR(Name, Fields) \
  case NodeKind::Name:         \
    AGC_UNREACHABLE("expression " #Name " in statement position");
#define AGC_AUX(Name, Fields) AGC_EXPR(Name, Fields)
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
  }
  return s;
}

#define AGC_RB_SET(f, v)          \
  if ((v) != src.f) {             \
    if (!copy) copy = clone(src); \
    copy->f = (v);                \
  }
#define AGC_RB_ONE(f) { auto v = mutate(src.f); AGC_RB_SET(f, v) }
#define AGC_RB_OPT(f) AGC_RB_ONE(f)
#define AGC_RB_LIST(f)                             \
  {                                                \
    Refs v;                                        \
    if (rewrite_list(src.f, v)) {                  \
      if (!copy) copy = clone(src);                \
      copy->f = std::move(v);                      \
    }                                              \
  }
#define AGC_RB_OPTLIST(f) AGC_RB_LIST(f)
#define AGC_RB_STMTS(f)                            \
  {                                                \
    Refs v;                                        \
    if (rewrite_block(src.f, v)) {                 \
      if (!copy) copy = clone(src);                \
      copy->f = std::move(v);                      \
    }                                              \
  }
#define AGC_RB_HIDDEN(f)
#define AGC_RB_STR(f)
#define AGC_RB_IDENT(f)
#define AGC_RB_STRS(f)
#define AGC_RB_BOOL(f)
#define AGC_RB_INT(f)
#define AGC_RB_CTX(f)
#define AGC_RB_BINOP(f)
#define AGC_RB_UNOP(f)
#define AGC_RB_BOOLOP(f)
#define AGC_RB_CMPOPS(f)
#define AGC_RB_CONST(f)
#define AGC_RB_LOOPOPTS(f)

Ref AstMutator::rebuild(const Ref& n) {
  switch (n->kind) {
#define FIELD(kind, name) AGC_RB_##kind(name)
#define AGC_CASE(Name, Fields)                       \
  case NodeKind::Name: {                             \
    [[maybe_unused]] const auto& src = n->as<Name>(); \
    std::shared_ptr<Name> copy;                      \
    Fields return copy ? Ref(copy) : n;              \
  }
#define AGC_STMT(Name, Fields) AGC_CASE(Name, Fields)
#define AGC_EXPR(Name, Fields) AGC_CASE(Name, Fields)
#define AGC_AUX(Name, Fields) AGC_CASE(Name, Fields)
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
#undef AGC_CASE
#undef FIELD
  }
  return n;
}

}  // namespace agc::ast
