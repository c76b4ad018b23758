// The output shape of a random op from its `shape` input (int32 or int64
// vector), with TF's checks; shared by random_ops.cpp and the Generator's
// stateful_random_ops.cpp.
#pragma once

#include <cstddef>

#include "runtime/ops/registry.h"

namespace ag {

/// While building: the shape input `i`'s values when known, else its length.
Shape random_output_shape(const InferContext& c, size_t i);
/// While running: the shape the tensor holds.
Shape random_output_shape(const Tensor& t);

}  // namespace ag
