#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <thread>

#include "runtime/graph/control_flow.h"
#include "runtime/exec/plan.h"
#include "tests/unit/exec/test_ops.h"

using namespace ag;
using namespace ag::test;

namespace {

const TensorSpec kF{DType::Float32, Shape{}};
const TensorSpec kB{DType::Bool, Shape{}};

Tensor f(float v) { return Tensor::scalar<float>(v); }

/// while sum(x) > limit: x = tanh(x); also counts iterations in n.
struct TanhLoop {
  Graph g{"f"};
  Node* loop = nullptr;
  explicit TanhLoop(float limit, WhileOptions opts = {}, int size = 5) {
    Output x = g.placeholder({DType::Float32, Shape{size}}, "x");
    Output n = g.constant(f(0), "n");
    auto cond = std::make_shared<Graph>("cond", &g);
    Output cx = cond->placeholder({DType::Float32, Shape{size}}, "x");
    cond->placeholder(kF, "n");
    cond->outputs() = {add(*cond, "TGreater", {add(*cond, "TSum", {cx}), cond->constant(f(limit))})};
    auto body = std::make_shared<Graph>("body", &g);
    Output bx = body->placeholder({DType::Float32, Shape{size}}, "x");
    Output bn = body->placeholder(kF, "n");
    body->outputs() = {add(*body, "TTanh", {bx}), add(*body, "TAdd", {bn, body->constant(f(1))})};
    loop = add_while(g, {x, n}, cond, body, opts);
    g.outputs() = {loop->output(0), loop->output(1)};
  }
};

}  // namespace

TEST_CASE("If runs the branch its condition picks, passing arguments and captures") {
  Graph g("f");
  Output c = g.placeholder(kB, "c");
  Output x = g.placeholder(kF, "x");
  Output y = g.placeholder(kF, "y");
  auto then_g = std::make_shared<Graph>("then", &g);
  Output tx = then_g->placeholder(kF, "x");
  then_g->outputs() = {add(*then_g, "TMul", {tx, then_g->capture(y)})};  // x * y
  auto else_g = std::make_shared<Graph>("else", &g);
  Output ex = else_g->placeholder(kF, "x");
  else_g->outputs() = {add(*else_g, "TAdd", {ex, else_g->constant(f(100))})};  // x + 100
  Node* n = add_if(g, c, {x}, then_g, else_g);
  CHECK(n->op->name == "StatelessIf");
  CHECK(n->name == "cond");
  CHECK(n->inputs.size() == 3);  // cond, x, captured y
  g.outputs() = {n->output()};
  Plan p = compile_plan(g);
  for (int i = 0; i < 3; ++i) {
    CHECK(p.run(std::vector<Tensor>{Tensor::scalar<bool>(true), f(3), f(4)})[0].scalar_value<float>() == 12.f);
    CHECK(p.run(std::vector<Tensor>{Tensor::scalar<bool>(false), f(3), f(4)})[0].scalar_value<float>() == 103.f);
  }
}

TEST_CASE("If branches must agree on their outputs") {
  Graph g("f");
  Output c = g.placeholder(kB, "c");
  Output x = g.placeholder(kF, "x");
  auto then_g = std::make_shared<Graph>("then", &g);
  then_g->outputs() = {then_g->capture(x)};
  auto else_g = std::make_shared<Graph>("else", &g);
  else_g->outputs() = {else_g->constant(Tensor::scalar<int32_t>(0))};
  CHECK_THROWS_WITH_AS(add_if(g, c, {}, then_g, else_g),
                       "'retval_' has dtype float32 in the main branch, but dtype int32 in the else branch", TypeError);
  CHECK_THROWS_WITH_AS(add_if(g, c, {}, then_g, else_g, {"y"}),
                       "'y' has dtype float32 in the main branch, but dtype int32 in the else branch", TypeError);
  else_g->outputs() = {};
  CHECK_THROWS_AS(add_if(g, c, {}, then_g, else_g), ValueError);
  CHECK_THROWS_AS(add_if(g, x, {}, then_g, then_g), InvalidArgumentError);  // float condition
}

TEST_CASE("If output shapes are the branches' common shape") {
  Graph g("f");
  Output c = g.placeholder(kB, "c");
  auto then_g = std::make_shared<Graph>("then", &g);
  then_g->outputs() = {then_g->constant(vec({1, 2}))};
  auto else_g = std::make_shared<Graph>("else", &g);
  else_g->outputs() = {else_g->constant(vec({1, 2, 3}))};
  Node* n = add_if(g, c, {}, then_g, else_g);
  CHECK(n->outputs[0].shape == Shape{kUnknownDim});
  g.outputs() = {n->output()};
  Plan p = compile_plan(g);
  CHECK(p.run(std::vector<Tensor>{Tensor::scalar<bool>(false)})[0].num_elements() == 3);
}

