// The C++ emitter's state, shared by its files: cpp_module.cpp (the module,
// its functions and classes, the header and main), cpp_function.cpp (function
// bodies, their locals and cells, nested defs, lambdas and comprehensions),
// cpp_stmt.cpp (statements), cpp_expr.cpp (expressions), cpp_call.cpp (calls
// and AutoGraph's operators). Internal to transpiler/emit.
//
// Scope facts (which names a function binds, which live in cells, which
// nested functions escape) come from analysis::Closures, computed per root:
// a converted function, or a statement of the module's own code.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "transpiler/analysis/analysis_cache.h"
#include "transpiler/analysis/closures.h"
#include "transpiler/ast/ast.h"
#include "transpiler/base/diagnostic.h"
#include "transpiler/emit/call_check.h"
#include "transpiler/emit/tf_api_table.h"

namespace agc::emit::cpp {

/// The parameter names of `args`, in order.
std::vector<std::string> param_names(const ast::Arguments& args);
/// The parameter list of the C++ lambda behind a function value with
/// `num_params` Python parameters: `ag_args` goes unnamed when there are none,
/// or -Wunused-parameter rejects the generated code.
std::string value_lambda_params(size_t num_params);

/// The C++ of Python's `l op r` on two rendered operands.
std::string binop_code(ast::BinOpKind op, const std::string& l, const std::string& r);
/// Whether the def of `c` runs as written: neither it nor a def around it is
/// a conversion (converted code opens a FunctionScope; AutoGraph's if_body,
/// loop_body, ... are inside one).
bool runs_as_written(const analysis::Closure& c);
/// `parts` joined by `sep`.
std::string join(const std::vector<std::string>& parts, const char* sep = ", ");
/// `super()`, or its converted form `ag__.converted_call(ag__.ld(super), (), None, fscope)`.
bool is_super_call(const ast::Ref& e, ast::Refs* args = nullptr);

/// One C++ scope being emitted: the module's code, or a Python scope.
struct Scope {
  /// The Python scope; null for the module's own code.
  const analysis::Closure* closure = nullptr;
  /// A converted def's `with ag__.FunctionScope(...) as <fscope>:` variable.
  std::string fscope;
  /// For a method: its class and its first parameter (for super()).
  std::string class_name;
  std::string self_name;
  /// A generator def's body: a coroutine (co_yield, co_return) whose frame
  /// is its GeneratorFrame parameter (runtime/api/generator.h).
  bool generator = false;
};

class Emitter {
 public:
  Emitter(const SourceFile& file, DiagnosticSink& sink) : file_(file), sink_(&sink) {}

  /// Where problems go from now on; returns where they went before (a
  /// function's problems are collected apart: they fail only that function).
  DiagnosticSink* report_to(DiagnosticSink* sink) { return std::exchange(sink_, sink); }

  void set_module(std::set<std::string> globals, std::map<std::string, std::string> imports) {
    module_globals_ = std::move(globals);
    imports_ = std::move(imports);
  }
  /// The module-level defs a global name certainly means wherever no local
  /// shadows it (bound once, by that def): calls to them are checked.
  void set_module_defs(std::map<std::string, const ast::FunctionDef*> defs) { module_defs_ = std::move(defs); }
  /// The tree whose closures name the scopes emitted next: a converted
  /// function, or a module-level statement (analysed when first needed).
  void set_root(const ast::Ref& root) {
    // Each root is emitted once, from start to end: the analyses of the one
    // before are done with (for a big function, as big as its tree).
    analyses_.retain_only({root.get()});
    root_ = root;
  }

