// NumPy's shape and combination functions on ndarrays: reshape, transpose,
// squeeze, expand_dims, concatenate, stack, with NumPy's
// error texts. Results are new arrays (NumPy's views are copies here).
#pragma once

#include <vector>

#include "runtime/value/value.h"

namespace ag::ndarray {

/// The dims of a shape argument: an int or a sequence of ints (one may be -1
/// in a reshape); NumPy scalars count as ints.
std::vector<int64_t> shape_argument(const Value& v);

/// a.reshape(shape): ValueError "cannot reshape array of size 6 into shape (4,)".
Tensor reshape(const Tensor& a, std::vector<int64_t> dims);
/// a.transpose(axes) (None: reversed).
Tensor transpose(const Tensor& a, const Value& axes);
/// np.squeeze(a, axis): drops size-1 dims (all, or those named).
Tensor squeeze(const Tensor& a, const Value& axis);
/// np.expand_dims(a, axis).
Tensor expand_dims(const Tensor& a, const Value& axis);
/// np.concatenate(arrays, axis) in the arrays' promoted dtype (axis None: flattened).
Tensor concatenate(const std::vector<Tensor>& arrays, const Value& axis);
/// np.stack(arrays, axis): arrays of one shape along a new axis.
Tensor stack(const std::vector<Tensor>& arrays, int64_t axis);

}  // namespace ag::ndarray
