// The C++ emitter's state, shared by its files: cpp_module.cpp (the module,
// its functions and classes, the header and main), cpp_stmt.cpp (statements),
// cpp_expr.cpp (expressions and calls), cpp_scope.cpp (which names each C++
// scope declares). Internal to transpiler/emit.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "transpiler/ast/ast.h"
#include "transpiler/base/diagnostic.h"

namespace agc::emit::cpp {

/// The names one Python scope binds (Python's rule: a name assigned anywhere
/// in a function is local to all of it, unless declared global/nonlocal).
struct ScopeNames {
  std::set<std::string> bound;
  std::set<std::string> globals;
  std::set<std::string> nonlocals;
};
/// The names `body` binds, not looking into nested functions, classes,
/// lambdas or comprehensions (they are scopes of their own; a nested def's
/// name is bound here).
ScopeNames scope_names(const ast::Refs& body);
/// The parameter names of `args`, in order.
std::vector<std::string> param_names(const ast::Arguments& args);
/// The parameter list of the C++ lambda behind a callable Value with
/// `num_params` Python parameters: `ag_args` goes unnamed when there are none,
/// or -Wunused-parameter rejects the generated code.
std::string value_lambda_params(size_t num_params);
/// The C++ parameter list of def `f`'s function or lambda, `ag::Value x, ...`
/// for `params`, with [[maybe_unused]] on those its body never names (Python
/// may ignore a parameter: AutoGraph's `set_state(block_vars)` does), so the
/// generated code compiles under -Wextra -Werror.
std::string value_params(const ast::FunctionDef& f, const std::vector<std::string>& params);

/// The nested defs of `body` that can be plain C++ lambdas (`auto f = [&](...)`):
/// positional parameters only, no decorators, and only called positionally
/// or passed to an ag__ operator after their definition. The others become
/// callable ag::Values.
std::set<std::string> lambda_defs(const ast::Refs& body);

/// `parts` joined by `sep`.
std::string join(const std::vector<std::string>& parts, const char* sep = ", ");
/// `ag__.ld(x)` -> x; anything else unchanged.
const ast::Ref& unwrap_ld(const ast::Ref& e);
/// `super()`, or its converted form `ag__.converted_call(ag__.ld(super), (), None, fscope)`.
bool is_super_call(const ast::Ref& e);

/// `op` for a call `ag__.op(...)`, else "".
std::string ag_operator(const ast::Ref& e);

/// The names `X` of `X = ag__.list_append(X, ...)` / `X, _ = ag__.list_pop(X, ...)`
/// anywhere in `body`: the loop's list_symbols.
std::set<std::string> list_symbols(const ast::Refs& body);

struct Scope {
  enum class Kind { Module, Function, Lambda, Comprehension };
  Kind kind = Kind::Function;
  std::set<std::string> locals;         // ag::Value variables of this C++ scope
  std::set<std::string> lambda_defs;    // nested defs emitted as C++ lambdas
  std::set<std::string> globals;        // declared `global`
  /// Nested defs seen so far, by name (a loop's body, for its list_symbols).
  std::map<std::string, const ast::FunctionDef*> nested_defs;
  std::string class_name;               // for a method: its class (for super())
  std::string self_name;                // for a method: its first parameter
};

class Emitter {
 public:
  Emitter(const SourceFile& file, DiagnosticSink& sink) : file_(file), sink_(sink) {}

  void set_module(std::set<std::string> globals, std::map<std::string, std::string> imports) {
    module_globals_ = std::move(globals);
    imports_ = std::move(imports);
  }

  // ---- statements (cpp_stmt.cpp)
  void block(const ast::Refs& stmts);
  void stmt(const ast::Ref& s);
  /// Declares the scope's Value locals at the start of a C++ body.
  void declare_locals(const Scope& scope, const std::set<std::string>& params);

