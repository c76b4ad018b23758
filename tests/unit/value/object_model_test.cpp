// Python classes as generated code makes them (runtime/value/object_model.h):
// __init__, methods bound to self, __call__, inheritance, super(), __str__ /
// __repr__, and AttributeError/TypeError in Python's words.
#include <doctest/doctest.h>

#include "runtime/function/function_value.h"
#include "runtime/value/exception_value.h"
#include "runtime/value/object_model.h"
#include "tests/unit/error_text.h"

using namespace ag;
using ag::test::error_text;

namespace {

/// class Point:
///   def __init__(self, x, y=0): self.x = x; self.y = y
///   def norm1(self): return self.x + self.y
///   def __call__(self, k): return self.x * k
Value point_class() {
  return make_class(
      "Point", {},
      {{"__init__", make_function("__init__", {{"self", std::nullopt}, {"x", std::nullopt}, {"y", Value(0)}},
                                  [](const std::vector<Value>& a) {
                                    a[0].setattr("x", a[1]);
                                    a[0].setattr("y", a[2]);
                                    return Value();
                                  })},
       {"norm1", make_function("norm1", {{"self", std::nullopt}},
                               [](const std::vector<Value>& a) { return a[0].getattr("x") + a[0].getattr("y"); })},
       {"__call__", make_function("__call__", {{"self", std::nullopt}, {"k", std::nullopt}},
                                  [](const std::vector<Value>& a) { return a[0].getattr("x") * a[1]; })},
       {"dims", Value(2)}});
}

}  // namespace

TEST_CASE("a class constructs through __init__ and binds its methods to the instance") {
  Value Point = point_class();
  CHECK(is_class(Point));
  CHECK(Point.type_name() == "type");
  Value p = Point({Value(3)}, {{"y", Value(4)}});
  CHECK(p.type_name() == "Point");
  CHECK(is_instance(p, Point));
  CHECK(p.getattr("x").as_int() == 3);
  CHECK(p.getattr("norm1")().as_int() == 7);
  CHECK(p({Value(5)}).as_int() == 15);
  CHECK(p.getattr("dims").as_int() == 2);  // class attribute through the instance
  CHECK(p.hasattr("norm1"));
  CHECK(p.hasattr("x"));
  CHECK_FALSE(p.hasattr("z"));
  p.setattr("dims", Value(3));  // an instance attribute shadows the class's
  CHECK(p.getattr("dims").as_int() == 3);
  CHECK(Point.getattr("dims").as_int() == 2);
  CHECK(Point.getattr("__name__").as_str() == "Point");
  // The unbound function through the class takes self explicitly.
  CHECK(Point.getattr("norm1")({p}).as_int() == 7);
}

TEST_CASE("object errors read as Python's") {
  Value Point = point_class();
  Value p = Point({Value(1)});
  CHECK(error_text([&] { p.getattr("z"); }) == "AttributeError: 'Point' object has no attribute 'z'");
  CHECK(error_text([&] { Point.getattr("z"); }) == "AttributeError: type object 'Point' has no attribute 'z'");
  CHECK(error_text([&] { Point({}); }) ==
        "TypeError: Point.__init__() missing 1 required positional argument: 'x'");
  // CPython 3.11's text for `def __init__(self, x, y=0)` given 4.
  CHECK(error_text([&] { Point({Value(1), Value(2), Value(3)}); }) ==
        "TypeError: Point.__init__() takes from 2 to 3 positional arguments but 4 were given");
  Value Empty = make_class("Empty", {}, {});
  CHECK(error_text([&] { Empty({Value(1)}); }) == "TypeError: Empty() takes no arguments");
  Value e = Empty({});
  CHECK(error_text([&] { e({}); }) == "TypeError: 'Empty' object is not callable");
  CHECK(error_text([&] { make_class("Bad", {Value(1)}, {}); }) ==
        "TypeError: class Bad cannot derive from a 'int' value (bases must be classes)");
}

