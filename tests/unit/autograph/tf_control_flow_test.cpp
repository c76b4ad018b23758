// tf.cond, tf.switch_case, tf.case, tf.while_loop, tf.map_fn, tf.scan,
// tf.foldl/foldr and tf.vectorized_map: eager and traced runs agree, traced
// ones stage If/While nodes, and TF's checks and error texts.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/core/error.h"
#include "runtime/value/tensor_shape_value.h"
#include "tests/unit/autograph/support.h"

using namespace ag;
using namespace ag::test;
namespace tf_api = ag::tf::api;

namespace {

Value fn(std::function<Value(const std::vector<Value>&)> f) {
  return Value::callable("f", [f = std::move(f)](std::vector<Value> args, Kwargs) { return f(args); });
}

Value cond_of(const Value& x) {
  return tf_api::cond({x > Value(0), fn([x](auto&) { return x * x; }), fn([x](auto&) { return -x; })}, {});
}

/// while i < 10: i, p = i + 1, p * 2 (loop_vars [i, p]).
Value doubling(const Value& n) {
  Value c = fn([n](const std::vector<Value>& a) { return a[0] < n; });
  Value b = fn([](const std::vector<Value>& a) { return Value::tuple({a[0] + Value(1), a[1] * Value(2)}); });
  return tf_api::while_loop({c, b, Value::list({i32(0), f32(1)})}, {});
}

}  // namespace

TEST_CASE("tf.cond runs one branch eagerly and stages an If while tracing") {
  int calls = 0;
  Value counting = fn([&](auto&) {
    ++calls;
    return f32(1);
  });
  CHECK(as_f32(tf_api::cond({Value(Tensor::scalar<bool>(true)), counting, counting}, {})) == 1);
  CHECK(calls == 1);
  CHECK(as_f32(cond_of(f32(3))) == 9);
  CHECK(as_f32(cond_of(f32(-3))) == 3);
  Function f = fn1([](const std::vector<Value>& a) { return cond_of(a[0]); });
  CHECK(as_f32(f({f32(3)})) == 9);
  CHECK(as_f32(f({f32(-3)})) == 3);
  CHECK(has_if(f.get_concrete_function({f32(3)})->graph()));
}

TEST_CASE("tf.cond while tracing: TF's errors for the predicate and the branches") {
  Function python_bool = fn1([](const std::vector<Value>& a) {
    return tf_api::cond({Value(true), fn([a](auto&) { return a[0]; }), fn([a](auto&) { return a[0]; })}, {});
  });
  CHECK_THROWS_WITH_AS(python_bool({f32(1)}), "('pred must not be a Python bool', True)", TypeError);
  Function structure = fn1([](const std::vector<Value>& a) {
    return tf_api::cond({a[0] > Value(0), fn([a](auto&) { return Value::tuple({a[0], a[0]}); }),
                         fn([a](auto&) { return a[0]; })},
                        {});
  });
  try {
    structure({f32(1)});
    FAIL("no error");
  } catch (const TypeError& e) {
    CHECK(std::string(e.what()).starts_with("true_fn and false_fn arguments to tf.cond must have the same number, "
                                            "type, and overall structure of return values.\n\ntrue_fn output: "));
  }
  Function dtypes = fn1([](const std::vector<Value>& a) {
    return tf_api::cond({a[0] > Value(0), fn([a](auto&) { return a[0]; }), fn([](auto&) { return i32(1); })}, {});
  });
  try {
    dtypes({f32(1)});
    FAIL("no error");
  } catch (const TypeError& e) {
    CHECK(std::string(e.what()).ends_with("have different types"));
  }
  Function int_pred = fn1([](const std::vector<Value>& a) {
    return tf_api::cond({i32(1), fn([a](auto&) { return a[0]; }), fn([a](auto&) { return a[0]; })}, {});
  });
  CHECK_THROWS_AS(int_pred({f32(1)}), TypeError);
  CHECK_THROWS_WITH_AS(tf_api::cond({Value(true), Value(1), fn([](auto&) { return Value(); })}, {}),
                       "'true_fn' must be callable.", TypeError);
}

