// An eager tensor: dtype, fully defined shape and elements (row-major). Numeric
// scalars live inline (no heap allocation); anything larger shares a
// ref-counted Buffer, so copying a Tensor is cheap. Tensors are values: ops
// make new ones; a kernel may write in place only into a buffer it holds alone.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/core/buffer.h"
#include "runtime/core/dtype.h"
#include "runtime/core/error.h"
#include "runtime/core/shape.h"

namespace ag {

class Tensor {
 public:
  /// A null tensor (defined() is false): an empty slot, not a value.
  Tensor() = default;
  /// Elements uninitialized for numeric dtypes, empty for strings.
  Tensor(DType dtype, const Shape& shape);
  // Copies and moves are inline: the call path makes several per call.
  Tensor(const Tensor& o)
      : shape_(o.shape_), dtype_(o.dtype_), defined_(o.defined_), count_(o.count_), buf_(o.buf_) {
    if (buf_) buf_->retain();
    std::memcpy(inline_, o.inline_, sizeof inline_);
  }
  Tensor(Tensor&& o) noexcept
      : shape_(std::move(o.shape_)), dtype_(o.dtype_), defined_(o.defined_), count_(o.count_), buf_(o.buf_) {
    std::memcpy(inline_, o.inline_, sizeof inline_);
    o.buf_ = nullptr;
    o.defined_ = false;
  }
  Tensor& operator=(const Tensor& o) {
    if (this == &o) return *this;
    if (o.buf_) o.buf_->retain();
    drop();
    shape_ = o.shape_;
    take_scalar_fields(o);
    return *this;
  }
  Tensor& operator=(Tensor&& o) noexcept {
    if (this == &o) return *this;
    drop();
    shape_ = std::move(o.shape_);
    take_scalar_fields(o);
    o.buf_ = nullptr;
    o.defined_ = false;
    return *this;
  }
  ~Tensor() { drop(); }

  /// A scalar of type T.
  template <class T>
  static Tensor scalar(T value) {
    Tensor t(dtype_of<T>(), Shape{});
    *t.data<T>() = std::move(value);
    return t;
  }
  /// A tensor of `shape` with `values` (row-major); their count must match.
  template <class T>
  static Tensor from_vector(const Shape& shape, const std::vector<T>& values) {
    Tensor t(dtype_of<T>(), shape);
    if (static_cast<int64_t>(values.size()) != t.num_elements()) {
      throw InvalidArgumentError("Expected " + std::to_string(t.num_elements()) + " values for shape " +
                                 shape.debug_string() + ", got " + std::to_string(values.size()));
    }
    T* d = t.data<T>();
    for (size_t i = 0; i < values.size(); ++i) d[i] = values[i];
    return t;
  }
  /// Elements zeroed (numeric), false (bool) or empty (string).
  static Tensor zeros(DType dtype, const Shape& shape);

  bool defined() const { return defined_; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int rank() const { return shape_.rank(); }
  int64_t num_elements() const { return count_; }
  size_t byte_size() const { return static_cast<size_t>(count_) * dtype_size(dtype_); }

  /// The elements; T must be the dtype's element type (checked in debug builds only).
  template <class T>
  T* data() {
    return static_cast<T*>(raw_data());
  }
  template <class T>
  const T* data() const {
    return static_cast<const T*>(raw_data());
  }
  void* raw_data() { return buf_ ? buf_->data() : static_cast<void*>(inline_); }
  const void* raw_data() const { return buf_ ? buf_->data() : static_cast<const void*>(inline_); }

  /// The value of a one-element tensor as T (no conversion: T is the element type).
  template <class T>
  const T& scalar_value() const {
    return *data<T>();
  }

  /// True when this tensor alone holds its storage, so a kernel may overwrite it.
  bool owns_storage_uniquely() const { return defined_ && (buf_ == nullptr || buf_->unique()); }
  /// True when both tensors share one buffer (views of the same elements).
  bool shares_storage_with(const Tensor& o) const { return buf_ != nullptr && buf_ == o.buf_; }

  /// Exchanges two tensors field by field: no reference count is touched (the
  /// While loop rotates its loop variables with this every iteration).
  friend void swap(Tensor& a, Tensor& b) noexcept {
    std::swap(a.dtype_, b.dtype_);
    std::swap(a.defined_, b.defined_);
    swap(a.shape_, b.shape_);
    std::swap(a.count_, b.count_);
    std::swap(a.buf_, b.buf_);
    std::swap(a.inline_, b.inline_);
  }

  /// The same elements under another shape with as many elements (no copy).
  Tensor reshaped(const Shape& shape) const;
  /// A deep copy.
  Tensor clone() const;

  /// The elements as a read-only span of T; InvalidArgumentError when T is
  /// not the element type of the tensor's dtype. Valid while this tensor,
  /// or a copy sharing its storage, lives.
  template <class T>
  std::span<const T> span() const {
    if (dtype_of<T>() != dtype_) {
      throw InvalidArgumentError(std::string(dtype_name(dtype_of<T>())) + " expected, got " + dtype_name(dtype_));
    }
    return {data<T>(), static_cast<size_t>(count_)};
  }

 private:
  friend class BorrowedTensor;
  /// A tensor over `buffer` (fully defined `shape`, as many elements),
  /// taking the caller's reference to it.
  Tensor(DType dtype, const Shape& shape, Buffer* buffer)
      : shape_(shape), dtype_(dtype), defined_(true), count_(buffer->count()), buf_(buffer) {}
  /// Whether `count` elements of `dtype` live in inline_ rather than a Buffer.
  static bool inline_storage(DType dtype, int64_t count) { return count <= 1 && !has_object_elements(dtype); }

  bool stored_inline() const;
  void drop() {
    if (buf_) buf_->release();
    buf_ = nullptr;
  }
  /// Copies every field of `o` but the shape (the buffer pointer without retaining it).
  void take_scalar_fields(const Tensor& o) {
    dtype_ = o.dtype_;
    defined_ = o.defined_;
    count_ = o.count_;
    buf_ = o.buf_;
    std::memcpy(inline_, o.inline_, sizeof inline_);
  }

  // The shape first, so dtype_ and defined_ fill its tail padding (it may
  // overlap them: Shape never writes past its fields) and a Tensor is 64 bytes.
  [[no_unique_address]] Shape shape_;
  DType dtype_ = DType::Float32;
  bool defined_ = false;
  int64_t count_ = 0;
  Buffer* buf_ = nullptr;
  alignas(8) unsigned char inline_[8]{};
};

/// Copies `count` elements of `src` from element `src_at` into `dst` at
/// element `dst_at` (same dtype): strings and variants as objects, numbers
/// with memcpy.
void copy_elements(Tensor& dst, int64_t dst_at, const Tensor& src, int64_t src_at, int64_t count);

}  // namespace ag
