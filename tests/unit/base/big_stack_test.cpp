#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "transpiler/base/big_stack.h"

namespace {

// Each level keeps 4 KiB live on the stack, so 20000 levels need ~80 MiB:
// ten times an ordinary 8 MiB main-thread stack.
int recurse(int n) {
  volatile char pad[4096];
  pad[0] = static_cast<char>(n);
  return n == 0 ? pad[0] : recurse(n - 1) + 1 + (pad[0] - static_cast<char>(n));
}

}  // namespace

TEST_CASE("a big-stack thread runs recursion far past an 8 MiB stack") {
  CHECK(agc::run_on_big_stack([] { return recurse(20000); }) == 20000);
}

TEST_CASE("what the thread throws reaches the caller") {
  CHECK_THROWS_WITH_AS(agc::run_on_big_stack([]() -> int { throw std::runtime_error("boom"); }), "boom",
                       std::runtime_error);
}

TEST_CASE("several big-stack threads run at once and all join") {
  int results[4] = {};
  {
    std::vector<agc::BigStackThread> pool;
    for (int i = 0; i < 4; ++i) pool.emplace_back([&results, i] { results[i] = recurse(1000 * (i + 1)); });
    for (auto& t : pool) t.join();
  }
  CHECK(results[0] == 1000);
  CHECK(results[3] == 4000);
}
