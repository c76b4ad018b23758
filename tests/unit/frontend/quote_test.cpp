#include <doctest/doctest.h>

#include "tests/unit/support.h"
#include "transpiler/frontend/quote.h"

using namespace agc;
using namespace agc::ast;
using namespace agc::frontend;

namespace {
SourceFile origin_file("origin.py", "origin source text\n");
const SourceSpan origin{&origin_file, 0, 6};
}  // namespace

TEST_CASE("placeholders take identifiers, nodes and statement lists") {
  auto p = testing::parse("a = 1\nb = 2\n");
  Refs out = quote(R"(
    def fn_name(arg_name):
      stmts
      return value
  )",
                   {{"fn_name", "helper"}, {"arg_name", "itr"}, {"stmts", p->body()}, {"value", name("v", ExprContext::Load, origin)}},
                   origin);
  CHECK(ast::to_source(out) == "def helper(itr):\n    a = 1\n    b = 2\n    return v");
}

TEST_CASE("a list placeholder splices into tuples and blocks, and may be empty") {
  Refs names = {str_constant("x", origin), str_constant("y", origin)};
  CHECK(ast::to_source(quote_expr("(symbol_names,)", {{"symbol_names", names}}, origin)) == "('x', 'y')");
  CHECK(ast::to_source(quote_expr("(symbol_names,)", {{"symbol_names", Refs{}}}, origin)) == "()");
  Refs out = quote("decls\nx = 1\n", {{"decls", Refs{}}}, origin);
  CHECK(out.size() == 1);
}

TEST_CASE("a replaced expression takes the placeholder's store context") {
  Ref target = name("t", ExprContext::Load, origin, /*from_source=*/true);
  Refs out = quote("target = f(target)", {{"target", target}}, origin);
  const auto& a = out[0]->as<Assign>();
  CHECK(a.targets[0]->as<Name>().ctx == ExprContext::Store);
  CHECK(a.value->as<Call>().args[0]->as<Name>().ctx == ExprContext::Load);
  // Substituted user names stay user names; the template's own names do not.
  CHECK(a.targets[0]->as<Name>().from_source);
  CHECK(!a.value->as<Call>().func->as<Name>().from_source);
}

TEST_CASE("template nodes get the given span and substituted nodes keep theirs") {
  auto p = testing::parse("user_expr + 1\n");
  const Ref& user = p->first()->as<Expr>().value;
  Ref out = quote_expr("ag__.ld(x)", {{"x", user}}, origin);
  CHECK(out->span.file == &origin_file);
  CHECK(out->as<Call>().args[0]->span.begin == user->span.begin);
  CHECK(out->as<Call>().args[0]->span.file == user->span.file);
}

TEST_CASE("a substituted subtree is a copy, never the same node twice") {
  Ref v = name("v", ExprContext::Load, origin);
  Ref out = quote_expr("f(a, a)", {{"a", v}}, origin);
  const auto& c = out->as<Call>();
  CHECK(c.args[0] != c.args[1]);
  CHECK(c.args[0] != v);
}
