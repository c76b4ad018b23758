// What a value is when a function is traced, read from the source before
// anything runs, for `agc explain`: a Tensor (a tf op's result), a
// tf.data.Dataset, a Python value (literals, Python ranges, static shapes),
// the caller's argument, or something only tracing decides. AutoGraph stages
// a statement or runs it as Python by what its condition or iterate is at
// trace time, so this is what the report needs. It never guesses: what the
// source does not justify is Unknown (or Mixed, when paths disagree), and
// the report says what it depends on. value_flow.h follows names through a
// function.
#pragma once

#include <map>
#include <memory>
#include <string>
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
  /// This value with `reason` as its first reason ("y = x at line 3").
  ValueOf explained_by(std::string reason) const;
};

/// Names to what they hold.
using Env = std::map<std::string, ValueOf>;

/// The values of two paths meeting.
ValueOf join(const ValueOf& a, const ValueOf& b);
/// What a for loop over `iterated` binds its target to.
ValueOf element_of(const ValueOf& iterated);

/// What `expr` is, with the names of `env` (and `imports`: local name ->
/// module path, `tf` -> `tensorflow`).
ValueOf evaluate(const ast::Ref& expr, const Env& env, const std::map<std::string, std::string>& imports);
/// What `left op right` is (also `left op= right`).
ValueOf arithmetic(const ValueOf& left, const ValueOf& right, ast::BinOpKind op);

/// `expr` as source, shortened to about `width` characters for a report line.
std::string abbreviated(const ast::Node& expr, size_t width = 40);

}  // namespace agc::report
