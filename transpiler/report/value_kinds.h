// What the values a function's conditions and loops see are when it is
// traced, read from the source before anything runs, for `agc explain`: a
// Tensor (a tf op's result), a tf.data.Dataset, a Python value (literals,
// Python ranges, static shapes), the caller's argument, or something only
// tracing decides. AutoGraph stages a statement or runs it as Python by what
// its condition or iterate is at trace time, so this is what the report
// needs. It never guesses: what the source does not justify is Unknown (or
// Mixed, when paths disagree), and the report says what it depends on.
//
// One walk per function, in statement order: branches are joined where they
// meet, a loop's head joins its entry with what an iteration leaves (as the
// loop's state does), and a rebinding replaces a name's value, so
// `x = tf.cast(x, tf.float32)` makes the parameter x a Tensor below it.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "transpiler/ast/ast.h"

namespace agc::report {

enum class Kind {
  Unknown,      // nothing in the source says (a call of a user function, an attribute)
  Python,       // a Python value at trace time: literals, containers, ranges of ints, static shapes
  Tensor,       // a tf op's result (tf.Variable too, which conditions treat as one)
  Dataset,      // a tf.data.Dataset, or an iterator over one
  TensorArray,  // a tf.TensorArray
  Argument,     // what the caller passes: a Tensor or a Python value
  Mixed,        // different kinds on different paths, or a mix only values decide
};

/// What an expression's value is at trace time, and why.
struct ValueOf {
  Kind kind = Kind::Unknown;
  /// Where that comes from, for the report, in the order found, at most a
  /// few: "x: argument of f", "n = 3 (line 2)", "tf.reduce_sum(...) is a Tensor".
  std::vector<std::string> reasons;
  /// A Python value's type when the source shows it ("int", "float", "bool",
  /// "str", "range", "list", "tuple", "dict", "NoneType"), else "".
  std::string python_type;
  /// A Python literal number or bool as written ("0", "0.5", "True"), else "".
  std::string literal;
  /// A Python sequence's length when the source shows it, else -1.
  long long length = -1;
  /// What iterating it gives, when the source shows it (a display's items,
  /// a range's ints); null otherwise.
  std::shared_ptr<const ValueOf> element;
  /// A Tensor made by range(...) or tf.range(...), which a for loop walks as
  /// a counter instead of unstacking it.
  bool range = false;

  static ValueOf of(Kind kind, std::string reason = "");
  static ValueOf python(std::string type, std::string reason = "");
};

/// Names to what they hold.
using Env = std::map<std::string, ValueOf>;

/// The values of two paths meeting.
ValueOf join(const ValueOf& a, const ValueOf& b);
/// What a for loop over `iterated` binds its target to.
ValueOf element_of(const ValueOf& iterated);

/// How a function's parameters start.
struct Parameters {
  /// The function's name, for "argument of f".
  std::string function;
  /// A method's first parameter (the object itself).
  bool method = false;
  /// Parameters an input_signature declares as tf.TensorSpec, by position.
  std::vector<bool> tensor_specs;
};

/// The values at each if/while/for of one function (and of the defs nested
/// in it) as written.
class FunctionValues {
 public:
  /// `outer`: what the function sees of the names it does not bind (the
  /// module's, or an enclosing function's at the def). `imports`: local name
  /// -> module path (`tf` -> `tensorflow`).
  FunctionValues(const ast::FunctionDef& fn, const Parameters& params, const Env& outer,
                 const std::map<std::string, std::string>& imports);

  struct AtStatement {
    /// Before the statement: what an if's test and a for's iterate see, and
    /// a while's test the first time.
    Env entry;
    /// At a loop's head, each time round: the entry joined with what an
    /// iteration leaves. The entry for an if.
    Env head;
  };
  /// The values at an if/while/for of the function or of a def nested in it
  /// (the node as written), or at a simple statement holding a conditional
  /// expression; null for any other node.
  const AtStatement* at(const ast::Node* stmt) const;
  /// The parameters of the function or of a def nested in it.
  const Parameters* parameters(const ast::Node* def) const;

  /// What `expr` is, evaluated with `env`.
  ValueOf eval(const ast::Ref& expr, const Env& env) const;

 private:
  friend class ValueWalker;
  friend Env module_values(const ast::Module& m, const std::map<std::string, std::string>& imports);
  explicit FunctionValues(const std::map<std::string, std::string>& imports) : imports_(imports) {}
  const std::map<std::string, std::string>& imports_;
  std::unordered_map<const ast::Node*, AtStatement> at_;
  std::unordered_map<const ast::Node*, Parameters> params_;
};

/// The values of a module's top-level names (imports, defs, assignments).
Env module_values(const ast::Module& m, const std::map<std::string, std::string>& imports);

/// `expr` as source, shortened to about `width` characters for a report line.
std::string abbreviated(const ast::Node& expr, size_t width = 40);

}  // namespace agc::report
