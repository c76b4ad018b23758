// What the passes record for `agc explain` (passes::ConversionFacts): the
// state control_flow computes for each if/while/for, and the control
// variables of the break, continue and return lowerings.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>

#include "transpiler/emit/to_code.h"
#include "transpiler/passes/convert_module.h"

using namespace agc;
using passes::ControlVariable;
using passes::StagedStatement;

namespace {

passes::ConvertedModule convert(const std::string& source, bool facts) {
  passes::ModuleRequest request;
  request.record_facts = facts;
  return passes::convert_file(std::make_shared<SourceFile>("t.py", source), request);
}

const StagedStatement& statement_at(const passes::ConversionFacts& f, ast::NodeKind kind, int line) {
  for (const StagedStatement& s : f.statements) {
    if (s.kind == kind && static_cast<int>(s.span.file->line_col(s.span.begin).line) == line) return s;
  }
  FAIL("no statement of that kind at line " << line);
  return f.statements.front();
}

using Names = std::vector<std::string>;

}  // namespace

TEST_CASE("an if records its outputs first, the names undefined before it and what each branch binds") {
  auto cm = convert(
      "def f(x):\n"
      "  if x:\n"
      "    y = 1\n"
      "    t = 2\n"
      "  else:\n"
      "    z = x\n"
      "    x = 3\n"
      "  return y, x\n",
      true);
  REQUIRE(!cm.has_errors());
  const auto& facts = cm.entities.at(0).facts;
  const StagedStatement& s = statement_at(facts, ast::NodeKind::If, 2);
  CHECK(s.symbols == Names{"x", "y"});
  CHECK(s.nouts == 2);
  CHECK(s.undefined == Names{"t", "y", "z"});
  CHECK(s.bound_in_body == Names{"y"});
  CHECK(s.bound_in_orelse == Names{"x"});
  CHECK(s.test->is<ast::Name>());
}

TEST_CASE("a loop records its loop-carried names, the lists it grows and its control variables") {
  auto cm = convert(
      "def f(n):\n"
      "  out = []\n"
      "  for i in range(n):\n"
      "    if i > 3:\n"
      "      break\n"
      "    if i == 1:\n"
      "      continue\n"
      "    out.append(i)\n"
      "  while n > 0:\n"
      "    if n == 5:\n"
      "      return out\n"
      "    n -= 1\n"
      "  return out\n",
      true);
  REQUIRE(!cm.has_errors());
  const auto& facts = cm.entities.at(0).facts;
  const StagedStatement& loop = statement_at(facts, ast::NodeKind::For, 3);
  CHECK(loop.lists == std::set<std::string>{"out"});
  CHECK(std::find(loop.symbols.begin(), loop.symbols.end(), "out") != loop.symbols.end());
  REQUIRE(loop.extra_test);
  const ControlVariable* brk = facts.control_variable("break_");
  REQUIRE(brk);
  CHECK(brk->role == ControlVariable::Role::Break);
  CHECK(brk->span.begin == loop.span.begin);
  const ControlVariable* cont = facts.control_variable("continue_");
  REQUIRE(cont);
  CHECK(cont->role == ControlVariable::Role::Continue);
  REQUIRE(facts.control_variable("do_return"));
  CHECK(facts.control_variable("do_return")->role == ControlVariable::Role::Return);
  REQUIRE(facts.control_variable("retval_"));
  CHECK(facts.control_variable("retval_")->role == ControlVariable::Role::ReturnValue);
  const StagedStatement& w = statement_at(facts, ast::NodeKind::While, 9);
  CHECK(std::find(w.symbols.begin(), w.symbols.end(), "retval_") != w.symbols.end());
  // The user's names are no control variables.
  CHECK(facts.control_variable("out") == nullptr);
}

TEST_CASE("facts are recorded only when asked, and asking changes nothing converted") {
  const std::string source =
      "def f(x):\n"
      "  for i in range(x):\n"
      "    if i > 2:\n"
      "      break\n"
      "  return x\n";
  auto plain = convert(source, false);
  auto recorded = convert(source, true);
  CHECK(plain.entities.at(0).facts.statements.empty());
  CHECK(plain.entities.at(0).facts.control_variables.empty());
  CHECK(recorded.entities.at(0).facts.statements.size() == 2);
  CHECK(emit::to_code(plain) == emit::to_code(recorded));
}
