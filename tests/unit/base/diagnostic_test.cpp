#include <doctest/doctest.h>

#include "transpiler/base/check.h"
#include "transpiler/base/diagnostic.h"

using namespace agc;

TEST_CASE("a diagnostic renders as file:line:col, the source line and a caret under the span") {
  SourceFile f("model.py", "def f(x):\n    return x +\n");
  // The span runs past the end of the line; the caret stops there.
  Diagnostic d{Severity::Error, {&f, 21, 29}, "invalid syntax", {}, {}};
  CHECK(render(d) ==
        "model.py:2:12: error: invalid syntax\n"
        "    return x +\n"
        "           ^~~\n");
}

TEST_CASE("the caret line copies tabs so it lines up under tab-indented code") {
  SourceFile f("m.py", "if x:\n\ty = (\n");
  Diagnostic d{Severity::Error, {&f, 11, 12}, "'(' was never closed", {}, {}};
  CHECK(render(d) == "m.py:2:6: error: '(' was never closed\n\ty = (\n\t    ^\n");
}

TEST_CASE("a span running past its line is underlined to the end of the line") {
  SourceFile f("m.py", "x = [1,\n     2]\n");
  Diagnostic d{Severity::Error, {&f, 4, 14}, "bad list", {}, {}};
  CHECK(render(d) == "m.py:1:5: error: bad list\nx = [1,\n    ^~~\n");
}

TEST_CASE("columns count characters, not bytes") {
  SourceFile f("m.py", "s = '\xc3\xa9t\xc3\xa9' + (\n");
  Diagnostic d{Severity::Error, {&f, 14, 15}, "unclosed", {}, {}};
  CHECK(render(d) == "m.py:1:13: error: unclosed\ns = '\xc3\xa9t\xc3\xa9' + (\n            ^\n");
}

TEST_CASE("notes render after their diagnostic in the same format") {
  SourceFile f("m.py", "a\nb\n");
  Diagnostic d{Severity::Error, {&f, 2, 3}, "problem", {{Severity::Note, {&f, 0, 1}, "defined here", {}, {}}}, {}};
  CHECK(render(d) == "m.py:2:1: error: problem\nb\n^\nm.py:1:1: note: defined here\na\n^\n");
}

TEST_CASE("a diagnostic without a location says so plainly") {
  Diagnostic d{Severity::Error, {}, "something went wrong", {}, {}};
  CHECK(render(d) == "agc: error: something went wrong\n");
}

TEST_CASE("the sink orders diagnostics by position and caps the error count") {
  SourceFile f("m.py", "abcdef\n");
  DiagnosticSink sink;
  sink.error({&f, 4, 5}, "second");
  sink.error({&f, 1, 2}, "first");
  std::string all = sink.render_all();
  CHECK(all.find("first") < all.find("second"));
  for (size_t i = 0; i < DiagnosticSink::kMaxErrors + 10; ++i) sink.error({&f, 0, 1}, "again " + std::to_string(i));
  CHECK(sink.error_count() == DiagnosticSink::kMaxErrors);
  CHECK(sink.saturated());
  CHECK(sink.render_all().find("12 more errors not shown") != std::string::npos);
}

TEST_CASE("the sink reports one problem at one place once") {
  SourceFile f("m.py", "abcdef\n");
  DiagnosticSink sink;
  sink.error({&f, 1, 2}, "twice");
  sink.error({&f, 1, 2}, "twice");
  sink.error({&f, 1, 3}, "twice");
  sink.report({Severity::Warning, {&f, 1, 2}, "twice", {}, {}});
  CHECK(sink.error_count() == 2);
  CHECK(sink.diagnostics().size() == 3);
}

TEST_CASE("a DiagnosticError streams its message") {
  SourceFile f("m.py", "x\n");
  DiagnosticError e = DiagnosticError(SourceSpan{&f, 0, 1}) << "name '" << "x" << "' is " << 3;
  CHECK(e.diagnostic().message == "name 'x' is 3");
  CHECK(std::string(e.what()) == "name 'x' is 3");
}

TEST_CASE("a failed check is an InternalError naming agc as the culprit") {
  auto fails = [] { AGC_CHECK(1 + 1 == 3) << "arithmetic"; };
  CHECK_THROWS_AS(fails(), InternalError);
  try {
    fails();
  } catch (const InternalError& e) {
    CHECK(std::string(e.what()).find("bug in agc") != std::string::npos);
    CHECK(std::string(e.what()).find("arithmetic") != std::string::npos);
  }
}
