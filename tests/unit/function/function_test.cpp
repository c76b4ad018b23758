// The tf.function behaviours the guide shows (shared/seeds/000_*), with the
// bodies written by hand against the C++ API.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "runtime/api/tf_api.h"
#include "runtime/function/function.h"
#include "runtime/value/tensor_spec_value.h"
#include "runtime/value/variable_value.h"
#include "tests/unit/function/support.h"

using namespace ag;
using ag::test::t_float;
using ag::test::t_int;
using ag::test::t_str;

namespace {

/// `def double(a): return a + a`, counting traces and recording what it was traced with.
struct Double {
  int traces = 0;
  std::string traced_with;
  Function fn{"double", {{"a", {}}}, [this](const std::vector<Value>& a) {
                ++traces;
                traced_with = str(a[0]);
                return a[0] + a[0];
              }};
};

}  // namespace

TEST_CASE("a Function traces once per signature and reuses the trace") {
  Double d;
  CHECK(str(d.fn({t_int(1)})) == "tf.Tensor(2, shape=(), dtype=int32)");
  CHECK(d.traced_with == "Tensor(\"a:0\", shape=(), dtype=int32)");
  CHECK(str(d.fn({t_float(1.1f)})) == "tf.Tensor(2.2, shape=(), dtype=float32)");
  CHECK(str(d.fn({t_str("a")})) == "tf.Tensor(b'aa', shape=(), dtype=string)");
  CHECK(d.traces == 3);
  CHECK(str(d.fn({t_str("b")})) == "tf.Tensor(b'bb', shape=(), dtype=string)");
  CHECK(d.traces == 3);
  CHECK(d.fn.pretty_printed_concrete_signatures() ==
        "double(a)\n  Args:\n    a: int32 Tensor, shape=()\n  Returns:\n    int32 Tensor, shape=()\n\n"
        "double(a)\n  Args:\n    a: float32 Tensor, shape=()\n  Returns:\n    float32 Tensor, shape=()\n\n"
        "double(a)\n  Args:\n    a: string Tensor, shape=()\n  Returns:\n    string Tensor, shape=()");
}

TEST_CASE("arguments passed by reference, f(x, y), call as f({x, y}) does") {
  int traces = 0;
  Function add("add", {{"a", {}}, {"b", {}}}, [&](const std::vector<Value>& a) {
    ++traces;
    return a[0] + a[1];
  });
  Value x = t_int(3), y = t_int(4), z = t_float(0.5f);
  CHECK(str(add(x, y)) == "tf.Tensor(7, shape=(), dtype=int32)");
  CHECK(str(add(x, y)) == "tf.Tensor(7, shape=(), dtype=int32)");  // the cache-hit fast path
  CHECK(str(add({y, y})) == "tf.Tensor(8, shape=(), dtype=int32)");
  CHECK(traces == 1);
  CHECK(str(add(z, z)) == "tf.Tensor(1.0, shape=(), dtype=float32)");  // another signature: traced
  CHECK(traces == 2);
  CHECK(str(add(x, y)) == "tf.Tensor(7, shape=(), dtype=int32)");  // not the last trace: the cache
  CHECK(traces == 2);
  CHECK_THROWS_AS(add(x), TypeError);  // binding errors as for the vector form
  // Called while another Function is traced: the trace of its signature,
  // already made, is called from that graph.
  Function outer("outer", {{"a", {}}}, [&](const std::vector<Value>& a) { return add(a[0], a[0]); });
  CHECK(str(outer({x})) == "tf.Tensor(6, shape=(), dtype=int32)");
  CHECK(traces == 2);
}

