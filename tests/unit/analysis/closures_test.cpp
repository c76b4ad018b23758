#include <doctest/doctest.h>

#include "tests/unit/support.h"
#include "transpiler/analysis/analysis_cache.h"
#include "transpiler/analysis/closures.h"
#include "transpiler/ast/visitor.h"
#include "transpiler/passes/pipeline.h"

using namespace agc;
using namespace agc::ast;
using namespace agc::analysis;

namespace {

std::string joined(const NameSet& s) {
  std::string out;
  for (const auto& n : s) out += (out.empty() ? "" : " ") + n;
  return out;
}

/// The first def named `name`, or the first lambda (name "lambda"), list
/// comprehension ("comp") or generator expression ("genexpr") of the tree.
const Node* find(const Ref& root, const std::string& name) {
  struct Finder : AstVisitor {
    std::string want;
    const Node* found = nullptr;
    void visit_FunctionDef(const Ptr<FunctionDef>& n) override {
      if (!found && n->name == want) found = n.get();
      visit_children(*n);
    }
    void visit_Lambda(const Ptr<Lambda>& n) override {
      if (!found && want == "lambda") found = n.get();
      visit_children(*n);
    }
    void visit_ListComp(const Ptr<ListComp>& n) override {
      if (!found && want == "comp") found = n.get();
      visit_children(*n);
    }
    void visit_GeneratorExp(const Ptr<GeneratorExp>& n) override {
      if (!found && want == "genexpr") found = n.get();
      visit_children(*n);
    }
  } f;
  f.want = name;
  f.visit(root);
  REQUIRE_MESSAGE(f.found, "no " << name);
  return f.found;
}

struct Analysed {
  std::unique_ptr<testing::Parsed> parsed;
  Ref root;
  AnalysisCache cache;
  const Closure& at(const std::string& name) {
    const Closure* c = cache.get<Closures>(root).scope(find(root, name));
    REQUIRE(c);
    return *c;
  }
};

/// The closures of the source's first statement, as written.
std::unique_ptr<Analysed> analyse(const std::string& source) {
  auto a = std::make_unique<Analysed>();
  a->parsed = testing::parse(source);
  REQUIRE_MESSAGE(!a->parsed->sink.has_errors(), a->parsed->errors());
  a->root = a->parsed->first();
  return a;
}

/// The closures of the source's first function after conversion.
std::unique_ptr<Analysed> analyse_converted(const std::string& source) {
  auto a = analyse(source);
  DiagnosticSink sink;
  a->root = passes::convert_entity(a->root, {}, nullptr, {}, sink);
  REQUIRE_MESSAGE(a->root, sink.render_all());
  return a;
}

}  // namespace

TEST_CASE("closures: a counter's nonlocal variable lives in a cell its returned def captures") {
  auto a = analyse(
      "def make_counter():\n"
      "  count = 0\n"
      "  def inc():\n"
      "    nonlocal count\n"
      "    count += 1\n"
      "    return count\n"
      "  return inc\n");
  const Closure& outer = a->at("make_counter");
  CHECK(joined(outer.locals) == "count inc");
  CHECK(joined(outer.cells) == "count");
  const Closure& inc = a->at("inc");
  CHECK(inc.escapes);
  CHECK(inc.locals.empty());
  CHECK(joined(inc.free) == "count");
  CHECK(inc.parent == &outer);
  CHECK(Closures::owner(&inc, "count") == &outer);
  CHECK(Closures::owner(&inc, "print") == nullptr);
}

TEST_CASE("closures: a returned lambda captures a parameter; a thunk of ag__.if_exp does not") {
  auto a = analyse_converted("def make_adder(n, m):\n  y = m if n else n\n  return lambda x: x + n\n");
  const Closure& outer = a->at("tf__make_adder");
  CHECK(joined(outer.cells) == "n");
  CHECK(outer.locals.count("m"));
  CHECK(outer.locals.count("y"));
}

TEST_CASE("closures: a generator expression may outlive its frame; a list comprehension may not") {
  auto a = analyse("def f(xs, k, j):\n  g = (x * k for x in xs)\n  l = [x * j for x in xs]\n  return g, l\n");
  CHECK(joined(a->at("f").cells) == "k");
  const Closure& gen = a->at("genexpr");
  CHECK(gen.escapes);
  CHECK(joined(gen.free) == "k");
  CHECK_FALSE(a->at("comp").escapes);
}

