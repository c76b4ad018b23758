// AutoGraph's overloads of builtins (operators/py_builtins.py), which
// converted code calls through converted_call: `range` always, `print` under
// the BUILTIN_FUNCTIONS feature:
//   print(x)   ->   ag__.converted_call(print, (x,), None, fscope)
#pragma once

#include <vector>

#include "runtime/value/value.h"

namespace ag::autograph {

/// print_(*objects, sep=, end=, file=, flush=): with a tensor among
/// `objects`, the printing runs when the graph does (TF's py_func print:
/// tensors as NumPy prints their values, a string scalar as its text,
/// flushed), else it is Python's print now. Other keywords are TF's
/// ValueError "invalid keyword arguments: (...)".
Value print_(const std::vector<Value>& objects, const Kwargs& kwargs);

/// range_(start_or_stop, stop=, step=): tf.range when an argument is a
/// tensor, else Python's range (which takes an eager tensor by __index__).
Value range_(std::vector<Value> args, Kwargs kwargs);

}  // namespace ag::autograph
