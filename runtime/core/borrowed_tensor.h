// A tensor over elements a C++ app owns, for the length of a call: the
// typed entry points of a library agc builds pass the app's buffers to the
// model this way, without copying them (runtime/api/embedding.h).
//
// The rule that makes this safe: the elements must stay valid and unchanged
// while the BorrowedTensor lives, and nothing more. No kernel writes into
// them (a borrowed buffer is never unique(), so outputs get storage of their
// own). When the BorrowedTensor ends, any tensor still sharing the elements
// (a result that is the input itself, a tensor a variable, a list or a
// cache kept) is given its own copy first, so results never point into the
// app's memory. Scalars are copied at once: they live inside the Tensor.
#pragma once

#include <cstdint>

#include "runtime/core/shape.h"
#include "runtime/core/tensor.h"

namespace ag {

class BorrowedTensor {
 public:
  /// A tensor of `dtype` and `shape` (fully defined) over the
  /// shape.num_elements() elements at `data`, of the dtype's element type.
  BorrowedTensor(DType dtype, const Shape& shape, const void* data);
  /// Ends the borrow (Buffer::end_borrow).
  ~BorrowedTensor();
  BorrowedTensor(const BorrowedTensor&) = delete;
  BorrowedTensor& operator=(const BorrowedTensor&) = delete;

  const Tensor& tensor() const { return tensor_; }

 private:
  Tensor tensor_;
  Buffer* borrowed_ = nullptr;  // held by tensor_; null when tensor_ is a copy
};

}  // namespace ag
