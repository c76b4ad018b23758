// The value kinds `agc explain` reads from the source: what decides whether
// AutoGraph stages a statement, and what it says when the source cannot tell.
#include <doctest/doctest.h>

#include <memory>

#include "tests/unit/support.h"
#include "transpiler/analysis/module_scope.h"
#include "transpiler/ast/visitor.h"
#include "transpiler/report/value_flow.h"

using namespace agc;
using namespace agc::report;

namespace {

/// The values at the if/while/for tests of a module's first function.
struct Values {
  std::unique_ptr<testing::Parsed> parsed;
  std::map<std::string, std::string> imports;
  std::unique_ptr<FunctionValues> values;
  std::vector<const ast::Node*> statements;  // its if/while/for, in source order

  explicit Values(const std::string& source, Parameters params = {"f", false, {}}) {
    parsed = testing::parse(source);
    REQUIRE_MESSAGE(!parsed->sink.has_errors(), parsed->errors());
    imports = analysis::module_imports(parsed->module);
    Env module = module_values(parsed->module, imports);
    const ast::Ref* fn = nullptr;
    for (const ast::Ref& s : parsed->body()) {
      if (s->is<ast::FunctionDef>()) fn = &s;
    }
    REQUIRE(fn);
    values = std::make_unique<FunctionValues>((*fn)->as<ast::FunctionDef>(), params, module, imports);
    collect(*fn);
  }

  void collect(const ast::Ref& n) {
    if (n->is<ast::If>() || n->is<ast::While>() || n->is<ast::For>()) statements.push_back(n.get());
    ast::for_each_child(*n, [&](const ast::Ref& c) { collect(c); });
  }

  const FunctionValues::AtStatement& at(size_t i) const {
    const FunctionValues::AtStatement* a = values->at(statements.at(i));
    REQUIRE(a);
    return *a;
  }
  /// The test (or iterate) of the i-th statement, where it is evaluated first.
  ValueOf decider(size_t i) const { return at(i).decider; }
};

}  // namespace

TEST_CASE("parameters depend on the caller, unless an input_signature declares Tensors") {
  Values v("def f(x, n=3):\n  if x:\n    pass\n  if n:\n    pass\n");
  CHECK(v.decider(0).kind == Kind::Argument);
  CHECK(v.decider(0).reasons.at(0) == "x: argument of f");
  CHECK(v.decider(1).reasons.at(0) == "n: argument of f (default 3)");
  Values s("def f(self, x):\n  if x:\n    pass\n  if self.on:\n    pass\n", Parameters{"f", true, {true}});
  CHECK(s.decider(0).kind == Kind::Tensor);
  CHECK(s.decider(1).kind == Kind::Unknown);
}

TEST_CASE("tf calls make Tensors, datasets, or Python sequences; calls of other code are unknown") {
  Values v(
      "import tensorflow as tf\n"
      "def f(x):\n"
      "  if tf.reduce_sum(x) > 0:\n    pass\n"
      "  for e in tf.data.Dataset.range(3).batch(2):\n    pass\n"
      "  for r in tf.unstack(x):\n    pass\n"
      "  if tf.executing_eagerly():\n    pass\n"
      "  if helper(x):\n    pass\n"
      "  for i in tf.range(3):\n    pass\n"
      "  if tf.cond(x, f, f):\n    pass\n");
  CHECK(v.decider(0).kind == Kind::Tensor);
  CHECK(v.decider(1).kind == Kind::Dataset);
  CHECK(v.decider(2).kind == Kind::Python);
  REQUIRE(v.decider(2).element);
  CHECK(v.decider(2).element->kind == Kind::Tensor);
  CHECK(v.decider(3).kind == Kind::Python);
  CHECK(v.decider(4).kind == Kind::Unknown);
  CHECK(v.decider(5).kind == Kind::Tensor);
  CHECK(v.decider(5).range);
  CHECK(v.decider(6).kind == Kind::Unknown);
}

TEST_CASE("range: Python with its length, a Tensor range over a Tensor bound") {
  Values v(
      "import tensorflow as tf\n"
      "def f(n):\n"
      "  for i in range(3):\n    pass\n"
      "  for i in range(1, 10, 4):\n    pass\n"
      "  for i in range(0x10):\n    pass\n"
      "  for i in range(n):\n    pass\n"
      "  for i in range(tf.shape(n)[0]):\n    pass\n");
  CHECK(v.decider(0).length == 3);
  CHECK(v.decider(1).length == 3);
  CHECK(v.decider(2).length == 16);
  CHECK(v.decider(3).kind == Kind::Argument);
  CHECK(v.decider(3).range);
  CHECK(v.decider(4).kind == Kind::Tensor);
  CHECK(v.decider(4).range);
}

TEST_CASE("static shapes, identity tests and isinstance are Python values, whatever they look at") {
  Values v(
      "import tensorflow as tf\n"
      "def f(x):\n"
      "  x = tf.constant(x)\n"
      "  if x.shape[0] > 2:\n    pass\n"
      "  if x is None:\n    pass\n"
      "  if isinstance(x, tf.Tensor):\n    pass\n"
      "  if x.dtype == tf.float32:\n    pass\n"
      "  if len(x) > 1:\n    pass\n");
  CHECK(v.decider(0).kind == Kind::Python);
  CHECK(v.decider(1).kind == Kind::Python);
  CHECK(v.decider(2).kind == Kind::Python);
  CHECK(v.decider(3).kind == Kind::Python);
  // A Tensor's length is a Python int only when its first dimension is known.
  CHECK(v.decider(4).kind == Kind::Mixed);
}

