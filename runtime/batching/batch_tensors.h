// Row-wise tensor plumbing of a batch: concatenating the tasks' inputs along
// dim 0 with the checks of TF's concat_split_util (B26), and slicing rows back
// out for split requests and per-task outputs.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/core/tensor.h"

namespace ag::batching {

/// `tensors` stacked along dim 0 (at least one). Every one must have the rank
/// and trailing dims of tensors[0], else InvalidArgumentError worded as TF's:
/// "Dimensions of inputs should match: shape[0] = [1,3,2] vs. shape[1] = [2,4,2]".
Tensor concat_rows(const std::vector<Tensor>& tensors);

/// Rows [begin, begin + count) of `t` (rank >= 1) as a new tensor.
Tensor slice_rows(const Tensor& t, int64_t begin, int64_t count);

}  // namespace ag::batching
