// A context manager made from two C++ functions, for the tf.* functions
// whose result a `with` statement enters (tf.name_scope, Graph.as_default).
#pragma once

#include <functional>

#include "runtime/value/value.h"

namespace ag::tf {

/// An object whose __enter__ returns enter() and whose __exit__ calls exit()
/// (exceptions pass through).
Value context_manager(std::function<Value()> enter, std::function<void()> exit);

}  // namespace ag::tf
