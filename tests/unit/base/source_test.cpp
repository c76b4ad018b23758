#include <doctest/doctest.h>

#include "transpiler/base/source.h"

using agc::SourceFile;
using agc::SourceSpan;

TEST_CASE("line and column of an offset count lines from 1 and code points from 1") {
  SourceFile f("m.py", "ab\nc\xc3\xa9" "d\n\nz");
  CHECK(f.line_col(0).line == 1);
  CHECK(f.line_col(0).col == 1);
  CHECK(f.line_col(1).col == 2);
  auto p = f.line_col(3);  // 'c'
  CHECK(p.line == 2);
  CHECK(p.col == 1);
  auto d = f.line_col(6);  // 'd' after the two-byte 'é'
  CHECK(d.line == 2);
  CHECK(d.col == 3);
  CHECK(f.line_col(9).line == 4);
  CHECK(f.line_count() == 4);
}

TEST_CASE("offsets past the end clamp to the last position") {
  SourceFile f("m.py", "x = 1\n");
  auto p = f.line_col(1000);
  CHECK(p.line == 2);
  CHECK(p.col == 1);
}

TEST_CASE("line text excludes the newline, including a CRLF") {
  SourceFile f("m.py", "first\r\nsecond\nthird");
  CHECK(f.line_text(1) == "first");
  CHECK(f.line_text(2) == "second");
  CHECK(f.line_text(3) == "third");
  CHECK(f.line_text(4).empty());
  CHECK(f.line_text(0).empty());
}

TEST_CASE("cover spans both spans and tolerates an unknown one") {
  SourceFile f("m.py", "abcdef");
  SourceSpan a{&f, 1, 2}, b{&f, 4, 6}, unknown{};
  auto c = SourceSpan::cover(a, b);
  CHECK(c.begin == 1);
  CHECK(c.end == 6);
  CHECK(SourceSpan::cover(unknown, b).begin == 4);
  CHECK(SourceSpan::cover(a, unknown).end == 2);
}