TEST_CASE("concrete functions print, expose their signature and reject other dtypes") {
  Double d;
  auto c = d.fn.get_concrete_function({t_str("a")});
  CHECK(str((*c)({t_str("a")})) == "tf.Tensor(b'aa', shape=(), dtype=string)");
  CHECK(str((*c)({}, {{"a", t_str("b")}})) == "tf.Tensor(b'bb', shape=(), dtype=string)");
  auto from_spec = d.fn.get_concrete_function({make_tensor_spec(Shape{}, DType::String)});
  CHECK(from_spec == c);  // same signature: no new trace
  CHECK(d.traces == 1);
  CHECK(c->str() == "ConcreteFunction double(a)\n  Args:\n    a: string Tensor, shape=()\n  Returns:\n    string Tensor, shape=()");
  CHECK(repr(c->structured_input_signature()) == "((TensorSpec(shape=(), dtype=tf.string, name='a'),), {})");
  CHECK(str(c->structured_outputs()) == "Tensor(\"Identity:0\", shape=(), dtype=string)");
  std::string want = "cannot compute " + c->inference_name() +
                     " as input #0(zero-based) was expected to be a string tensor but is a int32 tensor [Op:" +
                     c->inference_name() + "]";
  CHECK_THROWS_WITH_AS((*c)({t_int(1)}), want.c_str(), InvalidArgumentError);
  CHECK(c->inference_name().rfind("__inference_double_", 0) == 0);
}

TEST_CASE("the traced graph has TF's node names and inputs") {
  Double d;
  auto c = d.fn.get_concrete_function({t_str("a")});
  std::vector<std::string> lines;
  for (const auto& n : c->graph().nodes()) {
    std::string s = "[";
    for (size_t i = 0; i < n->inputs.size(); ++i) s += (i ? ", '" : "'") + n->inputs[i].node->name + "'";
    lines.push_back(s + "] -> " + n->name);
  }
  CHECK(lines == std::vector<std::string>{"[] -> a", "['a', 'a'] -> add", "['add'] -> Identity"});
}

TEST_CASE("Python arguments stay in the concrete signature, bound to their traced value") {
  Function pow_fn("pow", {{"a", {}}, {"b", {}}},
                  [](const std::vector<Value>& a) { return ag::pow(a[0], a[1]); });
  auto square = pow_fn.get_concrete_function({}, {{"a", make_tensor_spec(Shape::unknown_rank(), DType::Float32)},
                                                  {"b", Value(2)}});
  CHECK(square->str() ==
        "ConcreteFunction pow(a, b=2)\n  Args:\n    a: float32 Tensor, shape=<unknown>\n  Returns:\n"
        "    float32 Tensor, shape=<unknown>");
  CHECK(str((*square)({t_float(10)})) == "tf.Tensor(100.0, shape=(), dtype=float32)");
  CHECK_THROWS_WITH_AS((*square)({t_float(10)}, {{"b", Value(3)}}),
                       "ConcreteFunction pow(a, b) was constructed with int value 2 in b, but was called with int value 3",
                       TypeError);
}

TEST_CASE("input_signature limits tracing and rejects incompatible inputs in TF's words") {
  int traces = 0;
  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{make_tensor_spec(Shape{kUnknownDim}, DType::Int32)};
  Function g("g", {{"x", {}}},
             [&](const std::vector<Value>& a) {
               ++traces;
               CHECK(str(a[0]) == "Tensor(\"x:0\", shape=(None,), dtype=int32)");
               return a[0];
             },
             opts);
  CHECK(str(g({Value(Tensor::from_vector<int32_t>({3}, {1, 2, 3}))})) == "tf.Tensor([1 2 3], shape=(3,), dtype=int32)");
  CHECK(str(g({Value(Tensor::from_vector<int32_t>({5}, {1, 2, 3, 4, 5}))})) ==
        "tf.Tensor([1 2 3 4 5], shape=(5,), dtype=int32)");
  CHECK(traces == 1);
  auto c = g.get_concrete_function({make_tensor_spec(Shape{kUnknownDim}, DType::Int32)});
  CHECK(c == g.get_concrete_function({Value(Tensor::from_vector<int32_t>({2}, {1, 2}))}));
  CHECK(traces == 1);
  CHECK_THROWS_AS(g.get_concrete_function({make_tensor_spec(Shape{}, DType::Int32)}), ValueError);
  CHECK_THROWS_WITH_AS(g({Value(Tensor::from_vector<int32_t>({2, 2}, {1, 2, 3, 4}))}),
                       "Python inputs incompatible with input_signature:\n  inputs: (\n    tf.Tensor(\n[[1 2]\n [3 4]], "
                       "shape=(2, 2), dtype=int32))\n  input_signature: (\n    TensorSpec(shape=(None,), "
                       "dtype=tf.int32, name=None))",
                       ValueError);
  CHECK_THROWS_WITH_AS(g({Value(Tensor::from_vector<float>({2}, {1, 2}))}),
                       "Python inputs incompatible with input_signature:\n  inputs: (\n    tf.Tensor([1. 2.], "
                       "shape=(2,), dtype=float32))\n  input_signature: (\n    TensorSpec(shape=(None,), "
                       "dtype=tf.int32, name=None))",
                       ValueError);
}

