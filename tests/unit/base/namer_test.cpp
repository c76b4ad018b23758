#include <doctest/doctest.h>

#include "transpiler/base/namer.h"

using agc::Namer;

TEST_CASE("fresh names count up from the bare root") {
  Namer n;
  CHECK(n.new_symbol("if_body", {}) == "if_body");
  CHECK(n.new_symbol("if_body", {}) == "if_body_1");
  CHECK(n.new_symbol("if_body", {}) == "if_body_2");
  CHECK(n.new_symbol("else_body", {}) == "else_body");
}

TEST_CASE("fresh names skip reserved and module names") {
  Namer n({"get_state"});
  CHECK(n.new_symbol("get_state", {}) == "get_state_1");
  CHECK(n.new_symbol("loop_body", {"loop_body", "loop_body_1"}) == "loop_body_2");
}

TEST_CASE("a trailing underscore is part of the root, as in AutoGraph's retval_ and break_") {
  Namer n;
  CHECK(n.new_symbol("retval_", {}) == "retval_");
  CHECK(n.new_symbol("retval_", {}) == "retval__1");
  CHECK(n.new_symbol("break_", {}) == "break_");
  CHECK(n.new_symbol("break_", {}) == "break__1");
}

TEST_CASE("a root ending in _<digits> continues numbering from there") {
  Namer n;
  CHECK(n.new_symbol("x_3", {}) == "x");
  CHECK(n.new_symbol("x_3", {}) == "x_4");
}