TEST_CASE("While runs its body until the condition fails") {
  TanhLoop l(1.f);
  CHECK(l.loop->op->name == "StatelessWhile");
  Plan p = compile_plan(l.g);
  std::vector<float> x0{0.9f, 0.8f, 0.7f, 0.6f, 0.5f};
  std::vector<float> x = x0;
  int iters = 0;
  while (x[0] + x[1] + x[2] + x[3] + x[4] > 1.f) {
    for (float& v : x) v = std::tanh(v);
    ++iters;
  }
  for (int rep = 0; rep < 2; ++rep) {
    auto out = p.run(std::vector<Tensor>{vec(x0)});
    CHECK(out[1].scalar_value<float>() == static_cast<float>(iters));
    for (int i = 0; i < 5; ++i) CHECK(out[0].data<float>()[i] == doctest::Approx(x[static_cast<size_t>(i)]));
  }
}

TEST_CASE("While with zero iterations returns its inputs") {
  TanhLoop l(100.f);
  Plan p = compile_plan(l.g);
  Tensor x = vec({1, 2, 3, 4, 5});
  auto out = p.run(std::vector<Tensor>{x});
  CHECK(out[1].scalar_value<float>() == 0.f);
  CHECK(out[0].data<float>()[4] == 5.f);
}

TEST_CASE("While stops after maximum_iterations") {
  WhileOptions o;
  o.maximum_iterations = 3;
  TanhLoop l(-1.f, o);  // the condition alone never fails
  Plan p = compile_plan(l.g);
  auto out = p.run(std::vector<Tensor>{vec({1, 1, 1, 1, 1})});
  CHECK(out[1].scalar_value<float>() == 3.f);
  CHECK(out[0].data<float>()[0] == doctest::Approx(std::tanh(std::tanh(std::tanh(1.f)))));
}

TEST_CASE("a stable-shaped While allocates nothing per iteration") {
  Graph g("f");
  Output x = g.placeholder({DType::Float32, Shape{64}}, "x");
  Output n = g.placeholder(kF, "n");
  auto cond = std::make_shared<Graph>("cond", &g);
  cond->placeholder({DType::Float32, Shape{64}}, "x");
  Output cn = cond->placeholder(kF, "n");
  cond->outputs() = {add(*cond, "TGreater", {cn, cond->constant(f(0))})};
  auto body = std::make_shared<Graph>("body", &g);
  Output bx = body->placeholder({DType::Float32, Shape{64}}, "x");
  Output bn = body->placeholder(kF, "n");
  body->outputs() = {add(*body, "TTanhRec", {bx}), add(*body, "TAdd", {bn, body->constant(f(-1))})};
  g.outputs() = {add_while(g, {x, n}, cond, body)->output(0)};
  Plan p = compile_plan(g);
  recorded_buffers().clear();
  auto out = p.run(std::vector<Tensor>{Tensor::zeros(DType::Float32, Shape{64}), f(200)});
  CHECK(recorded_buffers().size() == 200);
  std::set<const void*> distinct(recorded_buffers().begin() + 2, recorded_buffers().end());
  CHECK(distinct.size() <= 2);  // after the first iterations: two buffers, swapped
}

TEST_CASE("While checks that the body keeps dtypes and shapes (AutoGraph's messages)") {
  Graph g("f");
  Output x = g.placeholder({DType::Float32, Shape{3}}, "x");
  auto cond = std::make_shared<Graph>("cond", &g);
  cond->placeholder({DType::Float32, Shape{kUnknownDim}}, "x");
  cond->outputs() = {cond->constant(Tensor::scalar<bool>(false))};
  auto body = std::make_shared<Graph>("body", &g);
  Output bx = body->placeholder({DType::Float32, Shape{kUnknownDim}}, "x");

  body->outputs() = {body->constant(Tensor::scalar<int32_t>(1))};
  CHECK_THROWS_WITH_AS(add_while(g, {x}, cond, body),
                       "'x' has dtype float32 before the loop, but dtype int32 after one iteration", TypeError);
  body->outputs() = {add(*body, "TTanh", {bx})};
  CHECK_THROWS_WITH_AS(add_while(g, {x}, cond, body),
                       "'x' has shape (3,) before the loop, but shape (None,) after one iteration. Use "
                       "tf.autograph.experimental.set_loop_options to set shape invariants.",
                       ValueError);
  WhileOptions o;
  o.names = {"v"};
  o.shape_invariants = {Shape{2}};
  CHECK_THROWS_WITH_AS(add_while(g, {x}, cond, body, o),
                       "'v' has shape (3,) before the loop, which does not conform with the shape invariant (2,).",
                       ValueError);
  o.shape_invariants = {Shape{kUnknownDim}};
  Node* n = add_while(g, {x}, cond, body, o);
  CHECK(n->outputs[0].shape == Shape{kUnknownDim});
}

