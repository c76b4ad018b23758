#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/unit/support.h"
#include "transpiler/analysis/activity.h"
#include "transpiler/analysis/analysis_cache.h"
#include "transpiler/analysis/cfg.h"
#include "transpiler/analysis/liveness.h"
#include "transpiler/analysis/reaching_definitions.h"
#include "transpiler/base/big_stack.h"

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

TEST_CASE("QNSet: a sorted set of distinct QNs in one allocation") {
  QN a = QN::symbol("a"), b = QN::symbol("b"), c = QN::attribute(QN::symbol("a"), "c");
  QNSet s;
  CHECK(s.empty());
  CHECK(s.begin() == s.end());
  CHECK(s.insert(b));
  CHECK(s.insert(a));
  CHECK(!s.insert(b));
  CHECK(s.insert(c));
  CHECK(s.size() == 3);
  CHECK(std::is_sorted(s.begin(), s.end()));
  CHECK(names(s) == "a a.c b");
  s.erase(a);
  s.erase(a);
  CHECK(names(s) == "a.c b");
  QNSet copy = s;
  QNSet moved = std::move(copy);
  CHECK(moved == s);
  copy = moved;  // a moved-from set can be assigned again
  CHECK(copy == s);
  copy.insert(a);
  CHECK(copy != s);
  // A large insertion (sorted once) keeps the set sorted and distinct.
  std::vector<QN> many;
  for (int i = 0; i < 100; ++i) many.push_back(QN::symbol("v" + std::to_string(i % 40)));
  many.push_back(b);
  s.insert(many.begin(), many.end());
  CHECK(s.size() == 42);
  CHECK(std::is_sorted(s.begin(), s.end()));
  CHECK(std::adjacent_find(s.begin(), s.end()) == s.end());
  CHECK(s.count(QN::symbol("v39")) == 1);
  s.clear();
  CHECK(s.empty());
}

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