TEST_CASE("tf.switch_case picks by index, out of range runs the default, eagerly and traced") {
  std::vector<Value> branches;
  for (int k = 0; k < 3; ++k) branches.push_back(fn([k](auto&) { return i32(10 * k); }));
  Value fns = Value::list(branches);
  for (int idx : {0, 1, 2, 5, -1}) {
    int want = idx >= 0 && idx < 3 ? 10 * idx : 20;
    CHECK(as_i32(tf_api::switch_case({i32(idx), fns}, {})) == want);
  }
  Function f = fn1([fns](const std::vector<Value>& a) { return tf_api::switch_case({a[0], fns}, {}); });
  for (int idx : {0, 1, 2, 5, -1}) CHECK(as_i32(f({i32(idx)})) == (idx >= 0 && idx < 3 ? 10 * idx : 20));
  CHECK_THROWS_WITH_AS(tf_api::switch_case({Value(1), fns}, {}), "'branch_index' must be a Tensor, got <class 'int'>",
                       TypeError);
}

TEST_CASE("tf.case tests its predicates in order; without a default the last pair is it") {
  Value a = fn([](auto&) { return i32(1); });
  Value b = fn([](auto&) { return i32(2); });
  Value t = Value(Tensor::scalar<bool>(true)), f = Value(Tensor::scalar<bool>(false));
  CHECK(as_i32(tf_api::case_({Value::list({Value::tuple({f, a}), Value::tuple({t, b})})}, {})) == 2);
  CHECK(as_i32(tf_api::case_({Value::list({Value::tuple({t, a}), Value::tuple({t, b})})}, {})) == 1);
  CHECK_THROWS_AS(tf_api::case_({Value::list({Value::tuple({f, a}), Value::tuple({f, b})})}, {}),
                  InvalidArgumentError);
  CHECK_THROWS_AS(
      tf_api::case_({Value::list({Value::tuple({t, a}), Value::tuple({t, b})})}, {{"exclusive", Value(true)}}),
      InvalidArgumentError);
}

TEST_CASE("tf.while_loop: eager and traced agree; traced keeps loop_vars' structure") {
  Value eager = doubling(i32(5));
  REQUIRE(eager.is_tuple());  // what the body returned
  CHECK(as_i32(eager.items()[0]) == 5);
  CHECK(as_f32(eager.items()[1]) == 32);
  Function f = fn1([](const std::vector<Value>& a) { return doubling(a[0]); });
  Value traced = f({i32(5)});
  REQUIRE(traced.is_list());  // packed as loop_vars
  CHECK(as_i32(traced.items()[0]) == 5);
  CHECK(as_f32(traced.items()[1]) == 32);
  CHECK(has_while(f.get_concrete_function({i32(5)})->graph()));
}

TEST_CASE("tf.while_loop: maximum_iterations, eager and traced (a tensor limit too)") {
  Value always = fn([](auto&) { return Value(true); });
  Value inc = fn([](const std::vector<Value>& a) { return Value::list({a[0] + Value(1)}); });
  Value r = tf_api::while_loop({always, inc, Value::list({i32(0)})}, {{"maximum_iterations", Value(4)}});
  CHECK(as_i32(r.items()[0]) == 4);
  Function f = fn1([always, inc](const std::vector<Value>& a) {
    return tf_api::while_loop({always, inc, Value::list({i32(0)})}, {{"maximum_iterations", a[0]}});
  });
  CHECK(as_i32(f({i32(6)}).items()[0]) == 6);
}

