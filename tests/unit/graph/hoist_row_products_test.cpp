// hoist_row_products on loops as AutoGraph traces them (ag::autograph::
// for_stmt / while_stmt, x[t] through getitem): which loops it hoists from,
// which it leaves, and that the optimized graph computes what the traced one
// did.
#include <doctest/doctest.h>

#include <memory>
#include <random>
#include <string>

#include "runtime/exec/plan.h"
#include "runtime/value/tensor_spec_value.h"
#include "runtime/graph/optimize/optimize.h"
#include "tests/unit/autograph/support.h"

using namespace ag;
using namespace ag::autograph;
using ag::test::State;

namespace {

constexpr int64_t kRows = 6, kBatch = 3, kIn = 5, kOut = 4;

Value random_tensor(const Shape& s, std::mt19937& rng) {
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  Tensor t(DType::Float32, s);
  for (int64_t i = 0; i < t.num_elements(); ++i) t.data<float>()[i] = d(rng);
  return Value(t);
}

/// How the loop below bounds its counter.
enum class Loop {
  AllRows,          // for t in tf.range(tf.shape(x)[0])
  FewerSteps,       // for t in tf.range(3): fewer iterations than x has rows
  RowsOfX,          // for x_t in x (t counted alongside)
  DataDependent,    // while tf.reduce_sum(h) < 100 and t < rows: the trip count is not known
  ReadsAhead,       // for t in tf.range(tf.shape(x)[0]): x[t + 1], out of bounds at the last step
};

/// h = 0; for each step t: h = tanh(x[t] @ w + h @ u) (or x_t @ w), where w
/// is [kIn, kOut] (or [kOut, kIn] used transposed). Returns h.
Value rnn(const std::vector<Value>& a, Loop loop, bool transpose_w) {
  const Value &x = a[0], &w = a[1], &u = a[2];
  Value h = tf::zeros(Value::list({Value(kBatch), Value(kOut)}));
  Value t = Value(Tensor::scalar<int32_t>(0));
  auto step = [&](const Value& row) {
    Value xw = transpose_w ? tf::matmul(row, w, false, true) : tf::matmul(row, w);
    h = tf::tanh(xw + tf::matmul(h, u));
  };
  LoopOptions opts;
  opts.iterate_names = "t";
  State s{{&h, &t}};
  switch (loop) {
    case Loop::AllRows:
    case Loop::FewerSteps:
    case Loop::ReadsAhead: {
      Value steps = loop == Loop::FewerSteps ? Value(3) : getitem(tf::shape(x), Value(0));
      for_stmt(
          tf::range(steps), {},
          [&](const Value& itr) {
            t = itr;
            step(getitem(x, loop == Loop::ReadsAhead ? t + Value(1) : t));
          },
          s.get(), s.set(), {"h", "t"}, opts);
      break;
    }
    case Loop::RowsOfX:
      opts.iterate_names = "x_t";
      for_stmt(
          x, {},
          [&](const Value& row) {
            step(row);
            t = t + Value(1);
          },
          s.get(), s.set(), {"h", "t"}, opts);
      break;
    case Loop::DataDependent:
      while_stmt(
          [&] { return and_([&] { return tf::reduce_sum(h) < Value(100.0); }, [&] { return t < Value(kRows); }); },
          [&] {
            step(getitem(x, t));
            t = t + Value(1);
          },
          s.get(), s.set(), {"h", "t"}, {});
      break;
  }
  return h;
}

struct Traced {
  std::shared_ptr<Graph> optimized;
  size_t outer_matmuls = 0, body_matmuls = 0;
  std::string error;  // what both graphs failed with, if they did
};

/// Traces rnn() for `loop`, optimizes a copy, checks the copy computes what
/// the traced graph does (or fails as it does), and counts the MatMuls
/// outside and inside the loop.
Traced trace(Loop loop, bool transpose_w) {
  std::mt19937 rng(11);
  const std::vector<Value> args{random_tensor(Shape{kRows, kBatch, kIn}, rng),
                                random_tensor(transpose_w ? Shape{kOut, kIn} : Shape{kIn, kOut}, rng),
                                random_tensor(Shape{kOut, kOut}, rng)};
  Function f("rnn", {{"x", {}}, {"w", {}}, {"u", {}}},
             [&](const std::vector<Value>& a) { return rnn(a, loop, transpose_w); });
  const Graph& traced = f.get_concrete_function(args)->graph();
  Traced out;
  out.optimized = traced.clone();
  optimize(*out.optimized);
  std::vector<Tensor> tensors;
  for (const Value& v : args) tensors.push_back(v.as_tensor().value());
  auto run = [&](const Graph& g, std::string& error) {
    try {
      return compile_plan(g).run(tensors)[0];
    } catch (const InvalidArgumentError& e) {
      error = e.what();
      return Tensor();
    }
  };
  std::string want_error, got_error;
  const Tensor want = run(traced, want_error);
  const Tensor got = run(*out.optimized, got_error);
  CHECK(got_error == want_error);
  out.error = want_error;
  if (want_error.empty()) {
    REQUIRE(got.shape() == want.shape());
    for (int64_t i = 0; i < want.num_elements(); ++i) {
      CHECK(got.data<float>()[i] == doctest::Approx(want.data<float>()[i]).epsilon(1e-5));
    }
  }
  for (const auto& n : out.optimized->nodes()) {
    out.outer_matmuls += n->op->name == "MatMul";
    for (const auto& sub : n->subgraphs) {
      for (const auto& b : sub->nodes()) {
        out.body_matmuls += b->op->name == "MatMul" || b->op->name == "FusedMatMul";
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("hoist_row_products: x[t] @ w over every row of x becomes one product before the loop") {
  for (bool transpose_w : {false, true}) {
    CAPTURE(transpose_w);
    Traced t = trace(Loop::AllRows, transpose_w);
    CHECK(t.outer_matmuls == 1);  // x reshaped to [rows * batch, in] times w
    CHECK(t.body_matmuls == 1);   // h @ u, fused with the hoisted row, added
  }
  Traced rows = trace(Loop::RowsOfX, false);
  CHECK(rows.outer_matmuls == 1);
  CHECK(rows.body_matmuls == 1);
}

TEST_CASE("hoist_row_products leaves loops that may run fewer times than x has rows") {
  // Three steps over six rows: hoisting would multiply twice as many rows.
  Traced fewer = trace(Loop::FewerSteps, false);
  CHECK(fewer.outer_matmuls == 0);
  // A condition on the values: the loop may stop after one step.
  Traced data = trace(Loop::DataDependent, false);
  CHECK(data.outer_matmuls == 0);
}

TEST_CASE("hoist_row_products keeps the row's bounds check: x[t + 1] fails at the last step as before") {
  Traced ahead = trace(Loop::ReadsAhead, false);  // trace() checks both fail with the same message
  CHECK(ahead.outer_matmuls == 1);
  CHECK_MESSAGE(ahead.error.find("out of bounds") != std::string::npos, ahead.error);
}

TEST_CASE("hoist_row_products leaves a product bigger than 256 MiB in the loop") {
  // Traced from TensorSpecs, never run: x is [rows, 3, 5], the product [rows, 3, 4].
  auto hoisted = [](int64_t rows) {
    Function f("rnn", {{"x", {}}, {"w", {}}, {"u", {}}},
               [](const std::vector<Value>& a) { return rnn(a, Loop::AllRows, false); });
    auto cf = f.get_concrete_function({make_tensor_spec(Shape{rows, kBatch, kIn}, DType::Float32),
                                       make_tensor_spec(Shape{kIn, kOut}, DType::Float32),
                                       make_tensor_spec(Shape{kOut, kOut}, DType::Float32)});
    std::shared_ptr<Graph> g = cf->graph().clone();
    optimize(*g);
    size_t outer = 0;
    for (const auto& n : g->nodes()) outer += n->op->name == "MatMul";
    return outer;
  };
  CHECK(hoisted(5'000'000) == 1);  // 240 MB
  CHECK(hoisted(6'000'000) == 0);  // 288 MB
}
