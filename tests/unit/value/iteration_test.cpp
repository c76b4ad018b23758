// Python's iteration protocol: a `for` over an iterator object takes items
// one at a time (an endless iterator can be broken out of), iter()/next()
// as Python's, and NumPy values from .numpy().
#include <doctest/doctest.h>

#include "runtime/api/python_api.h"
#include "runtime/value/iteration.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/object_model.h"

using namespace ag;

namespace {

/// A class whose instances count up forever, recording how far they got.
Value counter_class(int* produced) {
  Param self{"self", std::nullopt};
  return make_class(
      "Counter", {},
      {native_method("Counter.__iter__", "__iter__", {self}, [](const std::vector<Value>& a) { return a[0]; }),
       native_method("Counter.__next__", "__next__", {self}, [produced](const std::vector<Value>&) {
         return Value(static_cast<int64_t>((*produced)++));
       })});
}

}  // namespace

TEST_CASE("a for loop over an endless iterator object takes items as it goes") {
  int produced = 0;
  Value counter = counter_class(&produced)({}, {});
  int64_t sum = 0;
  for (const Value& x : iteration(counter)) {
    if (x.as_int() == 5) break;
    sum += x.as_int();
  }
  CHECK(sum == 10);
  CHECK(produced == 6);
}

TEST_CASE("iter() and next() follow Python, StopIteration and the default included") {
  Value it = py::iter({Value::list({Value(1), Value(2)})}, {});
  CHECK(py::next_({it}, {}).as_int() == 1);
  CHECK(py::next_({it}, {}).as_int() == 2);
  CHECK_THROWS_AS(py::next_({it}, {}), StopIteration);
  CHECK(py::next_({it, Value("done")}, {}).as_str() == "done");
  CHECK_THROWS_WITH_AS(py::next_({Value(3)}, {}), "'int' object is not an iterator", TypeError);
  // A list of an iterator object's items: iterate() drains it.
  int produced = 0;
  Value counter = counter_class(&produced)({}, {});
  Value first = py::next_({counter}, {});
  CHECK(first.as_int() == 0);
}

TEST_CASE("numpy() gives an ndarray that prints as NumPy and converts back") {
  Value t(Tensor::from_vector<int32_t>({2}, {1, 2}));
  Value a = t.getattr("numpy")({}, {});
  CHECK(str(a) == "[1 2]");
  CHECK(repr(a) == "array([1, 2], dtype=int32)");
  CHECK(repr(Value(Tensor::scalar<int64_t>(3)).getattr("numpy")({}, {})) == "3");
  CHECK(ndarray::tensor(a).data<int32_t>()[1] == 2);
  CHECK(repr(Value::list({a})) == "[array([1, 2], dtype=int32)]");
}
