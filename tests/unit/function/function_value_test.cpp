// tf.function as a Python value (runtime/function/function_value.h): the
// seeds' (shared/seeds/000_*, 001_*) Function and ConcreteFunction texts, with
// the bodies written by hand as generated code writes them.
#include <doctest/doctest.h>

#include "runtime/api/python_api.h"
#include "runtime/function/function_value.h"
#include "runtime/value/tensor_spec_value.h"
#include "runtime/value/object_model.h"
#include "runtime/value/variable_value.h"
#include "tests/unit/error_text.h"
#include "tests/unit/function/support.h"

using namespace ag;
using ag::test::error_text;
using ag::test::t_float;
using ag::test::t_int;
using ag::test::t_str;

namespace {

Value t_ints(const std::vector<int32_t>& v) {
  return Value(Tensor::from_vector<int32_t>(Shape{static_cast<int64_t>(v.size())}, v));
}

/// @tf.function def double(a): print("Tracing with", a); return a + a, as a Python value.
struct DoubleValue {
  std::vector<std::string> traced;
  Value fn = tf::api::function({make_function("double", {{"a", std::nullopt}},
                                               [this](const std::vector<Value>& a) {
                                                 traced.push_back(str(a[0]));
                                                 return a[0] + a[0];
                                               })},
                               {});
};

}  // namespace

TEST_CASE("a Function value calls, traces per signature and prints its signatures") {
  DoubleValue d;
  CHECK(str(d.fn({t_int(1)})) == "tf.Tensor(2, shape=(), dtype=int32)");
  CHECK(str(d.fn({t_float(1.1f)})) == "tf.Tensor(2.2, shape=(), dtype=float32)");
  CHECK(str(d.fn({t_str("a")})) == "tf.Tensor(b'aa', shape=(), dtype=string)");
  CHECK(str(d.fn({t_str("b")})) == "tf.Tensor(b'bb', shape=(), dtype=string)");
  CHECK(str(d.fn({}, {{"a", t_str("c")}})) == "tf.Tensor(b'cc', shape=(), dtype=string)");
  REQUIRE(d.traced.size() == 3);
  CHECK(d.traced[0] == "Tensor(\"a:0\", shape=(), dtype=int32)");
  CHECK(d.fn.getattr("experimental_get_tracing_count")().as_int() == 3);
  CHECK(d.fn.getattr("pretty_printed_concrete_signatures")().as_str() ==
        "double(a)\n  Args:\n    a: int32 Tensor, shape=()\n  Returns:\n    int32 Tensor, shape=()\n\n"
        "double(a)\n  Args:\n    a: float32 Tensor, shape=()\n  Returns:\n    float32 Tensor, shape=()\n\n"
        "double(a)\n  Args:\n    a: string Tensor, shape=()\n  Returns:\n    string Tensor, shape=()");
  CHECK(d.fn.getattr("__name__").as_str() == "double");
  CHECK(d.fn.getattr("python_function").is_callable());
  CHECK(str(d.fn).rfind("<tensorflow.python.eager.polymorphic_function.polymorphic_function.Function object at", 0) == 0);
  CHECK(error_text([&] { d.fn({t_int(1), t_int(2)}); }) ==
        "TypeError: double() takes 1 positional argument but 2 were given");
}

