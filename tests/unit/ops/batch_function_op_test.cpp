// BatchFunction from many threads (the sweep's case for it; also in
// unit_ops_threads, which scripts/sanitize.sh runs under TSan): concurrent
// calls of one plan share batches, and each caller gets its own rows.
#include <doctest/doctest.h>

#include <thread>

#include "runtime/exec/plan.h"
#include "runtime/graph/control_flow.h"

using namespace ag;

TEST_CASE("BatchFunction gathers concurrent calls into batches and gives each caller its own rows") {
  Graph g("f");
  Output xi = g.placeholder({DType::Float32, Shape{kUnknownDim, 2}}, "x");
  Output scale = g.placeholder({DType::Float32, Shape{}}, "scale");
  auto body = std::make_shared<Graph>("batched", &g);
  Output bx = body->placeholder({DType::Float32, Shape{kUnknownDim, 2}}, "x");
  Output bs = body->placeholder({DType::Float32, Shape{}}, "scale");
  body->outputs() = {body->add_node(op::Mul, {bx, bs})->output(0)};
  Attrs options{{"num_batch_threads", int64_t{1}},  {"max_batch_size", int64_t{8}},
                {"batch_timeout_micros", int64_t{20000}}, {"max_enqueued_batches", int64_t{10}},
                {"allowed_batch_sizes", std::vector<int64_t>{2, 4, 8}}, {"enable_large_batch_splitting", true}};
  Node* n = add_batch_function(g, {xi}, {scale}, body, "batched", options);
  CHECK(n->op->role() == OpRole::Batched);
  CHECK(n->outputs[0].shape == (Shape{kUnknownDim, 2}));
  g.outputs() = {n->output(0)};
  Plan plan = compile_plan(g);
  // Three callers at once with 1, 2 and 3 rows: each gets its rows times 3.
  std::vector<Tensor> results(3);
  std::vector<std::thread> callers;
  for (int c = 0; c < 3; ++c) {
    callers.emplace_back([&, c] {
      Tensor x(DType::Float32, Shape{c + 1, 2});
      for (int64_t i = 0; i < x.num_elements(); ++i) x.data<float>()[i] = static_cast<float>(10 * c + i);
      std::vector<Tensor> args{x, Tensor::scalar<float>(3)};
      results[static_cast<size_t>(c)] = plan.run(args)[0];
    });
  }
  for (auto& t : callers) t.join();
  for (int c = 0; c < 3; ++c) {
    const Tensor& r = results[static_cast<size_t>(c)];
    REQUIRE(r.shape() == (Shape{c + 1, 2}));
    for (int64_t i = 0; i < r.num_elements(); ++i) CHECK(r.data<float>()[i] == 3.0f * static_cast<float>(10 * c + i));
  }
}

