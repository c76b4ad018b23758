// Exceptions as Python values: `except ValueError as e` binds e to one, whose
// str() is the message and whose class name is the error's type_name();
// `raise ValueError('msg')` constructs one and raise_value() throws the
// matching ag::Error subclass, so a C++ catch clause of that type catches it.
#pragma once

#include <string>

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
/// "exceptions must derive from BaseException" for other values).
[[noreturn]] void raise_value(const Value& v);

}  // namespace ag