  // ---- expressions (cpp_expr.cpp)
  /// A C++ expression of type ag::Value (or convertible to it: bare literals).
  std::string expr(const ast::Ref& e);
  /// Like expr(), but always of type ag::Value (literals wrapped).
  std::string value(const ast::Ref& e);
  /// `if (...)` condition text: Python truthiness of `e`.
  std::string truthy(const ast::Ref& e);
  /// C++ statements assigning the C++ expression `rhs` to the Python target.
  std::string assign_code(const ast::Ref& target, const std::string& rhs);
  /// The positional / keyword argument lists of a call: `{a, b}`, `{{"k", v}}`.
  std::string arg_list(const ast::Refs& args);
  std::string kwarg_list(const ast::Refs& keywords);
  /// A Name load resolved through the scopes.
  std::string name_load(const ast::Name& n);
  /// The dotted path of a tf.* expression (`ag__.ld(tf).math.add` -> "math.add"), or nullopt.
  bool tf_path(const ast::Ref& e, std::string& path) const;

  std::string call(const ast::Node& at_node, const ast::Ref& func, const ast::Refs& args, const ast::Refs& keywords);
  std::string ag_call(const ast::Call& c, const std::string& op);
  std::string super_attr(const ast::Node& at_node, const std::string& attr);
  std::string tf_unknown(const ast::Node& n, const std::string& path);
  std::string callable_ref(const ast::Ref& e, int nparams);
  std::string loop_options(const ast::Ref& opts, const ast::Ref& body);
  std::string subscript(const ast::Subscript& s);
  std::string fstring(const ast::JoinedStr& j);
  std::string comprehension(const ast::Ref& elt, const ast::Ref& key, const ast::Refs& generators, const char* kind);
  std::string lambda(const ast::Lambda& l);
  /// `{{"a"}, {"b", default}}`: make_function's parameter list.
  std::string params_list(const ast::Arguments& a);

  /// The C++ body (without braces) of a def: locals, statements, a final return.
  std::string function_body(const ast::FunctionDef& f, const std::vector<std::string>& params, bool own_frame,
                            const std::string& python_name);
  void nested_def(const ast::FunctionDef& f);
  /// The text around a function value that applies `decorator_list` to it.
  std::pair<std::string, std::string> decorators(const ast::Refs& decorator_list);
  /// A C++ loop: `head` (ending in `{`), then `first` (the target's assignment)
  /// and the body; a Python `else` runs after it unless a `break` left it.
  void loop(const ast::Refs& body, const ast::Refs& orelse, const std::string& head, const std::string& first);
  std::string augmented(ast::BinOpKind op, const std::string& current, const ast::Ref& rhs);
  void try_stmt(const ast::Try& t, const ast::Node& s);
  std::string handler_test(const ast::ExceptHandler& h);

  // ---- output
  void line(const std::string& text);
  /// Marks the Python line `s` starts on: `ag_frame.at(N);  // source` when it changed.
  void at(const ast::Node& s);
  std::string take_output() { return std::move(out_); }
  void error(const ast::Node& n, const std::string& message);
  bool failed() const { return sink_.has_errors(); }

  std::vector<Scope> scopes;
  int indent = 0;
  int temp_counter = 0;
  std::string fresh(const char* base) { return std::string("ag_") + base + std::to_string(temp_counter++); }

 private:
  const Scope* scope_of(const std::string& name) const;

  const SourceFile& file_;
  DiagnosticSink& sink_;
  std::set<std::string> module_globals_;
  std::map<std::string, std::string> imports_;
  std::string out_;
  int last_line_ = -1;
  /// Per enclosing Python loop: the flag a `break` sets for its `else` ("" if none).
  std::vector<std::string> loop_break_flags_;
  /// Per enclosing except clause: the variable holding its traceback ("" for a catch-all rethrow).
  std::vector<std::string> handler_tracebacks_;

 public:
  /// Set while emitting a method: its class's global name (for super()).
  std::string pending_class_;

 private:

};

}  // namespace agc::emit::cpp
