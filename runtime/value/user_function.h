// A Python function as a value: what a `def` or `lambda` of the program
// becomes (CallableObj::user), with Python's argument binding. It belongs to
// the value layer because classes bind methods and objects call them;
// tf.function (runtime/function) reads the parameters and body back.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/value/value.h"

namespace ag {

/// A parameter of a Python function: its name and default value, if any.
struct Param {
  std::string name;
  std::optional<Value> default_value = std::nullopt;
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

  /// The body a call runs now.
  const Body& current() const { return autograph_enabled() && converted ? converted : body; }
};

/// A user function as a Python value: `params` in order with their default
/// values (evaluated when the `def` ran), `body` called with one value per
/// parameter after Python's binding, `converted` its AutoGraph conversion if
/// it has one. tf.function() reads the parameters back.
Value make_function(std::string name, std::vector<Param> params, Body body, Body converted = nullptr);

/// The parameters of a callable made by make_function (empty for others).
const std::vector<Param>* function_params(const Value& callable);

/// Python's argument binding: `args`/`kwargs` to one value per parameter
/// (defaults filled). TypeError in Python's words for missing, duplicate or
/// unexpected arguments; `fn_name` names the function in them.
std::vector<Value> bind_arguments(const std::string& fn_name, const std::vector<Param>& params, std::vector<Value> args,
                                  Kwargs kwargs);

}  // namespace ag
