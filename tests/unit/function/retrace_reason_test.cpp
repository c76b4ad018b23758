// agc's explained retraces (function/retrace_reason.h): each cache miss after
// the first trace names what differs from the closest trace.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "runtime/function/function.h"
#include "runtime/function/retrace_reason.h"
#include "runtime/value/tensor_spec_value.h"

using namespace ag;

namespace {

Value floats(int n) { return Value(Tensor::from_vector<float>({n}, std::vector<float>(static_cast<size_t>(n), 1))); }

/// A Function of `params` returning None, for its cache alone.
Function identity_fn(std::vector<Param> params, FunctionOptions options = {}) {
  return Function("f", std::move(params), [](const std::vector<Value>&) { return Value(); }, std::move(options));
}

}  // namespace

TEST_CASE("a tensor's dtype or shape, or a Python value, names what changed") {
  Function f = identity_fn({{"x", {}}, {"n", {}}});
  f({floats(3), Value(3)});
  f({floats(3), Value(3)});
  f({floats(4), Value(3)});
  f({floats(4), Value(4)});
  f({Value(Tensor::from_vector<int32_t>({1}, {1})), Value(std::string("sgd"))});
  REQUIRE(f.retrace_reasons().size() == 3);
  CHECK(f.retrace_reasons()[0] == "x: float32[3] -> float32[4]");
  CHECK(f.retrace_reasons()[1] == "n: 3 -> 4");
  // Closest trace: both arguments differ from every one; the latest wins the tie.
  CHECK(f.retrace_reasons()[2] == "x: float32[4] -> int32[1]; n: 4 -> 'sgd'");
  CHECK(f.tracing_count() == 4);
}

TEST_CASE("nested structures name the path to the differing leaf") {
  Function f = identity_fn({{"cfg", {}}, {"xs", {}}});
  Value cfg = Value::dict({{Value("lr"), Value(0.1)}, {Value("opt"), Value("sgd")}});
  f({cfg, Value::tuple({floats(2), Value::list({Value(1), Value(2)})})});
  f({Value::dict({{Value("lr"), Value(0.2)}, {Value("opt"), Value("sgd")}}),
     Value::tuple({floats(2), Value::list({Value(1), Value(2)})})});
  f({cfg, Value::tuple({floats(2), Value::list({Value(1), Value(5)})})});
  f({cfg, Value::tuple({floats(2), Value::list({Value(1)})})});
  f({Value::dict({{Value("lr"), Value(0.1)}}), Value::tuple({floats(2), Value::list({Value(1), Value(2)})})});
  REQUIRE(f.retrace_reasons().size() == 4);
  CHECK(f.retrace_reasons()[0] == "cfg['lr']: 0.1 -> 0.2");
  CHECK(f.retrace_reasons()[1] == "xs[1][1]: 2 -> 5");
  CHECK(f.retrace_reasons()[2] == "xs[1]: a list of 2 items -> a list of 1 item");
  CHECK(f.retrace_reasons()[3] == "cfg: key 'opt' no longer given");
}

TEST_CASE("objects by identity, keywords and extra positional arguments") {
  Function f = identity_fn({{"model", {}}, {"args", std::nullopt, ParamKind::VarPositional},
                            {"kwargs", std::nullopt, ParamKind::VarKeyword}});
  Value m1 = Value::object("Model"), m2 = Value::object("Model");
  f({m1, Value(1)});
  f({m2, Value(1)});
  f({m2, Value(1), Value(2)});
  f({m2, Value(1), Value(2)}, {{"z", Value(1)}});
  REQUIRE(f.retrace_reasons().size() == 3);
  CHECK(f.retrace_reasons()[0] == "model: a new Model object");
  CHECK(f.retrace_reasons()[1] == "args: 1 -> 2 extra positional arguments");
  CHECK(f.retrace_reasons()[2] == "kwargs: a new keyword 'z'");
}

TEST_CASE("reduce_retracing says which type it traced instead") {
  FunctionOptions opts;
  opts.reduce_retracing = true;
  Function f = identity_fn({{"x", {}}}, opts);
  f({floats(2)});
  f({floats(3)});
  f({floats(5)});  // served by the relaxed trace: no retrace
  f({Value(Tensor::from_vector<int32_t>({1}, {1}))});
  REQUIRE(f.retrace_reasons().size() == 2);
  CHECK(f.retrace_reasons()[0] == "x: float32[2] -> float32[3] (traced as float32[None])");
  CHECK(f.retrace_reasons()[1] == "x: float32[None] -> int32[1]");
}

TEST_CASE("the retracing warning keeps TF's text and adds agc's explanation after it") {
  std::vector<std::string> warnings;
  set_warning_sink([&](const std::string& m) { warnings.push_back(m); });
  Function f = identity_fn({{"x", {}}});
  for (int i = 1; i <= 5; ++i) f({floats(i)});
  set_warning_sink([](const std::string&) {});
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].rfind("5 out of the last 5 calls to <function f> triggered tf.function retracing.", 0) == 0);
  const std::string tail = "for  more details.\nagc: the last retrace of f: x: float32[4] -> float32[5]";
  CHECK(warnings[0].substr(warnings[0].size() - tail.size()) == tail);
}

TEST_CASE("a cache hit or the first trace records no reason") {
  Function f = identity_fn({{"x", {}}});
  f.get_concrete_function({make_tensor_spec(Shape{kUnknownDim}, DType::Float32)});
  f({floats(3)});
  CHECK(f.retrace_reasons().empty());
  CHECK(explain_retrace({}, {}, {}, {}).empty());
}

TEST_CASE("AGC_EXPLAIN_RETRACING=1 prints one line per retrace to stderr") {
  // stderr goes to a file for the calls.
  char path[] = "/tmp/agc_retrace_test_XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  std::fflush(stderr);
  int saved = dup(2);
  dup2(fd, 2);
  setenv("AGC_EXPLAIN_RETRACING", "1", 1);
  Function f = identity_fn({{"x", {}}, {"n", {}}});
  f({floats(2), Value(1)});
  f({floats(2), Value(1)});
  f({floats(2), Value(2)});
  unsetenv("AGC_EXPLAIN_RETRACING");
  f({floats(2), Value(3)});
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(fd);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path);
  CHECK(text.str() == "agc: retracing f: n: 1 -> 2\n");
  CHECK(f.retrace_reasons().size() == 2);
}
