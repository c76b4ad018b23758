// Python tracebacks for generated code: Frames record where an exception
// unwound, take_traceback clears, format_traceback prints Python's text.
#include <doctest/doctest.h>

#include <string>

#include "runtime/api/traceback.h"
#include "runtime/core/error.h"

using namespace ag;

namespace {

const char* kSource =
    "import tensorflow as tf\n"
    "\n"
    "def inner(x):\n"
    "    raise ValueError('bad x')\n"
    "\n"
    "def outer(x):\n"
    "    return inner(x)   \n"
    "\n"
    "outer(1)\n";

const char* source_of(const char* file) { return std::string(file) == "m.py" ? kSource : nullptr; }

// What generated code for kSource does: each function a Frame, at() per statement.
void inner() {
  Frame f("m.py", "inner");
  f.at(4);
  throw ValueError("bad x");
}
void outer() {
  Frame f("m.py", "outer");
  f.at(7);
  inner();
}
void module() {
  Frame f("m.py", "<module>");
  f.at(9);
  outer();
}

std::string describe(const std::vector<TracebackEntry>& tb) {
  std::string s;
  for (const auto& e : tb) s += std::string(e.function) + ":" + std::to_string(e.line) + " ";
  return s;
}

}  // namespace

TEST_CASE("an exception records each frame it unwinds through, innermost first") {
  take_traceback();
  CHECK_THROWS_AS(module(), ValueError);
  auto tb = take_traceback();
  CHECK(describe(tb) == "inner:4 outer:7 <module>:9 ");
  CHECK(std::string(tb[0].file) == "m.py");
  CHECK(take_traceback().empty());  // taken: the next exception starts afresh
}

TEST_CASE("frames that return normally record nothing") {
  take_traceback();
  {
    Frame f("m.py", "f");
    f.at(3);
    CHECK(f.line() == 3);
  }
  CHECK(take_traceback().empty());
}

TEST_CASE("format_traceback prints Python's text, outermost call first, source lines stripped") {
  take_traceback();
  try {
    module();
  } catch (const Error& e) {
    std::vector<TracebackEntry> tb = take_traceback();
    std::string text = format_traceback(tb, e.type_name(), e.what(), source_of, TracebackStyle::Module);
    CHECK(text ==
          "Traceback (most recent call last):\n"
          "  File \"m.py\", line 9, in <module>\n"
          "    outer(1)\n"
          "  File \"m.py\", line 7, in outer\n"
          "    return inner(x)\n"
          "  File \"m.py\", line 4, in inner\n"
          "    raise ValueError('bad x')\n"
          "ValueError: bad x\n");
    // The interpreter's own printer keeps a line's trailing whitespace.
    text = format_traceback(tb, e.type_name(), e.what(), source_of, TracebackStyle::Interpreter);
    CHECK(text.find("    return inner(x)   \n") != std::string::npos);
  }
}

TEST_CASE("format_traceback without sources, with an empty message, or without frames") {
  std::vector<TracebackEntry> tb = {{"lib.py", "g", 2}, {"m.py", "<module>", 40}};
  CHECK(format_traceback(tb, "AssertionError", "", nullptr, TracebackStyle::Module) ==
        "Traceback (most recent call last):\n"
        "  File \"m.py\", line 40, in <module>\n"
        "  File \"lib.py\", line 2, in g\n"
        "AssertionError\n");
  CHECK(format_traceback({}, "ValueError", "x", nullptr, TracebackStyle::Module) == "ValueError: x\n");
  // Lines past the end of the source, and line 0 (no statement yet), print no source.
  CHECK(format_traceback({{"m.py", "f", 99}, {"m.py", "g", 0}}, "E", "m", source_of, TracebackStyle::Module) ==
        "Traceback (most recent call last):\n"
        "  File \"m.py\", line 0, in g\n"
        "  File \"m.py\", line 99, in f\n"
        "E: m\n");
}

TEST_CASE("deep recursion collapses repeated frames as Python does") {
  std::vector<TracebackEntry> tb(10, TracebackEntry{"m.py", "f", 7});
  tb.push_back({"m.py", "<module>", 9});
  std::string text = format_traceback(tb, "RecursionError", "too deep", source_of, TracebackStyle::Module);
  CHECK(text ==
        "Traceback (most recent call last):\n"
        "  File \"m.py\", line 9, in <module>\n"
        "    outer(1)\n"
        "  File \"m.py\", line 7, in f\n"
        "    return inner(x)\n"
        "  File \"m.py\", line 7, in f\n"
        "    return inner(x)\n"
        "  File \"m.py\", line 7, in f\n"
        "    return inner(x)\n"
        "  [Previous line repeated 7 more times]\n"
        "RecursionError: too deep\n");
}

TEST_CASE("an exception handled inside a frame (except) and re-raised keeps the inner frames") {
  take_traceback();
  auto handler = [] {
    Frame f("m.py", "handler");
    f.at(20);
    try {
      inner();
    } catch (const ValueError&) {
      auto tb = take_traceback();  // what `except ValueError:` does
      CHECK(describe(tb) == "inner:4 ");
      f.at(22);
      restore_traceback(std::move(tb));  // a bare `raise`
      throw;
    }
  };
  CHECK_THROWS_AS(handler(), ValueError);
  CHECK(describe(take_traceback()) == "inner:4 handler:22 ");
}

TEST_CASE("frames left by an exception that runtime code swallowed do not leak into the next traceback") {
  take_traceback();
  auto f = [] {
    Frame frame("m.py", "f");
    frame.at(30);
    try {
      inner();  // records inner:4, then caught without take_traceback()
    } catch (const ValueError&) {
    }
    frame.at(31);
    outer();
  };
  CHECK_THROWS_AS(f(), ValueError);
  CHECK(describe(take_traceback()) == "inner:4 outer:7 f:31 ");
}

TEST_CASE("a handler's HandledException is the exception being handled, its frame last, until the handler ends") {
  take_traceback();
  CHECK(HandledException::current() == nullptr);
  Frame f("m.py", "<module>");
  f.at(9);
  try {
    outer();
  } catch (const Error& e) {
    std::vector<TracebackEntry> tb = take_traceback();
    {
      HandledException handled(e, tb, f);
      f.at(12);  // the handler's own statements move the frame on
      REQUIRE(HandledException::current() == &handled);
      CHECK(describe(handled.entries()) == "inner:4 outer:7 <module>:9 ");
      CHECK(std::string(handled.error().what()) == "bad x");
      try {
        throw ValueError("second");
      } catch (const Error& e2) {
        HandledException nested(e2, take_traceback(), f);
        CHECK(HandledException::current() == &nested);
        CHECK(describe(nested.entries()) == "<module>:12 ");
      }
      CHECK(HandledException::current() == &handled);
    }
    CHECK(HandledException::current() == nullptr);
  }
  CHECK(Frame::current() == &f);
}
