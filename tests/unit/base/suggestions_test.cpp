#include <doctest/doctest.h>

#include "transpiler/base/suggestions.h"

using namespace agc;

namespace {
const std::vector<std::string_view> kNames{"reduce_sum", "relu", "keras", "zeros", "float32", "sqrt", "reduce_mean"};
}

// Each expectation is what CPython 3.11 suggests for `m.NAME` on an object
// with kNames as attributes ("Did you mean: 'reduce_sum'?", or nothing).
TEST_CASE("suggestions match CPython's for typos, case changes and far names") {
  CHECK(closest_name("reduse_sum", kNames) == "reduce_sum");
  CHECK(closest_name("rel", kNames) == "relu");
  CHECK(closest_name("kerass", kNames) == "keras");
  CHECK(closest_name("kera", kNames) == "keras");
  CHECK(closest_name("zeroes", kNames) == "zeros");
  CHECK(closest_name("Zeros", kNames) == "zeros");
  CHECK(closest_name("float33", kNames) == "float32");
  CHECK(closest_name("sqr", kNames) == "sqrt");
  CHECK(closest_name("ReduceSum", kNames) == "reduce_sum");
  CHECK(closest_name("rleu", kNames).empty());
  CHECK(closest_name("frobnicate_everything", kNames).empty());
}

TEST_CASE("a name equal to a candidate is never suggested to itself") {
  CHECK(closest_name("keras", {"keras"}).empty());
}

TEST_CASE("the suggestion distance costs 2 per edit and 1 per case change") {
  CHECK(suggestion_distance("abc", "abc", 10) == 0);
  CHECK(suggestion_distance("abc", "abd", 10) == 2);
  CHECK(suggestion_distance("abc", "aBc", 10) == 1);
  CHECK(suggestion_distance("abc", "abcd", 10) == 2);
  CHECK(suggestion_distance("abcdef", "a", 3) == 10);  // the common prefix is free; the rest is 5 deletions
  CHECK(suggestion_distance("xyzw", "wzyx", 3) == 4);  // past max_cost: max_cost + 1
}

TEST_CASE("a preferred candidate wins a tie, never against a closer one") {
  // "sum_x" and "sum_y" are both one edit from "sum_z".
  CHECK(closest_name("sum_z", {"sum_x", "sum_y"}) == "sum_x");
  CHECK(closest_name("sum_z", {"sum_x", "sum_y"}, {"sum_y"}) == "sum_y");
  CHECK(closest_name("sum_z", {"sum_zzz", "sum_x"}, {"sum_zzz"}) == "sum_x");
}
