// AutoGraph's assert operator (operators/exceptions.py), which the asserts pass
// emits under the ASSERT_STATEMENTS feature:
//   assert x > 0, 'msg'   ->   ag__.assert_stmt(x > 0, lambda: 'msg')
#pragma once

#include <functional>

#include "runtime/value/value.h"

namespace ag::autograph {

/// ag__.assert_stmt(expression1, lambda: expression2). A tensor condition is
/// TF's tf.debugging.Assert: while tracing an Assert node (its
/// InvalidArgumentError "assertion failed: [msg]" comes when the graph runs),
/// eagerly TF's "Expected '<condition>' to be true. Summarized data: b'msg'";
/// any other condition is Python's `assert`, AssertionError(msg). Returns None.
Value assert_stmt(const Value& expression1, const std::function<Value()>& expression2);

}  // namespace ag::autograph