TEST_CASE("inheritance looks up bases in order and super() skips the class itself") {
  // class A: def who(self): return 'A'; def hello(self): return 'hello from ' + self.who()
  Value A = make_class("A", {},
                       {{"who", make_function("who", {{"self", std::nullopt}}, [](const std::vector<Value>&) { return Value("A"); })},
                        {"hello", make_function("hello", {{"self", std::nullopt}}, [](const std::vector<Value>& a) {
                           return Value("hello from ") + a[0].getattr("who")();
                         })}});
  // class B(A): def who(self): return 'B+' + super().who()
  Value B;
  B = make_class("B", {A},
                 {{"who", make_function("who", {{"self", std::nullopt}}, [&B](const std::vector<Value>& a) {
                     return Value("B+") + super_getattr(B, a[0], "who")();
                   })}});
  Value b = B({});
  CHECK(b.getattr("hello")().as_str() == "hello from B+A");
  CHECK(is_instance(b, A));
  CHECK(is_instance(b, B));
  CHECK_FALSE(is_instance(A({}), B));
  CHECK(error_text([&] { super_getattr(B, b, "nope"); }) == "AttributeError: 'super' object has no attribute 'nope'");
  // Depth first, left to right.
  Value C = make_class("C", {}, {{"who", make_function("who", {{"self", std::nullopt}}, [](const std::vector<Value>&) { return Value("C"); })}});
  Value D = make_class("D", {B, C}, {});
  CHECK(D({}).getattr("who")().as_str() == "B+A");
  Value E = make_class("E", {C, B}, {});
  CHECK(E({}).getattr("who")().as_str() == "C");
  std::vector<Value> order = mro(D);
  REQUIRE(order.size() == 4);
  CHECK(class_name(order[1]) == "B");
  CHECK(class_name(order[2]) == "A");
  CHECK(class_name(order[3]) == "C");
}

TEST_CASE("str and repr consult __str__ and __repr__, else Python's defaults") {
  Value Plain = make_class("Count", {}, {});
  std::string s = str(Plain({}));
  CHECK(s.rfind("<__main__.Count object at 0x", 0) == 0);
  CHECK(str(Plain) == "<class '__main__.Count'>");
  Value R = make_class("R", {}, {{"__repr__", make_function("__repr__", {{"self", std::nullopt}}, [](const std::vector<Value>&) {
                                    return Value("R()");
                                  })}});
  CHECK(str(R({})) == "R()");
  CHECK(repr(Value::list({R({})})) == "[R()]");
  Value S = make_class("S", {R}, {{"__str__", make_function("__str__", {{"self", std::nullopt}}, [](const std::vector<Value>&) {
                                     return Value("an S");
                                   })}});
  CHECK(str(S({})) == "an S");
  CHECK(repr(S({})) == "R()");
  Value Bad = make_class("Bad", {}, {{"__str__", make_function("__str__", {{"self", std::nullopt}}, [](const std::vector<Value>&) {
                                        return Value(1);
                                      })}});
  CHECK(error_text([&] { str(Bad({})); }) == "TypeError: __str__ returned non-string (type int)");
}

TEST_CASE("properties and __getattr__") {
  Value C = make_class(
      "C", {},
      {{"twice", make_property(make_function("twice", {{"self", std::nullopt}},
                                             [](const std::vector<Value>& a) { return a[0].getattr("v") * Value(2); }))},
       {"__getattr__", make_function("__getattr__", {{"self", std::nullopt}, {"name", std::nullopt}}, [](const std::vector<Value>& a) -> Value {
          if (a[1].as_str() == "magic") return Value(42);
          throw AttributeError("no " + a[1].as_str());
        })}});
  Value c = C({});
  c.setattr("v", Value(5));
  CHECK(c.getattr("twice").as_int() == 10);
  CHECK(c.getattr("magic").as_int() == 42);
  CHECK(c.hasattr("magic"));
  CHECK_FALSE(c.hasattr("other"));
}