TEST_CASE("tf.while_loop while tracing: while_v2's shape and dtype errors, shape invariants") {
  Value grows = fn([](const std::vector<Value>& a) {
    return Value::list({tf_api::concat({Value::list({a[0], a[0]}), Value(0)}, {})});
  });
  Value c = fn([](const std::vector<Value>& a) { return tf_api::size({a[0]}, {}) < Value(4); });
  Function bad = fn1([c, grows](const std::vector<Value>& a) { return tf_api::while_loop({c, grows, Value::list({a[0]})}, {}); });
  try {
    bad({fvec({1})});
    FAIL("no error");
  } catch (const ValueError& e) {
    std::string m = e.what();
    CHECK(m.starts_with("Input tensor `"));
    CHECK(m.find("` enters the loop with shape (1,), but has shape (2,) after one iteration. To allow the shape to "
                 "vary across iterations, use the `shape_invariants` argument of tf.while_loop to specify a "
                 "less-specific shape.") != std::string::npos);
  }
  Function ok = fn1([c, grows](const std::vector<Value>& a) {
    return tf_api::while_loop({c, grows, Value::list({a[0]})},
                              {{"shape_invariants", Value::list({tensor_shape(Shape{kUnknownDim})})}});
  });
  CHECK(as_fvec(ok({fvec({1})}).items()[0]).size() == 4);
  Value to_float = fn([](const std::vector<Value>& a) { return Value::list({tf::cast(a[0], DType::Float32)}); });
  Value lt3 = fn([](const std::vector<Value>& a) { return a[0] < Value(3); });
  Function dtype = fn1([lt3, to_float](const std::vector<Value>& a) {
    return tf_api::while_loop({lt3, to_float, Value::list({a[0]})}, {});
  });
  try {
    dtype({i32(0)});
    FAIL("no error");
  } catch (const TypeError& e) {
    std::string m = e.what();
    CHECK(m.starts_with("Loop var "));
    CHECK(m.find(" enters the loop with type <dtype: 'int32'> but has type <dtype: 'float32'> after 1 iteration.") !=
          std::string::npos);
  }
}

TEST_CASE("tf.map_fn, tf.scan and the folds: eager and traced values agree") {
  Value square = fn([](const std::vector<Value>& a) { return a[0] * a[0]; });
  Value add = fn([](const std::vector<Value>& a) { return a[0] + a[1]; });
  Value digits = fn([](const std::vector<Value>& a) { return a[0] * Value(10) + a[1]; });
  Value xs = fvec({1, 2, 3});
  auto run = [&](const std::function<Value(const Value&)>& g) {
    Value eager = g(xs);
    Function f = fn1([g](const std::vector<Value>& a) { return g(a[0]); });
    Value traced = f({xs});
    CHECK(has_while(f.get_concrete_function({xs})->graph()));
    CHECK(as_fvec(eager) == as_fvec(traced));
    return as_fvec(eager);
  };
  CHECK(run([&](const Value& v) { return tf_api::map_fn({square, v}, {}); }) == std::vector<float>{1, 4, 9});
  CHECK(run([&](const Value& v) { return tf_api::scan({add, v}, {}); }) == std::vector<float>{1, 3, 6});
  CHECK(run([&](const Value& v) { return tf_api::scan({add, v}, {{"reverse", Value(true)}}); }) ==
        std::vector<float>{6, 5, 3});
  CHECK(run([&](const Value& v) { return tf_api::foldl({digits, v}, {}); }) == std::vector<float>{123});
  CHECK(run([&](const Value& v) { return tf_api::foldr({digits, v}, {}); }) == std::vector<float>{321});
  CHECK(run([&](const Value& v) { return tf_api::foldl({digits, v, f32(9)}, {}); }) == std::vector<float>{9123});
  CHECK(run([&](const Value& v) { return tf_api::vectorized_map({square, v}, {}); }) == std::vector<float>{1, 4, 9});
}

