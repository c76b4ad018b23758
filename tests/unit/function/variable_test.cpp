// tf.Variable with tf.function, as the guide (shared/seeds/000_*, 001_*) shows
// it: variables may be created only on the first trace, the lazily-created
// pattern works, captured variables are read and assigned in program order,
// and a concrete function holds its variables weakly.
#include <doctest/doctest.h>

#include "runtime/api/tf_api.h"
#include "runtime/autograph/autograph.h"
#include "runtime/function/function.h"
#include "runtime/value/variable_value.h"
#include "tests/unit/error_text.h"
#include "tests/unit/function/support.h"

using namespace ag;
using ag::test::error_text;
using ag::test::t_int;

TEST_CASE("a Function that creates a variable on every call is TF's ValueError") {
  // @tf.function
  // def f(x): v = tf.Variable(1.0); v.assign_add(x); return v
  int traces = 0;
  Function f("f", {{"x", {}}}, [&](const std::vector<Value>& a) {
    ++traces;
    Value v = tf::Variable(Value(1.0));
    v.getattr("assign_add")({a[0]});
    return v;
  });
  CHECK(error_text([&] { f({Value(1.0)}); }) == std::string("ValueError: ") + variable_value::kCreatedOnNonFirstTrace);
  CHECK(traces == 2);  // TF traces the first call twice when it creates variables
}

TEST_CASE("the lazily created variable pattern (Count) works") {
  // class Count(tf.Module):
  //   def __init__(self): self.count = None
  //   @tf.function
  //   def __call__(self):
  //     if self.count is None: self.count = tf.Variable(0)
  //     return self.count.assign_add(1)
  Value self = Value::object("Count");
  self.setattr("count", Value());
  Function call("__call__", {}, [self](const std::vector<Value>&) {
    if (self.getattr("count").is_none()) self.setattr("count", tf::Variable(Value(0)));
    return self.getattr("count").getattr("assign_add")({Value(1)});
  });
  CHECK(str(call({})) == "tf.Tensor(1, shape=(), dtype=int32)");
  CHECK(str(call({})) == "tf.Tensor(2, shape=(), dtype=int32)");
  CHECK(call.tracing_count() == 1);
  CHECK(repr(self.getattr("count")) == "<tf.Variable 'Variable:0' shape=() dtype=int32, numpy=2>");
}

TEST_CASE("a variable created by a later trace is refused") {
  Function f("f", {{"x", {}}}, [](const std::vector<Value>& a) {
    if (a[0].is_int() && a[0].as_int() == 2) return tf::Variable(Value(1)) + a[0];
    return a[0];
  });
  // A Python value a function returns comes back as a tensor, as TF converts it.
  CHECK(str(f({Value(1)})) == "tf.Tensor(1, shape=(), dtype=int32)");
  CHECK(error_text([&] { f({Value(2)}); }) == std::string("ValueError: ") + variable_value::kCreatedOnLaterCall);
}

TEST_CASE("captured variables: reads, assignments in order, weak capture") {
  // external_var = tf.Variable(3); f(x) = x * external_var
  Value external = tf::Variable(Value(3));
  // The body refers to the variable by name (as Python's global), not owning it.
  Function f("f", {{"x", {}}}, [&external](const std::vector<Value>& a) { return a[0] * external; });
  auto traced = f.get_concrete_function({Value(4)});
  CHECK(str((*traced)({Value(4)})) == "tf.Tensor(12, shape=(), dtype=int32)");
  external.getattr("assign")({Value(5)});
  CHECK(str((*traced)({Value(4)})) == "tf.Tensor(20, shape=(), dtype=int32)");
  // Reads and assignments keep program order inside the graph.
  Value v = tf::Variable(Value(1.0f));
  Function g("g", {}, [v](const std::vector<Value>&) {
    Value before = v.getattr("read_value")({});
    v.getattr("assign_add")({Value(2.0)});
    Value after = v.getattr("read_value")({});
    v.getattr("assign_sub")({Value(0.5)});
    return Value::tuple({before, after, v.getattr("value")({})});
  });
  Value r = g({});
  CHECK(str(r) == "(<tf.Tensor: shape=(), dtype=float32, numpy=1.0>, <tf.Tensor: shape=(), dtype=float32, numpy=3.0>, "
                  "<tf.Tensor: shape=(), dtype=float32, numpy=2.5>)");
  CHECK(repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.5>");
  // del external_var: the concrete function's read fails as TF's does.
  external = Value();
  CHECK(error_text([&] { (*traced)({Value(4)}); }).starts_with(
      "FailedPreconditionError: Error while reading resource variable _AnonymousVar"));
}

TEST_CASE("variables in eager code: operators, tf functions, attributes, errors") {
  Value v = tf::Variable(Value::list({Value(1.0), Value(2.0)}), std::nullopt, Value("bias"));
  CHECK(repr(v) == "<tf.Variable 'bias:0' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>");
  CHECK(str(v + Value(1)) == "tf.Tensor([2. 3.], shape=(2,), dtype=float32)");
  CHECK(str(-v) == "tf.Tensor([-1. -2.], shape=(2,), dtype=float32)");
  CHECK(str(tf::reduce_sum(v)) == "tf.Tensor(3.0, shape=(), dtype=float32)");
  CHECK(str(v.getattr("dtype")) == "<dtype: 'float32'>");
  CHECK(repr(v.getattr("shape")) == "TensorShape([2])");
  CHECK(str(v.getattr("shape")) == "(2,)");
  CHECK(str(v.getattr("name")) == "bias:0");
  CHECK(v.getattr("assign_add")({Value::list({Value(1.0), Value(1.0)})}).is(v));
  // numpy() is a NumPy array of the value (a copy).
  CHECK(str(v.getattr("numpy")({})) == "[2. 3.]");
  CHECK(repr(v.getattr("numpy")({})) == "array([2., 3.], dtype=float32)");
  // A value spanning lines starts on its own line, as TF's value_text puts it.
  CHECK(repr(variable_value::create(Value::list({Value::list({Value(1.0)}), Value::list({Value(2.0)})}), std::nullopt,
                                    Value(), Value(), true)) ==
        "<tf.Variable 'Variable:0' shape=(2, 1) dtype=float32, numpy=\narray([[1.],\n       [2.]], dtype=float32)>");
  CHECK(error_text([&] { v.getattr("assign")({Value::list({Value(1.0)})}); }) ==
        "InvalidArgumentError: Trying to assign to variable with tensor with wrong shape. Expected [2] got [1]");
  CHECK(error_text([&] { v.getattr("assign")({t_int(1)}); }).starts_with("InvalidArgumentError: Trying to assign variable with wrong dtype"));
  CHECK(error_text([&] { v.getattr("nope"); }) == "AttributeError: 'ResourceVariable' object has no attribute 'nope'");
  Value b = tf::Variable(Value(true));
  CHECK(truthy(b));
}
