#include <doctest/doctest.h>

#include "transpiler/base/namer.h"

using agc::Namer;

TEST_CASE("fresh names count up from the bare root") {
  Namer n;
  CHECK(n.new_symbol("if_body", std::set<std::string>{}) == "if_body");
  CHECK(n.new_symbol("if_body", std::set<std::string>{}) == "if_body_1");
  CHECK(n.new_symbol("if_body", std::set<std::string>{}) == "if_body_2");
  CHECK(n.new_symbol("else_body", std::set<std::string>{}) == "else_body");
}

TEST_CASE("fresh names skip reserved and module names") {
  Namer n({"get_state"});
  CHECK(n.new_symbol("get_state", std::set<std::string>{}) == "get_state_1");
  CHECK(n.new_symbol("loop_body", std::set<std::string>{"loop_body", "loop_body_1"}) == "loop_body_2");
}

TEST_CASE("a trailing underscore is part of the root, as in AutoGraph's retval_ and break_") {
  Namer n;
  CHECK(n.new_symbol("retval_", std::set<std::string>{}) == "retval_");
  CHECK(n.new_symbol("retval_", std::set<std::string>{}) == "retval__1");
  CHECK(n.new_symbol("break_", std::set<std::string>{}) == "break_");
  CHECK(n.new_symbol("break_", std::set<std::string>{}) == "break__1");
}

TEST_CASE("a root ending in _<digits> continues numbering from there") {
  Namer n;
  CHECK(n.new_symbol("x_3", std::set<std::string>{}) == "x");
  CHECK(n.new_symbol("x_3", std::set<std::string>{}) == "x_4");
}