  // ---- functions and their scopes (cpp_function.cpp)
  /// The C++ body (without braces) of a def: frame, locals, statements, a
  /// final return. `python_name` names the frame ("" for a local function
  /// of its frame, which shares its caller's).
  std::string function_body(const ast::FunctionDef& f, const std::string& python_name);
  /// `ag::Value x, ag::Cell y` for def `f`'s parameters, with [[maybe_unused]]
  /// on those its body never names (AutoGraph's `set_state(vars_)` may not).
  std::string value_params(const ast::FunctionDef& f);
  void nested_def(const ast::FunctionDef& f);
  std::string lambda(const ast::Lambda& l);
  /// A thunk `lambda: x` of ag__.if_exp/and_/or_/ldu as a C++ lambda.
  std::string thunk(const ast::Lambda& l);
  /// A generator object over a coroutine, as Python makes one: nothing runs
  /// but the first iterable until it is iterated, and it may outlive the
  /// frame (its free variables are cells it holds).
  std::string generator_expression(const ast::GeneratorExp& g);
  std::string comprehension(const ast::Node& n, const ast::Ref& elt, const ast::Ref& key, const ast::Refs& generators,
                            const char* kind);
  /// A comprehension scope's locals and the nested loops of its `for ... in
  /// ... if ...` clauses (the first over `first_iter`), with `innermost(pad)`
  /// the statements at the bottom.
  std::string comprehension_body(const analysis::Closure& c, const ast::Refs& generators, const std::string& first_iter,
                                 const std::function<std::string(const std::string& pad)>& innermost);
  /// The text around a function value that applies `decorator_list` to it.
  std::pair<std::string, std::string> decorators(const ast::Refs& decorator_list);
  /// `{{"a"}, {"b", default}}`: make_function's parameter list.
  std::string params_list(const ast::Arguments& a);
  /// The Python scope of a def, lambda or comprehension of the current root.
  const analysis::Closure& closure_of(const ast::Node& n);
  /// The Python scope `name` belongs to where emission is (null: a global).
  const analysis::Closure* owner(const std::string& name) const;
  /// A local function of its frame (a nested def emitted as a C++ lambda), or null.
  const ast::FunctionDef* local_function(const std::string& name) const;
  /// Whether `name` where emission is names a builtin (Python's, or an
  /// exception class): neither a local of an enclosing scope nor a module global.
  bool builtin_name(const std::string& name) const { return !owner(name) && !module_globals_.count(name); }
  /// Whether `name` where emission is lives in a cell.
  bool in_cell(const std::string& name) const;
  /// A variable where emission is: `x`, or `*x` for a cell.
  std::string variable(const std::string& name) const;

  // ---- statements (cpp_stmt.cpp)
  void block(const ast::Refs& stmts);
  void stmt(const ast::Ref& s);
  /// From now on (the module's own code), a statement agc cannot compile
  /// compiles into a raise of its first problem at its line, its problems
  /// reported as warnings: the statements before it run, as Python runs
  /// them, and one in a branch not taken costs nothing. `problems` are the
  /// parse-level problems found in module code; each fails the innermost
  /// statement around it.
  void raise_failed_statements(std::vector<Diagnostic> problems) { failing_statements_ = std::move(problems); }
  /// Ends raise_failed_statements(): the problems no statement claimed.
  std::vector<Diagnostic> end_failed_statements() { return std::move(*std::exchange(failing_statements_, std::nullopt)); }
  /// C++ statements assigning the C++ expression `rhs` to the Python target.
  std::string assign_code(const ast::Ref& target, const std::string& rhs);
  /// A C++ loop: `head` (ending in `{`), then `first` (the target's assignment)
  /// and the body; a Python `else` runs after it unless a `break` left it.
  void loop(const ast::Refs& body, const ast::Refs& orelse, const std::string& head, const std::string& first);
  /// `current op= rhs` as the value it assigns.
  std::string augmented(ast::BinOpKind op, const std::string& current, const ast::Ref& rhs);
  void with_stmt(const ast::With& w, const ast::Node& s);
  void try_stmt(const ast::Try& t, const ast::Node& s);
  /// The C++ condition of an except clause on the caught `ag_error`.
  std::string handler_test(const ast::ExceptHandler& h);

