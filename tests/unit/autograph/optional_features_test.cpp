// The operators of AutoGraph's optional features: assert_stmt
// (ASSERT_STATEMENTS), eq/not_eq (EQUALITY_OPERATORS) and print_
// (BUILTIN_FUNCTIONS), on Python values, eager tensors and while tracing.
#include "runtime/ops/logging_ops.h"
#include "runtime/value/exception_value.h"
#include "tests/unit/autograph/support.h"

using namespace ag;
using namespace ag::autograph;
using namespace ag::test;

namespace {

std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return std::string(e.type_name()) + ": " + e.what();
  }
  return "<no error>";
}

/// Captures what the print ops write while alive.
struct Capture {
  std::string text;
  PrintSink old;
  Capture() {
    old = set_print_sink([this](std::string_view s, std::string_view t) { text += std::string(s) + ":" + std::string(t); });
  }
  ~Capture() { set_print_sink(old); }
};

}  // namespace

TEST_CASE("assert_stmt is Python's assert on Python values and TF's Assert on tensors") {
  auto msg = [] { return Value("x must be positive"); };
  CHECK(error_of([&] { assert_stmt(Value(1), msg); }) == "<no error>");
  CHECK(error_of([&] { assert_stmt(Value(0), msg); }) == "AssertionError: x must be positive");
  CHECK(error_of([&] { assert_stmt(Value(Tensor::scalar<bool>(true)), msg); }) == "<no error>");
  CHECK(error_of([&] { assert_stmt(Value(Tensor::scalar<bool>(false)), msg); }) ==
        "InvalidArgumentError: Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
        "b'x must be positive'");
  // While tracing it is an Assert node, which fails when the graph runs.
  Function f = fn1([&](const std::vector<Value>& a) {
    assert_stmt(a[0] > Value(0), msg);
    return a[0];
  });
  CHECK(as_i32(f({i32(3)})) == 3);
  CHECK(has_op(f.get_concrete_function({i32(3)})->graph(), {"Assert"}));
  CHECK(error_of([&] { f({i32(-3)}); }).find("assertion failed: [x must be positive]") != std::string::npos);
}

TEST_CASE("eq and not_eq_ are tf.equal for tensors and Python's == otherwise") {
  CHECK(eq(Value(1), Value(1.0)).as_bool());
  CHECK(not_eq_(Value("a"), Value("b")).as_bool());
  Value t = eq(ivec({1, 2}), ivec({1, 3}));
  REQUIRE(t.is_tensor());
  CHECK(t.as_tensor().value().data<bool>()[0]);
  CHECK_FALSE(t.as_tensor().value().data<bool>()[1]);
  CHECK_FALSE(as_bool(not_eq_(i32(2), Value(2))));
  Function f = fn1([](const std::vector<Value>& a) { return not_eq_(a[0], Value(2)); });
  CHECK(as_bool(f({i32(3)})));
  CHECK(has_op(f.get_concrete_function({i32(3)})->graph(), {"Equal"}));
}

TEST_CASE("print_ prints tensors when the graph runs, as NumPy prints them, and Python values at once") {
  CHECK(error_of([] { print_({Value(1)}, {{"color", Value("red")}}); }) ==
        "ValueError: invalid keyword arguments: ('color',)");
  Capture cap;
  int traces = 0;
  Function f = fn1([&](const std::vector<Value>& a) {
    ++traces;
    print_({Value("x:"), a[0], Value(7)}, {{"sep", Value("|")}, {"end", Value(".\n")}});
    return a[0];
  });
  f({fvec({1.5f, 2.0f})});
  f({fvec({3.0f, 4.0f})});
  CHECK(traces == 1);
  CHECK(cap.text == "stdout:x:|[1.5 2. ]|7.\nstdout:x:|[3. 4.]|7.\n");
  // Eagerly the value prints at once; a string scalar as its text.
  cap.text.clear();
  print_({Value(Tensor::scalar(std::string("hi")))}, {{"file", Value("sys.stderr")}});
  CHECK(cap.text == "stderr:hi\n");
}
