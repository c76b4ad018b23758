// Keras's implicit masks: Keras sets `_keras_mask` on a layer's outputs
// (compute_mask's result) and a later layer whose call() takes `mask` reads
// it from its inputs when no mask is passed. agc's tensors carry no Python
// attributes, so the masks live beside them, keyed by the tensor's identity
// (an eager handle's id, a symbolic tensor's node and index). The table is
// bounded: a mask is read by the next layer call, so only recent outputs
// need theirs (a program holding an output across many layer calls before
// passing it on would find its mask gone; pass mask= explicitly there).
#pragma once

#include "runtime/value/value.h"

namespace ag::keras {

/// The mask Keras would find on `tensors` (a tensor, or a list of them: a
/// list of masks, None when none has one).
Value implicit_mask(const Value& tensors);
/// Records `mask` (None clears) for `tensors`: a list of masks item by item,
/// one mask for a list of tensors the first one's (Keras zips them).
void set_implicit_mask(const Value& tensors, const Value& mask);

}  // namespace ag::keras
