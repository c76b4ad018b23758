// Python's builtins (runtime/api/builtins*.cpp): behaviour and CPython's error texts.
#include <doctest/doctest.h>


#include <cmath>
#include <cstdio>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/autograph/py_builtins.h"
#include "tests/unit/error_text.h"
#include "tests/unit/value/support.h"

using namespace ag;
using namespace ag::test;

namespace {

Value T(std::vector<Value> v) { return Value::tuple(std::move(v)); }

}  // namespace

TEST_CASE("print: sep, end, file") {
  CHECK(output_of(1, [] { py::print({"a", 1, 2.5, Value()}, {}); }) == "a 1 2.5 None\n");
  CHECK(output_of(1, [] { py::print({"a", "b"}, {{"sep", ""}, {"end", "!"}}); }) == "ab!");
  CHECK(output_of(1, [] { py::print({}, {}); }) == "\n");
  CHECK(output_of(2, [] { py::print({"err"}, {{"file", "sys.stderr"}, {"flush", true}}); }) == "err\n");
  CHECK(output_of(1, [] { py::print({"out"}, {{"file", "sys.stdout"}}); }) == "out\n");
  CHECK(error_text([] { py::print({1}, {{"sep", 1}}); }) == "TypeError: sep must be None or a string, not int");
  CHECK(error_text([] { py::print({1}, {{"foo", 1}}); }) ==
        "TypeError: 'foo' is an invalid keyword argument for print()");
}

TEST_CASE("len and CPython's argument-count errors") {
  CHECK(py::len({L({1, 2})}, {}).as_int() == 2);
  CHECK(py::len({"héllo"}, {}).as_int() == 5);
  CHECK(error_text([] { py::len({3}, {}); }) == "TypeError: object of type 'int' has no len()");
  CHECK(error_text([] { py::len({}, {}); }) == "TypeError: len() takes exactly one argument (0 given)");
  CHECK(error_text([] { py::len({1, 2}, {}); }) == "TypeError: len() takes exactly one argument (2 given)");
  CHECK(error_text([] { py::len({L({})}, {{"x", 1}}); }) == "TypeError: len() takes no keyword arguments");
}

TEST_CASE("range is a list of ints; a tensor argument makes it tf.range") {
  CHECK(repr(py::range({3}, {})) == "[0, 1, 2]");
  CHECK(repr(py::range({1, 7, 2}, {})) == "[1, 3, 5]");
  CHECK(repr(py::range({5, 0, -2}, {})) == "[5, 3, 1]");
  CHECK(repr(py::range({2, 1}, {})) == "[]");
  CHECK(error_text([] { py::range({}, {}); }) == "TypeError: range expected at least 1 argument, got 0");
  CHECK(error_text([] { py::range({1, 2, 3, 4}, {}); }) == "TypeError: range expected at most 3 arguments, got 4");
  CHECK(error_text([] { py::range({1, 2, 0}, {}); }) == "ValueError: range() arg 3 must not be zero");
  CHECK(error_text([] { py::range({1.5}, {}); }) ==
        "TypeError: 'float' object cannot be interpreted as an integer");
  // Python's range takes an eager integer tensor by __index__; AutoGraph's
  // range_ (what converted code calls) makes a tensor tf.range.
  CHECK(repr(py::range({tf::constant(3)}, {})) == "[0, 1, 2]");
  CHECK(str(autograph::range_({tf::constant(3)}, {})) == "tf.Tensor([0 1 2], shape=(3,), dtype=int32)");
  CHECK(repr(autograph::range_({3}, {})) == "[0, 1, 2]");
}

