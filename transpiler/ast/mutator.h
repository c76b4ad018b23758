// Rewriting traversal over the immutable AST. Each hook returns the replacement:
// a statement hook returns zero or more statements (so a rewrite can expand one
// statement into several, as AutoGraph's converters do), other hooks return one
// node. rebuild() keeps the node itself when no child changed (Halide's with()).
#pragma once

#include "transpiler/ast/ast.h"

namespace agc::ast {

/// What a statement hook returns: usually one statement, kept inline (no
/// allocation), sometimes none or several.
class Stmts {
 public:
  Stmts() = default;
  Stmts(Ref one) : one_(std::move(one)), n_(one_ ? 1 : 0) {}
  template <class T>
  Stmts(std::shared_ptr<T> one) : Stmts(Ref(std::move(one))) {}
  Stmts(Refs many) : many_(std::move(many)), n_(many_.size()), many_used_(true) {}
  Stmts(std::initializer_list<Ref> list) {
    if (list.size() == 1) {
      one_ = *list.begin();
      n_ = one_ ? 1 : 0;
    } else {
      many_.assign(list.begin(), list.end());
      n_ = many_.size();
      many_used_ = true;
    }
  }

  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const Ref* begin() const { return many_used_ ? many_.data() : &one_; }
  const Ref* end() const { return begin() + n_; }
  const Ref& operator[](size_t i) const { return begin()[i]; }
  const Ref& front() const { return *begin(); }
  operator Refs() const { return Refs(begin(), end()); }

 private:
  Ref one_;
  Refs many_;
  size_t n_ = 0;
  bool many_used_ = false;
};

class AstMutator {
 public:
  /// `interest`: the node kinds this mutator's hooks rewrite. Subtrees holding
  /// none of them are returned untouched without being walked. A mutator that
  /// overrides a hook must include that hook's kind; the default is every kind.
  explicit AstMutator(KindMask interest = ~KindMask{0}) : interest_(interest) {}
  virtual ~AstMutator() = default;

  /// Rewrites a non-statement node; null stays null.
  Ref mutate(const Ref& n) { return n ? mutate_node(n) : n; }
  /// Rewrites one statement into its replacement statements.
  Stmts mutate_stmt(const Ref& s) { return mutate_statement(s); }
  /// Rewrites a block, concatenating the replacements of its statements.
  Refs mutate_block(const Refs& stmts);
  /// Rewrites each entry of a node list; null entries stay null.
  Refs mutate_list(const Refs& items);
  /// Like mutate_block / mutate_list, but only build `out` when something
  /// changed (and say so): unchanged trees cost no allocation.
  bool rewrite_block(const Refs& stmts, Refs& out);
  virtual bool rewrite_list(const Refs& items, Refs& out);

 protected:
  /// Kind dispatch; override to intercept every node (a deep copier does).
  virtual Ref mutate_node(const Ref& n);
  virtual Stmts mutate_statement(const Ref& s);

  /// `n` with every child rewritten; `n` itself when nothing changed.
  Ref rebuild(const Ref& n);
  template <class T>
  Ptr<T> rebuild(const Ptr<T>& n) {
    return std::static_pointer_cast<const T>(rebuild(Ref(n)));
  }

  KindMask interest_;

#define AGC_STMT(Name, Fields) \
  virtual Stmts visit_##Name(const Ptr<Name>& n) { return rebuild(Ref(n)); }
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