TEST_CASE("ConcreteFunction values: call, print, signature, outputs and graph as the seed shows") {
  DoubleValue d;
  d.fn({t_str("a")});
  Value double_strings = d.fn.getattr("get_concrete_function")({t_str("a")});
  CHECK(str(double_strings({t_str("a")})) == "tf.Tensor(b'aa', shape=(), dtype=string)");
  CHECK(str(double_strings({}, {{"a", t_str("b")}})) == "tf.Tensor(b'bb', shape=(), dtype=string)");
  CHECK(str(double_strings) ==
        "ConcreteFunction double(a)\n  Args:\n    a: string Tensor, shape=()\n  Returns:\n    string Tensor, shape=()");
  CHECK(repr(double_strings).rfind("<ConcreteFunction double(a) at ", 0) == 0);
  CHECK(str(double_strings.getattr("structured_input_signature")) ==
        "((TensorSpec(shape=(), dtype=tf.string, name='a'),), {})");
  CHECK(str(double_strings.getattr("structured_outputs")) == "Tensor(\"Identity:0\", shape=(), dtype=string)");
  // for node in graph.as_graph_def().node: print(f'{node.input} -> {node.name}')
  std::vector<std::string> lines;
  for (const Value& node : iterate(double_strings.getattr("graph").getattr("as_graph_def")().getattr("node"))) {
    lines.push_back(str(node.getattr("input")) + " -> " + str(node.getattr("name")));
  }
  CHECK(lines == std::vector<std::string>{"[] -> a", "['a', 'a'] -> add", "['add'] -> Identity"});
  Value ops = double_strings.getattr("graph").getattr("get_operations")();
  CHECK(repr(ops) == "[<tf.Operation 'a' type=Placeholder>, <tf.Operation 'add' type=AddV2>, "
                     "<tf.Operation 'Identity' type=Identity>]");
  CHECK(error_text([&] { double_strings({t_int(1)}); }).rfind("InvalidArgumentError: cannot compute __inference_double_", 0) == 0);
  // From a TensorSpec: no new trace for a signature already traced.
  Value from_spec = d.fn.getattr("get_concrete_function")({make_tensor_spec(Shape({}), DType::String)});
  CHECK(str(from_spec({t_str("c")})) == "tf.Tensor(b'cc', shape=(), dtype=string)");
  CHECK(d.traced.size() == 1);
}

TEST_CASE("a concrete function with a Python argument keeps it in its signature") {
  // @tf.function def pow(a, b): return a ** b
  Value pow_fn = tf::api::function(
      {make_function("pow", {{"a", std::nullopt}, {"b", std::nullopt}}, [](const std::vector<Value>& a) { return ag::pow(a[0], a[1]); })}, {});
  Value square = pow_fn.getattr("get_concrete_function")(
      {}, {{"a", make_tensor_spec(Shape::unknown_rank(), DType::Float32)}, {"b", Value(2)}});
  CHECK(str(square) ==
        "ConcreteFunction pow(a, b=2)\n  Args:\n    a: float32 Tensor, shape=<unknown>\n  Returns:\n"
        "    float32 Tensor, shape=<unknown>");
  CHECK(str(square({t_float(10.0f)})) == "tf.Tensor(100.0, shape=(), dtype=float32)");
  CHECK(error_text([&] { square({t_float(10.0f)}, {{"b", Value(3)}}); }) ==
        "TypeError: ConcreteFunction pow(a, b) was constructed with int value 2 in b, but was called with int value 3");
}

TEST_CASE("tf.function(input_signature=...) is a decorator; options pass through") {
  int traces = 0;
  Value spec = make_tensor_spec(Shape({-1}), DType::Int32);
  Value decorator = tf::api::function({}, {{"input_signature", Value::tuple({spec})}});
  Value g = decorator({make_function("g", {{"x", std::nullopt}}, [&](const std::vector<Value>& a) {
    ++traces;
    return a[0];
  })});
  CHECK(str(g({t_ints({1, 2, 3})})) == "tf.Tensor([1 2 3], shape=(3,), dtype=int32)");
  CHECK(str(g({t_ints({1, 2, 3, 4, 5})})) == "tf.Tensor([1 2 3 4 5], shape=(5,), dtype=int32)");
  CHECK(traces == 1);
  CHECK(str(g.getattr("input_signature")) == "(TensorSpec(shape=(None,), dtype=tf.int32, name=None),)");
  // tf.function(f, input_signature=[...], reduce_retracing=True)
  Value h = tf::api::function({make_function("h", {{"x", std::nullopt}}, [](const std::vector<Value>& a) { return a[0]; })},
                              {{"input_signature", Value::list({spec})}, {"reduce_retracing", Value(true)}});
  CHECK(str(h({t_ints({7})})) == "tf.Tensor([7], shape=(1,), dtype=int32)");
  CHECK(error_text([&] { tf::api::function({}, {{"bogus", Value(1)}}); }) ==
        "TypeError: function() got an unexpected keyword argument 'bogus'");
  CHECK(error_text([&] { tf::api::function({Value(1)}, {}); }) ==
        "TypeError: agc: tf.function applies to a Python function defined in the program; got 'int' object");
}

