// set and frozenset (runtime/value/set_value.h): CPython 3.11's hashes, table
// order, operators, methods and error texts. Every expected text is what
// /usr/bin/python3 (3.11) prints for the same expression.
#include <doctest/doctest.h>

#include "runtime/api/python_api.h"
#include "runtime/value/set_value.h"
#include "tests/unit/value/support.h"

using namespace ag;
using namespace ag::test;

namespace {

Value ints(std::initializer_list<int64_t> v) {
  std::vector<Value> items;
  for (int64_t x : v) items.emplace_back(x);
  return set_value::make(items);
}

Value fs(std::initializer_list<int64_t> v) { return set_value::from_iterable(ints(v), true); }

}  // namespace

TEST_CASE("hashes are CPython's for ints, floats, tuples and frozensets") {
  CHECK(set_value::py_hash(Value(-1)) == -2);
  CHECK(set_value::py_hash(Value(int64_t{1} << 62)) == 2);
  CHECK(set_value::py_hash(Value(1.5)) == 1152921504606846977);
  CHECK(set_value::py_hash(Value(2.0)) == 2);
  CHECK(set_value::py_hash(Value::tuple({Value(1), Value(2)})) == -3550055125485641917);
  CHECK(set_value::py_hash(fs({1, 2, 3})) == -272375401224217160);
}

TEST_CASE("sets iterate and print in CPython's table order") {
  CHECK(repr(ints({10, 1})) == "{1, 10}");
  CHECK(repr(ints({8, 0, 16})) == "{8, 0, 16}");
  CHECK(repr(ints({-1, -2, 5})) == "{5, -1, -2}");
  CHECK(repr(ints({100, 200, 300, 7, 8})) == "{100, 7, 200, 8, 300}");
  CHECK(repr(set_value::make({Value::tuple({Value(1), Value(2)}), Value::tuple({Value(3), Value(4)}),
                              Value::tuple({Value(0), Value(0)})})) == "{(1, 2), (3, 4), (0, 0)}");
  CHECK(repr(set_value::make({Value(1.5), Value(2.5), Value(0.5)})) == "{0.5, 1.5, 2.5}");
  CHECK(repr(set_value::make({})) == "set()");
  CHECK(repr(fs({1})) == "frozenset({1})");
  CHECK(repr(fs({})) == "frozenset()");
  // Removals leave dummies that later additions reuse, and growth rehashes.
  std::vector<Value> range;
  for (int64_t i = 0; i < 20; ++i) range.emplace_back(i);
  Value s = set_value::make(range);
  for (int64_t i = 0; i < 20; i += 3) s.as_set().discard(Value(i));
  s.as_set().add(Value(100));
  s.as_set().add(Value(33));
  CHECK(repr(s) == "{1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 16, 17, 19, 33, 100}");
  Value p = ints({1, 2, 3});
  CHECK(p.getattr("pop")({}).as_int() == 1);
  CHECK(repr(p) == "{2, 3}");
}

TEST_CASE("set operators and comparisons") {
  CHECK(repr(ints({1, 2, 3}) | ints({3, 4})) == "{1, 2, 3, 4}");
  CHECK(repr(ints({1, 2, 3}) & ints({2, 3, 9})) == "{2, 3}");
  CHECK(repr(ints({1, 2, 3}) - ints({2})) == "{1, 3}");
  CHECK(repr(ints({1, 2, 3}) ^ ints({3, 4})) == "{1, 2, 4}");
  CHECK(repr(fs({1, 2}) | ints({5})) == "frozenset({1, 2, 5})");
  CHECK(repr(ints({5}) | fs({1})) == "{1, 5}");
  CHECK(truthy(ints({1, 2}) <= ints({1, 2, 3})));
  CHECK_FALSE(truthy(ints({1, 2}) < ints({1, 2})));
  CHECK(truthy(ints({1, 2}) >= ints({2})));
  CHECK(py_equal(ints({1, 2}), fs({2, 1})));
  CHECK(contains(ints({1, 2}), Value(2.0)));
  CHECK(len(ints({1, 1, 2})) == 2);
  CHECK(error_of<TypeError>([] { static_cast<void>(ints({1}) < Value(2)); }) ==
        "'<' not supported between instances of 'set' and 'int'");
  CHECK(error_of<TypeError>([] { static_cast<void>(ints({1}) | Value::list({})); }) ==
        "unsupported operand type(s) for |: 'set' and 'list'");
}

TEST_CASE("set methods, hashability and errors") {
  Value s = ints({1, 2});
  s.getattr("add")({Value(3)});
  s.getattr("discard")({Value(9)});
  s.getattr("update")({Value::list({Value(4)}), Value::tuple({Value(5)})});
  CHECK(repr(s) == "{1, 2, 3, 4, 5}");
  CHECK(error_of<KeyError>([&] { s.getattr("remove")({Value(7)}); }) == "7");
  CHECK(repr(s.getattr("intersection")({Value::list({Value(2), Value(3), Value(8)})})) == "{2, 3}");
  CHECK(repr(s.getattr("difference")({Value::list({Value(1)}), ints({5})})) == "{2, 3, 4}");
  CHECK(truthy(s.getattr("issuperset")({Value::list({Value(1), Value(2)})})));
  CHECK(truthy(s.getattr("isdisjoint")({Value::list({Value(9)})})));
  CHECK(error_of<KeyError>([] { set_value::make({}).getattr("pop")({}); }) == "'pop from an empty set'");
  CHECK(error_of<AttributeError>([] { fs({1}).getattr("add"); }) == "'frozenset' object has no attribute 'add'");
  CHECK(error_of<TypeError>([] { Value::dict({{ints({1}), Value(2)}}); }) == "unhashable type: 'set'");
  CHECK(error_of<TypeError>([] { set_value::make({Value::list({})}); }) == "unhashable type: 'list'");
  // A frozenset is hashable: a dict key, and frozenset(f) is f.
  Value f = fs({1, 2});
  CHECK(Value::dict({{f, Value(1)}}).as_dict().find(fs({2, 1})) == 0);
  CHECK(set_value::from_iterable(f, true).is(f));
  CHECK(repr(py::set_({Value("ab")}, {})).size() == 10);  // {'a', 'b'} in either order
  CHECK(error_of<TypeError>([] { py::set_({Value(1)}, {}); }) == "'int' object is not iterable");
  CHECK(error_of<TypeError>([] { py::frozenset({Value(1), Value(2)}, {}); }) ==
        "frozenset expected at most 1 argument, got 2");
}

TEST_CASE("a tensor in a set is TF's TypeError") {
  Value t(Tensor::scalar<int32_t>(1));
  CHECK(error_of<TypeError>([&] { set_value::make({t}); }) ==
        "Tensor is unhashable. Instead, use tensor.ref() as the key.");
}
