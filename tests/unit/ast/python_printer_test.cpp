#include <doctest/doctest.h>

#include "tests/unit/support.h"

using agc::testing::roundtrip;

TEST_CASE("operations are parenthesised the way astunparse prints them") {
  CHECK(roundtrip("x = a + b * c\n") == "x = (a + (b * c))");
  CHECK(roundtrip("y = -a ** 2\n") == "y = (- (a ** 2))");
  CHECK(roundtrip("z = not a and b or c\n") == "z = (((not a) and b) or c)");
  CHECK(roundtrip("w = 1 < x <= 3\n") == "w = (1 < x <= 3)");
  CHECK(roundtrip("v = a if c else b\n") == "v = (a if c else b)");
  CHECK(roundtrip("u = x is not None and y not in z\n") == "u = ((x is not None) and (y not in z))");
}

TEST_CASE("tuples print in parentheses except as a subscript") {
  CHECK(roundtrip("a, b = b, a\n") == "(a, b) = (b, a)");
  CHECK(roundtrip("t = x,\n") == "t = (x,)");
  CHECK(roundtrip("y = x[1, 2]\n") == "y = x[1, 2]");
  CHECK(roundtrip("y = x[1:2, ::3, ...]\n") == "y = x[1:2, ::3, ...]");
  CHECK(roundtrip("y = x[:]\n") == "y = x[:]");
  CHECK(roundtrip("return_ = ()\n") == "return_ = ()");
}

TEST_CASE("a def or class is preceded by a blank line, even first in a block") {
  CHECK(roundtrip("def f():\n  def g():\n    pass\n  return g\n") ==
        "def f():\n\n    def g():\n        pass\n    return g");
  CHECK(roundtrip("class A:\n  x = 1\n") == "class A():\n    x = 1");
}

TEST_CASE("elif chains collapse and else blocks print") {
  CHECK(roundtrip("if a:\n  x\nelif b:\n  y\nelse:\n  z\n") == "if a:\n    x\nelif b:\n    y\nelse:\n    z");
}

TEST_CASE("arguments print with defaults, keyword-only markers and annotations") {
  CHECK(roundtrip("def f(a, b=1, *args, c, d=2, **kw): pass\n") == "def f(a, b=1, *args, c, d=2, **kw):\n    pass");
  CHECK(roundtrip("def f(a, /, b, *, c): pass\n") == "def f(a, /, b, *, c):\n    pass");
  CHECK(roundtrip("def f(x: int = 3) -> str: pass\n") == "def f(x: int=3) -> str:\n    pass");
  CHECK(roundtrip("g = lambda: 0\n") == "g = (lambda : 0)");
  CHECK(roundtrip("g = lambda x, *y: x\n") == "g = (lambda x, *y: x)");
}

TEST_CASE("calls, keywords, starred arguments and comprehensions") {
  CHECK(roundtrip("f(a, *b, k=1, **kw)\n") == "f(a, *b, k=1, **kw)");
  CHECK(roundtrip("f(x for x in y)\n") == "f((x for x in y))");
  CHECK(roundtrip("d = {k: v for k, v in items if v}\n") == "d = {k: v for (k, v) in items if v}");
  CHECK(roundtrip("s = {1, 2}\nd = {'a': 1, **e}\n") == "s = {1, 2}\nd = {'a': 1, **e}");
  CHECK(roundtrip("n = 3 .real\n") == "n = 3 .real");
}

TEST_CASE("f-strings print their parts raw inside the first quote they do not contain") {
  CHECK(roundtrip("s = f'a{b!r:>{w}}c'\n") == "s = f'a{b!r:>{w}}c'");
  CHECK(roundtrip("s = f\"{x['k']}\"\n") == "s = f\"{x['k']}\"");
  CHECK(roundtrip("s = f'{{lit}} {x}'\n") == "s = f'{{lit}} {x}'");
  CHECK(roundtrip("s = f'a' 'b' f'{c}'\n") == "s = f'ab{c}'");
  CHECK(roundtrip("s = f'{x=}'\n") == "s = f'x={x!r}'");
}

TEST_CASE("statements of every kind print as Python") {
  CHECK(roundtrip("import a.b as c, d\nfrom .. import e as f\nfrom g import *\n") ==
        "import a.b as c, d\nfrom .. import e as f\nfrom g import *");
  CHECK(roundtrip("try:\n  pass\nexcept (A, B) as e:\n  raise C('x') from e\nelse:\n  pass\nfinally:\n  pass\n") ==
        "try:\n    pass\nexcept (A, B) as e:\n    raise C('x') from e\nelse:\n    pass\nfinally:\n    pass");
  CHECK(roundtrip("with a as b, c:\n  del b, c[0]\n") == "with a as b, c:\n    del b, c[0]");
  CHECK(roundtrip("global g\nx += 1\ny: int\nassert x, 'm'\n") == "global g\nx += 1\ny: int\nassert x, 'm'");
  CHECK(roundtrip("for (i, x) in enumerate(xs):\n  continue\nwhile 1:\n  break\n") ==
        "for (i, x) in enumerate(xs):\n    continue\nwhile 1:\n    break");
}
