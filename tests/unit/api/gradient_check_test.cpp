// tf.test.compute_gradient (runtime/api/gradient_check.cpp): the structure
// TF returns, the theoretical Jacobian through the tape, the numeric one as
// gradient_checker_v2 moves float32 arguments (the docstring's 2.000004 for
// delta=1e-3), and its errors.
#include <doctest/doctest.h>

#include "runtime/api/python_api.h"
#include "runtime/value/ndarray.h"
#include "tests/unit/error_text.h"

using namespace ag;
using ag::test::error_text;

namespace {

Value square_fn() {
  return Value::callable("square", [](std::vector<Value> args, Kwargs) { return args.at(0) * args.at(0); });
}

}  // namespace

TEST_CASE("compute_gradient returns ((theoretical, ...), (numeric, ...)) of float32 NumPy arrays") {
  Value r = tf::api::test_compute_gradient({square_fn(), Value::list({Value(1.0)})}, {});
  CHECK(repr(r) == "((array([[2.]], dtype=float32),), (array([[2.]], dtype=float32),))");
  Value coarse = tf::api::test_compute_gradient({square_fn(), Value::list({Value(1.0)})}, {{"delta", Value(1e-3)}});
  CHECK(repr(coarse) == "((array([[2.]], dtype=float32),), (array([[2.000004]], dtype=float32),))");
  // Two arguments of three elements: one 3x3 Jacobian pair each.
  Value mul = Value::callable("mul", [](std::vector<Value> args, Kwargs) { return args.at(0) * args.at(1); });
  Value xs = Value::list({Value::list({Value(1.0), Value(2.0), Value(3.0)}), Value::list({Value(4.0), Value(5.0), Value(6.0)})});
  Value j = tf::api::test_compute_gradient({mul, xs}, {});
  CHECK(str(getitem(getitem(j, Value(0)), Value(1))) == "[[1. 0. 0.]\n [0. 2. 0.]\n [0. 0. 3.]]");
  CHECK(str(getitem(getitem(j, Value(1)), Value(0))) == "[[4. 0. 0.]\n [0. 5. 0.]\n [0. 0. 6.]]");
}

TEST_CASE("compute_gradient's errors are TF's") {
  CHECK(error_text([] { tf::api::test_compute_gradient({square_fn(), Value(1.0)}, {}); }) ==
        "ValueError: `x` must be a list or tuple of values convertible to a Tensor (arguments to `f`), not a "
        "<class 'float'>");
  CHECK(error_text([] { tf::api::test_compute_gradient({square_fn(), Value::list({Value(3)})}, {}); }) ==
        "AssertionError: Cannot compute gradient for unsupported type int32 of argument 0");
}
