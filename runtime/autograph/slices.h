// AutoGraph's item assignment operator (operators/slices.py), which agc's
// slices pass emits for `l[i] = v` inside loops:
//   l = ag__.set_item(l, i, v)
// On a TensorArray (a list a staged loop appends to, see
// LoopOptions::list_symbols) it is a write; on a Python list at a graph
// index (a staged loop's counter) each element is selected anew, so the list
// keeps its length and structure; on anything else it is Python's item
// assignment, which changes the target in place.
#pragma once

#include "runtime/value/value.h"

namespace ag::autograph {

/// ag__.set_item(target, i, x): the target after `target[i] = x`.
Value set_item(const Value& target, const Value& i, const Value& x);

}  // namespace ag::autograph