TEST_CASE("paths join: a rebinding replaces, branches and loops meet") {
  Values v(
      "import tensorflow as tf\n"
      "def f(x, flag):\n"
      "  x = tf.cast(x, tf.float32)\n"
      "  if x > 0:\n    pass\n"
      "  if flag:\n    y = 1\n  else:\n    y = tf.reduce_max(x)\n"
      "  if y > 0:\n    pass\n"
      "  n = flag\n"
      "  if n is None:\n    n = 10\n"
      "  if n > 0:\n    pass\n"
      "  i = 0\n"
      "  while i < 3:\n    i = i + x\n"
      "  acc = 0\n"
      "  for k in [1, 2]:\n    acc = acc + x\n"
      "  if acc > 0:\n    pass\n");
  CHECK(v.decider(0).kind == Kind::Tensor);
  CHECK(v.decider(2).kind == Kind::Mixed);           // a Python int on one path, a Tensor on the other
  CHECK(v.decider(4).kind == Kind::Argument);        // None or 10 still depends on the caller
  CHECK(v.at(5).decider.kind == Kind::Python);
  CHECK(v.at(5).decider_at_head.kind == Kind::Mixed);
  CHECK(v.at(5).entry.at("i").kind == Kind::Python);  // the names the loop binds, before it and at its head
  CHECK(v.at(5).head.at("i").kind == Kind::Mixed);
  CHECK(v.at(5).entry.count("acc") == 0);
  // A Python loop over a non-empty list runs: acc is the Tensor it made.
  CHECK(v.decider(7).kind == Kind::Tensor);
}

TEST_CASE("module-level names keep what the module bound them to") {
  Values v(
      "import tensorflow as tf\n"
      "STEPS = 4\n"
      "SCALE = tf.constant(2.0)\n"
      "def f(x):\n"
      "  for i in range(STEPS):\n    pass\n"
      "  if SCALE > 1:\n    pass\n");
  CHECK(v.decider(0).kind == Kind::Python);
  CHECK(v.decider(0).length == 4);
  CHECK(v.decider(1).kind == Kind::Tensor);
  CHECK(v.decider(1).reasons.at(0) == "SCALE = tf.constant(2.0) at line 3");
}

TEST_CASE("a branch or an iteration leaves the names it did not bind as they were") {
  Values v(
      "import tensorflow as tf\n"
      "def f(x):\n"
      "  y = 1\n"
      "  if x:\n    y = tf.constant(2)\n    z = 3\n"
      "  if y:\n    pass\n"
      "  if z:\n    pass\n"
      "  for i in range(x):\n    w = tf.constant(1)\n"
      "  if w:\n    pass\n"
      "  if i:\n    pass\n"
      "  def g(q):\n    if q:\n      pass\n"
      "  if q:\n    pass\n");
  CHECK(v.decider(1).kind == Kind::Mixed);   // y: 1 or a Tensor
  CHECK(v.decider(2).kind == Kind::Python);  // z: bound on one path only
  CHECK(v.decider(4).kind == Kind::Tensor);
  CHECK(v.decider(5).kind == Kind::Argument);
  CHECK(v.decider(6).kind == Kind::Argument);  // g's own parameter
  CHECK(v.decider(7).kind == Kind::Unknown);   // not f's
}

TEST_CASE("join: the same kind stays, Unknown absorbs, other pairs are Mixed") {
  ValueOf py = ValueOf::python("int", "a"), t = ValueOf::of(Kind::Tensor, "b"), u = ValueOf::of(Kind::Unknown, "c");
  CHECK(join(py, py).kind == Kind::Python);
  CHECK(join(py, py).python_type == "int");
  CHECK(join(py, ValueOf::python("float")).python_type.empty());
  CHECK(join(py, t).kind == Kind::Mixed);
  CHECK(join(py, t).reasons == std::vector<std::string>{"a", "b"});
  CHECK(join(t, u).kind == Kind::Unknown);
  CHECK(join(ValueOf::of(Kind::Argument), py).kind == Kind::Argument);
}

TEST_CASE("abbreviated quotes the source on one line and cuts long text between characters") {
  auto p = testing::parse("y = f(a,\n      b)\nz = '" + std::string(15, 'x') + "éééééééééé'\n");
  const ast::Ref& call = p->body().at(0)->as<ast::Assign>().value;
  CHECK(abbreviated(*call) == "f(a, b)");
  const ast::Ref& text = p->body().at(1)->as<ast::Assign>().value;
  std::string a = abbreviated(*text, 20);
  CHECK(a.size() <= 20);
  CHECK(a.substr(a.size() - 3) == "...");
  CHECK((static_cast<unsigned char>(a[a.size() - 4]) & 0xC0) != 0xC0);  // no cut lead byte left dangling
}
