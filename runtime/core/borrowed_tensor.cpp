#include "runtime/core/borrowed_tensor.h"

#include <string>

namespace ag {

BorrowedTensor::BorrowedTensor(DType dtype, const Shape& shape, const void* data) {
  if (!shape.fully_defined()) {
    throw InvalidArgumentError("Cannot create a tensor of shape " + shape.debug_string() +
                               ": every dimension must be known");
  }
  const int64_t count = shape.num_elements();
  if (count > 0 && data == nullptr) {
    throw InvalidArgumentError("Null data for the " + std::to_string(count) + " elements of a tensor of shape " +
                               shape.debug_string());
  }
  if (Tensor::inline_storage(dtype, count)) {
    // Stored inline (one number at most): copied, as cheap as a borrow.
    tensor_ = Tensor(dtype, shape);
    if (count == 1) std::memcpy(tensor_.raw_data(), data, dtype_size(dtype));
    return;
  }
  borrowed_ = Buffer::borrow(dtype, count, data);
  tensor_ = Tensor(dtype, shape, borrowed_);
}

BorrowedTensor::~BorrowedTensor() {
  if (borrowed_) borrowed_->end_borrow();
}

}  // namespace ag