TEST_CASE("nested While with captures through two levels") {
  // i, acc = 0, 0; while 3 > i: i += 1; while i * 10 > acc: acc += 1
  Graph g("f");
  Output i0 = g.placeholder(kF, "i");
  Output a0 = g.placeholder(kF, "acc");
  auto cond = std::make_shared<Graph>("cond", &g);
  Output ci = cond->placeholder(kF, "i");
  cond->placeholder(kF, "acc");
  cond->outputs() = {add(*cond, "TGreater", {cond->constant(f(3)), ci})};
  auto body = std::make_shared<Graph>("body", &g);
  Output bi = body->placeholder(kF, "i");
  Output ba = body->placeholder(kF, "acc");
  Output i1 = add(*body, "TAdd", {bi, body->constant(f(1))});
  auto icond = std::make_shared<Graph>("icond", body.get());
  Output ia = icond->placeholder(kF, "acc");
  icond->outputs() = {add(*icond, "TGreater", {add(*icond, "TMul", {icond->capture(i1), icond->constant(f(10))}), ia})};
  auto ibody = std::make_shared<Graph>("ibody", body.get());
  Output iba = ibody->placeholder(kF, "acc");
  ibody->outputs() = {add(*ibody, "TAdd", {iba, ibody->constant(f(1))})};
  Node* inner = add_while(*body, {ba}, icond, ibody);
  body->outputs() = {i1, inner->output()};
  Node* outer = add_while(g, {i0, a0}, cond, body);
  g.outputs() = {outer->output(0), outer->output(1)};
  Plan p = compile_plan(g);
  auto out = p.run(std::vector<Tensor>{f(0), f(0)});
  CHECK(out[0].scalar_value<float>() == 3.f);
  CHECK(out[1].scalar_value<float>() == 30.f);

  // The same plan from 8 threads.
  std::atomic<int> bad{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < 8; ++t) {
    ts.emplace_back([&, t] {
      for (int k = 0; k < 50; ++k) {
        auto o = p.run(std::vector<Tensor>{f(static_cast<float>(t % 3)), f(0)});
        if (o[0].scalar_value<float>() != 3.f || o[1].scalar_value<float>() != 30.f) ++bad;
      }
    });
  }
  for (auto& th : ts) th.join();
  CHECK(bad.load() == 0);
}

TEST_CASE("an If inside a While body, and stateful bodies keep order") {
  // n = 0; while 4 > n: (log n if n > 1.5 else n); n += 1
  Graph g("f");
  Output n0 = g.placeholder(kF, "n");
  auto cond = std::make_shared<Graph>("cond", &g);
  Output cn = cond->placeholder(kF, "n");
  cond->outputs() = {add(*cond, "TGreater", {cond->constant(f(4)), cn})};
  auto body = std::make_shared<Graph>("body", &g);
  Output bn = body->placeholder(kF, "n");
  Output big = add(*body, "TGreater", {bn, body->constant(f(1.5f))});
  auto then_g = std::make_shared<Graph>("then", body.get());
  Output tn = then_g->placeholder(kF, "n");
  then_g->outputs() = {add(*then_g, "TLog", {tn}, Attrs{{"tag", std::string("n")}})};
  auto else_g = std::make_shared<Graph>("else", body.get());
  Output en = else_g->placeholder(kF, "n");
  else_g->outputs() = {en};
  Node* branch = add_if(*body, big, {bn}, then_g, else_g);
  CHECK(branch->op->name == "If");  // a stateful branch makes the If stateful
  body->outputs() = {add(*body, "TAdd", {branch->output(), body->constant(f(1))})};
  Node* loop = add_while(g, {n0}, cond, body);
  CHECK(loop->op->name == "While");
  Output after = add(g, "TLog", {loop->output()}, Attrs{{"tag", std::string("end")}});
  CHECK(after.node->control_inputs == std::vector<Node*>{loop});
  g.outputs() = {after};
  Plan p = compile_plan(g);
  op_log().clear();
  CHECK(p.run(std::vector<Tensor>{f(0)})[0].scalar_value<float>() == 4.f);
  CHECK(op_log() == std::vector<std::string>{"n:2", "n:3", "end:4"});
}

TEST_CASE("If and While built without their subgraphs are an internal error") {
  Graph g("f");
  Output c = g.placeholder(kB, "c");
  CHECK_THROWS_AS(g.add_node(op::StatelessIf, {c}), InternalError);
}