TEST_CASE("Python values retrace per value; tensors reuse the trace") {
  int traces = 0;
  Function train("train", {{"num_steps", {}}}, [&](const std::vector<Value>& a) {
    ++traces;
    return a[0];
  });
  train({}, {{"num_steps", Value(10)}});
  train({}, {{"num_steps", Value(20)}});
  CHECK(traces == 2);
  train({}, {{"num_steps", t_int(10)}});
  train({}, {{"num_steps", t_int(20)}});
  CHECK(traces == 3);
  train({Value(10.0)});  // 10.0 == 10: the same key, as in Python
  CHECK(traces == 3);
}

TEST_CASE("separate Functions never share traces") {
  int traces = 0;
  auto body = [&](const std::vector<Value>&) {
    ++traces;
    return Value();
  };
  Function f1("f", {}, body), f2("f", {}, body);
  f1();
  f2();
  f1();
  CHECK(traces == 2);
}

TEST_CASE("a trace with unknown dims serves later shapes; reduce_retracing relaxes shapes") {
  Double d;
  d.fn.get_concrete_function({make_tensor_spec(Shape{kUnknownDim}, DType::Float32)});
  d.fn({Value(Tensor::from_vector<float>({3}, {1, 2, 3}))});
  d.fn({Value(Tensor::from_vector<float>({4}, {1, 2, 3, 4}))});
  CHECK(d.traces == 1);

  int traces = 0;
  FunctionOptions opts;
  opts.reduce_retracing = true;
  Function f("f", {{"x", {}}},
             [&](const std::vector<Value>& a) {
               ++traces;
               return a[0] + a[0];
             },
             opts);
  f({Value(Tensor::from_vector<float>({2}, {1, 2}))});
  f({Value(Tensor::from_vector<float>({3}, {1, 2, 3}))});
  f({Value(Tensor::from_vector<float>({5}, {1, 2, 3, 4, 5}))});
  CHECK(traces == 2);
  CHECK(f.pretty_printed_concrete_signatures().find("shape=(None,)") != std::string::npos);
}

TEST_CASE("frequent retracing warns as TF does") {
  std::vector<std::string> warnings;
  set_warning_sink([&](const std::string& m) { warnings.push_back(m); });
  Double d;
  for (int i = 1; i <= 6; ++i) d.fn({Value(Tensor::from_vector<float>({i}, std::vector<float>(static_cast<size_t>(i), 1)))});
  set_warning_sink([](const std::string&) {});
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0].rfind("5 out of the last 5 calls to <function double> triggered tf.function retracing.", 0) == 0);
  CHECK(warnings[1].rfind("6 out of the last 6 calls", 0) == 0);
}

TEST_CASE("argument binding errors are Python's TypeErrors") {
  Double d;
  CHECK_THROWS_WITH_AS(d.fn({}), "double() missing 1 required positional argument: 'a'", TypeError);
  CHECK_THROWS_WITH_AS(d.fn({Value(1), Value(2)}), "double() takes 1 positional argument but 2 were given", TypeError);
  CHECK_THROWS_WITH_AS(d.fn({}, {{"b", Value(1)}}), "double() got an unexpected keyword argument 'b'", TypeError);
}

TEST_CASE("run_functions_eagerly runs the body on every call") {
  Double d;
  run_functions_eagerly(true);
  d.fn({t_int(1)});
  d.fn({t_int(1)});
  run_functions_eagerly(false);
  CHECK(d.traces == 2);
  CHECK(d.traced_with == "tf.Tensor(1, shape=(), dtype=int32)");
}

