// The ref-counted storage behind tensors: 64-byte aligned, one allocation for
// header and elements. String elements are constructed and destroyed with it.
// A buffer may also wrap memory it does not own (the executor's arena).
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
  /// A buffer over `data` (not owned; must outlive every tensor using it).
  static Buffer* wrap(DType dtype, int64_t count, void* data);

  void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy();
  }
  /// True when only one tensor holds this buffer (it may be written in place).
  bool unique() const { return refs_.load(std::memory_order_acquire) == 1; }

  void* data() const { return data_; }
  int64_t count() const { return count_; }
  DType dtype() const { return dtype_; }

 private:
  Buffer() = default;
  void destroy();

  std::atomic<uint32_t> refs_{1};
  DType dtype_ = DType::Float32;
  bool owned_ = true;
  int64_t count_ = 0;
  void* data_ = nullptr;
  size_t bytes_ = 0;  // allocated, header included (0 when not owned)
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