  // ---- expressions (cpp_expr.cpp)
  /// A C++ expression of type ag::Value (or convertible to it: bare literals).
  std::string expr(const ast::Ref& e);
  /// Like expr(), but always of type ag::Value (literals wrapped).
  std::string value(const ast::Ref& e);
  /// Like value(), parenthesized where a postfix operator (`.getattr(...)`,
  /// a call) could not follow it: a cell read `*x`.
  std::string operand(const ast::Ref& e);
  /// `if (...)` condition text: Python truthiness of `e`.
  std::string truthy(const ast::Ref& e);
  /// The positional / keyword argument lists of a call: `{a, b}`, `{{"k", v}}`.
  /// A call's positional / keyword arguments as the runtime takes them:
  /// `{a, b}`, or with `*xs` / `**kw` parts `ag::unpack_args(callee, ...)` /
  /// `ag::unpack_kwargs(callee, ...)`; `callee` ("print()") names the
  /// function in their TypeErrors.
  std::string arg_list(const ast::Refs& args, const std::string& callee = "");
  std::string kwarg_list(const ast::Refs& keywords, const std::string& callee = "");
  /// `{ag::ArgPart{x}, ag::ArgPart{xs, true}}`: the parts of a call or display with `*`.
  std::string arg_parts(const ast::Refs& args);
  std::string kwarg_parts(const ast::Refs& keywords);
  /// The attribute name `obj.attr` looks up, as a C++ string literal: a
  /// private `__x` in a method is Python's mangled `_Class__x`.
  std::string attribute_name(const std::string& attr) const;
  /// A Name load resolved through the scopes.
  std::string name_load(const ast::Name& n);
  /// An attribute or a name imported from a module, resolved through the
  /// tf.*, np.* and standard-module tables where it names one of them.
  std::string module_member(const ast::Ref& e);
  /// Whether `name` is bound at module level by an import of a module agc
  /// does not compile (which check_imports reported).
  bool unsupported_import(const std::string& name) const {
    auto it = imports_.find(name);
    return it != imports_.end() && !is_known_module(it->second.substr(0, it->second.find('.')));
  }
  /// The dotted path of a tf.* expression (`ag__.ld(tf).math.add` -> "math.add").
  bool tf_path(const ast::Ref& e, std::string& path) const;
  /// `np.random.seed` as "random.seed" when `np` is `import numpy as np`'s
  /// alias; `alias` gets the name the program used.
  bool np_path(const ast::Ref& e, std::string& path, std::string& alias) const;
  /// `math.sqrt` as "math.sqrt" (the module's own name, whatever the alias)
  /// when the root is the alias of a standard module of py_modules.def.
  bool py_module_path(const ast::Ref& e, std::string& path, std::string& alias) const;
  /// `e` is `X.attr` where X is a value row of py_modules.def (os.environ.get).
  bool py_value_member(const ast::Ref& e) const;
  /// The dotted attribute path under an imported module's alias, and that module.
  bool module_path(const ast::Ref& e, std::string_view module, std::string& path, std::string* alias) const;
  std::string subscript(const ast::Subscript& s);
  /// `a < b`, or a chain `a < b < c` evaluating each operand once.
  std::string compare(const ast::Compare& c);
  /// The index of a subscript holding slices as C++ (`std::vector<ag::IndexPart>{...}`),
  /// or "" when it holds none (a plain key).
  std::string index_parts(const ast::Ref& slice);
  std::string fstring(const ast::JoinedStr& j);

