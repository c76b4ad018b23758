// A Python function as a value: what a `def` or `lambda` of the program
// becomes (CallableObj::user), with Python's argument binding. It belongs to
// the value layer because classes bind methods and objects call them;
// tf.function (runtime/function) reads the parameters and body back.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/value/binding_error.h"
#include "runtime/value/value.h"

namespace ag {

/// A parameter of a Python function: its name, default value if any, and kind.
struct Param {
  std::string name;
  std::optional<Value> default_value = std::nullopt;
  ParamKind kind = ParamKind::PositionalOrKeyword;
};

/// The Python body: called with one value per parameter.
using Body = std::function<Value(const std::vector<Value>& args)>;

/// Whether AutoGraph is on for the calls this thread makes: TF converts a
/// function when converted code or a traced tf.function calls it (its
/// ag_ctx status is ENABLED there), and runs it as written otherwise (module
/// code, eager calls, run_functions_eagerly). Off by default.
bool autograph_enabled();

/// Turns AutoGraph on or off for the calls made during its lifetime (a
/// tf.function trace turns it on, or off with autograph=False).
class AutographScope {
 public:
  explicit AutographScope(bool enabled);
  ~AutographScope();
  AutographScope(const AutographScope&) = delete;
  AutographScope& operator=(const AutographScope&) = delete;

 private:
  bool saved_;
};

/// A Python function: what make_function keeps (CallableObj::user).
struct UserFunction {
  std::string name;
  /// "Count.__init__" once its class is made: Python's argument errors name it so.
  std::string qualname;
  std::vector<Param> params;
  /// The function as written, called with one value per parameter after
  /// Python's binding.
  Body body;
  /// Its AutoGraph conversion (`tf__f`), run instead while autograph_enabled();
  /// empty when there is none (a nested def or lambda, already converted with
  /// the function around it, or a function AutoGraph cannot convert, which TF
  /// then runs as written).
  Body converted;
  /// The text of its conversion as tf.autograph.to_code returns it, when the
  /// program carries it (the emitter adds it where the program calls to_code).
  const char* converted_code = nullptr;

  /// The body a call runs now.
  const Body& current() const { return autograph_enabled() && converted ? converted : body; }
};

/// A user function as a Python value: `params` in order with their default
/// values (evaluated when the `def` ran), `body` called with one value per
/// parameter after Python's binding, `converted` its AutoGraph conversion if
/// it has one. tf.function() reads the parameters back.
Value make_function(std::string name, std::vector<Param> params, Body body, Body converted = nullptr);

/// `f` (made by make_function) with the text of its conversion, for
/// tf.autograph.to_code; `code` is a literal of the generated program.
Value with_converted_code(Value f, const char* code);

/// The parameters of a callable made by make_function (empty for others).
const std::vector<Param>* function_params(const Value& callable);

/// Python's argument binding (CPython 3.11's initialize_locals): `args`/
/// `kwargs` to one value per parameter (defaults filled), `*args` a tuple of
/// the extra positional arguments, `**kwargs` a dict of the other keywords.
/// TypeError in Python's words for missing, duplicate or unexpected
/// arguments, checked in CPython's order (keywords, then the positional
/// count, then missing ones); `fn_name` names the function in them.
std::vector<Value> bind_arguments(const std::string& fn_name, const std::vector<Param>& params, std::vector<Value> args,
                                  Kwargs kwargs);

/// One positional part of a call: `x`, or `*xs` when `star`.
struct ArgPart {
  Value value;
  bool star = false;
};

/// One keyword part of a call: `name=x`, or `**x` when `name` is empty.
struct KwargPart {
  std::string name;
  Value value;
};

/// The positional arguments of a call written with `*`: the parts in order,
/// each `*xs` iterated. `callee` ("print()", "__main__.f()") names the
/// function in CPython's TypeError for a non-iterable: "f() argument after *
/// must be an iterable, not int".
std::vector<Value> unpack_args(const std::string& callee, const std::vector<ArgPart>& parts);

/// The keyword arguments of a call written with `**`: a mapping's str keys
/// in its order; TypeError for a non-mapping ("f() argument after ** must be
/// a mapping, not list"), a non-str key ("keywords must be strings") or a
/// repeated name ("f() got multiple values for keyword argument 'a'").
Kwargs unpack_kwargs(const std::string& callee, const std::vector<KwargPart>& parts);

/// A call whose arguments use `*` or `**`, in Python's evaluation order
/// (callee, then the parts left to right: one braced initializer).
struct UnpackedCall {
  Value callee;
  std::vector<ArgPart> args;
  std::vector<KwargPart> kwargs;
};
Value call_unpacked(UnpackedCall call);

/// The items of a display with `*` parts: `[*a, 1]`, `(*a,)`, `{*a}`;
/// TypeError "Value after * must be an iterable, not int" otherwise.
std::vector<Value> display_items(const std::vector<ArgPart>& parts);

/// One entry of a dict display: `key: value`, or `**value` when `star`.
struct DictPart {
  Value key;
  Value value;
  bool star = false;
};

/// A dict display with `**` parts: `{**a, 'k': 1, **b}`, later keys winning;
/// TypeError "'list' object is not a mapping" for a part that is not one.
Value dict_display(const std::vector<DictPart>& parts);

}  // namespace ag
