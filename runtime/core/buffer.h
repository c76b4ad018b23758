// The ref-counted storage behind tensors: 64-byte aligned, one allocation for
// header and elements. String elements are constructed and destroyed with it.
// A buffer may also borrow elements its caller owns, for the length of a call
// from a C++ app (runtime/core/borrowed_tensor.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "runtime/core/dtype.h"

namespace ag {

class Buffer {
 public:
  /// A buffer of `count` elements of `dtype`, refcount 1. Numeric elements are
  /// left uninitialized; strings are empty. Throws ResourceExhaustedError when
  /// the size overflows or memory is short.
  static Buffer* allocate(DType dtype, int64_t count);
  /// A buffer over `count` elements at `data`, which the caller owns and
  /// keeps valid and unchanged until it calls end_borrow(); refcount 1. No
  /// kernel writes into it (unique() is false while it is borrowed).
  static Buffer* borrow(DType dtype, int64_t count, const void* data);
  /// Ends a borrow: when tensors other than the borrower's still hold this
  /// buffer (a result that is an input, a tensor a variable or a list
  /// kept), it first takes its own copy of the elements, which they all see
  /// from then on, so the caller's memory is free to go. The borrower calls
  /// it when the call it lent the elements to has returned, with no other
  /// thread using them (none can safely: they are about to go).
  void end_borrow();

  void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy();
  }
  /// True when only one tensor holds this buffer (it may be written in place).
  bool unique() const { return !borrowed_ && refs_.load(std::memory_order_acquire) == 1; }

  void* data() const { return data_; }
  int64_t count() const { return count_; }
  DType dtype() const { return dtype_; }

 private:
  Buffer() = default;
  void destroy();

  std::atomic<uint32_t> refs_{1};
  DType dtype_ = DType::Float32;
  /// Whether this buffer's own allocation holds the elements; if not, they
  /// are borrowed (`borrowed_`), or the copy end_borrow() made (`copy_`).
  bool owned_ = true;
  bool borrowed_ = false;
  int64_t count_ = 0;
  void* data_ = nullptr;
  size_t bytes_ = 0;  // allocated, header included (0 when not owned)
  Buffer* copy_ = nullptr;
};

/// The bytes of tensor storage this process holds (every owned Buffer,
/// headers and alignment included), now and at most since the last
/// reset_buffer_peak(): what a program's tensors cost, without the
/// allocator's own caching that resident-memory figures include.
struct BufferStats {
  int64_t current = 0;
  int64_t peak = 0;
};
BufferStats buffer_stats();
/// Starts a new peak from the current figure.
void reset_buffer_peak();

}  // namespace ag
