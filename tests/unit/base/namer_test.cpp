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

// AutoGraph's algorithm, probing from the root each time; Namer skips ahead
// over names it handed out and must still give exactly these answers.
struct ReferenceNamer {
  std::set<std::string> globals, generated;
  std::string new_symbol(std::string root, const std::set<std::string>& reserved) {
    long n = 0;
    auto us = root.rfind('_');
    if (us != std::string::npos && us + 1 < root.size() &&
        root.find_first_not_of("0123456789", us + 1) == std::string::npos) {
      n = std::stol(root.substr(us + 1));
      root = root.substr(0, us);
    }
    std::string name = root;
    while (globals.count(name) || generated.count(name) || reserved.count(name)) {
      name = root + "_" + std::to_string(++n);
    }
    generated.insert(name);
    return name;
  }
};

TEST_CASE("skipping ahead names exactly like probing from the root") {
  const std::vector<std::string> roots = {"if_body", "if_body_2", "x", "x_1", "x_7", "retval_"};
  std::set<std::string> globals = {"if_body_3", "x_2"};
  Namer fast(globals);
  ReferenceNamer slow{globals, {}};
  unsigned seed = 12345;
  auto next = [&seed] { return (seed = seed * 1103515245u + 12345u) >> 16; };
  for (int i = 0; i < 3000; ++i) {
    const std::string& root = roots[next() % roots.size()];
    std::set<std::string> reserved;
    for (unsigned k = next() % 3; k > 0; --k) reserved.insert("if_body_" + std::to_string(next() % 40));
    if (next() % 4 == 0) reserved.insert("x_" + std::to_string(next() % 40));
    CHECK(fast.new_symbol(root, reserved) == slow.new_symbol(root, reserved));
  }
}