  // ---- calls and AutoGraph's operators (cpp_call.cpp)
  std::string call(const ast::Node& at_node, const ast::Ref& func, const ast::Refs& args, const ast::Refs& keywords);
  std::string ag_call(const ast::Call& c, std::string_view op);
  /// ag__.and_/or_ and the chain of the same operator nested in its last thunk.
  std::string logical_chain(const ast::Call& c, std::string_view op);
  std::string super_attr(const ast::Node& at_node, const ast::Refs& super_args, const std::string& attr);
  /// A path under `library` ("tensorflow", "numpy", "math") that agc's
  /// tables lack, written `shown`.`path` ("tf.math.reduse_sum", "np.zeroes"),
  /// `called` or not: a function-local problem saying whether the library
  /// has it (agc's NotImplementedError) or not (Python's AttributeError, with
  /// the closest name), or that agc cannot tell.
  /// What to emit instead of a call of the table row `path` of `library`
  /// (written `shown`.`path`) that does not bind to the row's signature:
  /// unbound_call()'s raise for the program's TypeError, or, for a keyword
  /// the library takes and agc's row does not, a placeholder after a
  /// function-local problem (agc's gap). nullopt when it binds.
  std::optional<std::string> table_call_instead(const ast::Node& at, std::string_view library,
                                                const std::string& shown, const std::string& path,
                                                const ast::Refs& args, const ast::Refs& keywords);
  /// Whether a call here runs only when a lambda or generator expression
  /// inside the current def (or module-level statement) runs.
  bool call_deferred() const;
  /// For a call that cannot bind to `sig`: C++ raising Python's TypeError
  /// where the call runs, as Python raises it there (statements before it
  /// run, a handler around it catches it). A warning says so at transpile
  /// time (with the closest parameter for a misspelt keyword), unless a
  /// handler around the call catches TypeError or the call is deferred.
  /// nullopt when it binds or cannot be told (a `*` or `**` argument).
  std::optional<std::string> unbound_call(const ast::Node& at, const SignatureShape& sig, const ast::Refs& args,
                                          const ast::Refs& keywords);
  /// Try bodies being emitted whose handlers catch TypeError (a bare
  /// except, TypeError, Exception or BaseException).
  int catching_type_error_ = 0;
  bool catches_type_error(const ast::ExceptHandler& h) const;
  /// Python's qualname of the local function `name` ("outer.<locals>.inner").
  std::string local_qualname(const std::string& name) const;
  std::string unknown_member(const ast::Node& n, std::string_view library, const std::string& shown,
                             const std::string& path, bool called);
  /// unknown_member() for a standard module's `path` ("math.sqr") written `alias`.`...`.
  std::string py_unknown(const ast::Node& n, const std::string& alias, const std::string& path, bool called) {
    const std::string module = path.substr(0, path.find('.'));
    return unknown_member(n, module, alias, path.substr(module.size() + 1), called);
  }
  /// A C++ callable for the function named by `e` (a local function or any
  /// Value) taking `nparams` (0 or 1) arguments.
  std::string callable_ref(const ast::Ref& e, int nparams);
  std::string loop_options(const ast::Ref& opts, const ast::Ref& body);

  // ---- traceback positions (cpp_positions.cpp)
  /// The index in the module's position table (`kPos`, see
  /// ag::SourcePosition) of `n`'s span, with CPython 3.11's anchors when `n`
  /// is a one-line binary operation or subscript; -1 when the span is unknown.
  int position(const ast::Node& n);
  /// The C++ of an operation at `n` that can raise. `build()` emits its
  /// operands and returns its text; the result marks the frame at `n` before
  /// the operation runs, and inside an operation being marked comes back to
  /// that one's mark when done (FramePosition::back_at):
  ///   (ag_frame.at(kPos[4]), h(x))  /  ag_frame.back_at(kPos[3], (ag_frame.at(kPos[4]), h(x)))
  template <class F>
  std::string marked(const ast::Node& n, F&& build) {
    const int pos = position(n);
    if (pos < 0 || pos == enclosing_mark_) return build();  // (an operation marked twice: `assert x < y`)
    const int outer = std::exchange(enclosing_mark_, pos);
    std::string code = build();
    enclosing_mark_ = outer;
    code = "(ag_frame.at(kPos[" + std::to_string(pos) + "]), " + code + ")";
    if (outer < 0) return code;
    return "ag_frame.back_at(kPos[" + std::to_string(outer) + "], " + code + ")";
  }
  /// What `build()` emits, as operands of the operation at `n` that the
  /// caller marks afterwards (an assignment's store: its value is emitted
  /// first); their marks come back to `n`. Null `n`: no operation.
  template <class F>
  std::string operands_of(const ast::Node* n, F&& build) {
    const int outer = std::exchange(enclosing_mark_, n ? position(*n) : -1);
    std::string code = build();
    enclosing_mark_ = outer;
    return code;
  }
  /// `constexpr ag::SourcePosition kPos[] = {...};` for the marks emitted so
  /// far; "" when there are none.
  std::string position_table() const;

