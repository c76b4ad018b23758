#include <doctest/doctest.h>

#include "tests/unit/support.h"
#include "transpiler/ast/mutator.h"
#include "transpiler/ast/visitor.h"

using namespace agc;
using namespace agc::ast;

namespace {

class RenameX : public AstMutator {
 protected:
  Ref visit_Name(const Ptr<Name>& n) override {
    if (n->id != "x") return n;
    auto c = clone(*n);
    c->id = "y";
    return c;
  }
};

class DropPass : public AstMutator {
 protected:
  Stmts visit_Pass(const Ptr<Pass>&) override { return {}; }
};

class CountNames : public AstVisitor {
 public:
  int names = 0;

 protected:
  void visit_Name(const Ptr<Name>&) override { ++names; }
};

}  // namespace

TEST_CASE("a rewrite that changes nothing returns the very same nodes") {
  auto p = testing::parse("def f(a):\n  if a:\n    return a + 1\n  return 0\n");
  RenameX r;
  Refs out = r.mutate_block(p->body());
  CHECK(out[0] == p->first());
}

TEST_CASE("a rewrite copies only the path to what changed") {
  auto p = testing::parse("def f(a):\n  b = a\n  c = x\n");
  RenameX r;
  Refs out = r.mutate_block(p->body());
  const auto& before = p->first()->as<FunctionDef>();
  const auto& after = out[0]->as<FunctionDef>();
  CHECK(out[0] != p->first());
  CHECK(after.body[0] == before.body[0]);  // untouched statement shared
  CHECK(after.body[1] != before.body[1]);
  CHECK(ast::to_source(out) == "def f(a):\n    b = a\n    c = y");
}

TEST_CASE("a statement hook may remove or expand statements") {
  auto p = testing::parse("pass\nx = 1\npass\n");
  DropPass d;
  CHECK(d.mutate_block(p->body()).size() == 1);
}

TEST_CASE("the visitor reaches every name") {
  auto p = testing::parse("def f(a, b=c):\n  return [x for x in a if b]\n");
  CountNames v;
  v.visit_all(p->body());
  CHECK(v.names == 5);  // c, x, x, a, b
}

TEST_CASE("deep copies have fresh identity and equal text") {
  auto p = testing::parse("y = f(a)[0].b\n");
  Ref copy = deep_copy(p->first());
  CHECK(copy != p->first());
  CHECK(copy->as<Assign>().value != p->first()->as<Assign>().value);
  CHECK(ast::to_source(copy) == ast::to_source(p->first()));
}

TEST_CASE("with_context sets the context through tuples and starred targets") {
  auto p = testing::parse("(a, *b)\n");
  Ref t = with_context(p->first()->as<Expr>().value, ExprContext::Store);
  const auto& tuple = t->as<Tuple>();
  CHECK(tuple.ctx == ExprContext::Store);
  CHECK(tuple.elts[0]->as<Name>().ctx == ExprContext::Store);
  CHECK(tuple.elts[1]->as<Starred>().value->as<Name>().ctx == ExprContext::Store);
}
