// Moving rows of tensors between elements: the copies slicing, batching,
// padding and unbatching make. Strings are copied as objects; numbers with
// memcpy.
#pragma once

#include <cstdint>
#include <span>

#include "runtime/core/tensor.h"

namespace ag::data {

/// Copies `count` elements from src (starting at element src_at) into dst at dst_at.
void copy_elements(Tensor& dst, int64_t dst_at, const Tensor& src, int64_t src_at, int64_t count);
/// Row `i` of `t` along its first dimension, as a new tensor.
Tensor row(const Tensor& t, int64_t i);
/// The rows stacked along a new first dimension; all must have one dtype and shape.
Tensor stack(std::span<const Tensor> rows);

}  // namespace ag::data
