// tf.function and its results as Python values. `@tf.function` (with or
// without input_signature= / reduce_retracing=) applied to a user function
// gives a Function value: calling it calls the ag::Function; its attributes
// are get_concrete_function, pretty_printed_concrete_signatures,
// experimental_get_tracing_count and python_function, as in TF. Accessed
// through an instance (a @tf.function method), it binds self like a method.
// get_concrete_function returns a ConcreteFunction value: callable, with
// structured_input_signature, structured_outputs, graph, and str() as the
// seeds print it ("ConcreteFunction double(a)\n  Args: ...").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/function/concrete_function.h"
#include "runtime/function/function.h"

namespace ag {

/// A user function as a Python value: `params` in order with their default
/// values (evaluated when the `def` ran), `body` called with one value per
/// parameter after Python's binding. tf.function() reads the parameters back.
Value make_function(std::string name, std::vector<Param> params, Body body);

/// The parameters of a callable made by make_function (empty for others).
const std::vector<Param>* function_params(const Value& callable);

Value function_value(std::shared_ptr<Function> fn);
Value concrete_function_value(std::shared_ptr<ConcreteFunction> cf);

}  // namespace ag
