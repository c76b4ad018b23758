// Sweep cases for the executor's ops (runtime/exec): If/While and function
// calls through their builders against a plain C++ reference, and FusedElementwise against the
// unfused chain it replaces. The executor's own tests (tests/unit/exec) go further.
#include <doctest/doctest.h>

#include <cmath>

#include "runtime/core/bfloat16.h"
#include "runtime/graph/control_flow.h"
#include "runtime/exec/plan.h"
#include "runtime/graph/optimize/optimize.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;

AG_SWEEP_COVERS("If", "StatelessIf", "While", "StatelessWhile", "PartitionedCall", "StatefulPartitionedCall",
                "FusedElementwise", "TPUPartitionedCall", "TPUOrdinalSelector", "BatchFunction");

namespace {

Output node(Graph& g, const char* name, std::vector<Output> in) { return g.add_node(OpType{name}, std::move(in))->output(0); }

/// f(p, x) = if p: x * 2 else: x - 1, with a print in the then branch when `stateful`.
std::vector<Tensor> run_if(bool pred, const Tensor& x, bool stateful, std::string* kind) {
  Graph g("f");
  Output p = g.placeholder({DType::Bool, Shape{}}, "p");
  Output xi = g.placeholder({x.dtype(), x.shape()}, "x");
  auto then_g = std::make_shared<Graph>("then", &g);
  Output tx = then_g->placeholder({x.dtype(), x.shape()}, "x");
  if (stateful) {
    then_g->add_node(op::PrintV2, {then_g->constant(Tensor::scalar<std::string>(""))},
                     Attrs{{"output_stream", std::string("file:///dev/null")}});
  }
  then_g->outputs() = {node(*then_g, "Mul", {tx, then_g->constant(Tensor::scalar<float>(2))})};
  auto else_g = std::make_shared<Graph>("else", &g);
  Output ex = else_g->placeholder({x.dtype(), x.shape()}, "x");
  else_g->outputs() = {node(*else_g, "Sub", {ex, else_g->constant(Tensor::scalar<float>(1))})};
  Node* n = add_if(g, p, {xi}, then_g, else_g);
  *kind = n->op->name;
  g.outputs() = {n->output(0)};
  Plan plan = compile_plan(g);
  std::vector<Tensor> args{Tensor::scalar<bool>(pred), x};
  return plan.run(args);
}

}  // namespace

TEST_CASE("If and StatelessIf run the branch the predicate picks") {
  for (bool stateful : {false, true}) {
    for (bool pred : {false, true}) {
      Tensor x = sweep::random_tensor(DType::Float32, sweep::random_shape(3));
      std::string kind;
      Tensor got = run_if(pred, x, stateful, &kind)[0];
      CHECK(kind == (stateful ? "If" : "StatelessIf"));
      Tensor want(DType::Float32, x.shape());
      for (int64_t i = 0; i < x.num_elements(); ++i) {
        want.data<float>()[i] = pred ? x.data<float>()[i] * 2 : x.data<float>()[i] - 1;
      }
      sweep::expect_close(got, want, "If pred=" + std::to_string(pred));
    }
  }
}

TEST_CASE("While and StatelessWhile loop until the condition fails") {
  for (bool stateful : {false, true}) {
    for (int limit : {0, 1, 7}) {
      Graph g("f");
      Output i0 = g.placeholder({DType::Int32, Shape{}}, "i");
      auto cond = std::make_shared<Graph>("cond", &g);
      Output ci = cond->placeholder({DType::Int32, Shape{}}, "i");
      cond->outputs() = {node(*cond, "Less", {ci, cond->constant(Tensor::scalar<int32_t>(limit))})};
      auto body = std::make_shared<Graph>("body", &g);
      Output bi = body->placeholder({DType::Int32, Shape{}}, "i");
      if (stateful) {
        body->add_node(op::PrintV2, {body->constant(Tensor::scalar<std::string>(""))},
                       Attrs{{"output_stream", std::string("file:///dev/null")}});
      }
      body->outputs() = {node(*body, "AddV2", {bi, body->constant(Tensor::scalar<int32_t>(1))})};
      Node* loop = add_while(g, {i0}, cond, body);
      CHECK(loop->op->name == (stateful ? "While" : "StatelessWhile"));
      g.outputs() = {loop->output(0)};
      Plan plan = compile_plan(g);
      std::vector<Tensor> args{Tensor::scalar<int32_t>(-3)};
      CHECK(plan.run(args)[0].scalar_value<int32_t>() == std::max(limit, -3));
    }
  }
}