TEST_CASE("exceptions are values: raised, caught, printed") {
  Value e = make_exception("ValueError", {Value("bad value")});
  CHECK(str(e) == "bad value");
  CHECK(repr(e) == "ValueError('bad value')");
  CHECK(e.type_name() == "ValueError");
  CHECK(is_instance(e, exception_class("Exception")));
  CHECK(str(make_exception("KeyError", {Value("k")})) == "'k'");
  CHECK(str(make_exception("TypeError", {Value(1), Value("a")})) == "(1, 'a')");
  CHECK(str(make_exception("RuntimeError", {})) == "");
  CHECK(error_text([&] { raise_value(e); }) == "ValueError: bad value");
  // The C++ type of a raised Python exception is its ag::Error counterpart,
  // and catching it gives back the very object raised.
  try {
    raise_value(e);
  } catch (const ValueError& err) {
    CHECK(exception_value(err).is(e));
  }
  // A user's subclass keeps its name and is caught as its base.
  Value MyError = make_class("MyError", {exception_class("ValueError")}, {});
  try {
    raise_value(MyError({Value("mine")}));
    FAIL("no exception");
  } catch (const ValueError& err) {
    CHECK(std::string(err.type_name()) == "MyError");
    CHECK(std::string(err.what()) == "mine");
  }
  CHECK(error_text([&] { raise_value(exception_class("IndexError")); }) == "IndexError: ");
  CHECK(error_text([&] { raise_value(Value(1)); }) == "TypeError: exceptions must derive from BaseException");
  CHECK(error_text([&] { raise_value(make_exception("Exception", {Value("x")})); }) == "Exception: x");
  // A runtime error caught as a value.
  try {
    throw InvalidArgumentError("cannot compute");
  } catch (const Error& err) {
    Value v = exception_value(err);
    CHECK(str(v) == "cannot compute");
    CHECK(v.type_name() == "InvalidArgumentError");
    CHECK(v.getattr("message").as_str() == "cannot compute");
    CHECK(is_instance(v, exception_class("OpError")));
    CHECK(error_text([&] { raise_value(v); }) == "InvalidArgumentError: cannot compute");
  }
}

TEST_CASE("special methods: len(), x[k], iteration, `in`, ==/!= and truth go through the class") {
  // class Bag:
  //   def __init__(self, items): self.items = items
  //   def __len__(self): return len(self.items)
  //   def __getitem__(self, i): return self.items[i]
  //   def __iter__(self): return self.items
  //   def __eq__(self, other): return isinstance(other, Bag) and self.items == other.items
  auto self_items = [](const std::vector<Value>& a) { return a[0].getattr("items"); };
  Value Bag = make_class(
      "Bag", {},
      {{"__init__", make_function("__init__", {{"self", std::nullopt}, {"items", std::nullopt}},
                                  [](const std::vector<Value>& a) {
                                    a[0].setattr("items", a[1]);
                                    return Value();
                                  })},
       {"__len__", make_function("__len__", {{"self", std::nullopt}},
                                 [=](const std::vector<Value>& a) { return Value(len(self_items(a))); })},
       {"__getitem__", make_function("__getitem__", {{"self", std::nullopt}, {"i", std::nullopt}},
                                     [=](const std::vector<Value>& a) { return getitem(self_items(a), a[1]); })},
       {"__iter__", make_function("__iter__", {{"self", std::nullopt}}, self_items)},
       {"__eq__", make_function("__eq__", {{"self", std::nullopt}, {"other", std::nullopt}},
                                [=](const std::vector<Value>& a) {
                                  return Value(a[1].is_object() && a[1].hasattr("items") &&
                                               py_equal(self_items(a), a[1].getattr("items")));
                                })}});
  Value b = Bag({Value::list({1, 2, 3})}, {});
  CHECK(len(b) == 3);
  CHECK(getitem(b, Value(-1)).as_int() == 3);
  CHECK(iterate(b).size() == 3);
  CHECK(contains(b, Value(2)));
  CHECK_FALSE(contains(b, Value(7)));
  CHECK(truthy(b));
  CHECK_FALSE(truthy(Bag({Value::list()}, {})));  // __len__ 0: falsy
  CHECK(truthy(b == Bag({Value::list({1, 2, 3})}, {})));
  CHECK(truthy(b != Bag({Value::list({1})}, {})));
  CHECK(truthy(Value(5) != b));  // the reflected __eq__: False, so != is True
  // Without the special methods, Python's errors.
  Value plain = point_class()({Value(1)}, {});
  CHECK(ag::test::error_text([&] { (void)len(plain); }) == "TypeError: object of type 'Point' has no len()");
  CHECK(ag::test::error_text([&] { (void)getitem(plain, Value(0)); }) ==
        "TypeError: 'Point' object is not subscriptable");
  CHECK(ag::test::error_text([&] { (void)iterate(plain); }) == "TypeError: 'Point' object is not iterable");
  CHECK(truthy(plain));
  CHECK_FALSE(truthy(plain == point_class()({Value(1)}, {})));  // identity
}
