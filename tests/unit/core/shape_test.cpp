#include <doctest/doctest.h>

#include <span>
#include <utility>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/core/shape.h"

using namespace ag;

TEST_CASE("shapes print as TensorShape in Python and as TF's C++ errors do") {
  CHECK(Shape{}.str() == "()");
  CHECK(Shape{5}.str() == "(5,)");
  CHECK(Shape{2, kUnknownDim}.str() == "(2, None)");
  CHECK(Shape::unknown_rank().str() == "<unknown>");
  CHECK(Shape{2, 3}.debug_string() == "[2,3]");
  CHECK(Shape{kUnknownDim, 3}.debug_string() == "[?,3]");
}

TEST_CASE("element counts detect overflow instead of wrapping") {
  CHECK(Shape{2, 3, 4}.num_elements() == 24);
  CHECK(Shape{}.num_elements() == 1);
  CHECK(Shape{0, 5}.num_elements() == 0);
  Shape huge{int64_t{1} << 40, int64_t{1} << 40};
  CHECK_THROWS_AS(huge.num_elements(), InvalidArgumentError);
  CHECK_THROWS_AS(Shape{kUnknownDim}.num_elements(), InvalidArgumentError);
  CHECK_THROWS_AS(Shape({-5}), InvalidArgumentError);
}

TEST_CASE("compatibility and supertypes follow TensorShape") {
  Shape a{2, 3}, b{kUnknownDim, 3}, c{2, 4};
  CHECK(a.is_compatible_with(b));
  CHECK_FALSE(a.is_compatible_with(c));
  CHECK(b.is_supertype_of(a));
  CHECK_FALSE(a.is_supertype_of(b));
  CHECK(Shape::unknown_rank().is_supertype_of(a));
  CHECK(a.most_specific_common_supertype(c) == Shape({2, kUnknownDim}));
  CHECK(a.most_specific_common_supertype(Shape{2}) == Shape::unknown_rank());
}

TEST_CASE("ranks past the inline limit are a typed error") {
  std::vector<int64_t> dims(kMaxRank + 1, 1);
  CHECK_THROWS_AS(Shape(std::span<const int64_t>(dims)), UnimplementedError);
}

namespace {

/// Dims 1..rank, so each shape in the storage tests is distinct.
Shape counting_shape(int rank) {
  std::vector<int64_t> dims;
  for (int i = 0; i < rank; ++i) dims.push_back(i + 1);
  return Shape(std::span<const int64_t>(dims));
}

void check_counting(const Shape& s, int rank) {
  REQUIRE(s.rank() == rank);
  for (int i = 0; i < rank; ++i) CHECK(s.dim(i) == i + 1);
}

}  // namespace

// Shapes keep kInlineRank dims inline and larger ranks on the heap: every
// rank on both sides of that boundary, and unknown rank, through each way a
// Shape is made, copied, moved and assigned (ASan checks the heap side).
TEST_CASE("shapes of every rank survive copies, moves and assignment across the inline limit") {
  static_assert(kInlineRank == 4 && kMaxRank == 8);
  for (int rank : {0, 1, 4, 5, 8}) {
    CAPTURE(rank);
    Shape s = counting_shape(rank);
    check_counting(s, rank);
    CHECK(s.fully_defined());
    CHECK(s.dims().size() == static_cast<size_t>(rank));

    Shape copy = s;
    check_counting(copy, rank);
    CHECK(copy == s);
    if (rank > 0) {
      copy.set_dim(rank - 1, 100);
      check_counting(s, rank);  // the copy does not share dims with the original
      CHECK(copy.dim(rank - 1) == 100);
    }

    Shape moved = std::move(copy);
    if (rank > 0) CHECK(moved.dim(rank - 1) == 100);
    CHECK(moved.rank() == rank);

    for (int other : {0, 3, 4, 5, 6, 8}) {
      CAPTURE(other);
      Shape target = counting_shape(other);
      target = s;  // copy-assign across the boundary, both ways
      check_counting(target, rank);
      Shape target2 = counting_shape(other);
      Shape source = s;
      target2 = std::move(source);
      check_counting(target2, rank);
      Shape target3 = counting_shape(other);
      target3 = Shape::unknown_rank();
      CHECK_FALSE(target3.rank_known());
      Shape a = counting_shape(other), b = s;
      swap(a, b);
      check_counting(a, rank);
      check_counting(b, other);
    }
    const Shape& same = s;
    s = same;  // self-assignment keeps the dims
    check_counting(s, rank);
  }
}

TEST_CASE("unknown rank and unknown dims on both sides of the inline limit") {
  Shape u = Shape::unknown_rank();
  CHECK_FALSE(u.rank_known());
  CHECK(u.dims().empty());
  Shape uc = u;
  CHECK(uc == u);
  CHECK(uc.str() == "<unknown>");
  for (int rank : {0, 4, 5, 8}) {
    CAPTURE(rank);
    Shape d = Shape::unknown_dims(rank);
    CHECK(d.rank() == rank);
    CHECK(d.fully_defined() == (rank == 0));
    for (int i = 0; i < rank; ++i) CHECK(d.dim(i) == kUnknownDim);
    Shape known = counting_shape(rank);
    CHECK(d.is_supertype_of(known));
    CHECK(d.is_compatible_with(known));
    CHECK(known.most_specific_common_supertype(counting_shape(rank)) == known);
    if (rank > 0) {
      Shape other = known.with_dim(rank - 1, 99);
      CHECK(known.most_specific_common_supertype(other).dim(rank - 1) == kUnknownDim);
      CHECK(known.dim(rank - 1) == rank);  // with_dim copied
    }
  }
  CHECK(Shape::unknown_dims(5).debug_string() == "[?,?,?,?,?]");
  CHECK_THROWS_AS(Shape::unknown_dims(kMaxRank + 1), UnimplementedError);
}

TEST_CASE("push_back grows a shape from rank 0 to the maximum, spilling to the heap at rank 5") {
  Shape s;
  for (int i = 0; i < kMaxRank; ++i) {
    s.push_back(i + 1);
    check_counting(s, i + 1);
    Shape copy = s;
    check_counting(copy, i + 1);
  }
  CHECK(s.num_elements() == 40320);
  CHECK(s.str() == "(1, 2, 3, 4, 5, 6, 7, 8)");
  CHECK_THROWS_AS(s.push_back(9), UnimplementedError);
  check_counting(s, kMaxRank);
  CHECK_THROWS_AS(Shape::unknown_rank().push_back(1), InternalError);
}

TEST_CASE("shapes of rank 5 and 8 compare and describe as any other") {
  Shape a{2, 3, 4, 5, 6}, b{2, 3, 4, 5, 6}, c{2, 3, 4, 5, 7};
  CHECK(a == b);
  CHECK_FALSE(a == c);
  CHECK_FALSE(a == Shape({2, 3, 4, 5}));
  CHECK(a.num_elements() == 720);
  CHECK(a.debug_string() == "[2,3,4,5,6]");
  Shape e{1, 1, 1, 1, 1, 1, 1, 2};
  CHECK(e.num_elements() == 2);
  CHECK(e.most_specific_common_supertype(a) == Shape::unknown_rank());
  CHECK_THROWS_AS(Shape({1, 1, 1, 1, -3}), InvalidArgumentError);
}
