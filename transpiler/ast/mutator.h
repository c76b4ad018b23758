// Rewriting traversal over the immutable AST. Each hook returns the replacement:
// a statement hook returns zero or more statements (so a rewrite can expand one
// statement into several, as AutoGraph's converters do), other hooks return one
// node. rebuild() keeps the node itself when no child changed (Halide's with()).
#pragma once

#include "transpiler/ast/ast.h"

namespace agc::ast {

class AstMutator {
 public:
  virtual ~AstMutator() = default;

  /// Rewrites a non-statement node; null stays null.
  Ref mutate(const Ref& n) { return n ? mutate_node(n) : n; }
  /// Rewrites one statement into its replacement statements.
  Refs mutate_stmt(const Ref& s) { return mutate_statement(s); }
  /// Rewrites a block, concatenating the replacements of its statements.
  Refs mutate_block(const Refs& stmts);
  /// Rewrites each entry of a node list; null entries stay null. Overridable so
  /// a rewrite may splice several nodes in place of one (quote() does).
  virtual Refs mutate_list(const Refs& items);

 protected:
  /// Kind dispatch; override to intercept every node (a deep copier does).
  virtual Ref mutate_node(const Ref& n);
  virtual Refs mutate_statement(const Ref& s);

  /// `n` with every child rewritten; `n` itself when nothing changed.
  Ref rebuild(const Ref& n);
  template <class T>
  Ptr<T> rebuild(const Ptr<T>& n) {
    return std::static_pointer_cast<const T>(rebuild(Ref(n)));
  }

#define AGC_STMT(Name, Fields) \
  virtual Refs visit_##Name(const Ptr<Name>& n) { return {rebuild(Ref(n))}; }
#define AGC_EXPR(Name, Fields) \
  virtual Ref visit_##Name(const Ptr<Name>& n) { return rebuild(Ref(n)); }
#define AGC_AUX(Name, Fields) \
  virtual Ref visit_##Name(const Ptr<Name>& n) { return rebuild(Ref(n)); }
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
};

}  // namespace agc::ast
