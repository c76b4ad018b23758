// Moving rows of tensors between elements: the copies slicing, batching,
// padding and unbatching make (element copies: ag::copy_elements).
#pragma once

#include <cstdint>
#include <span>

#include "runtime/core/tensor.h"

namespace ag::data {

/// Row `i` of `t` along its first dimension, as a new tensor.
Tensor row(const Tensor& t, int64_t i);
/// The rows stacked along a new first dimension; all must have one dtype and shape.
Tensor stack(std::span<const Tensor> rows);

}  // namespace ag::data