TEST_CASE("a tf.Module subclass creates its variable lazily in a @tf.function __call__ (seed's Count)") {
  // class Count(tf.Module):
  //   def __init__(self): self.count = None
  //   @tf.function
  //   def __call__(self):
  //     if self.count is None: self.count = tf.Variable(0)
  //     return self.count.assign_add(1)
  int traces = 0;
  Value Count = make_class(
      "Count", {tf::api::Module()},
      {{"__init__", make_function("__init__", {{"self", std::nullopt}},
                                  [](const std::vector<Value>& a) {
                                    a[0].setattr("count", Value());
                                    return Value();
                                  })},
       {"__call__", tf::api::function({make_function("__call__", {{"self", std::nullopt}},
                                                     [&](const std::vector<Value>& a) {
                                                       ++traces;
                                                       const Value& self = a[0];
                                                       if (self.getattr("count").is_none()) {
                                                         self.setattr("count", variable_value::create(Value(0)));
                                                       }
                                                       return self.getattr("count").getattr("assign_add")({Value(1)});
                                                     })},
                                      {})}});
  Value c = Count({});
  CHECK(str(c()) == "tf.Tensor(1, shape=(), dtype=int32)");
  CHECK(str(c()) == "tf.Tensor(2, shape=(), dtype=int32)");
  CHECK(traces == 2);  // TF traces twice when the first trace creates variables
  CHECK(c.getattr("name").as_str() == "count");
  Value vars = c.getattr("variables");
  REQUIRE(vars.items().size() == 1);
  CHECK(repr(vars.items()[0]) == "<tf.Variable 'Variable:0' shape=() dtype=int32, numpy=2>");
  CHECK(c.getattr("trainable_variables").items().size() == 1);
  // Each instance traces its own method (TF keys bound methods by instance),
  // so a second instance may create its own variable on its first call.
  Value c2 = Count({});
  CHECK(str(c2()) == "tf.Tensor(1, shape=(), dtype=int32)");
  CHECK(str(c()) == "tf.Tensor(3, shape=(), dtype=int32)");
  CHECK(traces == 4);
  CHECK(c.getattr("__call__").getattr("experimental_get_tracing_count")().as_int() >= 1);
  // The class's Function keeps each instance's traces but not the instance
  // (TF holds it weakly): a dropped instance is freed (LeakSanitizer would
  // also report it), and an instance made later, perhaps at the same address,
  // traces anew.
  WeakValue weak_c2(c2);
  c2 = Value();
  CHECK(weak_c2.expired());
  CHECK(weak_c2.lock().is_none());
  Value c3 = Count({});
  CHECK(str(c3()) == "tf.Tensor(1, shape=(), dtype=int32)");
  CHECK(traces == 6);
  // A bound method holds its instance, as Python's does.
  Value bound = c3.getattr("__call__");
  WeakValue weak_c3(c3);
  c3 = Value();
  CHECK(!weak_c3.expired());
  CHECK(str(bound()) == "tf.Tensor(2, shape=(), dtype=int32)");
  bound = Value();
  CHECK(weak_c3.expired());
}

TEST_CASE("tf.Module: name, nested modules' variables in TF's order") {
  Value Module = tf::api::Module();
  Value m = Module({}, {{"name", Value("outer")}});
  CHECK(m.getattr("name").as_str() == "outer");
  Value inner = Module({});
  CHECK(inner.getattr("name").as_str() == "module");
  inner.setattr("w", variable_value::create(Value(1.0), std::nullopt, Value("w")));
  m.setattr("z_leaf", variable_value::create(Value(2.0), std::nullopt, Value("z")));
  m.setattr("a_sub", inner);
  m.setattr("list", Value::list({variable_value::create(Value(3.0), std::nullopt, Value("l"))}));
  m.setattr("again", m.getattr("z_leaf"));
  std::vector<std::string> names;
  for (const Value& v : iterate(m.getattr("variables"))) names.push_back(str(v.getattr("name")));
  // Sorted attributes ("a_sub", "again", "list", "z_leaf"): leaves first, each once, then the submodule's.
  CHECK(names == std::vector<std::string>{"z:0", "l:0", "w:0"});
  CHECK(m.getattr("submodules").items().size() == 1);
  Value Sub = make_class("MyHTTPModule", {Module}, {});
  CHECK(Sub({}).getattr("name").as_str() == "my_http_module");
}

