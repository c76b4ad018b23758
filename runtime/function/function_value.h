// tf.function and its results as Python values. `@tf.function` (with or
// without input_signature= / reduce_retracing=) applied to a user function
// gives a Function value: calling it calls the ag::Function; its attributes
// are get_concrete_function, pretty_printed_concrete_signatures,
// experimental_get_tracing_count, python_function and __name__, as in TF.
// Accessed through an instance (a @tf.function method), it binds self like a
// method: the bound Function passes the instance as the first argument, so
// traces are keyed by the instance's identity (TraceType), as TF's are.
// get_concrete_function returns a ConcreteFunction value: callable, with
// structured_input_signature, structured_outputs, graph, and str() as the
// seeds print it ("ConcreteFunction double(a)\n  Args: ...").
//
// Representation: a user function is a Callable (Kind::Callable, type
// "function") whose CallableObj::user holds its UserFunction; the others are
// objects of native classes (runtime/value/object_model.h): "Function",
// "ConcreteFunction", "FuncGraph", "GraphDef", "NodeDef", "Operation".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/function/concrete_function.h"
#include "runtime/function/function.h"
#include "runtime/value/user_function.h"

namespace ag {

Value function_value(std::shared_ptr<Function> fn);
Value concrete_function_value(std::shared_ptr<ConcreteFunction> cf);

/// The ag::Function of a Function value, or nullptr.
std::shared_ptr<Function> function_of(const Value& v);
/// The ConcreteFunction of a ConcreteFunction value, or nullptr.
std::shared_ptr<ConcreteFunction> concrete_function_of(const Value& v);

/// A tf.Graph value over `graph` (kept alive by `owner`): as_graph_def(),
/// get_operations(), name.
/// tf.function(func, options): a Function value over the Python function
/// `func` (or, for a tf.function value, the same function with `options`).
Value wrap_function(const Value& func, const FunctionOptions& options);

Value graph_value(std::shared_ptr<const void> owner, const Graph* graph);
/// The graph a graph value (a ConcreteFunction's `.graph`) shows, or nullptr
/// for any other value; valid while that value lives.
const Graph* graph_of(const Value& graph);

}  // namespace ag
