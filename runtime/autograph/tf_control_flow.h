// TensorFlow's functional control flow as C++ over Python values (cond.py,
// while_loop.py / while_v2.py): what the tf.cond / tf.while_loop rows bind,
// and what tf.map_fn, tf.scan and the folds (tf_functional_ops.cpp) loop
// with, as TF writes them over while_loop. In the autograph layer: traced,
// they stage through AutoGraph's staging (staging.h).
#pragma once

#include "runtime/value/value.h"

namespace ag::tf::control_flow {

/// Python's callable(v).
bool is_callable(const Value& v);

/// tf.cond(pred, true_fn, false_fn) (strict, as TF 2's tf.cond): eagerly the
/// branch `pred` picks; while tracing an If node over both branches.
Value cond(const Value& pred, const Value& true_fn, const Value& false_fn);

/// tf.while_loop (TF 2: return_same_structure). Eagerly a Python loop whose
/// result is the body's last return value (the loop variables if it never
/// ran) with its leaves converted to tensors; while tracing a While node whose
/// result has the structure of `loop_vars`. `maximum_iterations`: None, an int
/// or an int scalar tensor.
Value while_loop(const Value& cond, const Value& body, const Value& loop_vars, const Value& shape_invariants = Value(),
                 const Value& maximum_iterations = Value(), bool back_prop = true, int64_t parallel_iterations = 10);

}  // namespace ag::tf::control_flow
