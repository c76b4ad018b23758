// The values (value_kinds.h) a function's if/while/for statements and
// conditional expressions decide on, followed through the function as
// written, for `agc explain`.
//
// One walk per function, in statement order: a rebinding replaces a name's
// value, so `x = tf.cast(x, tf.float32)` makes the parameter x a Tensor
// below it; branches are joined where they meet; a loop's head joins its
// entry with what an iteration leaves, as the loop's state does. The walk
// changes one environment and undoes what a branch or an iteration did, so
// its cost grows with what each statement binds, not with how many names
// the function has.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "transpiler/ast/ast.h"
#include "transpiler/report/value_kinds.h"

namespace agc::report {

/// How a function's parameters start.
struct Parameters {
  /// The function's name, for "argument of f".
  std::string function;
  /// A method's first parameter (the object itself).
  bool method = false;
  /// Parameters an input_signature declares as tf.TensorSpec, by position
  /// (a method's object not counted).
  std::vector<bool> tensor_specs;
};

/// The values at each if/while/for of one function (and of the defs nested
/// in it) as written.
class FunctionValues {
 public:
  /// `outer`: what the function sees of the names it does not bind (the
  /// module's). `imports`: local name -> module path (`tf` -> `tensorflow`).
  FunctionValues(const ast::FunctionDef& fn, const Parameters& params, const Env& outer,
                 const std::map<std::string, std::string>& imports);

  struct AtStatement {
    /// An if's or a while's test, or a for's iterate, where it is evaluated
    /// first (before the statement).
    ValueOf decider;
    /// A while's test at the loop's head, each time round.
    ValueOf decider_at_head;
    /// A loop: the names it binds, as they are before it and at its head.
    Env entry, head;
    /// A simple statement: its conditional expressions and their tests.
    std::vector<std::pair<const ast::Node*, ValueOf>> conditionals;
  };
  /// The values at an if/while/for of the function or of a def nested in it
  /// (the node as written), or at a simple statement holding conditional
  /// expressions; null for any other node.
  const AtStatement* at(const ast::Node* stmt) const;

 private:
  friend class ValueWalker;
  friend Env module_values(const ast::Module& m, const std::map<std::string, std::string>& imports);
  explicit FunctionValues(const std::map<std::string, std::string>& imports) : imports_(imports) {}
  const std::map<std::string, std::string>& imports_;
  std::unordered_map<const ast::Node*, AtStatement> at_;
};

/// The values of a module's top-level names (imports, defs, assignments).
Env module_values(const ast::Module& m, const std::map<std::string, std::string>& imports);

}  // namespace agc::report
