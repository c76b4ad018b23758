#include <doctest/doctest.h>

#include "transpiler/emit/call_check.h"

using namespace agc::emit;
using ag::ParamKind;

TEST_CASE("a table signature's shape: defaults with commas and quotes, *args, keyword-only, **kwargs") {
  SignatureShape s = SignatureShape::parse("print_v2(*inputs, sep=' ', end='\\n', sizes=[1, 2], **kwargs)");
  CHECK(s.name() == "print_v2");
  std::vector<ag::ParamShape> p = s.params();
  REQUIRE(p.size() == 5);
  CHECK(p[0].kind == ParamKind::VarPositional);
  CHECK(p[1].name == "sep");
  CHECK(p[1].kind == ParamKind::KeywordOnly);
  CHECK(p[1].has_default);
  CHECK(p[3].name == "sizes");
  CHECK(p[4].kind == ParamKind::VarKeyword);
  CHECK(s.accepts_keyword("anything"));
}

TEST_CASE("a public parameter list's markers: / makes the parameters before it positional-only, * the later keyword-only") {
  SignatureShape s = SignatureShape::parse_params("f", "a, b=, /, c=, *, d, **kw");
  std::vector<ag::ParamShape> p = s.params();
  REQUIRE(p.size() == 5);
  CHECK(p[0].kind == ParamKind::PositionalOnly);
  CHECK(p[1].kind == ParamKind::PositionalOnly);
  CHECK(p[1].has_default);
  CHECK(p[2].kind == ParamKind::PositionalOrKeyword);
  CHECK(p[3].kind == ParamKind::KeywordOnly);
  CHECK_FALSE(p[3].has_default);
  CHECK(s.keyword_names() == std::vector<std::string_view>{"c", "d"});
}

TEST_CASE("binding errors read as CPython 3.11's") {
  SignatureShape f = SignatureShape::parse("f(x, y=1, *, z)");
  std::vector<ag::ParamShape> p = f.params();
  auto err = [&](size_t n, std::vector<std::string_view> kw) { return ag::binding_error("f", p, n, kw); };
  CHECK(err(1, {"z"}) == "");
  CHECK(err(3, {"z"}) == "f() takes from 1 to 2 positional arguments but 3 positional arguments (and 1 keyword-only "
                         "argument) were given");
  CHECK(err(0, {}) == "f() missing 1 required positional argument: 'x'");
  CHECK(err(1, {}) == "f() missing 1 required keyword-only argument: 'z'");
  CHECK(err(1, {"x", "z"}) == "f() got multiple values for argument 'x'");
  CHECK(err(1, {"w"}) == "f() got an unexpected keyword argument 'w'");
  SignatureShape g = SignatureShape::parse_params("g", "a, /, b");
  std::vector<ag::ParamShape> q = g.params();
  std::vector<std::string_view> keywords{"a", "b"};
  CHECK(ag::binding_error("g", q, 0, keywords) ==
        "g() got some positional-only arguments passed as keyword arguments: 'a'");
}
