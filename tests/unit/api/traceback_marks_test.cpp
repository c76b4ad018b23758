// The ^~~ marks under a traceback's source line: each expected text is what
// CPython 3.11.7 printed for the same line and instruction position, through
// its C printer (an uncaught exception) and traceback.print_exc.
#include <doctest/doctest.h>

#include <string>

#include "runtime/api/traceback_marks.h"

using namespace ag;

namespace {

// Both printers' text for a one-line position [col, end_col) with optional anchors.
std::string marks(const char* line, int col, int end_col, int anchor_begin = -1, int anchor_end = -1,
                  TracebackStyle style = TracebackStyle::Module) {
  SourcePosition p{7, 7, col, end_col, anchor_begin, anchor_end};
  return traceback_source_lines(line, &p, style);
}

std::string both(const char* line, int col, int end_col, int anchor_begin = -1, int anchor_end = -1) {
  std::string m = marks(line, col, end_col, anchor_begin, anchor_end, TracebackStyle::Module);
  CHECK(marks(line, col, end_col, anchor_begin, anchor_end, TracebackStyle::Interpreter) == m);
  return m;
}

}  // namespace

TEST_CASE("a call inside a line is marked with ^, the line's indentation removed") {
  CHECK(both("    return abs(g(1))", 15, 19) == "    return abs(g(1))\n               ^^^^\n");
  CHECK(both("    return b.get(5) + 1", 11, 19) == "    return b.get(5) + 1\n           ^^^^^^^^\n");
  CHECK(both("\treturn b.nope(1)", 8, 14) == "    return b.nope(1)\n           ^^^^^^\n");
}

TEST_CASE("an expression that is the whole line gets no marks") {
  CHECK(both("    fn()", 4, 8) == "    fn()\n");
  CHECK(both("fn()", 0, 4) == "    fn()\n");
}

TEST_CASE("a binary operator: ~ under the operands, ^ under the operator") {
  CHECK(both("    return x / 0", 11, 16, 13, 14) == "    return x / 0\n           ~~^~~\n");
  CHECK(both("    return 1 // 0", 11, 17, 13, 15) == "    return 1 // 0\n           ~~^^~~\n");
  CHECK(both("    return a + b  # trailing comment", 11, 16, 13, 14) ==
        "    return a + b  # trailing comment\n           ~~^~~\n");
  // A binary operation that is the whole line still shows where the operator is.
  CHECK(both("a + b", 0, 5, 2, 3) == "    a + b\n    ~~^~~\n");
}

TEST_CASE("a subscript: ~ under the value, ^ from its [ to its ]") {
  CHECK(both("    return xs[1] + xs[10]", 19, 25, 21, 25) == "    return xs[1] + xs[10]\n                   ~~^^^^\n");
  CHECK(both("    return d[\"k\"  ]", 11, 19, 12, 19) == "    return d[\"k\"  ]\n           ~^^^^^^^\n");
}

TEST_CASE("a multi-line expression is marked on its first line, to the line's end") {
  SourcePosition p{10, 12, 11, 13};
  const char* line = "    return max(1,";
  CHECK(traceback_source_lines(line, &p, TracebackStyle::Module) == "    return max(1,\n           ^^^^^^\n");
  CHECK(traceback_source_lines(line, &p, TracebackStyle::Interpreter) == "    return max(1,\n           ^^^^^^\n");
  // One that starts where its line's text starts spans the line: no marks.
  SourcePosition whole{16, 17, 4, 5};
  CHECK(traceback_source_lines("    g(", &whole, TracebackStyle::Module) == "    g(\n");
}

TEST_CASE("trailing whitespace: the interpreter keeps it, traceback.print_exc strips it and shifts the marks") {
  const char* line = "    return a + \"s\"   ";
  CHECK(marks(line, 11, 18, 13, 14, TracebackStyle::Interpreter) ==
        "    return a + \"s\"   \n           ~~^~~~~\n");
  CHECK(marks(line, 11, 18, 13, 14, TracebackStyle::Module) == "    return a + \"s\"\n        ~~^~~~~\n");
}

TEST_CASE("columns count characters, not bytes") {
  // s = "é"; return s + 1 — é is two bytes in UTF-8.
  CHECK(both("    s = \"\xc3\xa9\"; return s + 1", 21, 26, 23, 24) ==
        "    s = \"\xc3\xa9\"; return s + 1\n                    ~~^~~\n");
}

TEST_CASE("East Asian wide characters take two columns") {
  // s = "日本"; return s + 1   (CPython 3.11.7, trailing whitespace included)
  const char* line = "    s = \"\xe6\x97\xa5\xe6\x9c\xac\"; return s + 1   ";
  CHECK(marks(line, 25, 30, 27, 28, TracebackStyle::Interpreter) ==
        std::string(line) + "\n                       ~~^~~\n");
  CHECK(marks(line, 25, 30, 27, 28, TracebackStyle::Module) ==
        "    s = \"\xe6\x97\xa5\xe6\x9c\xac\"; return s + 1\n                    ~~^~~\n");
  // A wide character inside the marked expression widens its marks.
  CHECK(both("    return f(\"\xe6\x97\xa5\") + 1", 11, 19) ==
        "    return f(\"\xe6\x97\xa5\") + 1\n           ^^^^^^^\n");
}

TEST_CASE("a line-only position, a blank line, and no position") {
  SourcePosition line_only{3, 3, -1, -1};
  CHECK(traceback_source_lines("    raise X", &line_only, TracebackStyle::Module) == "    raise X\n");
  CHECK(traceback_source_lines("    raise X", nullptr, TracebackStyle::Interpreter) == "    raise X\n");
  CHECK(traceback_source_lines("   ", nullptr, TracebackStyle::Module).empty());
}