TEST_CASE("activity: the function-scopes-only analysis finds the same function scopes and keeps no others") {
  auto p = testing::parse(
      "def f(a, xs):\n"
      "  global gl\n"
      "  for i in range(a):\n"
      "    if i:\n"
      "      def g(b):\n"
      "        nonlocal a\n"
      "        a = b + i\n"
      "        return [lambda: x + a for x in xs if x]\n"
      "    else:\n"
      "      gl = {k: i for k in xs}\n"
      "  return g\n");
  AnalysisCache cache;
  const auto& full = cache.get<Activity>(p->first());
  Activity only = Activity::compute_function_scopes(p->first());
  const Node* for_ = stmt(p->first(), 1);
  const Node* g = for_->as<For>().body.at(0)->as<If>().body.at(0).get();
  const Ref& comp = g->as<FunctionDef>().body.at(2)->as<Return>().value;
  const Ref& lam = comp->as<ListComp>().elt;
  const Ref& dict = for_->as<For>().body.at(0)->as<If>().orelse.at(0)->as<Assign>().value;
  for (const Node* n : {p->first().get(), g, comp.get(), lam.get(), dict.get()}) {
    const Scope* a = full.function_scope(n);
    const Scope* b = only.function_scope(n);
    REQUIRE(a);
    REQUIRE(b);
    CHECK(names(a->read) == names(b->read));
    CHECK(names(a->bound) == names(b->bound));
    CHECK(names(a->modified) == names(b->modified));
    CHECK(names(a->globals) == names(b->globals));
    CHECK(names(a->nonlocals) == names(b->nonlocals));
    CHECK(b->parent == nullptr);
  }
  CHECK(names(only.function_scope(g)->nonlocals) == "a");
  CHECK(names(only.function_scope(p->first().get())->globals) == "gl");
  CHECK(only.body_scope(for_) == nullptr);
  CHECK(only.scope(for_) == nullptr);
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

TEST_CASE("reaching definitions: a deletion ends a definition; a nested function sees its parent's") {
  auto p = testing::parse(
      "def f(a):\n"
      "  x = 1\n"
      "  del x\n"
      "  if a:\n"
      "    x = 2\n"
      "  b = 1\n"
      "  def g():\n"
      "    if a:\n"
      "      c = b\n"
      "  return g\n");
  AnalysisCache cache;
  const auto& defs = cache.get<ReachingDefinitions>(p->first());
  const Node* if_f = stmt(p->first(), 2);
  CHECK(!defs.defined_in(if_f, QN::symbol("x")));
  CHECK(defs.defined_in(if_f, QN::symbol("a")));
  const Node* if_g = stmt(p->first(), 4)->as<FunctionDef>().body.at(0).get();
  CHECK(defs.defined_in(if_g, QN::symbol("a")));
  CHECK(defs.defined_in(if_g, QN::symbol("b")));  // g never mentions b's definition, only reads it
  CHECK(defs.defined_in(if_g, QN::symbol("x")));  // a later `if a: x = 2` may have run
  CHECK(!defs.defined_in(if_g, QN::symbol("c")));
}

TEST_CASE("liveness and reaching definitions of 20,000 loops in one function") {
  // Each name is searched for where it matters: memory proportional to the
  // function, not to its nodes times its names.
  const int n = 20000;
  std::string src = "def f(x):\n  s = 0\n";
  for (int k = 0; k < n; ++k) src += "  for i" + std::to_string(k) + " in range(x):\n    s = s + i" + std::to_string(k) + "\n";
  src += "  return s\n";
  auto p = testing::parse(src);
  AnalysisCache cache;
  const auto& live = cache.get<Liveness>(p->first());
  const auto& defs = cache.get<ReachingDefinitions>(p->first());
  std::string problems;
  for (int k : {0, 1, n / 2, n - 1}) {
    const Node* loop = stmt(p->first(), static_cast<size_t>(k) + 1);
    std::string i = "i" + std::to_string(k);
    if (names(live.live_in(loop)) != "range s x") problems += "live in " + i + ": " + names(live.live_in(loop)) + "; ";
    std::string out = k + 1 < n ? "range s x" : "s";  // after the last loop only s is read
    if (names(live.live_out(loop)) != out) problems += "live out " + i + ": " + names(live.live_out(loop)) + "; ";
    if (defs.defined_in(loop, QN::symbol(i))) problems += i + " defined before its loop; ";
    if (!defs.defined_in(loop, QN::symbol("s"))) problems += "s undefined at " + i + "; ";
    if (k > 0 && !defs.defined_in(loop, QN::symbol("i" + std::to_string(k - 1)))) problems += "previous loop's name undefined at " + i + "; ";
    if (defs.defined_in(loop, QN::symbol("i" + std::to_string(k + 1)))) problems += "next loop's name defined at " + i + "; ";
  }
  CHECK_MESSAGE(problems.empty(), problems);
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

TEST_CASE("cfg: every branch of a long elif chain flows to the statement after it") {
  // 2,900 branches, nested 2,900 deep: each If's stmt_next is the return,
  // each elif's stmt_prev the test before it (built in linear time).
  const int n = 2900;
  std::string src = "def f(x):\n";
  for (int k = 0; k < n; ++k) src += std::string(k ? "  elif" : "  if") + " x == " + std::to_string(k) + ":\n    y = 1\n";
  src += "  return y\n";
  std::string problems;
  run_on_big_stack([&] {
    auto p = testing::parse(src);
    AnalysisCache cache;
    const Cfg* g = cache.get<Cfgs>(p->first()).of(p->first().get());
    const Node* ret = stmt(p->first(), 1);
    const Node* s = stmt(p->first(), 0);
    const CfgNode* before = g->find(p->first()->as<FunctionDef>().args.get());
    for (int k = 0; k < n; ++k) {
      const auto& next = g->stmt_next.at(s);
      const auto& prev = g->stmt_prev.at(s);
      if (next.size() != 1 || (*next.begin())->ast != ret) problems += "next of " + std::to_string(k) + "; ";
      if (prev.size() != 1 || *prev.begin() != before) problems += "prev of " + std::to_string(k) + "; ";
      before = g->find(s->as<If>().test.get());
      if (k + 1 < n) s = s->as<If>().orelse.at(0).get();
    }
  });
  CHECK_MESSAGE(problems.empty(), problems);
}

TEST_CASE("cfg: a node knows the outermost loop holding it; flow goes back only through a loop's entry") {
  auto p = testing::parse("def f(x):\n  a = 1\n  while x:\n    for i in x:\n      b = i\n  c = a\n");
  AnalysisCache cache;
  const Cfg* g = cache.get<Cfgs>(p->first()).of(p->first().get());
  const auto& loop = stmt(p->first(), 1)->as<While>();
  const auto& inner = loop.body.at(0)->as<For>();
  const CfgNode* test = g->find(loop.test.get());
  const CfgNode* b = g->find(inner.body.at(0).get());
  const CfgNode* a = g->find(stmt(p->first(), 0));
  const CfgNode* c = g->find(stmt(p->first(), 2));
  CHECK(a->outer_loop == 0);
  CHECK(test->outer_loop == test->id);
  CHECK(g->find(inner.iter.get())->outer_loop == test->id);
  CHECK(b->outer_loop == test->id);
  CHECK(c->outer_loop == 0);
  CHECK(can_reach_up_to(*b, test->id));  // around the loop
  CHECK(!can_reach_up_to(*b, a->id));
  CHECK(!can_reach_up_to(*c, test->id));
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
