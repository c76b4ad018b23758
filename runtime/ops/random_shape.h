// What the random op files share (defined in random_ops.cpp): the output
// shape from a `shape` input (int32 or int64 vector) with TF's checks, and the
// stateless ops' seed input. Used by random_ops.cpp, random_gamma_ops.cpp,
// random_poisson_ops.cpp and the Generator's stateful_random_ops.cpp.
#pragma once

#include <cstddef>

#include "runtime/ops/kernels/philox.h"
#include "runtime/ops/registry.h"

namespace ag {

/// While building: the shape input `i`'s values when known, else its length.
Shape random_output_shape(const InferContext& c, size_t i);
/// While running: the shape the tensor holds.
Shape random_output_shape(const Tensor& t);

/// shape ++ tail (RandomGamma's and RandomPoissonV2's output shape: the
/// samples' shape, then the parameter's), unknown when either rank is.
Shape random_concat_shape(const Shape& head, const Shape& tail);
/// The stateless gamma and Poisson ops' check that the output shape ends
/// with the parameter's (TF's TensorShapeUtils::EndsWith and its message).
void check_shape_ends_with(const Shape& out, const Shape& param);

/// TF's GenerateKey: the Philox generator a stateless op's shape-[2] seed
/// fixes (InvalidArgumentError for another shape).
kernels::Philox4x32 stateless_generator(const Tensor& seed);
/// The seed input `i`'s type rule: int32 or int64 (attr Tseed).
void check_seed_input(const InferContext& c, size_t i);

}  // namespace ag