TEST_CASE("tf.map_fn: fn_output_signature, nested elems, and TF's errors") {
  Value halve = fn([](const std::vector<Value>& a) { return tf::cast(a[0], DType::Float32) / Value(2.0); });
  Value r = tf_api::map_fn({halve, ivec({1, 2})}, {{"fn_output_signature", tf_api::float32()}});
  CHECK(as_fvec(r) == std::vector<float>{0.5f, 1.0f});
  Value mul = fn([](const std::vector<Value>& a) { return a[0].items()[0] * a[0].items()[1]; });
  Value pairs = Value::tuple({fvec({1, 2}), fvec({3, 4})});
  CHECK(as_fvec(tf_api::map_fn({mul, pairs}, {{"fn_output_signature", tf_api::float32()}})) ==
        std::vector<float>{3, 8});
  CHECK_THROWS_WITH_AS(tf_api::map_fn({halve, f32(1)}, {}), "Elements in elems must be 1+ dimensional Tensors, not scalars",
                       ValueError);
  // The element structure differs from the result's: nest's ValueError.
  CHECK_THROWS_AS(tf_api::map_fn({mul, pairs}, {}), ValueError);
}

TEST_CASE("gradients flow through tf.cond, tf.while_loop, tf.map_fn and tf.scan") {
  Value square = fn([](const std::vector<Value>& a) { return a[0] * a[0]; });
  Value add = fn([](const std::vector<Value>& a) { return a[0] + a[1]; });
  auto grad = [](const std::function<Value(const Value&)>& g, const Value& x) {
    // with tf.GradientTape() as tape: tape.watch(x); y = tf.reduce_sum(g(x))
    Value tape = tf_api::GradientTape()({}, {});
    tape.getattr("__enter__")();
    tape.getattr("watch")({x});
    Value y = tf::reduce_sum(g(x));
    tape.getattr("__exit__")({Value(), Value(), Value()});
    return tape.getattr("gradient")({y, x});
  };
  auto both = [&](const std::function<Value(const Value&)>& g, const Value& x) {
    std::vector<float> eager = as_fvec(grad(g, x));
    Function f = fn1([&](const std::vector<Value>& a) { return grad(g, a[0]); });
    CHECK(as_fvec(f({x})) == eager);
    return eager;
  };
  CHECK(both([](const Value& v) { return cond_of(v); }, f32(3)) == std::vector<float>{6});
  CHECK(both([&](const Value& v) { return tf_api::map_fn({square, v}, {}); }, fvec({1, 2, 3})) ==
        std::vector<float>{2, 4, 6});
  CHECK(both([&](const Value& v) { return tf_api::scan({add, v}, {}); }, fvec({1, 2, 3})) ==
        std::vector<float>{3, 2, 1});
  CHECK(both(
            [](const Value& v) {
              Value c = fn([](const std::vector<Value>& a) { return a[0] < Value(3); });
              Value b = fn([v](const std::vector<Value>& a) { return Value::tuple({a[0] + Value(1), a[1] * v}); });
              return tf_api::while_loop({c, b, Value::list({i32(0), f32(1)})}, {}).items()[1];
            },
            f32(3)) == std::vector<float>{27});
}

TEST_CASE("a traced tf.cond keeps None in its result: no If output, the structure as returned") {
  Function f = fn1([](const std::vector<Value>& a) {
    Value x = a[0];
    Value none = tf_api::cond({x > Value(0), fn([](auto&) { return Value(); }), fn([](auto&) { return Value(); })}, {});
    CHECK(none.is_none());
    return tf_api::cond({x > Value(0), fn([x](auto&) { return Value::tuple({Value(), x}); }),
                         fn([x](auto&) { return Value::tuple({Value(), -x}); })},
                        {});
  });
  Value r = f({f32(-2)});
  REQUIRE(r.is_tuple());
  CHECK(r.items()[0].is_none());
  CHECK(as_f32(r.items()[1]) == 2);
}

TEST_CASE("tf.map_fn and tf.scan name a non-callable fn as TF does") {
  Value named = Value::object("Named");
  named.setattr("__name__", Value("thing"));
  CHECK_THROWS_WITH_AS(tf_api::map_fn({named, fvec({1})}, {}),
                       "The provided function thing is not callable.fn must be callable.", TypeError);
  CHECK_THROWS_WITH_AS(tf_api::scan({named, fvec({1})}, {}), "thing is not callable. Please provide a callable function.",
                       TypeError);
}
