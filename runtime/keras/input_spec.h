// Keras's InputSpec checks (input_spec.assert_input_compatibility), with its
// texts, and how errors Keras raises in Layer.__call__ around call() are
// marked so the layer's own call context (call_context.h) leaves them alone.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/core/error.h"
#include "runtime/core/shape.h"
#include "runtime/value/value.h"

namespace ag::keras {

/// Throws `error` as Keras's Layer.__call__ raises it around `layer`'s call()
/// (an InputSpec check, an argument check of an overridden __call__): the
/// layer's own call context leaves it as it is; an enclosing layer's adds
/// its context.
[[noreturn]] void raise_before_call(const Value& layer, const Error& error);
/// Whether exception value `raised` came from raise_before_call(layer, ...).
bool raised_before_call_of(const Value& raised, const Value& layer);

/// "Input 0 of layer "dense" is incompatible with the layer: expected
/// min_ndim=2, found ndim=1. Full shape received: (3,)". A bound of -1 is
/// not checked.
void check_input_rank(const Value& layer, const Value& x, int min_ndim, int ndim = -1, int max_ndim = -1);
/// "... expected axis -1 of input shape to have value 4, but received input with shape (2, 3)".
void check_input_axis(const Value& layer, const Value& x, int axis, int64_t value);
/// A shape as Keras prints it in messages: "(None, 3)".
std::string shape_text(const Shape& s);

}  // namespace ag::keras