TEST_CASE("isinstance with builtin types, tuples and tf classes") {
  Value int_cls = builtin_value("int", py::int_);
  CHECK(truthy(py::isinstance({3, int_cls}, {})));
  CHECK(truthy(py::isinstance({true, int_cls}, {})));
  CHECK(!truthy(py::isinstance({3.0, int_cls}, {})));
  CHECK(truthy(py::isinstance({3.0, T({int_cls, builtin_value("float", py::float_)})}, {})));
  CHECK(truthy(py::isinstance({L({}), builtin_value("list", py::list)}, {})));
  CHECK(truthy(py::isinstance({"s", builtin_value("str", py::str)}, {})));
  CHECK(truthy(py::isinstance({Value::dict(), builtin_value("dict", py::dict)}, {})));
  CHECK(!truthy(py::isinstance({1, builtin_value("bool", py::bool_)}, {})));
  CHECK(truthy(py::isinstance({tf::constant(1), tf::api::Tensor()}, {})));
  CHECK(!truthy(py::isinstance({1, tf::api::Tensor()}, {})));
  Value v = tf::api::Variable()({1.0}, {});
  CHECK(truthy(py::isinstance({v, tf::api::Variable()}, {})));
  CHECK(!truthy(py::isinstance({v, tf::api::Tensor()}, {})));
  Value ta = tf::api::TensorArray()({tf::api::float32()}, {{"size", 2}});
  CHECK(truthy(py::isinstance({ta, tf::api::TensorArray()}, {})));
  Value spec = tf::api::TensorSpec()({L({Value(), 2})}, {});
  CHECK(truthy(py::isinstance({spec, tf::api::TensorSpec()}, {})));
  CHECK(error_text([] { py::isinstance({1, 2}, {}); }) ==
        "TypeError: isinstance() arg 2 must be a type, a tuple of types, or a union");
  CHECK(error_text([] { py::isinstance({1}, {}); }) == "TypeError: isinstance expected 2 arguments, got 1");
}

TEST_CASE("int, float, bool, str of Python values and eager scalars") {
  CHECK(py::int_({}, {}).as_int() == 0);
  CHECK(py::int_({3.9}, {}).as_int() == 3);
  CHECK(py::int_({-3.9}, {}).as_int() == -3);
  CHECK(py::int_({" 42 "}, {}).as_int() == 42);
  CHECK(py::int_({"1_000"}, {}).as_int() == 1000);
  CHECK(py::int_({"ff", 16}, {}).as_int() == 255);
  CHECK(py::int_({"0x1f"}, {{"base", 0}}).as_int() == 31);
  CHECK(py::int_({true}, {}).as_int() == 1);
  CHECK(py::int_({tf::constant(7)}, {}).as_int() == 7);
  CHECK(py::int_({tf::constant(7.8)}, {}).as_int() == 7);
  CHECK(error_text([] { py::int_({"abc"}, {}); }) == "ValueError: invalid literal for int() with base 10: 'abc'");
  CHECK(error_text([] { py::int_({"1.5"}, {}); }) == "ValueError: invalid literal for int() with base 10: '1.5'");
  CHECK(error_text([] { py::int_({L({})}, {}); }) ==
        "TypeError: int() argument must be a string, a bytes-like object or a real number, not 'list'");
  CHECK(error_text([] { py::int_({INFINITY}, {}); }) == "OverflowError: cannot convert float infinity to integer");
  CHECK(error_text([] { py::int_({NAN}, {}); }) == "ValueError: cannot convert float NaN to integer");
  CHECK(error_text([] { py::int_({3.0, 10}, {}); }) == "TypeError: int() can't convert non-string with explicit base");
  CHECK(error_text([] { py::int_({tf::constant(L({1, 2}))}, {}); }) ==
        "TypeError: only length-1 arrays can be converted to Python scalars");

  CHECK(py::float_({}, {}).as_float() == 0.0);
  CHECK(py::float_({3}, {}).is_float());
  CHECK(py::float_({" 1.5 "}, {}).as_float() == 1.5);
  CHECK(std::isinf(py::float_({"-inf"}, {}).as_float()));
  CHECK(std::isnan(py::float_({"nan"}, {}).as_float()));
  CHECK(py::float_({tf::constant(2.5)}, {}).as_float() == 2.5);
  CHECK(error_text([] { py::float_({"x1"}, {}); }) == "ValueError: could not convert string to float: 'x1'");
  CHECK(error_text([] { py::float_({Value()}, {}); }) ==
        "TypeError: float() argument must be a string or a real number, not 'NoneType'");

  CHECK(py::bool_({}, {}).as_bool() == false);
  CHECK(py::bool_({L({})}, {}).as_bool() == false);
  CHECK(py::bool_({"x"}, {}).as_bool() == true);
  CHECK(py::bool_({tf::constant(true)}, {}).as_bool() == true);

  CHECK(py::str({}, {}).as_str().empty());
  CHECK(py::str({1.0}, {}).as_str() == "1.0");
  CHECK(py::str({L({"a"})}, {}).as_str() == "['a']");
  CHECK(py::repr({"a"}, {}).as_str() == "'a'");
  CHECK(py::str({tf::constant(1)}, {}).as_str() == "tf.Tensor(1, shape=(), dtype=int32)");
}

