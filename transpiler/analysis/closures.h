// Python's closures (CPython's symtable: local, cell and free variables) for
// the C++ emitter, over Activity's scopes. For every def, lambda and
// comprehension of a tree: the names local to it; which of them live in
// shared cells because a nested function that may outlive the frame uses
// them (Python's late binding: the closure sees later assignments, and
// `nonlocal` writes reach the frame); the names it uses from enclosing
// functions (what a closure captures); and whether it may outlive the frame
// that makes it. A nested def that is only called in its frame, or handed to
// AutoGraph's control-flow operators (if_body, loop_body, get_state, ...),
// and the thunks of ag__.if_exp/and_/or_/ldu do not: their locals stay plain.
//
//   def make_counter():          make_counter: locals {count, inc}, cells {count}
//     count = 0
//     def inc():                 inc: escapes (returned), free {count}
//       nonlocal count
//       count += 1
//       return count
//     return inc
//
// Reference counting has no cycle collector, and a recursive nested def
// would hold the cell that holds it. So a def that names itself, where the
// enclosing scope binds that name only by this def (no other assignment, no
// nested `nonlocal` write), reads it as `self_name`: a local of its own that
// holds the function itself, reached without keeping it alive.
#pragma once

#include <deque>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

#include "transpiler/ast/ast.h"
#include "transpiler/base/identifier.h"

namespace agc::analysis {

class AnalysisCache;

/// Names in text order (the order the emitter declares them in), looked up
/// by any string.
using NameSet = std::set<Identifier, std::less<>>;

/// One Python scope: a def, a lambda or a comprehension.
struct Closure {
  enum class Kind { Function, Lambda, Comprehension };
  Kind kind = Kind::Function;
  const ast::Node* node = nullptr;
  /// The enclosing scope; null at module level, whose names are globals.
  const Closure* parent = nullptr;
  /// Where owner() looks after this scope: `parent`, or past the lambdas that
  /// bind no name (the thunks of an and/or chain of n operands nest n deep).
  const Closure* lookup_parent = nullptr;
  /// Names bound here (parameters included), not declared global or nonlocal.
  NameSet locals;
  /// Names declared `global` here.
  NameSet globals;
  /// The locals a nested scope that may outlive this frame uses: shared cells.
  NameSet cells;
  /// Names used here or in a nested scope that belong to an enclosing scope.
  NameSet free;
  /// The nested defs bound here that do not escape (local functions of this
  /// frame), by name.
  std::map<std::string, const ast::FunctionDef*> local_functions;
  /// May outlive the frame that makes it: stored, returned or passed on.
  bool escapes = true;
  /// A recursive def's own name (one of its locals; see above), or "".
  std::string self_name;
};

class Closures {
 public:
  /// The closures of `root`: a converted function, or a module-level statement
  /// (whose own names are globals).
  static Closures compute(const ast::Ref& root, AnalysisCache& cache);

  /// The scope of a FunctionDef, Lambda or comprehension node of the tree.
  const Closure* scope(const ast::Node* n) const;
  /// The scope `name` belongs to when used in `from` (null: module level):
  /// the innermost one binding it, or null for a global or builtin. Costs one
  /// step per enclosing scope that binds names, not per enclosing scope.
  static const Closure* owner(const Closure* from, const std::string& name);

 private:
  friend class ClosureBuilder;
  std::deque<Closure> scopes_;
  std::unordered_map<const ast::Node*, Closure*> by_node_;
};

}  // namespace agc::analysis
