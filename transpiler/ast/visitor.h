// Read-only traversal over the AST, one overridable hook per node kind (generated
// from nodes.def, so a new kind cannot be silently skipped). Hidden annotation
// fields (For.extra_test, loop options) are not traversed.
#pragma once

#include <functional>

#include "transpiler/ast/ast.h"

namespace agc::ast {

/// Calls `fn` on every non-null child of `n` in field order.
void for_each_child(const Node& n, const std::function<void(const Ref&)>& fn);

class AstVisitor {
 public:
  virtual ~AstVisitor() = default;
  /// Visits `n` (null is ignored) through its kind's hook.
  void visit(const Ref& n);
  void visit_all(const Refs& ns) {
    for (const auto& n : ns) visit(n);
  }

 protected:
  /// Visits every child of `n`; the default behaviour of each hook.
  void visit_children(const Node& n);

#define AGC_VISIT_HOOK(Name, Fields) \
  virtual void visit_##Name(const Ptr<Name>& n) { visit_children(*n); }
#define AGC_STMT(Name, Fields) AGC_VISIT_HOOK(Name, Fields)
#define AGC_EXPR(Name, Fields) AGC_VISIT_HOOK(Name, Fields)
#define AGC_AUX(Name, Fields) AGC_VISIT_HOOK(Name, Fields)
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
#undef AGC_VISIT_HOOK
};

}  // namespace agc::ast
