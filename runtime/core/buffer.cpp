#include "runtime/core/buffer.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "runtime/core/error.h"
#include "runtime/core/variant.h"

namespace ag {
namespace {

constexpr size_t kAlign = 64;
constexpr size_t kHeader = (sizeof(Buffer) + kAlign - 1) / kAlign * kAlign;

// Relaxed: the figures are statistics; an allocation costs one add, and a
// compare that fails once the peak is reached.
std::atomic<int64_t> g_current{0};
std::atomic<int64_t> g_peak{0};

void count_allocation(size_t bytes) {
  int64_t now = g_current.fetch_add(static_cast<int64_t>(bytes), std::memory_order_relaxed) + static_cast<int64_t>(bytes);
  int64_t peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

}  // namespace

BufferStats buffer_stats() {
  return {g_current.load(std::memory_order_relaxed), g_peak.load(std::memory_order_relaxed)};
}

void reset_buffer_peak() { g_peak.store(g_current.load(std::memory_order_relaxed), std::memory_order_relaxed); }

Buffer* Buffer::allocate(DType dtype, int64_t count) {
  if (count < 0) throw InternalError("negative element count");
  size_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<size_t>(count), dtype_size(dtype), &bytes) ||
      __builtin_add_overflow(bytes, kHeader, &bytes)) {
    throw ResourceExhaustedError("OOM when allocating tensor of " + std::to_string(count) + " elements of type " +
                                 dtype_name(dtype));
  }
  bytes = (bytes + kAlign - 1) / kAlign * kAlign;
  void* mem = std::aligned_alloc(kAlign, bytes);
  if (mem == nullptr) {
    throw ResourceExhaustedError("OOM when allocating tensor of " + std::to_string(count) + " elements of type " +
                                 dtype_name(dtype));
  }
  count_allocation(bytes);
  Buffer* b = new (mem) Buffer();
  b->dtype_ = dtype;
  b->count_ = count;
  b->bytes_ = bytes;
  b->data_ = static_cast<char*>(mem) + kHeader;
  if (dtype == DType::String) {
    auto* s = static_cast<std::string*>(b->data_);
    for (int64_t i = 0; i < count; ++i) new (s + i) std::string();
  } else if (dtype == DType::Variant) {
    auto* v = static_cast<TensorListPtr*>(b->data_);
    for (int64_t i = 0; i < count; ++i) new (v + i) TensorListPtr();
  }
  return b;
}

Buffer* Buffer::borrow(DType dtype, int64_t count, const void* data) {
  if (dtype == DType::Variant) throw InternalError("a variant tensor cannot borrow its elements");
  Buffer* b = new Buffer();
  b->dtype_ = dtype;
  b->count_ = count;
  // Never written through: unique() is false until end_borrow(), which
  // replaces the pointer by the copy's.
  b->data_ = const_cast<void*>(data);
  b->owned_ = false;
  b->borrowed_ = true;
  return b;
}

void Buffer::end_borrow() {
  if (!borrowed_) return;
  if (refs_.load(std::memory_order_acquire) > 1) {
    Buffer* copy = allocate(dtype_, count_);
    if (dtype_ == DType::String) {
      const auto* s = static_cast<const std::string*>(data_);
      auto* d = static_cast<std::string*>(copy->data());
      for (int64_t i = 0; i < count_; ++i) d[i] = s[i];
    } else if (count_ > 0) {
      std::memcpy(copy->data(), data_, static_cast<size_t>(count_) * dtype_size(dtype_));
    }
    copy_ = copy;
    data_ = copy->data();
  }
  borrowed_ = false;
}

void Buffer::destroy() {
  if (!owned_) {
    if (copy_) copy_->release();
    delete this;
    return;
  }
  if (dtype_ == DType::String) {
    auto* s = static_cast<std::string*>(data_);
    for (int64_t i = 0; i < count_; ++i) s[i].~basic_string();
  } else if (dtype_ == DType::Variant) {
    auto* v = static_cast<TensorListPtr*>(data_);
    for (int64_t i = 0; i < count_; ++i) v[i].~TensorListPtr();
  }
  g_current.fetch_sub(static_cast<int64_t>(bytes_), std::memory_order_relaxed);
  this->~Buffer();
  std::free(this);
}

}  // namespace ag
