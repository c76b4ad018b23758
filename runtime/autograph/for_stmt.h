// AutoGraph's for_stmt (operators/control_flow.py): the converted `for`
// statement. While tracing, a tf.range tensor stages a While over a counter
// (the Range itself is elided), any other tensor a While over its rows, a
// tf.data.Dataset a While over its iterator's elements; a Python iterable (or
// an eager tensor, row by row, or a dataset eagerly) runs as a Python loop,
// one item at a time, unrolled while tracing. `extra_test` carries
// break/return conditions.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "runtime/autograph/control_flow.h"

namespace ag::autograph {

/// ag__.for_stmt(iter, extra_test, loop_body, get_state, set_state, symbol_names, opts).
/// `extra_test` may be empty (None).
void for_stmt(const Value& iter, const std::function<Value()>& extra_test, const std::function<void(const Value&)>& body,
              const GetState& get_state, const SetState& set_state, const std::vector<std::string>& symbol_names,
              const LoopOptions& opts = {});

}  // namespace ag::autograph