  // ---- output
  void line(const std::string& text);
  /// Marks the Python line `s` starts on: `ag_frame.at(N);  // source` when it changed.
  void at(const ast::Node& s);
  std::string take_output() { return std::exchange(out_, std::string()); }
  size_t output_size() const { return out_.size(); }
  /// A problem at `n`: valid Python agc cannot compile. Inside a function it
  /// makes the function raise `raises` when called (see Diagnostic::raises).
  /// `suggestion`: a name the program may have meant ("did you mean").
  void error(const ast::Node& n, const std::string& message, const char* raises = "NotImplementedError",
             const std::string& suggestion = "");

  /// The function value of a def of the module's own code (one at module
  /// level or in its blocks), whose C++ functions the module emitted.
  std::function<std::string(const ast::FunctionDef&)> module_def;

  std::vector<Scope> scopes;
  int indent = 0;
  int temp_counter = 0;
  std::string fresh(const char* base) { return std::string("ag_") + base + std::to_string(temp_counter++); }

  /// Set while emitting a method: its class's global name (for super()).
  std::string pending_class_;
  /// Set while emitting a class body's own expressions (decorators,
  /// attribute values): the names the body bound so far, which Python's
  /// class scope lets those expressions read (`@x.setter`, `property(get, set)`).
  /// Methods never see them, as in Python.
  std::set<std::string> class_scope;
  /// The C++ local holding a class-scope name while the body runs.
  static std::string class_local(const std::string& name) { return "ag_class_" + name; }

 private:
  /// What `body` emits, as text of its own one level deeper than the current one.
  template <class F>
  std::string nested_text(F&& body) {
    std::string saved = std::move(out_);
    int saved_indent = indent;
    out_.clear();
    indent = saved_indent + 1;
    body();
    std::string text = std::move(out_);
    out_ = std::move(saved);
    indent = saved_indent;
    return text;
  }
  /// The locals a scope's body declares: all but its parameters, its
  /// FunctionScope and its local functions.
  void declare_locals(const analysis::Closure& c, const std::vector<std::string>& params, const std::string& fscope);
  /// `[a, b]`: what an escaping closure copies (its free cells and self reference).
  std::string captures(const analysis::Closure& c) const;
  /// `ag::Value x = ag_args[0];`, one per parameter of a closure value.
  std::vector<std::string> unpack_args(const analysis::Closure& c, const std::vector<std::string>& params) const;
  /// The innermost Python scope being emitted (null: the module's code).
  const analysis::Closure* current() const;

  const SourceFile& file_;
  DiagnosticSink* sink_;
  std::set<std::string> module_globals_;
  std::map<std::string, std::string> imports_;
  std::map<std::string, const ast::FunctionDef*> module_defs_;
  analysis::AnalysisCache analyses_;
  ast::Ref root_;
  std::string out_;
  int last_line_ = -1;
  /// Per enclosing Python loop: the flag a `break` sets for its `else` ("" if none).
  std::vector<std::string> loop_break_flags_;
  /// Per enclosing except clause: the variable holding its traceback ("" for a catch-all rethrow).
  std::vector<std::string> handler_tracebacks_;
  /// Inside a finally clause (a C++ lambda).
  int in_finally_ = 0;
  /// The expression being emitted is a whole expression statement or
  /// assignment value, where a yield can be a co_yield.
  const ast::Node* yield_position_ = nullptr;
  /// Whether the yield `e` can be a co_yield where it is; reports why not.
  bool yield_allowed(const ast::Node& e);
  /// stmt() itself, without raise_failed_statements()'s fallback.
  void stmt_code(const ast::Ref& s);
  /// Set by raise_failed_statements(): the parse-level problems not yet
  /// claimed by a statement.
  std::optional<std::vector<Diagnostic>> failing_statements_;
  /// The position table: {line, end_line, col, end_col, anchor_begin,
  /// anchor_end} per entry, and each entry's index.
  std::vector<std::array<int, 6>> positions_;
  std::map<std::array<int, 6>, int> position_index_;
  /// The position of the operation whose operands are being emitted (-1: none).
  int enclosing_mark_ = -1;
};

}  // namespace agc::emit::cpp