TEST_CASE("list, tuple, dict constructors") {
  CHECK(repr(py::list({}, {})) == "[]");
  CHECK(repr(py::list({"ab"}, {})) == "['a', 'b']");
  CHECK(repr(py::list({T({1, 2})}, {})) == "[1, 2]");
  Value l = L({1});
  CHECK(!py::list({l}, {}).is(l));  // a copy
  CHECK(repr(py::tuple({L({1, 2})}, {})) == "(1, 2)");
  CHECK(repr(py::tuple({}, {})) == "()");
  CHECK(repr(py::dict({}, {{"a", 1}})) == "{'a': 1}");
  CHECK(repr(py::dict({L({T({1, 2}), L({3, 4})})}, {})) == "{1: 2, 3: 4}");
  CHECK(error_text([] { py::list({1}, {}); }) == "TypeError: 'int' object is not iterable");
  CHECK(error_text([] { py::dict({L({T({1, 2, 3})})}, {}); }) ==
        "ValueError: dictionary update sequence element #0 has length 3; 2 is required");
}

TEST_CASE("zip, enumerate, reversed are eager lists; map and filter lazy iterators") {
  CHECK(repr(py::zip({L({1, 2, 3}), "ab"}, {})) == "[(1, 'a'), (2, 'b')]");
  CHECK(repr(py::zip({}, {})) == "[]");
  CHECK(error_text([] { py::zip({L({1}), L({})}, {{"strict", true}}); }) ==
        "ValueError: zip() argument 2 is shorter than argument 1");
  CHECK(repr(py::enumerate({"ab"}, {})) == "[(0, 'a'), (1, 'b')]");
  CHECK(repr(py::enumerate({"ab"}, {{"start", 1}})) == "[(1, 'a'), (2, 'b')]");
  Value twice = Value::callable("twice", [](std::vector<Value> a, Kwargs) { return a[0] * Value(2); });
  Value m = py::map({twice, L({1, 2})}, {});
  CHECK(repr(m).rfind("<map object at 0x", 0) == 0);
  CHECK(repr(py::list({m}, {})) == "[2, 4]");
  CHECK(repr(py::list({m}, {})) == "[]");  // used up after one pass
  Value add = Value::callable("add", [](std::vector<Value> a, Kwargs) { return a[0] + a[1]; });
  CHECK(repr(py::list({py::map({add, L({1, 2}), L({10, 20, 30})}, {})}, {})) == "[11, 22]");
  Value f = py::filter({Value(), L({0, 1, "", "a"})}, {});
  CHECK(repr(f).rfind("<filter object at 0x", 0) == 0);
  CHECK(repr(py::list({f}, {})) == "[1, 'a']");
  Value odd = Value::callable("odd", [](std::vector<Value> a, Kwargs) { return a[0] % Value(2); });
  CHECK(repr(py::list({py::filter({odd, py::range({5}, {})}, {})}, {})) == "[1, 3]");
  CHECK(repr(py::reversed({L({1, 2, 3})}, {})) == "[3, 2, 1]");
  CHECK(error_text([] { py::reversed({Value::dict()}, {}); }) == "TypeError: 'dict' object is not reversible");
  CHECK(error_text([&] { py::map({twice}, {}); }) == "TypeError: map() must have at least two arguments.");
}