TEST_CASE("closures: a def only called in its frame stays plain, unless an escaping scope calls it") {
  auto plain = analyse("def f(x):\n  def helper(y):\n    return y + x\n  return helper(1) + helper(2)\n");
  CHECK(!plain->at("helper").escapes);
  CHECK(plain->at("f").cells.empty());
  CHECK(plain->at("f").local_functions.at("helper") == find(plain->root, "helper"));
  auto escaping = analyse("def f(x):\n  def helper(y):\n    return y + x\n  return lambda: helper(1)\n");
  CHECK(escaping->at("helper").escapes);
  CHECK(escaping->at("f").local_functions.empty());
  CHECK(joined(escaping->at("f").cells) == "helper x");
  auto stored = analyse("def f(x):\n  def cb():\n    return x\n  cbs = [cb]\n  return cbs\n");
  CHECK(stored->at("cb").escapes);
  auto keywords = analyse("def f(x):\n  def g(a):\n    return a\n  return g(a=x)\n");
  CHECK(keywords->at("g").escapes);
  auto rebound = analyse("def f(x):\n  def g(a):\n    return a\n  g = x\n  return g(1)\n");
  CHECK(rebound->at("g").escapes);
}

TEST_CASE("closures: a recursive def reaches itself weakly when its name is bound once") {
  auto a = analyse(
      "def outer(n):\n"
      "  def fact(k):\n"
      "    return 1 if k <= 1 else k * fact(k - 1)\n"
      "  return fact(n)\n");
  const Closure& fact = a->at("fact");
  CHECK(fact.escapes);
  CHECK(fact.self_name == "fact");
  CHECK(joined(fact.locals) == "fact k");
  CHECK(fact.free.empty());
  CHECK(a->at("outer").cells.empty());
  // Another binding of the name: the def reads the enclosing cell, as Python does.
  auto b = analyse(
      "def outer(n):\n"
      "  def fact(k):\n"
      "    return fact(k - 1) if k > 1 else 1\n"
      "  f = fact\n"
      "  def fact(k):\n"
      "    return 0\n"
      "  return f(n)\n");
  CHECK(b->at("fact").self_name.empty());
  CHECK(joined(b->at("outer").cells) == "fact");
}

TEST_CASE("closures: a lambda capturing a comprehension's target makes it a cell of the comprehension") {
  auto a = analyse("def f(xs):\n  return [lambda: x for x in xs]\n");
  const Closure& comp = a->at("comp");
  CHECK(comp.kind == Closure::Kind::Comprehension);
  CHECK(!comp.escapes);
  CHECK(joined(comp.locals) == "x");
  CHECK(joined(comp.cells) == "x");
  CHECK(a->at("f").cells.empty());
}

TEST_CASE("closures: AutoGraph's generated defs stay plain and make no cells") {
  auto a = analyse_converted(
      "def f(x):\n"
      "  y = 0\n"
      "  while x > 0:\n"
      "    x = x - 1\n"
      "    if x > 2:\n"
      "      y = y + x\n"
      "  return y\n");
  for (const char* name : {"get_state", "set_state", "loop_body", "loop_test", "if_body", "else_body"}) {
    CHECK_MESSAGE(!a->at(name).escapes, name);
  }
  CHECK(a->at("tf__f").cells.empty());
}

TEST_CASE("closures: a converted function's lambda captures what it reads, never the FunctionScope") {
  auto a = analyse_converted("def f(x):\n  g = lambda y: h(y) + x\n  return g\n");
  const Closure& f = a->at("tf__f");
  CHECK(joined(f.cells) == "x");
  CHECK(f.locals.count("fscope"));
  CHECK(joined(a->at("lambda").free) == "x");
}

TEST_CASE("closures: a def whose name is nonlocal or global is a value bound outside it") {
  auto a = analyse(
      "def f():\n"
      "  g = None\n"
      "  def set_g():\n"
      "    nonlocal g\n"
      "    def g():\n"
      "      return 1\n"
      "  set_g()\n"
      "  return g\n");
  CHECK(a->at("g").escapes);
  CHECK(!a->at("set_g").escapes);
  CHECK(joined(a->at("f").cells) == "");
  CHECK(joined(a->at("set_g").free) == "g");
}

TEST_CASE("closures: a module-level def's decorators and defaults are module-level code") {
  auto a = analyse("def f(x, g=lambda y: y + x0):\n  return lambda: x\n");
  const Closure& g = a->at("lambda");
  CHECK(g.parent == nullptr);
  CHECK(g.free.empty());  // x0 is a global
  CHECK(joined(a->at("f").cells) == "x");
}
