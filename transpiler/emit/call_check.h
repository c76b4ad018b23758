// Transpile-time checks of a call's arguments against a signature known at
// transpile time (a tf.*, np.* or standard-module row of the runtime's
// tables, a def of the program): Python's TypeError text, from the same
// function the compiled program words it with (runtime/value/binding_error.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runtime/value/binding_error.h"
#include "transpiler/ast/ast.h"

namespace agc::emit {

/// A signature's shape: its name as TypeErrors say it and its parameters.
class SignatureShape {
 public:
  /// "zeros(shape, dtype=tf.float32, name=None)" (a table row's signature).
  static SignatureShape parse(std::string_view text);
  /// A parameter list as scripts/public_api.py writes it ("x, name=, *args, **kw", with "/" and "*").
  static SignatureShape parse_params(std::string name, std::string_view params);
  /// A def's parameters; `name` is its qualname ("f", "Count.__init__").
  static SignatureShape of(const ast::FunctionDef& f, std::string name);

  const std::string& name() const { return name_; }
  std::vector<ag::ParamShape> params() const;
  /// Whether it takes keyword `k` (by name, or through **kwargs).
  bool accepts_keyword(std::string_view k) const;
  /// The parameter names a keyword can name (for "did you mean").
  std::vector<std::string_view> keyword_names() const;

 private:
  struct Param {
    std::string name;
    ag::ParamKind kind;
    bool has_default;
  };
  void add(std::string_view spec, bool& star);
  std::string name_;
  std::vector<Param> params_;
};

/// The TypeError text for calling `sig` with `args` and `keywords` (a
/// call's AST), or "" when it binds or cannot be told (a `*` or `**` argument).
std::string call_error(const SignatureShape& sig, const ast::Refs& args, const ast::Refs& keywords);

/// The keyword of `keywords` that `sig` does not take, or "" (for a suggestion).
std::string_view unexpected_keyword(const SignatureShape& sig, const ast::Refs& keywords);

}  // namespace agc::emit