TEST_CASE("many threads calling one Function trace each signature once") {
  std::atomic<int> traces{0};
  Function f("f", {{"x", {}}}, [&](const std::vector<Value>& a) {
    ++traces;
    return a[0] * a[0];
  });
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        Value r = f({t % 2 ? t_int(3) : t_float(3)});
        if (str(r) != (t % 2 ? "tf.Tensor(9, shape=(), dtype=int32)" : "tf.Tensor(9.0, shape=(), dtype=float32)")) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(traces.load() == 2);
  CHECK(wrong.load() == 0);
}

TEST_CASE("a Function called while another is traced is traced once per signature and called from that graph") {
  // A tensor argument of the outer trace reaches the inner body as a symbolic
  // tensor; the outer graph calls the inner trace (PartitionedCall, or
  // StatefulPartitionedCall when it holds a stateful op), traced once.
  int inner_traces = 0;
  Function inner("inner", {{"x", {}}}, [&](const std::vector<Value>& a) {
    ++inner_traces;
    return a[0] * Value(2);
  });
  Value first_call;
  Function outer("outer", {{"x", {}}}, [&](const std::vector<Value>& a) {
    first_call = inner({a[0]});
    return inner({first_call}) + Value(1);
  });
  CHECK(str(outer({tf::constant(Value(3))})) == "tf.Tensor(13, shape=(), dtype=int32)");
  CHECK(str(first_call) == "Tensor(\"PartitionedCall:0\", shape=(), dtype=int32)");
  CHECK(inner_traces == 1);
  CHECK(str(outer({tf::constant(Value(4))})) == "tf.Tensor(17, shape=(), dtype=int32)");
  CHECK(inner_traces == 1);
  const Graph& g = outer.get_concrete_function({tf::constant(Value(4))})->graph();
  int calls = 0;
  for (const auto& n : g.nodes()) calls += n->op->name == "PartitionedCall";
  CHECK(calls == 2);

  std::shared_ptr<Variable> v = Variable::create(Tensor::scalar<int32_t>(0), "v");
  Function bump("bump", {{"x", {}}}, [&](const std::vector<Value>& a) {
    Value var = Value::variable(v);
    variable_value::assign(var, a[0], variable_value::AssignOp::Add);
    return Value(variable_value::read(var));
  });
  Value stateful_call;
  Function twice("twice", {{"x", {}}}, [&](const std::vector<Value>& a) {
    stateful_call = bump({a[0]});
    return bump({stateful_call});
  });
  CHECK(str(twice({tf::constant(Value(2))})) == "tf.Tensor(4, shape=(), dtype=int32)");
  CHECK(str(stateful_call) == "Tensor(\"StatefulPartitionedCall:0\", shape=(), dtype=int32)");
  CHECK(v->read().scalar_value<int32_t>() == 4);
}

TEST_CASE("a Function may recurse on Python values: each value is a trace of its own") {
  // @tf.function def recursive_fn(n): return recursive_fn(n - 1) if n > 0 else 1
  std::shared_ptr<Function> fn;
  fn = std::make_shared<Function>("recursive_fn", std::vector<Param>{{"n", {}}}, [&](const std::vector<Value>& a) {
    return a[0].as_int() > 0 ? (*fn)({a[0] - Value(1)}) : Value(1);
  });
  std::vector<std::string> warnings;
  set_warning_sink([&](const std::string& m) { warnings.push_back(m); });
  CHECK(str((*fn)({Value(5)})) == "tf.Tensor(1, shape=(), dtype=int32)");
  set_warning_sink([](const std::string&) {});
  CHECK(fn->tracing_count() == 6);
  // Only the eager call counts for the retracing warning, as in TF.
  CHECK(warnings.empty());
}

TEST_CASE("a concrete function takes its tensor arguments alone when its Python ones are bound") {
  // evaluate(model, x) traced with an object: called with x only (TF's flat signature).
  Value model = Value::object("SimpleModel");
  model.setattr("weight", Value(2.0));
  Function f("evaluate", {{"model", {}}, {"x", {}}},
             [](const std::vector<Value>& a) { return a[0].getattr("weight") * a[1]; });
  auto traced = f.get_concrete_function({model, tf::constant(Value(10.0f))});
  CHECK(str((*traced)({tf::constant(Value(10.0f))}, {})) == "tf.Tensor(20.0, shape=(), dtype=float32)");
  CHECK_THROWS_AS((*traced)({Value(1), Value(2), Value(3)}, {}), TypeError);
}