TEST_CASE("PartitionedCall and StatefulPartitionedCall run their function on their arguments and captures") {
  for (bool stateful : {false, true}) {
    Tensor x = sweep::random_tensor(DType::Float32, sweep::random_shape(3));
    Graph g("f");
    Output xi = g.placeholder({x.dtype(), x.shape()}, "x");
    Output three = g.constant(Tensor::scalar<float>(3));
    // body(x) = x * x - 3, the 3 captured from the caller.
    auto body = std::make_shared<Graph>("body", &g);
    Output bx = body->placeholder({x.dtype(), x.shape()}, "x");
    if (stateful) {
      body->add_node(op::PrintV2, {body->constant(Tensor::scalar<std::string>(""))},
                     Attrs{{"output_stream", std::string("file:///dev/null")}});
    }
    body->outputs() = {node(*body, "Sub", {node(*body, "Mul", {bx, bx}), body->capture(three)})};
    Node* call = add_call(g, {xi}, body, "body");
    CHECK(call->op->name == (stateful ? "StatefulPartitionedCall" : "PartitionedCall"));
    CHECK(call->inputs.size() == 2);  // the argument, then the capture
    g.outputs() = {call->output(0)};
    Plan plan = compile_plan(g);
    std::vector<Tensor> args{x};
    Tensor got = plan.run(args)[0];
    Tensor want(DType::Float32, x.shape());
    for (int64_t i = 0; i < x.num_elements(); ++i) want.data<float>()[i] = x.data<float>()[i] * x.data<float>()[i] - 3;
    sweep::expect_close(got, want, call->op->name);
  }
}

TEST_CASE("TPUPartitionedCall runs its function on the core TPUOrdinalSelector picks, with TPU numerics") {
  for (bool bf16 : {false, true}) {
    Tensor x = sweep::random_tensor(DType::Float32, Shape{3, 4});
    Graph g("f");
    Output xi = g.placeholder({x.dtype(), x.shape()}, "x");
    Node* selector = g.add_node(op::TPUOrdinalSelector, {});
    CHECK(selector->outputs[0].shape == Shape{1});
    auto body = std::make_shared<Graph>("tpu_func", &g);
    Output bx = body->placeholder({x.dtype(), x.shape()}, "x");
    body->outputs() = {node(*body, "Mul", {bx, bx})};
    Node* call = add_device_call(g, {xi}, selector->output(0), body, "tpu_func");
    call->attrs.set("_bfloat16_optimization", bf16);
    CHECK(call->op->role() == OpRole::DeviceCall);
    CHECK(call->inputs.size() == 2);  // the argument, then the device ordinal
    g.outputs() = {call->output(0)};
    Plan plan = compile_plan(g);
    std::vector<Tensor> args{x};
    Tensor got = plan.run(args)[0];
    // The VPU squares in float32; with the bfloat16 optimization the operand
    // enters rounded to bfloat16 and the result leaves rounded (B33).
    for (int64_t i = 0; i < x.num_elements(); ++i) {
      float v = x.data<float>()[i];
      float want = bf16 ? static_cast<float>(bfloat16(static_cast<float>(bfloat16(v)) * static_cast<float>(bfloat16(v))))
                        : v * v;
      CHECK(got.data<float>()[i] == want);
    }
  }
}

TEST_CASE("FusedElementwise computes what the chain it replaces computed") {
  for (int trial = 0; trial < 10; ++trial) {
    Shape shape = sweep::random_shape(3);
    auto build = [&](Graph& g) {
      Output x = g.placeholder({DType::Float32, shape}, "x");
      Output y = node(g, "Tanh", {node(g, "Mul", {x, g.constant(Tensor::scalar<float>(0.5f))})});
      g.outputs() = {node(g, "AddV2", {node(g, "Exp", {y}), x})};
    };
    Graph plain("plain"), fused("fused");
    build(plain);
    build(fused);
    fuse_elementwise(fused);
    bool has_fused = false;
    for (const auto& n : fused.nodes()) has_fused = has_fused || n->op->name == "FusedElementwise";
    CHECK(has_fused);
    Tensor x = sweep::random_tensor(DType::Float32, shape);
    std::vector<Tensor> args{x};
    sweep::expect_close(compile_plan(fused).run(args)[0], compile_plan(plain).run(args)[0], "FusedElementwise");
  }
}
