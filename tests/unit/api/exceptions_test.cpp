// The exception classes (runtime/core/exceptions.def): the C++ classes, the
// object model's classes and Python's answers agree, class by class.
#include <doctest/doctest.h>

#include <string>

#include "runtime/api/python_api.h"
#include "runtime/core/error.h"
#include "runtime/value/exception_value.h"
#include "runtime/value/object_model.h"
#include "tests/unit/error_text.h"

using namespace ag;
using ag::test::error_text;

namespace {

// True when an error thrown by `f` is caught as a `Base`.
template <class Base, class F>
bool caught_as(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return dynamic_cast<const Base*>(&e) != nullptr;
  }
  return false;
}

bool py_issubclass(const char* sub, const char* base) {
  return py::issubclass({builtin_value(sub, nullptr), builtin_value(base, nullptr)}, {}).as_bool();
}

}  // namespace

TEST_CASE("each C++ error class is its row's Python class, caught as its base") {
#define AG_EXCEPTION_ROOT(Name, Base)
#define AG_EXCEPTION(Name, Base)                                                      \
  {                                                                                   \
    INFO(#Name);                                                                      \
    CHECK(std::string(Name("m").type_name()) == #Name);                              \
    CHECK(caught_as<Base>([] { throw Name("m"); }));                                  \
    CHECK(is_subclass(exception_class(#Name), exception_class(#Base)));               \
    CHECK(class_name(exception_class(#Name)) == #Name);                               \
    CHECK(is_known_exception(#Name));                                                 \
    CHECK(is_instance(exception_value(Name("m")), exception_class(#Base)));          \
  }
#define AG_TF_ERROR(Name, Base, code) AG_EXCEPTION(Name, Base)
#include "runtime/core/exceptions.def"
#undef AG_EXCEPTION_ROOT
#undef AG_EXCEPTION
#undef AG_TF_ERROR
}

TEST_CASE("the hierarchy is Python's and TF's") {
  // Python's built-in exception hierarchy (the `Exception hierarchy` of the
  // library reference) and TF's errors_impl.py.
  struct Fact {
    const char* sub;
    const char* base;
    bool is;
  };
  const Fact facts[] = {
      {"ZeroDivisionError", "ArithmeticError", true}, {"OverflowError", "ArithmeticError", true},
      {"ArithmeticError", "Exception", true},         {"KeyError", "LookupError", true},
      {"IndexError", "LookupError", true},            {"LookupError", "Exception", true},
      {"UnboundLocalError", "NameError", true},       {"NotImplementedError", "RuntimeError", true},
      {"RecursionError", "RuntimeError", true},       {"StopIteration", "Exception", true},
      {"Exception", "BaseException", true},           {"ValueError", "Exception", true},
      {"TypeError", "Exception", true},               {"AssertionError", "Exception", true},
      {"AttributeError", "Exception", true},          {"KeyError", "ArithmeticError", false},
      {"ZeroDivisionError", "LookupError", false},    {"NameError", "LookupError", false},
      {"ValueError", "TypeError", false},             {"Exception", "ValueError", false},
      {"RuntimeError", "NotImplementedError", false}, {"InvalidArgumentError", "OpError", true},
      {"OpError", "Exception", true},                 {"OperatorNotAllowedInGraphError", "TypeError", true},
      {"OperatorNotAllowedInGraphError", "OpError", false}, {"InvalidArgumentError", "ValueError", false},
  };
  for (const Fact& f : facts) {
    INFO(f.sub << " < " << f.base);
    CHECK(is_subclass(exception_class(f.sub), exception_class(f.base)) == f.is);
    CHECK(py_issubclass(f.sub, f.base) == f.is);
  }
  CHECK(caught_as<ArithmeticError>([] { throw ZeroDivisionError("division by zero"); }));
  CHECK(caught_as<LookupError>([] { throw KeyError("'k'"); }));
  CHECK(caught_as<TypeError>([] { throw OperatorNotAllowedInGraphError("m"); }));
  CHECK(caught_as<OpError>([] { throw InvalidArgumentError("m"); }));
  CHECK(!caught_as<ValueError>([] { throw InvalidArgumentError("m"); }));
  CHECK(caught_as<NameError>([] { throw UnboundLocalError("m"); }));
}

TEST_CASE("raising a class or a user's subclass throws the nearest C++ class") {
  Value lookup = builtin_value("LookupError", nullptr);
  Value mine = make_class("MyLookup", {lookup}, {});
  CHECK(caught_as<LookupError>([&] { raise_value(mine({Value("k")}, {})); }));
  CHECK(error_text([&] { raise_value(mine({Value("k")}, {})); }) == "MyLookup: k");
  CHECK(caught_as<ArithmeticError>([&] { raise_value(builtin_value("ZeroDivisionError", nullptr)); }));
  Value plain = make_class("Plain", {builtin_value("Exception", nullptr)}, {});
  CHECK(error_text([&] { raise_value(plain({Value("p")}, {})); }) == "Plain: p");
}

TEST_CASE("exception classes print and answer as Python's and TF's") {
  CHECK(repr(exception_class("ValueError")) == "<class 'ValueError'>");
  CHECK(repr(exception_class("ArithmeticError")) == "<class 'ArithmeticError'>");
  CHECK(repr(exception_class("InvalidArgumentError")) ==
        "<class 'tensorflow.python.framework.errors_impl.InvalidArgumentError'>");
  CHECK(repr(make_class("Mine", {exception_class("ValueError")}, {})) == "<class '__main__.Mine'>");
  // A traceback's last line qualifies a class outside builtins and __main__.
  CHECK(traceback_type_name("InvalidArgumentError") == "tensorflow.python.framework.errors_impl.InvalidArgumentError");
  CHECK(traceback_type_name("OpError") == "tensorflow.python.framework.errors_impl.OpError");
  CHECK(traceback_type_name("ZeroDivisionError") == "ZeroDivisionError");
  CHECK(traceback_type_name("MyError") == "MyError");
  CHECK(exception_value(InvalidArgumentError("m")).getattr("error_code").as_int() == 3);
  CHECK(exception_value(UnauthenticatedError("m")).getattr("error_code").as_int() == 16);
  CHECK(exception_value(OpError("m")).hasattr("error_code") == false);
  // The same class wherever the name is used as a value.
  CHECK(builtin_value("ValueError", nullptr).is(exception_class("ValueError")));
  CHECK(py::isinstance({exception_value(ZeroDivisionError("d")), builtin_value("ArithmeticError", nullptr)}, {})
            .as_bool());
  CHECK(py::issubclass({builtin_value("bool", py::bool_), builtin_value("int", py::int_)}, {}).as_bool());
  CHECK(!py::issubclass({builtin_value("int", py::int_), builtin_value("bool", py::bool_)}, {}).as_bool());
  CHECK(error_text([] { py::issubclass({Value(1), builtin_value("int", py::int_)}, {}); }) ==
        "TypeError: issubclass() arg 1 must be a class");
  CHECK(error_text([] { py::issubclass({builtin_value("int", py::int_), Value(1)}, {}); }) ==
        "TypeError: issubclass() arg 2 must be a class, a tuple of classes, or a union");
}
