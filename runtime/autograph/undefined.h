// AutoGraph's placeholders for symbols without a value (operators/variables.py):
// Undefined('x') stands for a local variable not yet assigned (read through
// ld(), it raises UnboundLocalError); UndefinedReturnValue is the value of
// `retval_` before a return statement runs. Both are ag::Value objects of the
// classes "Undefined" / "UndefinedReturnValue".
#pragma once

#include <functional>
#include <string>

#include "runtime/core/error.h"
#include "runtime/value/value.h"

namespace ag {

namespace autograph {

/// ag__.Undefined('x'): the value of a symbol that is not defined yet.
Value Undefined(const std::string& symbol_name);
bool is_undefined(const Value& v);
/// The symbol name of an Undefined value.
std::string undefined_name(const Value& v);

/// ag__.UndefinedReturnValue(): retval_ before any return statement ran.
Value UndefinedReturnValue();
bool is_undefined_return(const Value& v);

/// None, Undefined or UndefinedReturnValue (control_flow._is_none_or_undef).
bool is_none_or_undef(const Value& v);

/// ag__.ld(v): `v` itself; an Undefined raises UnboundLocalError
/// "'x' is used before assignment".
Value ld(const Value& v);
/// A read of the local `v` in a function run as written (not converted):
/// `v` itself; an Undefined (not assigned yet, or deleted) raises CPython's
/// UnboundLocalError "cannot access local variable 'x' where it is not
/// associated with a value".
Value read_local(const Value& v);
/// ag__.ldu(lambda: v, 'v'): `f()`, or Undefined(name) when reading it raises
/// KeyError, AttributeError or NameError (e.g. an attribute not set yet).
Value ldu(const std::function<Value()>& f, const std::string& name);

}  // namespace autograph
}  // namespace ag