TEST_CASE("min, max, sum, any, all") {
  CHECK(py::max({L({3, 9, 2})}, {}).as_int() == 9);
  CHECK(py::min({3, 9, 2}, {}).as_int() == 2);
  CHECK(py::max({L({})}, {{"default", 7}}).as_int() == 7);
  Value neg = Value::callable("neg", [](std::vector<Value> a, Kwargs) { return -a[0]; });
  CHECK(py::max({L({3, 9, 2})}, {{"key", neg}}).as_int() == 2);
  CHECK(repr(py::max({L({1, 1.0})}, {})) == "1");  // the first of equal ones
  CHECK(error_text([] { py::max({L({})}, {}); }) == "ValueError: max() arg is an empty sequence");
  CHECK(error_text([] { py::min({}, {}); }) == "TypeError: min expected at least 1 argument, got 0");
  CHECK(error_text([] { py::max({1, "a"}, {}); }) ==
        "TypeError: '<' not supported between instances of 'int' and 'str'");
  CHECK(py::sum({L({1, 2, 3})}, {}).as_int() == 6);
  CHECK(py::sum({L({1, 2})}, {{"start", 10}}).as_int() == 13);
  CHECK(repr(py::sum({L({0.5, 1})}, {})) == "1.5");
  CHECK(repr(py::sum({L({L({1}), L({2})}), L({})}, {})) == "[1, 2]");
  CHECK(error_text([] { py::sum({L({"a"}), ""}, {}); }) ==
        "TypeError: sum() can't sum strings [use ''.join(seq) instead]");
  CHECK(truthy(py::any({L({0, "", 3})}, {})));
  CHECK(!truthy(py::any({L({})}, {})));
  CHECK(truthy(py::all({L({})}, {})));
  CHECK(!truthy(py::all({L({1, 0})}, {})));
  CHECK(str(py::sum({L({tf::constant(1), tf::constant(2)})}, {})) == "tf.Tensor(3, shape=(), dtype=int32)");
}

TEST_CASE("abs, round (half to even), divmod, pow") {
  CHECK(py::abs({-3}, {}).as_int() == 3);
  CHECK(py::abs({-2.5}, {}).as_float() == 2.5);
  CHECK(error_text([] { py::abs({"a"}, {}); }) == "TypeError: bad operand type for abs(): 'str'");
  CHECK(repr(py::round({2.5}, {})) == "2");
  CHECK(repr(py::round({3.5}, {})) == "4");
  CHECK(repr(py::round({-0.5}, {})) == "0");
  CHECK(repr(py::round({7}, {})) == "7");
  CHECK(repr(py::round({2.675, 2}, {})) == "2.67");
  CHECK(repr(py::round({0.125, 2}, {})) == "0.12");
  CHECK(repr(py::round({1234.5, -2}, {})) == "1200.0");
  CHECK(repr(py::round({1250, -2}, {})) == "1200");
  CHECK(repr(py::round({1350, -2}, {})) == "1400");
  CHECK(error_text([] { py::round({INFINITY}, {}); }) == "OverflowError: cannot convert float infinity to integer");
  CHECK(error_text([] { py::round({"a"}, {}); }) == "TypeError: type str doesn't define __round__ method");
  CHECK(repr(py::divmod({7, 2}, {})) == "(3, 1)");
  CHECK(repr(py::divmod({-7, 2}, {})) == "(-4, 1)");
  CHECK(repr(py::divmod({7.5, 2}, {})) == "(3.0, 1.5)");
  CHECK(error_text([] { py::divmod({1, 0}, {}); }).rfind("ZeroDivisionError", 0) == 0);
  CHECK(repr(py::pow({2, 10}, {})) == "1024");
  CHECK(repr(py::pow({2, -1}, {})) == "0.5");
  CHECK(repr(py::pow({3, 4, 5}, {})) == "1");
  CHECK(repr(py::pow({-3, 3, 5}, {})) == "3");
  CHECK(error_text([] { py::pow({2}, {}); }) == "TypeError: pow() missing 1 required positional argument: 'exp'");
}

