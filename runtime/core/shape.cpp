#include "runtime/core/shape.h"

#include <cstring>

#include "runtime/core/error.h"

namespace ag {
namespace {

void check_rank(size_t rank) {
  if (rank > static_cast<size_t>(kMaxRank)) {
    throw UnimplementedError("tensors of rank " + std::to_string(rank) + " are not supported (at most " +
                             std::to_string(kMaxRank) + ")");
  }
}

}  // namespace

Shape::Shape(std::initializer_list<int64_t> dims) : Shape(std::span<const int64_t>(dims.begin(), dims.size())) {}

Shape::Shape(std::span<const int64_t> dims) {
  check_rank(dims.size());
  for (int64_t d : dims) {
    if (d < kUnknownDim) throw InvalidArgumentError("Dimension " + std::to_string(d) + " must be >= 0");
  }
  rank_ = static_cast<int32_t>(dims.size());
  if (on_heap()) {
    copy_to_heap(dims.data());
  } else if (!dims.empty()) {  // (an empty span's data() may be null)
    std::memcpy(inline_, dims.data(), dims.size() * sizeof(int64_t));
  }
}

void Shape::copy_to_heap(const int64_t* dims) {
  auto* d = new int64_t[static_cast<size_t>(rank_)];
  std::memcpy(d, dims, static_cast<size_t>(rank_) * sizeof(int64_t));
  heap_ = d;
}

void Shape::assign_slow(const Shape& o) {
  if (this == &o) return;
  if (!o.on_heap()) {
    delete[] heap_;  // on_heap(): the only way here with `o` inline
    rank_ = o.rank_;
    std::memcpy(inline_, o.inline_, sizeof inline_);
    return;
  }
  if (rank_ == o.rank_) {  // same heap size: reuse the array
    std::memcpy(heap_, o.heap_, static_cast<size_t>(rank_) * sizeof(int64_t));
    return;
  }
  // Allocate before releasing, so a failed allocation leaves *this intact.
  auto* d = new int64_t[static_cast<size_t>(o.rank_)];
  std::memcpy(d, o.heap_, static_cast<size_t>(o.rank_) * sizeof(int64_t));
  if (on_heap()) delete[] heap_;
  heap_ = d;
  rank_ = o.rank_;
}

Shape Shape::unknown_rank() {
  Shape s;
  s.rank_ = -1;
  return s;
}

Shape Shape::unknown_dims(int rank) {
  check_rank(static_cast<size_t>(rank));
  Shape s;
  s.rank_ = rank;
  if (s.on_heap()) s.heap_ = new int64_t[static_cast<size_t>(rank)];
  for (int i = 0; i < rank; ++i) s.set_dim(i, kUnknownDim);
  return s;
}

bool Shape::fully_defined() const {
  if (rank_ < 0) return false;
  for (int64_t d : dims()) {
    if (d < 0) return false;
  }
  return true;
}

int64_t Shape::num_elements() const {
  int64_t n = 1;
  for (int64_t d : dims()) {
    if (d < 0) throw InvalidArgumentError("Shape " + debug_string() + " is not fully defined");
    if (__builtin_mul_overflow(n, d, &n)) {
      throw InvalidArgumentError("Encountered overflow when multiplying shape dimensions of " + debug_string());
    }
  }
  return n;
}

void Shape::push_back(int64_t d) {
  if (rank_ < 0) throw InternalError("push_back on a shape of unknown rank");
  check_rank(static_cast<size_t>(rank_ + 1));
  if (rank_ == kInlineRank) {  // spill the inline dims to the heap
    auto* h = new int64_t[kInlineRank + 1];
    std::memcpy(h, inline_, sizeof inline_);
    heap_ = h;
  } else if (on_heap()) {
    auto* h = new int64_t[static_cast<size_t>(rank_ + 1)];
    std::memcpy(h, heap_, static_cast<size_t>(rank_) * sizeof(int64_t));
    delete[] heap_;
    heap_ = h;
  }
  ++rank_;
  set_dim(rank_ - 1, d);
}

Shape Shape::with_dim(int i, int64_t d) const {
  Shape s = *this;
  s.set_dim(i, d);
  return s;
}

bool Shape::is_compatible_with(const Shape& o) const {
  if (!rank_known() || !o.rank_known()) return true;
  if (rank_ != o.rank_) return false;
  for (int i = 0; i < rank_; ++i) {
    if (dim(i) >= 0 && o.dim(i) >= 0 && dim(i) != o.dim(i)) return false;
  }
  return true;
}

bool Shape::is_supertype_of(const Shape& o) const {
  if (!rank_known()) return true;
  if (rank_ != o.rank_) return false;
  for (int i = 0; i < rank_; ++i) {
    if (dim(i) >= 0 && dim(i) != o.dim(i)) return false;
  }
  return true;
}

Shape Shape::most_specific_common_supertype(const Shape& o) const {
  if (!rank_known() || !o.rank_known() || rank_ != o.rank_) return unknown_rank();
  Shape s = *this;
  for (int i = 0; i < rank_; ++i) {
    if (dim(i) != o.dim(i)) s.set_dim(i, kUnknownDim);
  }
  return s;
}

std::string Shape::str() const {
  if (!rank_known()) return "<unknown>";
  std::string s = "(";
  for (int i = 0; i < rank_; ++i) {
    if (i > 0) s += ", ";
    s += dim(i) < 0 ? "None" : std::to_string(dim(i));
  }
  if (rank_ == 1) s += ",";
  return s + ")";
}

std::string Shape::debug_string() const {
  if (!rank_known()) return "<unknown>";
  std::string s = "[";
  for (int i = 0; i < rank_; ++i) {
    if (i > 0) s += ",";
    s += dim(i) < 0 ? "?" : std::to_string(dim(i));
  }
  return s + "]";
}

bool operator==(const Shape& a, const Shape& b) {
  if (a.rank_ != b.rank_) return false;
  for (int i = 0; i < a.rank_; ++i) {
    if (a.dim(i) != b.dim(i)) return false;
  }
  return true;
}

}  // namespace ag