TEST_CASE("a user function carries its parameters; bound methods drop self") {
  Value f = make_function("f", {{"a", std::nullopt}, {"b", Value(1)}}, [](const std::vector<Value>& a) { return a[0] + a[1]; });
  REQUIRE(function_params(f) != nullptr);
  CHECK(function_params(f)->size() == 2);
  CHECK(function_params(Value(1)) == nullptr);
  CHECK(f({Value(2)}).as_int() == 3);
  CHECK(f({}, {{"b", Value(5)}, {"a", Value(1)}}).as_int() == 6);
  CHECK(error_text([&] { f({}, {{"c", Value(1)}}); }) == "TypeError: f() got an unexpected keyword argument 'c'");
  Value C = make_class("C", {}, {{"m", make_function("m", {{"self", std::nullopt}, {"x", std::nullopt}}, [](const std::vector<Value>& a) { return a[1]; })}});
  Value bound = C({}).getattr("m");
  REQUIRE(function_params(bound) != nullptr);
  CHECK(function_params(bound)->size() == 1);
  // tf.function over a bound method.
  Value fm = tf::api::function({bound}, {});
  CHECK(str(fm({t_int(4)})) == "tf.Tensor(4, shape=(), dtype=int32)");
  CHECK(error_text([&] { bound({}); }) == "TypeError: C.m() missing 1 required positional argument: 'x'");
}

TEST_CASE("a def runs its conversion in a trace and its plain body elsewhere, as TF converts") {
  std::vector<std::string> ran;
  auto body = [&ran](const char* which) {
    return [&ran, which](const std::vector<Value>& a) {
      ran.push_back(which);
      return a.back() + a.back();
    };
  };
  Value f = make_function("f", {{"x", std::nullopt}}, body("plain"), body("converted"));
  f({Value(1)}, {});
  CHECK(ran == std::vector<std::string>{"plain"});
  {
    AutographScope on(true);
    f({Value(1)}, {});
  }
  CHECK(ran.back() == "converted");
  // A method binds both forms.
  Value cls = make_class("C", {}, {{"m", make_function("m", {{"self", std::nullopt}, {"x", std::nullopt}},
                                                       body("plain method"), body("converted method"))}});
  Value m = cls({}, {}).getattr("m");
  m({Value(2)}, {});
  CHECK(ran.back() == "plain method");
  {
    AutographScope on(true);
    m({Value(2)}, {});
  }
  CHECK(ran.back() == "converted method");

  // tf.function traces the conversion, unless autograph=False; run_functions_eagerly runs the plain body.
  ran.clear();
  Value traced = tf::api::function({f}, {});
  traced({t_ints({1})}, {});
  Value as_written = tf::api::function({f}, {{"autograph", Value(false)}});
  as_written({t_ints({1})}, {});
  run_functions_eagerly(true);
  traced({t_ints({1})}, {});
  run_functions_eagerly(false);
  CHECK(ran == std::vector<std::string>{"converted", "plain", "plain"});
}

