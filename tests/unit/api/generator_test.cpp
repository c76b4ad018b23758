// Generators as generated code makes them (runtime/api/generator.h): a
// coroutine body behind a generator object, its frame and its finally
// clauses. Runs under ASan and TSan with the runtime's other unit tests, where
// the coroutine frame's lifetime is what matters.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/api/generator.h"
#include "runtime/core/error.h"
#include "runtime/core/finally.h"
#include "runtime/value/exception_value.h"
#include "runtime/value/iteration.h"

namespace ag {
namespace {

constexpr const char* kFile = "gen.py";

/// def count(n): i = 0; while i < n: yield i; i += 1; return "done"
Value count(Value n) {
  return make_generator(kFile, "count", [](GeneratorFrame& ag_frame, Value n) -> Generator {
    Value i = 0;
    ag_frame.at(3);
    while (truthy(i < n)) {
      ag_frame.at(4);
      co_yield i;
      i = i + 1;
    }
    co_return Value("done");
  }, std::move(n));
}

TEST_CASE("a generator runs its body up to each yield, lazily, and ends with StopIteration") {
  Value g = count(3);
  std::vector<Value> seen;
  for (const Value& v : iteration(g)) seen.push_back(v);
  REQUIRE(seen.size() == 3);
  CHECK(seen[2].as_int() == 2);
  CHECK(is_generator(g));
  CHECK_THROWS_AS(py_next(g), StopIteration);
  // The parameter outlives the call that made the generator: the coroutine owns its copy.
  Value h = count(Value(2));
  CHECK(iterate(h).size() == 2);
}

TEST_CASE("send gives the yield its value; throw raises at the yield; the body's finally runs") {
  std::vector<std::string> log;
  auto echo = [&log]() {
    return make_generator(kFile, "echo", [](GeneratorFrame& ag_frame, std::vector<std::string>* log) -> Generator {
      Finally fin([log] { log->push_back("finally"); });
      ag_frame.at(2);
      Value got = co_yield Value("ready");
      while (true) {
        log->push_back(str(got));
        got = co_yield got;
      }
    }, &log);
  };
  Value g = echo();
  CHECK(str(py_next(g)) == "ready");
  CHECK(str(g.getattr("send")({Value("a")}, {})) == "a");
  CHECK_THROWS_WITH_AS(g.getattr("throw")({make_exception("ValueError", {Value("inj")})}, {}), "inj", ValueError);
  CHECK(log == std::vector<std::string>{"a", "finally"});
  CHECK_THROWS_AS(py_next(g), StopIteration);

  // Dropped while suspended: the frame unwinds, its finally runs.
  log.clear();
  {
    Value d = echo();
    py_next(d);
  }
  CHECK(log == std::vector<std::string>{"finally"});
  // close() does the same, at once; a closed generator stops.
  log.clear();
  Value c = echo();
  py_next(c);
  c.getattr("close")({}, {});
  CHECK(log == std::vector<std::string>{"finally"});
  CHECK_THROWS_AS(py_next(c), StopIteration);
  // Never started: nothing to unwind.
  log.clear();
  { Value unused = echo(); }
  CHECK(log.empty());
}

TEST_CASE("an exception in the body ends the generator and reaches the caller; StopIteration inside is PEP 479's") {
  Value g = make_generator(kFile, "bad", [](GeneratorFrame& ag_frame) -> Generator {
    ag_frame.at(2);
    co_yield Value(1);
    ag_frame.at(3);
    throw ValueError("boom");
  });
  CHECK(py_next(g).as_int() == 1);
  CHECK_THROWS_WITH_AS(py_next(g), "boom", ValueError);
  CHECK_THROWS_AS(py_next(g), StopIteration);
  Value s = make_generator(kFile, "stops", [](GeneratorFrame&) -> Generator {
    throw StopIteration("");
    co_return Value();
  });
  CHECK_THROWS_WITH_AS(py_next(s), "generator raised StopIteration", RuntimeError);
  CHECK_THROWS_WITH_AS(count(1).getattr("send")({Value(5)}, {}),
                       "can't send non-None value to a just-started generator", TypeError);
}

}  // namespace
}  // namespace ag
