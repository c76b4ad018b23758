// Builtin methods through getattr: list, dict and str methods as Python's.
#include <doctest/doctest.h>

#include "runtime/graph/graph.h"
#include "runtime/value/value.h"
#include "tests/unit/value/support.h"

using namespace ag;
using ag::test::call;

TEST_CASE("list methods mutate the shared list") {
  Value l = Value::list({3, 1});
  Value alias = l;
  call(l, "append", {Value(2)});
  call(l, "extend", {Value::tuple({5, 4})});
  CHECK(repr(alias) == "[3, 1, 2, 5, 4]");
  CHECK(py_equal(call(l, "pop"), Value(4)));
  CHECK(py_equal(call(l, "pop", {Value(0)}), Value(3)));
  call(l, "insert", {Value(-1), Value(9)});
  CHECK(repr(l) == "[1, 2, 9, 5]");
  CHECK(py_equal(call(l, "index", {Value(9)}), Value(2)));
  CHECK(py_equal(call(l, "count", {Value(1.0)}), Value(1)));
  call(l, "sort");
  CHECK(repr(l) == "[1, 2, 5, 9]");
  call(l, "reverse");
  CHECK(repr(l) == "[9, 5, 2, 1]");
  CHECK_THROWS_WITH_AS(call(l, "index", {Value(7)}), "7 is not in list", ValueError);
  CHECK_THROWS_WITH_AS(call(Value::list(), "pop"), "pop from empty list", IndexError);
  CHECK_THROWS_WITH_AS(l.getattr("push"), "'list' object has no attribute 'push'", AttributeError);
  CHECK_THROWS_AS(Value::tuple({1}).getattr("append"), AttributeError);
}

TEST_CASE("dict methods") {
  Value d = Value::dict({{Value("a"), Value(1)}});
  CHECK(py_equal(call(d, "get", {Value("a")}), Value(1)));
  CHECK(call(d, "get", {Value("z")}).is_none());
  CHECK(py_equal(call(d, "get", {Value("z"), Value(0)}), Value(0)));
  call(d, "update", {Value::dict({{Value("b"), Value(2)}})});
  CHECK(repr(call(d, "keys")) == "['a', 'b']");
  CHECK(repr(call(d, "values")) == "[1, 2]");
  CHECK(repr(call(d, "items")) == "[('a', 1), ('b', 2)]");
  CHECK(py_equal(call(d, "pop", {Value("a")}), Value(1)));
  CHECK(py_equal(call(d, "setdefault", {Value("c"), Value(3)}), Value(3)));
  CHECK(repr(d) == "{'b': 2, 'c': 3}");
  CHECK_THROWS_WITH_AS(call(d, "pop", {Value("q")}), "'q'", KeyError);
}

TEST_CASE("str methods and str.format") {
  CHECK(py_equal(call(Value(", "), "join", {Value::list({"a", "b"})}), Value("a, b")));
  CHECK(repr(call(Value("  a b  c "), "split")) == "['a', 'b', 'c']");
  CHECK(repr(call(Value("a,b,,c"), "split", {Value(",")})) == "['a', 'b', '', 'c']");
  CHECK(py_equal(call(Value("  x "), "strip"), Value("x")));
  CHECK(py_equal(call(Value("Ab"), "upper"), Value("AB")));
  CHECK(truthy(call(Value("model.py"), "endswith", {Value(".py")})));
  CHECK(py_equal(call(Value("a-b-c"), "replace", {Value("-"), Value("+")}), Value("a+b+c")));
  CHECK(py_equal(call(Value("{} + {} = {:.1f}"), "format", {Value(1), Value(2), Value(3.0)}), Value("1 + 2 = 3.0")));
  CHECK(py_equal(call(Value("{1}{0}{x!r}{{}}"), "format", {Value("a"), Value("b")}, {{"x", Value("s")}}),
                 Value("ba's'{}")));
  CHECK_THROWS_WITH_AS(call(Value(",").getattr("join"), "x", {}), "'function' object has no attribute 'x'",
                       AttributeError);
  CHECK_THROWS_WITH_AS(call(Value(","), "join", {Value::list({1})}),
                       "sequence item 0: expected str instance, int found", TypeError);
}

TEST_CASE("tensor attributes") {
  Graph g("f");
  Value x(g.placeholder({DType::Float32, Shape{-1, 3}}, "x"));
  CHECK(str(x.getattr("shape")) == "(None, 3)");
  CHECK(py_equal(x.getattr("ndim"), Value(2)));
  CHECK(py_equal(x.getattr("name"), Value("x:0")));
}
