// The calling convention of everything generated code calls by its Python
// name: Python's builtins (ag::py, builtins.def), the tf.* API
// (ag::tf::api, tf_functions.def), the NumPy module (ag::np::api,
// np_functions.def) and Python's standard modules agc compiles (math, time:
// ag::pymod::api, py_modules.def). Each is a plain C++ function taking the call's
// positional and keyword arguments and binding them as Python would (a
// TypeError in Python's words for a missing or unexpected argument), so the
// emitter resolves names at transpile time and emits direct calls:
//
//   tf.reduce_sum(x, axis=1)   ->  ag::tf::api::reduce_sum({x}, {{"axis", 1}})
//   print('a', x, sep='')      ->  ag::py::print({"a", x}, {{"sep", ""}})
//
// Used as a value (`f = tf.tanh`), a function becomes a callable Value
// through builtin_value(); the builtin types so made (int, float, str, list,
// tuple, dict, bool) and tf.Tensor/Variable/TensorArray/TensorSpec are what
// isinstance() recognises as classes. An exception class's name given to
// builtin_value() (ValueError used as a value) gives the class itself
// (exception_value.h), so isinstance, issubclass and subclassing work.
//
// Departures from Python, by design: range() is a list (a tensor argument
// makes it tf.range, as AutoGraph's range_ does), and map/filter/zip/
// enumerate/reversed return lists, not lazy iterators (builtins_seq.cpp).
#pragma once

#include <string>
#include <vector>

#include "runtime/value/value.h"

namespace ag {

using PyFn = Value (*)(std::vector<Value> args, Kwargs kwargs);

/// A callable Value named `python_name` ("tf.tanh", "print") that calls `fn`;
/// interned per `fn` (the same value every time), so `is` and isinstance work.
/// For an exception class's name ("ValueError"), that class (`fn` unused).
Value builtin_value(const char* python_name, PyFn fn);

/// Python's `a @ b`: tf.matmul when an operand is a tensor or variable,
/// NumPy's matmul for NumPy operands.
Value matmul_operator(const Value& a, const Value& b);

namespace py {
#define AG_BUILTIN(python_name, cpp_name) Value cpp_name(std::vector<Value> args, Kwargs kwargs);
#include "runtime/api/builtins.def"
#undef AG_BUILTIN
}  // namespace py

namespace tf::api {
#define AG_TF_UNARY(cpp_name, ...) Value cpp_name(std::vector<Value> args, Kwargs kwargs);
#define AG_TF_BINARY(cpp_name, ...) Value cpp_name(std::vector<Value> args, Kwargs kwargs);
#define AG_TF_FN(cpp_name, ...) Value cpp_name(std::vector<Value> args, Kwargs kwargs);
#define AG_TF_CLASS(cpp_name, ...) const Value& cpp_name();
#define AG_TF_VALUE(cpp_name, ...) const Value& cpp_name();
#include "runtime/api/tf_functions.def"
}  // namespace tf::api

namespace np::api {
#define AG_NP_FN(cpp_name, ...) Value cpp_name(std::vector<Value> args, Kwargs kwargs);
#define AG_NP_VALUE(cpp_name, ...) const Value& cpp_name();
#include "runtime/api/np_functions.def"
}  // namespace np::api

namespace pymod::api {
#define AG_PY_FN(cpp_name, ...) Value cpp_name(std::vector<Value> args, Kwargs kwargs);
#define AG_PY_VALUE(cpp_name, ...) const Value& cpp_name();
#include "runtime/api/py_modules.def"
}  // namespace pymod::api

}  // namespace ag
