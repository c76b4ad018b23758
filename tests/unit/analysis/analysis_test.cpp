#include <doctest/doctest.h>

#include "tests/unit/support.h"
#include "transpiler/analysis/activity.h"
#include "transpiler/analysis/analysis_cache.h"
#include "transpiler/analysis/cfg.h"
#include "transpiler/analysis/liveness.h"
#include "transpiler/analysis/reaching_definitions.h"

using namespace agc;
using namespace agc::ast;
using namespace agc::analysis;

namespace {

std::string names(const QNSet& s) {
  std::string out;
  for (const auto& q : s.sorted_by_name()) out += (out.empty() ? "" : " ") + q.str();
  return out;
}

/// The n-th statement of the function body.
const Node* stmt(const Ref& fn, size_t i) { return fn->as<FunctionDef>().body.at(i).get(); }

}  // namespace

TEST_CASE("activity: a block's reads, modifications and bindings") {
  auto p = testing::parse("def f(x, y):\n  if x:\n    z = y + 1\n    self.a = z\n  else:\n    del y\n");
  AnalysisCache cache;
  const auto& act = cache.get<Activity>(p->first());
  const Node* if_ = stmt(p->first(), 0);
  CHECK(names(act.body_scope(if_)->read) == "self y z");
  CHECK(names(act.body_scope(if_)->bound) == "self.a z");
  CHECK(names(act.orelse_scope(if_)->deleted) == "y");
  CHECK(names(act.scope(if_->as<If>().test.get())->read) == "x");
  CHECK(names(act.function_scope(p->first().get())->bound) == "self.a x y z");
}

TEST_CASE("activity: comprehension targets and lambda parameters stay local") {
  auto p = testing::parse("def f(xs):\n  ys = [x * k for x in xs]\n  g = lambda q: q + w\n");
  AnalysisCache cache;
  const auto& act = cache.get<Activity>(p->first());
  CHECK(names(act.scope(stmt(p->first(), 0))->read) == "k xs");
  CHECK(names(act.scope(stmt(p->first(), 1))->read) == "w");
}

TEST_CASE("activity: a comprehension has a scope of its own; its first iterable is read outside it") {
  auto p = testing::parse("def f(xs, k):\n  ys = [x.a * k for x in xs if x for y in x]\n");
  AnalysisCache cache;
  const auto& act = cache.get<Activity>(p->first());
  const Ref& comp = stmt(p->first(), 0)->as<Assign>().value;
  const Scope* own = act.function_scope(comp.get());
  REQUIRE(own);
  CHECK(own->isolated);
  CHECK(names(own->bound) == "x y");
  CHECK(names(own->read) == "k");
  CHECK(names(act.scope(stmt(p->first(), 0))->read) == "k xs");
}

TEST_CASE("activity: a lambda inside a comprehension reads the comprehension's targets") {
  auto p = testing::parse("def f(xs):\n  fs = [lambda: x + w for x in xs]\n");
  AnalysisCache cache;
  const auto& act = cache.get<Activity>(p->first());
  const Ref& comp = stmt(p->first(), 0)->as<Assign>().value;
  const Ref& lam = comp->as<ListComp>().elt;
  CHECK(names(act.function_scope(lam.get())->read) == "w x");
  CHECK(names(act.function_scope(comp.get())->read) == "w x");
  CHECK(names(act.scope(stmt(p->first(), 0))->read) == "w xs");
}

TEST_CASE("activity: a nested function contributes only its free variables") {
  auto p = testing::parse("def f(a):\n  def g(b):\n    c = a + b\n    return c\n  return g\n");
  AnalysisCache cache;
  const auto& act = cache.get<Activity>(p->first());
  const Node* g = stmt(p->first(), 0);
  CHECK(names(act.function_scope(g)->read) == "a b c");
  CHECK(names(act.body_scope(p->first().get())->read) == "a g");
  CHECK(act.body_scope(p->first().get())->reserves("g"));
  CHECK(!act.body_scope(p->first().get())->reserves("b"));
}

TEST_CASE("liveness: a variable read after a loop is live out of it; one reset first is not live in") {
  auto p = testing::parse(
      "def f(x, n):\n"
      "  i = 0\n"
      "  while i < n:\n"
      "    t = x * 2\n"
      "    x = t\n"
      "    i += 1\n"
      "  return x\n");
  AnalysisCache cache;
  const auto& live = cache.get<Liveness>(p->first());
  const Node* loop = stmt(p->first(), 1);
  CHECK(names(live.live_in(loop)) == "i n x");
  CHECK(names(live.live_out(loop)) == "x");
}

TEST_CASE("liveness: a branch-only temporary is not live around the if") {
  auto p = testing::parse(
      "def f(x):\n"
      "  if x > 0:\n"
      "    y = x\n"
      "    x = y * 2\n"
      "  return x\n");
  AnalysisCache cache;
  const auto& live = cache.get<Liveness>(p->first());
  const Node* if_ = stmt(p->first(), 0);
  CHECK(names(live.live_in(if_)) == "x");
  CHECK(names(live.live_out(if_)) == "x");
}

TEST_CASE("liveness: a nested function's free variables are live where it is defined") {
  auto p = testing::parse(
      "def f(a):\n"
      "  def g():\n"
      "    return a\n"
      "  if a:\n"
      "    a = 1\n"
      "  return g\n");
  AnalysisCache cache;
  const auto& live = cache.get<Liveness>(p->first());
  CHECK(live.live_out(stmt(p->first(), 1)).count(QN::symbol("a")));
}

TEST_CASE("reaching definitions: what is defined on entry to a statement") {
  auto p = testing::parse(
      "def f(x):\n"
      "  if x:\n"
      "    y = 1\n"
      "  while x:\n"
      "    z = 2\n"
      "  for i in x:\n"
      "    pass\n");
  AnalysisCache cache;
  const auto& defs = cache.get<ReachingDefinitions>(p->first());
  auto defined = [&](int i) {
    std::string out;
    for (const char* n : {"i", "x", "y", "z"}) {
      if (defs.defined_in(stmt(p->first(), i), QN::symbol(n))) out += out.empty() ? n : std::string(" ") + n;
    }
    return out;
  };
  CHECK(defined(0) == "x");
  CHECK(defined(1) == "x y");
  CHECK(defined(2) == "x y z");
}

TEST_CASE("cfg: a loop's test flows to the body and past the loop; a raise exits") {
  auto p = testing::parse("def f(x):\n  while x:\n    x = g(x)\n  raise E()\n");
  AnalysisCache cache;
  const Cfg* g = cache.get<Cfgs>(p->first()).of(p->first().get());
  REQUIRE(g != nullptr);
  const auto& loop = stmt(p->first(), 0)->as<While>();
  CfgNode* test = g->find(loop.test.get());
  REQUIRE(test != nullptr);
  CHECK(test->next.size() == 2);
  CHECK(g->exits.size() == 1);
  CHECK(g->stmt_next.at(stmt(p->first(), 0)).size() == 1);
}

TEST_CASE("analyses are cached per tree and recomputed for a new tree") {
  auto p = testing::parse("def f(x):\n  return x\n");
  AnalysisCache cache;
  const auto& a1 = cache.get<Activity>(p->first());
  const auto& a2 = cache.get<Activity>(p->first());
  CHECK(&a1 == &a2);
  auto q = testing::parse("def f(x):\n  return x\n");
  CHECK(&cache.get<Activity>(q->first()) != &a1);
}
