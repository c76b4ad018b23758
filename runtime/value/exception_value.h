// Exceptions as Python values: `except ValueError as e` binds e to one, whose
// str() is the message and whose class name is the error's type_name();
// `raise ValueError('msg')` constructs one and raise_value() throws the
// matching ag::Error subclass, so a C++ catch clause of that type catches it.
//
// Exception classes are classes of the object model (runtime/value/
// object_model.h) in the hierarchy of runtime/core/exceptions.def
// (BaseException > Exception > LookupError > KeyError, ..., and TF's OpError >
// InvalidArgumentError, ...), the C++ classes' own, so a user's
// `class MyError(LookupError)` works: raising it throws an ag::LookupError
// whose type_name() is "MyError", and catching it gives back the very object
// raised. Their reprs name their modules as Python's do (<class 'ValueError'>,
// <class 'tensorflow.python.framework.errors_impl.InvalidArgumentError'>);
// tf.errors classes have TF's canonical `error_code`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/value/value.h"

namespace ag {

/// The caught error as a value (`print(e)` prints its message).
Value exception_value(const Error& e);
/// `ValueError('msg')` etc. called as a function: an exception value of
/// class `type_name` with args (str() is Python's: the single arg's str, or
/// the args tuple's).
Value make_exception(const std::string& type_name, std::vector<Value> args);
/// `raise v`: throws the ag::Error subclass named by v's class (TypeError
/// "exceptions must derive from BaseException" for other values). A class
/// raised (`raise ValueError`) is instantiated with no arguments first.
[[noreturn]] void raise_value(const Value& v);

/// Raises KeyError(key) as Python does: its args hold the key itself (so
/// repr(e) is KeyError('k')) and str(e) is the key's repr.
[[noreturn]] void raise_key_error(const Value& key);

/// Python's `except spec:` test of the caught error `e`: whether its
/// exception value is an instance of `spec`, a class or a tuple of them (a
/// user's class, or any expression naming one). TypeError, as Python's, when
/// one of them is no exception class.
bool exception_matches(const Error& e, const Value& spec);

/// The exception class named `type_name` ("ValueError", "InvalidArgumentError";
/// an unknown name is made a subclass of Exception).
const Value& exception_class(const std::string& type_name);
/// isinstance(v, BaseException).
bool is_exception(const Value& v);
/// True for the classes of runtime/core/exceptions.def ("ValueError",
/// "InvalidArgumentError"), whose exception_class() has its row's base.
bool is_known_exception(std::string_view type_name);
/// The class name a traceback's last line prints, as Python's traceback
/// module does: qualified by its module unless that is builtins or __main__
/// ("tensorflow.python.framework.errors_impl.InvalidArgumentError", "ValueError").
std::string traceback_type_name(std::string_view type_name);

}  // namespace ag
