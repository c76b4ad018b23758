// Sweep cases for logging_ops.cpp: PrintV2 writes its string, plus `end`, to
// the chosen stream through the replaceable sink, on every call; EagerPyFunc
// prints AutoGraph's print the same way, its tensors as NumPy prints them.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "runtime/core/tensor_format.h"
#include "runtime/ops/eager.h"
#include "runtime/ops/logging_ops.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("PrintV2", "Assert", "EagerPyFunc");

namespace {

/// Captures every print while alive.
struct Capture {
  std::vector<std::pair<std::string, std::string>> lines;
  PrintSink old;
  Capture() {
    old = set_print_sink([this](std::string_view s, std::string_view t) { lines.emplace_back(s, t); });
  }
  ~Capture() { set_print_sink(old); }
};

/// The message of the InvalidArgumentError PrintV2 throws on `in` ("<no error>" if none).
std::string print_error_of(std::vector<Tensor> in, const Attrs& a = {}) {
  try {
    runv("PrintV2", in, a);
  } catch (const InvalidArgumentError& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST_CASE("PrintV2 writes each message with its end to its stream") {
  Capture cap;
  for (int trial = 0; trial < 10; ++trial) {
    // What tf.print(x) runs: StringFormat then PrintV2, on random tensors.
    Tensor x = sweep::random_tensor(static_cast<DType>(trial % kNumDTypes), sweep::random_shape(3, 4));
    Tensor msg = run1("StringFormat", {x}, Attrs{{"template", std::string("{}")}, {"placeholder", std::string("{}")}});
    CHECK(runv("PrintV2", {msg}).empty());
    REQUIRE(cap.lines.size() == static_cast<size_t>(trial + 1));
    CHECK(cap.lines.back().first == "stderr");
    CHECK(cap.lines.back().second == tf_print_format(x, 3) + "\n");
  }
  runv("PrintV2", {Tensor::scalar(std::string("fizz"))},
         Attrs{{"output_stream", std::string("stdout")}, {"end", std::string("")}});
  CHECK(cap.lines.back() == std::pair<std::string, std::string>{"stdout", "fizz"});
  runv("PrintV2", {Tensor::scalar(std::string("w"))}, Attrs{{"output_stream", std::string("log(warning)")}});
  CHECK(cap.lines.back() == std::pair<std::string, std::string>{"log(warning)", "w\n"});
}

TEST_CASE("PrintV2 is stateful and runs on every call of a prepared kernel") {
  const OpDef& op = OpRegistry::global().get(op::PrintV2);
  CHECK(op.stateful());
  Capture cap;
  std::vector<TensorSpec> in{{DType::String, Shape{}}};
  std::vector<TensorSpec> out;
  Attrs attrs;
  Kernel k = op.cpu()(KernelSpec{"PrintV2", in, out, attrs});
  Tensor s = Tensor::scalar(std::string("tick"));
  const Tensor* ptrs[] = {&s};
  std::vector<Tensor> outputs;
  KernelContext ctx{ptrs, outputs};
  for (int i = 0; i < 3; ++i) k(ctx);
  CHECK(cap.lines.size() == 3);
}

TEST_CASE("PrintV2's default sink appends to file:// paths") {
  std::string path = "/tmp/agc_print_test_" + std::to_string(sweep::rng()()) + ".txt";
  PrintSink old = set_print_sink({});
  runv("PrintV2", {Tensor::scalar(std::string("a"))}, Attrs{{"output_stream", "file://" + path}});
  runv("PrintV2", {Tensor::scalar(std::string("b"))}, Attrs{{"output_stream", "file://" + path}});
  set_print_sink(old);
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  CHECK(ss.str() == "a\nb\n");
  std::remove(path.c_str());
}

TEST_CASE("PrintV2's errors") {
  CHECK(print_error_of({Tensor(DType::String, {2})}) == "Input is expected to be scalar, but got [2]");
  CHECK(print_error_of({Tensor::scalar(1)}) ==
        "cannot compute PrintV2 as input #0(zero-based) was expected to be a string tensor but is a int32 tensor");
  CHECK(print_error_of({Tensor::scalar(std::string("x"))}, Attrs{{"output_stream", std::string("nowhere")}}) ==
        "Unknown output stream: nowhere, Valid streams are: stdout, stderr, log(info), log(warning), log(error)");
}

TEST_CASE("Assert passes on true and raises TF's message on false") {
  std::vector<Tensor> ok{Tensor::scalar<bool>(true), Tensor::scalar<std::string>("never shown")};
  CHECK(runv(op::Assert, ok).empty());
  std::vector<Tensor> bad{Tensor::scalar<bool>(false), Tensor::scalar<std::string>("x must be positive"),
                          Tensor::from_vector<int32_t>({5}, {1, 2, 3, 4, 5})};
  CHECK_THROWS_WITH_AS(runv(op::Assert, bad), "assertion failed: [x must be positive] [1 2 3...]",
                       InvalidArgumentError);
  std::vector<Tensor> not_scalar{Tensor::from_vector<bool>({2}, {true, true})};
  CHECK_THROWS_AS(runv(op::Assert, not_scalar), InvalidArgumentError);
}
