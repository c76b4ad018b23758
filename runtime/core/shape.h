// Tensor shapes. A dim of -1 is unknown (None); a shape may also have unknown
// rank. Up to kInlineRank dims are stored inline, so scalars and the usual
// ranks never allocate; ranks kInlineRank+1..kMaxRank keep their dims in a heap
// array. Four inline dims keep a Shape at 40 bytes (a Tensor at 64), which
// matters because tensors are copied on every call. num_elements() detects
// int64 overflow instead of wrapping.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string>

namespace ag {

inline constexpr int kMaxRank = 8;
/// Ranks up to this many dims store them inline (no allocation).
inline constexpr int kInlineRank = 4;
inline constexpr int64_t kUnknownDim = -1;

class Shape {
 public:
  /// A scalar: rank 0. User-provided (not `= default`), so value-initializing a
  /// Shape never zeroes its tail padding, where a Tensor keeps other fields.
  Shape() {}  // NOLINT(modernize-use-equals-default)
  Shape(std::initializer_list<int64_t> dims);
  explicit Shape(std::span<const int64_t> dims);
  static Shape unknown_rank();
  /// Rank `rank` with every dim unknown.
  static Shape unknown_dims(int rank);

  // Copies and moves are inline: Tensors copy their Shape on every call. The
  // inline dims are copied field by field, never the whole object, because a
  // Tensor keeps its dtype in this class's tail padding; with memmove, as
  // source and target may be one object (self-assignment, swap(x, x)).
  Shape(const Shape& o) : rank_(o.rank_) {
    if (o.on_heap()) {
      copy_to_heap(o.heap_);
    } else {
      std::memmove(inline_, o.inline_, sizeof inline_);
    }
  }
  /// A moved-from shape with heap dims becomes a scalar; an inline one keeps its dims.
  Shape(Shape&& o) noexcept : rank_(o.rank_) {
    std::memmove(inline_, o.inline_, sizeof inline_);  // the heap pointer too, when there is one
    if (o.on_heap()) o.rank_ = 0;
  }
  Shape& operator=(const Shape& o) {
    if (o.on_heap() || on_heap()) {
      assign_slow(o);
    } else {
      rank_ = o.rank_;
      std::memmove(inline_, o.inline_, sizeof inline_);
    }
    return *this;
  }
  Shape& operator=(Shape&& o) noexcept {
    if (this == &o) return *this;
    if (on_heap()) delete[] heap_;
    rank_ = o.rank_;
    std::memmove(inline_, o.inline_, sizeof inline_);
    if (o.on_heap()) o.rank_ = 0;
    return *this;
  }
  ~Shape() {
    if (on_heap()) delete[] heap_;
  }
  /// Field by field (not the tail padding), touching no heap array.
  friend void swap(Shape& a, Shape& b) noexcept {
    unsigned char t[sizeof a.inline_];
    std::memcpy(t, a.inline_, sizeof t);
    std::memmove(a.inline_, b.inline_, sizeof t);
    std::memcpy(b.inline_, t, sizeof t);
    int32_t r = a.rank_;
    a.rank_ = b.rank_;
    b.rank_ = r;
  }

  bool rank_known() const { return rank_ >= 0; }
  /// -1 when unknown.
  int rank() const { return rank_; }
  int64_t dim(int i) const { return data()[i]; }
  int64_t operator[](int i) const { return dim(i); }
  void set_dim(int i, int64_t d) { data()[i] = d; }
  std::span<const int64_t> dims() const { return {data(), rank_ < 0 ? 0 : static_cast<size_t>(rank_)}; }

  /// Rank known and every dim known.
  bool fully_defined() const;
  /// Product of the dims; throws InvalidArgumentError if it overflows int64.
  /// Only for fully defined shapes.
  int64_t num_elements() const;

  void push_back(int64_t d);
  Shape with_dim(int i, int64_t d) const;

  /// TF's compatibility: unknown rank or dims match anything.
  bool is_compatible_with(const Shape& other) const;
  /// Every shape `other` describes is also described by this one (unknowns here
  /// cover any dim there).
  bool is_supertype_of(const Shape& other) const;
  /// The most specific shape compatible with both (dims that differ become unknown).
  Shape most_specific_common_supertype(const Shape& other) const;

  /// "(2, 3)", "(None, 3)", "()", "(5,)", "<unknown>" as TensorShape prints in Python.
  std::string str() const;
  /// "[2,3]", "[?,3]", "[]", "<unknown>" as TF's C++ error messages print shapes.
  std::string debug_string() const;

  friend bool operator==(const Shape& a, const Shape& b);

 private:
  bool on_heap() const { return rank_ > kInlineRank; }
  int64_t* data() { return on_heap() ? heap_ : inline_; }
  const int64_t* data() const { return on_heap() ? heap_ : inline_; }
  /// Points heap_ at a new copy of rank_ dims from `dims` (rank_ already set).
  void copy_to_heap(const int64_t* dims);
  void assign_slow(const Shape& o);

  union {
    int64_t inline_[kInlineRank] = {};
    int64_t* heap_;  // rank_ > kInlineRank: rank_ dims
  };
  int32_t rank_ = 0;
};

}  // namespace ag
