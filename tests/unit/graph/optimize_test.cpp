#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <random>

#include "runtime/graph/control_flow.h"
#include "runtime/exec/plan.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/graph/printer.h"
#include "runtime/graph/verify.h"
#include "runtime/ops/registry.h"
#include "tests/unit/graph/support.h"

using namespace ag;
using ag::test::count_op;
using ag::test::have;
using ag::test::node;

namespace {

Tensor random_floats(const Shape& s, std::mt19937& rng) {
  Tensor t(DType::Float32, s);
  std::uniform_real_distribution<float> d(-2.f, 2.f);
  for (int64_t i = 0; i < t.num_elements(); ++i) t.data<float>()[i] = d(rng);
  return t;
}

/// Builds the graph twice, optimizes one copy, and checks both plans agree on
/// random inputs. Returns the optimized graph's printout.
std::string check_equivalent(const std::function<void(Graph&)>& build, int trials = 5) {
  Graph plain("f"), opt("f");
  build(plain);
  build(opt);
  optimize(opt);
  Plan a = compile_plan(plain);
  Plan b = compile_plan(opt);
  std::mt19937 rng(7);
  for (int t = 0; t < trials; ++t) {
    std::vector<Tensor> args;
    for (const Node* in : plain.inputs()) args.push_back(random_floats(in->outputs[0].shape, rng));
    auto x = a.run(args);
    auto y = b.run(args);
    REQUIRE(x.size() == y.size());
    for (size_t i = 0; i < x.size(); ++i) {
      REQUIRE(x[i].shape() == y[i].shape());
      REQUIRE(x[i].dtype() == y[i].dtype());
      if (x[i].dtype() != DType::Float32) continue;
      for (int64_t k = 0; k < x[i].num_elements(); ++k) {
        CHECK(y[i].data<float>()[k] == doctest::Approx(x[i].data<float>()[k]).epsilon(1e-5));
      }
    }
  }
  return print_graph(opt);
}

}  // namespace

TEST_CASE("identity removal forwards consumers but keeps output Identities") {
  if (!have({"AddV2"})) return;
  auto build = [](Graph& g) {
    Output x = g.placeholder({DType::Float32, Shape{3}}, "x");
    Output y = node(g, "Identity", {x}, "y");
    Output z = node(g, "Identity", {y}, "z");
    Output add = node(g, "AddV2", {z, y}, "add");
    g.outputs() = {node(g, "Identity", {add})};
  };
  Graph g("f");
  build(g);
  remove_identities(g);
  CHECK(print_graph(g) == "[] -> x\n['x', 'x'] -> add\n['add'] -> Identity\n");
  check_equivalent(build);
}

TEST_CASE("constant folding evaluates constant subgraphs and keeps node names") {
  if (!have({"AddV2", "Mul"})) return;
  auto build = [](Graph& g) {
    Output x = g.placeholder({DType::Float32, Shape{2}}, "x");
    Output two = g.constant(Tensor::scalar<float>(2), "two");
    Output three = g.constant(Tensor::scalar<float>(3), "three");
    Output m = node(g, "Mul", {two, three}, "mul");
    Output m2 = node(g, "AddV2", {m, m}, "twelve");
    g.outputs() = {node(g, "AddV2", {x, m2}, "add")};
  };
  Graph g("f");
  build(g);
  fold_constants(g);
  CHECK(g.find("mul")->op->name == "Const");
  CHECK(g.find("twelve")->op->name == "Const");
  CHECK(Graph::constant_value(g.find("twelve")->output())->scalar_value<float>() == 12.f);
  prune(g);
  CHECK(print_graph(g) == "[] -> x\n[] -> twelve\n['x', 'twelve'] -> add\n");
  check_equivalent(build);
}

TEST_CASE("constant folding leaves stateful nodes and failing kernels alone") {
  if (!have({"RandomUniform", "FloorDiv"})) return;
  Graph g("f");
  Output shape = g.constant(Tensor::from_vector<int32_t>({1}, {3}), "shape");
  Output r = g.add_node(op::RandomUniform, {shape}, Attrs{{"dtype", DType::Float32}}, "r")->output();
  Output div = node(g, "FloorDiv", {g.constant(Tensor::scalar<int32_t>(1)), g.constant(Tensor::scalar<int32_t>(0))}, "div");
  g.outputs() = {r, div};
  fold_constants(g);
  CHECK(g.find("r")->op->name == "RandomUniform");
  CHECK(g.find("div")->op->name == "FloorDiv");  // its error belongs to run time
}

