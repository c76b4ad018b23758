#include "runtime/core/tensor.h"

#include "runtime/core/variant.h"

namespace ag {

// One cache line on the usual 64-bit ABIs (Shape's tail padding holds dtype_ and defined_).
static_assert(sizeof(void*) != 8 || sizeof(Tensor) <= 72, "a Tensor should stay small: it is copied on every call");

bool Tensor::stored_inline() const { return inline_storage(dtype_, count_); }

Tensor::Tensor(DType dtype, const Shape& shape) : shape_(shape), dtype_(dtype), defined_(true) {
  if (!shape.fully_defined()) {
    throw InvalidArgumentError("Cannot create a tensor of shape " + shape.debug_string() +
                               ": every dimension must be known");
  }
  count_ = shape.num_elements();
  if (!stored_inline()) buf_ = Buffer::allocate(dtype, count_);
}

Tensor Tensor::zeros(DType dtype, const Shape& shape) {
  Tensor t(dtype, shape);
  if (!has_object_elements(dtype)) std::memset(t.raw_data(), 0, t.byte_size());
  return t;
}

Tensor Tensor::reshaped(const Shape& shape) const {
  if (!shape.fully_defined() || shape.num_elements() != count_) {
    throw InvalidArgumentError("Cannot reshape a tensor with " + std::to_string(count_) +
                               " elements to shape " + shape.debug_string() + " (" +
                               (shape.fully_defined() ? std::to_string(shape.num_elements()) : std::string("?")) +
                               " elements)");
  }
  Tensor t = *this;
  t.shape_ = shape;
  return t;
}

Tensor Tensor::clone() const {
  if (!defined_) return {};
  Tensor t(dtype_, shape_);
  copy_elements(t, 0, *this, 0, count_);
  return t;
}

void copy_elements(Tensor& dst, int64_t dst_at, const Tensor& src, int64_t src_at, int64_t count) {
  if (count == 0) return;
  auto objects = [&]<class T>() {
    const T* s = src.data<T>() + src_at;
    T* d = dst.data<T>() + dst_at;
    for (int64_t i = 0; i < count; ++i) d[i] = s[i];
  };
  if (src.dtype() == DType::String) {
    objects.template operator()<std::string>();
  } else if (src.dtype() == DType::Variant) {
    objects.template operator()<TensorListPtr>();
  } else {
    const size_t size = dtype_size(src.dtype());
    std::memcpy(static_cast<char*>(dst.raw_data()) + static_cast<size_t>(dst_at) * size,
                static_cast<const char*>(src.raw_data()) + static_cast<size_t>(src_at) * size,
                static_cast<size_t>(count) * size);
  }
}

}  // namespace ag