TEST_CASE("sorted: key, reverse, stability") {
  CHECK(repr(py::sorted({L({3, 1, 2})}, {})) == "[1, 2, 3]");
  CHECK(repr(py::sorted({"cab"}, {})) == "['a', 'b', 'c']");
  CHECK(repr(py::sorted({L({3, 1, 2})}, {{"reverse", true}})) == "[3, 2, 1]");
  Value first = Value::callable("first", [](std::vector<Value> a, Kwargs) { return getitem(a[0], Value(0)); });
  Value pairs = L({T({1, "b"}), T({0, "z"}), T({1, "a"})});
  CHECK(repr(py::sorted({pairs}, {{"key", first}})) == "[(0, 'z'), (1, 'b'), (1, 'a')]");
  CHECK(repr(py::sorted({pairs}, {{"key", first}, {"reverse", true}})) == "[(1, 'b'), (1, 'a'), (0, 'z')]");
  CHECK(error_text([] { py::sorted({L({1, "a"})}, {}); }) ==
        "TypeError: '<' not supported between instances of 'str' and 'int'");
  CHECK(error_text([] { py::sorted({L({}), 1}, {}); }) == "TypeError: sorted expected 1 argument, got 2");
}

TEST_CASE("callable, hasattr, getattr, setattr, id, type") {
  CHECK(truthy(py::callable({builtin_value("len", py::len)}, {})));
  CHECK(!truthy(py::callable({3}, {})));
  Value o = Value::object("Thing");
  py::setattr({o, "x", 5}, {});
  CHECK(py::getattr({o, "x"}, {}).as_int() == 5);
  CHECK(py::getattr({o, "y", 7}, {}).as_int() == 7);
  CHECK(truthy(py::hasattr({o, "x"}, {})));
  CHECK(!truthy(py::hasattr({o, "y"}, {})));
  CHECK(truthy(py::hasattr({L({}), "append"}, {})));
  CHECK(error_text([] { py::getattr({1, 2}, {}); }) == "TypeError: attribute name must be string, not 'int'");
  CHECK(error_text([] { py::getattr({1, "zz"}, {}); }) == "AttributeError: 'int' object has no attribute 'zz'");
  Value l = L({});
  CHECK(py::id({l}, {}).as_int() == py::id({l}, {}).as_int());
  CHECK(py::id({l}, {}).as_int() != py::id({L({})}, {}).as_int());
  CHECK(py::type({3}, {}).is(builtin_value("int", py::int_)));
  CHECK(py::type({"s"}, {}).is(builtin_value("str", py::str)));
  // TF 2.15's classes: EagerTensor, a subclass of tf.Tensor.
  Value eager = py::type({tf::constant(1)}, {});
  CHECK(repr(eager) == "<class 'tensorflow.python.framework.ops.EagerTensor'>");
  CHECK(truthy(py::issubclass({eager, tf::api::Tensor()}, {})));
  CHECK(truthy(py::isinstance({tf::constant(1), eager}, {})));
  CHECK(!truthy(py::isinstance({tf::constant(1), py::type({tf::Variable(Value(1.5))}, {})}, {})));
  // type(x) is a class value usable with isinstance.
  CHECK(truthy(py::isinstance({4, py::type({3}, {})}, {})));
}

TEST_CASE("builtin_value: interned callables") {
  Value f = builtin_value("len", py::len);
  CHECK(f.is(builtin_value("len", py::len)));
  CHECK(f({L({1, 2})}, {}).as_int() == 2);
  Value t = builtin_value("tf.tanh", tf::api::tanh);
  CHECK(t({0.0}, {}).is_tensor());
}