TEST_CASE("CSE merges equal computations, never stateful ones") {
  if (!have({"AddV2", "Mul"})) return;
  auto build = [](Graph& g) {
    Output x = g.placeholder({DType::Float32, Shape{4}}, "x");
    Output y = g.placeholder({DType::Float32, Shape{4}}, "y");
    Output a = node(g, "AddV2", {x, y}, "a");
    Output b = node(g, "AddV2", {x, y}, "b");
    Output one = g.constant(Tensor::scalar<float>(1), "one");
    Output one2 = g.constant(Tensor::scalar<float>(1), "one2");
    Output c = node(g, "Mul", {a, one}, "c");
    Output d = node(g, "Mul", {b, one2}, "d");
    g.outputs() = {node(g, "AddV2", {c, d}, "out")};
  };
  Graph g("f");
  build(g);
  eliminate_common_subexpressions(g);
  CHECK(print_graph(g) == "[] -> x\n[] -> y\n['x', 'y'] -> a\n[] -> one\n['a', 'one'] -> c\n['c', 'c'] -> out\n");
  check_equivalent(build);

  if (!have({"PrintV2"})) return;
  Graph s("f");
  Output str = s.constant(Tensor::scalar<std::string>("x"), "s");
  s.add_node(op::PrintV2, {str}, {}, "p1");
  s.add_node(op::PrintV2, {str}, {}, "p2");
  eliminate_common_subexpressions(s);
  CHECK(count_op(s, "PrintV2") == 2);
}

TEST_CASE("pruning drops what reaches neither an output nor a stateful node") {
  if (!have({"Tanh", "PrintV2"})) return;
  Graph g("f");
  Output x = g.placeholder({DType::Float32, Shape{2}}, "x");
  Output unused = g.placeholder({DType::Float32, Shape{2}}, "unused");
  node(g, "Tanh", {node(g, "Tanh", {x}, "dead1")}, "dead2");
  g.add_node(op::PrintV2, {g.constant(Tensor::scalar<std::string>("hi"), "msg")}, {}, "print");
  g.outputs() = {node(g, "Tanh", {x}, "live")};
  (void)unused;
  prune(g);
  CHECK(print_graph(g) == "[] -> x\n[] -> unused\n[] -> msg\n['msg'] -> print\n['x'] -> live\n");
}

TEST_CASE("elementwise chains fuse into one node in the chain's last place") {
  if (!have({"AddV2", "Mul", "Tanh", "Neg", "Exp"})) return;
  auto build = [](Graph& g) {
    Output x = g.placeholder({DType::Float32, Shape{3, 50}}, "x");
    Output y = g.placeholder({DType::Float32, Shape{3, 50}}, "y");
    Output m = node(g, "Mul", {x, y}, "mul");
    Output a = node(g, "AddV2", {m, g.constant(Tensor::scalar<float>(0.5f), "half")}, "add");
    Output t = node(g, "Tanh", {a}, "tanh");
    Output n = node(g, "Neg", {t}, "neg");
    Output e = node(g, "Exp", {n}, "exp");
    g.outputs() = {e, t};  // t is an output: the chain splits there
  };
  Graph g("f");
  build(g);
  fuse_elementwise(g);
  CHECK(count_op(g, "FusedElementwise") == 2);
  Node* tanh = g.find("tanh");
  REQUIRE(tanh != nullptr);
  CHECK(tanh->op->name == "FusedElementwise");
  // The body: one placeholder per outside input, the chain's nodes as they were.
  REQUIRE(tanh->subgraphs.size() == 1);
  CHECK(print_graph(*tanh->subgraphs[0]) ==
        "[] -> x\n[] -> y\n['x', 'y'] -> mul\n[] -> half\n['mul', 'half'] -> add\n['add'] -> tanh\n");
  CHECK(input_name(tanh->inputs[2]) == "half");
  CHECK(print_graph(*g.find("exp")->subgraphs[0]) == "[] -> tanh\n['tanh'] -> neg\n['neg'] -> exp\n");
  CHECK(g.find("mul") == nullptr);
  check_equivalent(build);
}

TEST_CASE("fusion leaves non-float, broadcasting and stateful chains alone") {
  if (!have({"AddV2", "Mul"})) return;
  Graph g("f");
  Output i = g.placeholder({DType::Int32, Shape{4}}, "i");
  Output x = g.placeholder({DType::Float32, Shape{4}}, "x");
  Output row = g.placeholder({DType::Float32, Shape{2, 4}}, "row");
  Output ii = node(g, "Mul", {node(g, "AddV2", {i, i}), i});
  Output xb = node(g, "Mul", {node(g, "AddV2", {x, x}), row});  // broadcasts [4] against [2,4]
  g.outputs() = {ii, xb};
  fuse_elementwise(g);
  CHECK(count_op(g, "FusedElementwise") == 0);
}

