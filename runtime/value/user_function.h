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

/// A Python function: what make_function keeps (CallableObj::user).
struct UserFunction {
  std::string name;
  /// "Count.__init__" once its class is made: Python's argument errors name it so.
  std::string qualname;
  std::vector<Param> params;
  /// Called with one value per parameter, after Python's binding.
  Body body;
};

/// A user function as a Python value: `params` in order with their default
/// values (evaluated when the `def` ran), `body` called with one value per
/// parameter after Python's binding. tf.function() reads the parameters back.
Value make_function(std::string name, std::vector<Param> params, Body body);

/// The parameters of a callable made by make_function (empty for others).
const std::vector<Param>* function_params(const Value& callable);

/// Python's argument binding: `args`/`kwargs` to one value per parameter
/// (defaults filled). TypeError in Python's words for missing, duplicate or
/// unexpected arguments; `fn_name` names the function in them.
std::vector<Value> bind_arguments(const std::string& fn_name, const std::vector<Param>& params, std::vector<Value> args,
                                  Kwargs kwargs);

}  // namespace ag