// Expected texts: CPython 3.11 (/usr/bin/python3) for the same calls.
TEST_CASE("Python's binding: *args, **kwargs, keyword-only and positional-only parameters") {
  using K = ParamKind;
  // def f(a, /, b, *args, c, d=4, **kwargs): return (a, b, args, c, d, kwargs)
  Value f = make_function("f",
                          {{"a", std::nullopt, K::PositionalOnly},
                           {"b", std::nullopt},
                           {"args", std::nullopt, K::VarPositional},
                           {"c", std::nullopt, K::KeywordOnly},
                           {"d", Value(4), K::KeywordOnly},
                           {"kwargs", std::nullopt, K::VarKeyword}},
                          [](const std::vector<Value>& a) { return Value::tuple(a); });
  CHECK(repr(f({Value(1), Value(2), Value(3)}, {{"c", Value(5)}, {"z", Value(6)}})) ==
        "(1, 2, (3,), 5, 4, {'z': 6})");
  // A positional-only name given by keyword goes to **kwargs.
  CHECK(repr(f({Value(1), Value(2)}, {{"a", Value(9)}, {"c", Value(0)}})) == "(1, 2, (), 0, 4, {'a': 9})");
  CHECK(error_text([&] { f({Value(1), Value(2)}); }) ==
        "TypeError: f() missing 1 required keyword-only argument: 'c'");
  CHECK(error_text([&] { f({}); }) == "TypeError: f() missing 2 required positional arguments: 'a' and 'b'");

  // def g(a, b=2, *, c): ...
  Value g = make_function("g", {{"a", std::nullopt}, {"b", Value(2)}, {"c", std::nullopt, K::KeywordOnly}},
                          [](const std::vector<Value>& a) { return Value::tuple(a); });
  CHECK(error_text([&] { g({Value(1), Value(2), Value(3)}, {{"c", Value(1)}}); }) ==
        "TypeError: g() takes from 1 to 2 positional arguments but 3 positional arguments (and 1 keyword-only "
        "argument) were given");
  CHECK(error_text([&] { g({Value(1), Value(2), Value(3)}); }) ==
        "TypeError: g() takes from 1 to 2 positional arguments but 3 were given");
  CHECK(error_text([&] { g({Value(1)}, {{"a", Value(1)}, {"c", Value(1)}}); }) ==
        "TypeError: g() got multiple values for argument 'a'");
  // Keywords are checked before the positional count, as CPython does.
  CHECK(error_text([&] { g({Value(1), Value(2), Value(3)}, {{"z", Value(1)}}); }) ==
        "TypeError: g() got an unexpected keyword argument 'z'");

  // def h(a, /, b): ...
  Value h = make_function("h", {{"a", std::nullopt, K::PositionalOnly}, {"b", std::nullopt}},
                          [](const std::vector<Value>& a) { return Value::tuple(a); });
  CHECK(error_text([&] { h({Value(1)}, {{"a", Value(1)}, {"b", Value(2)}}); }) ==
        "TypeError: h() got some positional-only arguments passed as keyword arguments: 'a'");
  Value none = make_function("<lambda>", {}, [](const std::vector<Value>&) { return Value(); });
  CHECK(error_text([&] { none({Value(1)}); }) == "TypeError: <lambda>() takes 0 positional arguments but 1 was given");
}

TEST_CASE("calls and displays with * and ** unpack at run time with CPython's errors") {
  Value g = make_function("g", {{"a", std::nullopt}, {"b", std::nullopt}},
                          [](const std::vector<Value>& a) { return Value::tuple(a); });
  CHECK(repr(call_unpacked({g, {ArgPart{Value::list({Value(1), Value(2)}), true}}, {}})) == "(1, 2)");
  CHECK(repr(call_unpacked({g, {ArgPart{Value(1)}}, {KwargPart{"", Value::dict({{Value("b"), Value(3)}})}}})) ==
        "(1, 3)");
  CHECK(error_text([&] { call_unpacked({g, {ArgPart{Value(5), true}}, {}}); }) ==
        "TypeError: __main__.g() argument after * must be an iterable, not int");
  CHECK(error_text([&] { call_unpacked({g, {}, {KwargPart{"", Value::list({Value(1)})}}}); }) ==
        "TypeError: __main__.g() argument after ** must be a mapping, not list");
  CHECK(error_text([&] {
          call_unpacked({g, {}, {KwargPart{"a", Value(1)}, KwargPart{"", Value::dict({{Value("a"), Value(2)}})}}});
        }) == "TypeError: __main__.g() got multiple values for keyword argument 'a'");
  CHECK(error_text([&] { unpack_kwargs("g()", {KwargPart{"", Value::dict({{Value(1), Value(2)}})}}); }) ==
        "TypeError: keywords must be strings");
  CHECK(repr(Value::list(display_items({ArgPart{Value::tuple({Value(1)}), true}, ArgPart{Value(2)}}))) == "[1, 2]");
  CHECK(error_text([&] { display_items({ArgPart{Value(5), true}}); }) ==
        "TypeError: Value after * must be an iterable, not int");
  CHECK(repr(dict_display({{Value(), Value::dict({{Value("a"), Value(1)}, {Value("b"), Value(2)}}), true},
                           {Value("a"), Value(3)}})) == "{'a': 3, 'b': 2}");
  CHECK(error_text([&] { dict_display({{Value(), Value::list({}), true}}); }) ==
        "TypeError: 'list' object is not a mapping");
}