TEST_CASE("optimize() keeps results on a mixed graph and inside loop bodies") {
  if (!have({"AddV2", "Mul", "Tanh", "Sum", "Greater", "Sub"})) return;
  auto build = [](Graph& g) {
    Output x = g.placeholder({DType::Float32, Shape{5}}, "x");
    Output y = g.placeholder({DType::Float32, Shape{5}}, "y");
    Output k = node(g, "Mul", {g.constant(Tensor::scalar<float>(0.5f)), g.constant(Tensor::scalar<float>(0.5f))});
    Output a = node(g, "Identity", {node(g, "AddV2", {x, y})});
    Output b = node(g, "AddV2", {x, y});
    Output c = node(g, "Tanh", {node(g, "Mul", {a, k})});
    Output d = node(g, "Sub", {c, b});
    node(g, "Tanh", {d});  // dead
    // while sum(v) > 1: v = tanh(v) * 0.9
    auto cond = std::make_shared<Graph>("cond", &g);
    Output cv = cond->placeholder({DType::Float32, Shape{5}}, "v");
    cond->outputs() = {node(*cond, "Greater", {node(*cond, "Sum", {cv, cond->constant(Tensor::scalar<int32_t>(0))}),
                                             cond->constant(Tensor::scalar<float>(1))})};
    auto body = std::make_shared<Graph>("body", &g);
    Output bv = body->placeholder({DType::Float32, Shape{5}}, "v");
    Output nine = node(*body, "Identity", {body->constant(Tensor::scalar<float>(0.9f))});
    body->outputs() = {node(*body, "Mul", {node(*body, "Tanh", {bv}), nine})};
    Node* loop = add_while(g, {node(g, "Mul", {x, x})}, cond, body);
    g.outputs() = {d, loop->output(), node(g, "AddV2", {loop->output(), d})};
  };
  std::string printed = check_equivalent(build, 10);
  CHECK(printed.find("Identity") == std::string::npos);
}

TEST_CASE("function calls inline, their stateful nodes taking the call's place in the stateful chain") {
  // f(x) = square(x) + square(x * 2), square printing first, after a print
  // of the caller's; a call whose function holds an If stays a call.
  auto square_call = [](Graph& g, Output x) {
    auto body = std::make_shared<Graph>("square", &g);
    Output bx = body->placeholder(x.spec(), "x");
    body->add_node(op::PrintV2, {body->constant(Tensor::scalar<std::string>(""))},
                   Attrs{{"output_stream", std::string("file:///dev/null")}});
    body->outputs() = {node(*body, "Identity", {node(*body, "Mul", {bx, bx})})};
    return add_call(g, {x}, body, "body")->output(0);
  };
  auto build = [&](Graph& g) {
    Output x = g.placeholder({DType::Float32, Shape{3}}, "x");
    g.add_node(op::PrintV2, {g.constant(Tensor::scalar<std::string>(""))},
               Attrs{{"output_stream", std::string("file:///dev/null")}});
    Output a = square_call(g, x);
    Output b = square_call(g, node(g, "Mul", {x, g.constant(Tensor::scalar<float>(2))}));
    g.outputs() = {node(g, "AddV2", {a, b})};
  };
  Graph g("f");
  build(g);
  CHECK(count_op(g, "StatefulPartitionedCall") == 2);
  inline_calls(g);
  CHECK(count_op(g, "StatefulPartitionedCall") == 0);
  CHECK(count_op(g, "PrintV2") == 3);
  CHECK(g.find("StatefulPartitionedCall_1/Mul") != nullptr);
  verify_graph(g);  // the stateful chain runs through the inlined prints in order
  check_equivalent(build);

  Graph h("h");
  Output x = h.placeholder({DType::Float32, Shape{}}, "x");
  auto body = std::make_shared<Graph>("branchy", &h);
  Output bx = body->placeholder(x.spec(), "x");
  auto then_g = std::make_shared<Graph>("then", body.get());
  then_g->outputs() = {then_g->constant(Tensor::scalar<float>(1))};
  auto else_g = std::make_shared<Graph>("else", body.get());
  else_g->outputs() = {else_g->constant(Tensor::scalar<float>(2))};
  Output positive = node(*body, "Greater", {bx, body->constant(Tensor::scalar<float>(0))});
  body->outputs() = {add_if(*body, positive, {}, then_g, else_g)->output(0)};
  add_call(h, {x}, body, "body");
  inline_calls(h);
  CHECK(count_op(h, "PartitionedCall") + count_op(h, "StatefulPartitionedCall") == 1);
}
