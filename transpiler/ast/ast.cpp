#include "transpiler/ast/ast.h"

#include <algorithm>
#include <functional>
#include <type_traits>

#include "transpiler/ast/mutator.h"
#include "transpiler/ast/visitor.h"

namespace agc::ast {

bool is_stmt(NodeKind k) {
  switch (k) {
#define AGC_STMT(Name, Fields) case NodeKind::Name: return true;
#define AGC_EXPR(Name, Fields) case NodeKind::Name: return false;
#define AGC_AUX(Name, Fields) case NodeKind::Name: return false;
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
  }
  return false;
}

bool is_expr(NodeKind k) {
  switch (k) {
#define AGC_STMT(Name, Fields) case NodeKind::Name: return false;
#define AGC_EXPR(Name, Fields) case NodeKind::Name: return true;
#define AGC_AUX(Name, Fields) case NodeKind::Name: return false;
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
  }
  return false;
}

const char* kind_name(NodeKind k) {
  switch (k) {
#define AGC_STMT(Name, Fields) case NodeKind::Name: return #Name;
#define AGC_EXPR(Name, Fields) case NodeKind::Name: return #Name;
#define AGC_AUX(Name, Fields) case NodeKind::Name: return #Name;
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
  }
  return "?";
}

std::shared_ptr<Node> clone_node(const Node& n) {
  switch (n.kind) {
#define AGC_STMT(Name, Fields) case NodeKind::Name: return clone(static_cast<const Name&>(n));
#define AGC_EXPR(Name, Fields) case NodeKind::Name: return clone(static_cast<const Name&>(n));
#define AGC_AUX(Name, Fields) case NodeKind::Name: return clone(static_cast<const Name&>(n));
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
  }
  AGC_UNREACHABLE("unknown node kind");
}

namespace {

class DeepCopier : public AstMutator {
 public:
  Ref copy(const Ref& n) {
    if (!n) return n;
    Ref rebuilt = rebuild(n);
    // rebuild() keeps identity when no child changed; a deep copy never does.
    return rebuilt == n ? Ref(clone_node(*n)) : rebuilt;
  }

 protected:
  Ref mutate_node(const Ref& n) override { return copy(n); }
  Stmts mutate_statement(const Ref& n) override { return copy(n); }
};

}  // namespace

Ref deep_copy(const Ref& n) {
  DeepCopier c;
  return c.copy(n);
}

bool is_generator(const FunctionDef& f) {
  const KindMask yields = kinds({NodeKind::Yield, NodeKind::YieldFrom});
  const KindMask scopes = kinds({NodeKind::FunctionDef, NodeKind::Lambda, NodeKind::ClassDef});
  std::function<bool(const Ref&)> has_yield = [&](const Ref& n) {
    if ((n->kinds_below() & yields) == 0) return false;
    if (n->kind == NodeKind::Yield || n->kind == NodeKind::YieldFrom) return true;
    if ((kind_bit(n->kind) & scopes) != 0) return false;
    bool found = false;
    for_each_child(*n, [&](const Ref& c) { found = found || has_yield(c); });
    return found;
  };
  return std::any_of(f.body.begin(), f.body.end(), has_yield);
}

namespace {

// A copy of the target `n` with `ctx` (its elements too, for a tuple, list or
// starred target), or `n` itself when nothing differs: a node spliced in
// uncopied keeps its identity.
template <class T>
Ref retarget(const Ref& n, ExprContext ctx) {
  const auto& t = n->as<T>();
  bool same = t.ctx == ctx;
  Refs elts;
  Ref value;
  if constexpr (std::is_same_v<T, Tuple> || std::is_same_v<T, List>) {
    for (const auto& e : t.elts) {
      elts.push_back(with_context(e, ctx));
      same = same && elts.back() == e;
    }
  } else if constexpr (std::is_same_v<T, Starred>) {
    value = with_context(t.value, ctx);
    same = same && value == t.value;
  }
  if (same) return n;
  auto c = clone(t);
  c->ctx = ctx;
  if constexpr (std::is_same_v<T, Tuple> || std::is_same_v<T, List>) c->elts = std::move(elts);
  if constexpr (std::is_same_v<T, Starred>) c->value = std::move(value);
  return c;
}

}  // namespace

Ref with_context(const Ref& n, ExprContext ctx) {
  if (!n) return n;
  switch (n->kind) {
    case NodeKind::Name: return retarget<Name>(n, ctx);
    case NodeKind::Attribute: return retarget<Attribute>(n, ctx);
    case NodeKind::Subscript: return retarget<Subscript>(n, ctx);
    case NodeKind::Starred: return retarget<Starred>(n, ctx);
    case NodeKind::Tuple: return retarget<Tuple>(n, ctx);
    case NodeKind::List: return retarget<List>(n, ctx);
    default: return n;
  }
}

Ref name(std::string id, ExprContext ctx, SourceSpan span, bool from_source) {
  auto n = make<Name>(span);
  n->id = std::move(id);
  n->ctx = ctx;
  n->from_source = from_source;
  return n;
}

Ref constant(ConstantValue v, SourceSpan span) {
  auto n = make<Constant>(span);
  n->value = std::move(v);
  return n;
}

Ref str_constant(std::string s, SourceSpan span) { return constant(ConstantValue::of_str(std::move(s)), span); }

}  // namespace agc::ast
