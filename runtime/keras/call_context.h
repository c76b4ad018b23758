// Keras's traceback_utils.inject_argument_info_in_traceback around a layer's
// call(): an exception raised inside it comes out as the same class with
// Keras's context added, once (the innermost failing layer):
//
//   Exception encountered when calling layer 'dense' (type Dense).
//
//   <the original message>
//
//   Call arguments received by layer 'dense' (type Dense):
//     • inputs=tf.Tensor(shape=(2, 3), dtype=float32)
#pragma once

#include <vector>

#include "runtime/value/value.h"

namespace ag::keras {

/// call_fn(args, kwargs) for `layer`, its errors given Keras's call context.
Value call_with_context(const Value& layer, const Value& call_fn, std::vector<Value> args, Kwargs kwargs);

}  // namespace ag::keras
