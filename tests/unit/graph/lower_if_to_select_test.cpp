#include <doctest/doctest.h>

#include <functional>
#include <random>
#include <string>

#include "runtime/graph/control_flow.h"
#include "runtime/exec/plan.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/graph/printer.h"
#include "runtime/ops/registry.h"
#include "tests/unit/graph/support.h"

using namespace ag;
using ag::test::bytes_of;
using ag::test::have;
using ag::test::node;

namespace {

/// Number of `name` nodes in `g` and every graph nested in it.
size_t count_op_nested(const Graph& g, std::string_view name) {
  size_t n = 0;
  for (const auto& node : g.nodes()) {
    n += node->op->name == name;
    for (const auto& sub : node->subgraphs) n += count_op_nested(*sub, name);
  }
  return n;
}

Tensor random_tensor(const TensorSpec& spec, std::mt19937& rng) {
  Tensor t(spec.dtype, spec.shape);
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    switch (spec.dtype) {
      case DType::Float32: t.data<float>()[i] = std::uniform_real_distribution<float>(-2.f, 2.f)(rng); break;
      case DType::Int32: t.data<int32_t>()[i] = std::uniform_int_distribution<int32_t>(-20, 20)(rng); break;
      case DType::Bool: t.data<bool>()[i] = std::uniform_int_distribution<int>(0, 1)(rng) == 1; break;
      default: FAIL("no random values for this dtype");
    }
  }
  return t;
}

/// Builds the graph twice, lowers one copy, and checks both plans return the
/// same dtypes, shapes and values on random inputs. Returns the lowered graph's
/// printout.
std::string check_lowered_equivalent(const std::function<void(Graph&)>& build, int trials = 20) {
  Graph plain("f"), lowered("f");
  build(plain);
  build(lowered);
  lower_if_to_select(lowered);
  Plan a = compile_plan(plain);
  Plan b = compile_plan(lowered);
  std::mt19937 rng(11);
  for (int t = 0; t < trials; ++t) {
    std::vector<Tensor> args;
    for (const Node* in : plain.inputs()) args.push_back(random_tensor(in->outputs[0], rng));
    auto x = a.run(args);
    auto y = b.run(args);
    REQUIRE(x.size() == y.size());
    for (size_t i = 0; i < x.size(); ++i) {
      REQUIRE(x[i].shape() == y[i].shape());
      REQUIRE(x[i].dtype() == y[i].dtype());
      CHECK(bytes_of(x[i]) == bytes_of(y[i]));
    }
  }
  return print_graph(lowered);
}

/// r = if c: (x + y, x) else: (x * y, x), the branches capturing x and y.
void build_simple(Graph& g) {
  Output c = g.placeholder({DType::Bool, Shape{}}, "c");
  Output x = g.placeholder({DType::Float32, Shape{3}}, "x");
  Output y = g.placeholder({DType::Float32, Shape{3}}, "y");
  auto then_g = std::make_shared<Graph>("then", &g);
  then_g->outputs() = {node(*then_g, "AddV2", {then_g->capture(x), then_g->capture(y)}), then_g->capture(x)};
  auto else_g = std::make_shared<Graph>("else", &g);
  else_g->outputs() = {node(*else_g, "Mul", {else_g->capture(x), else_g->capture(y)}), else_g->capture(x)};
  Node* n = add_if(g, c, {}, then_g, else_g);
  g.outputs() = {node(g, "Neg", {n->output(0)}), n->output(1)};
}

/// An If on an int32 scalar whose then branch is `then_body(branch, v)` and
/// whose else branch returns v + 1; v is passed as an argument.
void build_int_if(Graph& g, const std::function<Output(Graph&, Output)>& then_body) {
  Output c = g.placeholder({DType::Bool, Shape{}}, "c");
  Output v = g.placeholder({DType::Int32, Shape{}}, "v");
  auto then_g = std::make_shared<Graph>("then", &g);
  then_g->outputs() = {then_body(*then_g, then_g->placeholder({DType::Int32, Shape{}}, "v"))};
  auto else_g = std::make_shared<Graph>("else", &g);
  Output ev = else_g->placeholder({DType::Int32, Shape{}}, "v");
  else_g->outputs() = {node(*else_g, "AddV2", {ev, else_g->constant(Tensor::scalar<int32_t>(1))})};
  Node* n = add_if(g, c, {v}, then_g, else_g);
  g.outputs() = {n->output(0)};
}

Output int_const(Graph& g, int32_t v) { return g.constant(Tensor::scalar<int32_t>(v)); }

}  // namespace

TEST_CASE("a small stateless If becomes both branches plus a Select per changed output") {
  if (!have({"AddV2", "Mul", "Neg", "SelectV2", "StatelessIf"})) return;
  Graph g("f");
  build_simple(g);
  lower_if_to_select(g);
  CHECK(count_op_nested(g, "StatelessIf") == 0);
  CHECK(count_op_nested(g, "SelectV2") == 1);  // the second output is x in both branches
  CHECK(g.outputs()[1].node->name == "x");
  // Still topologically ordered: every input comes from an earlier node.
  for (const auto& n : g.nodes()) {
    for (const Output& in : n->inputs) CHECK(in.node->id < n->id);
  }
  check_lowered_equivalent(build_simple);
}

TEST_CASE("Ifs with an op that can fail or has an effect stay Ifs") {
  if (!have({"AddV2", "FloorMod", "FloorDiv", "PrintV2", "Assert", "SelectV2", "StatelessIf", "If"})) return;
  auto kept = [](const std::function<Output(Graph&, Output)>& then_body) {
    Graph g("f");
    build_int_if(g, then_body);
    lower_if_to_select(g);
    return count_op_nested(g, "StatelessIf") + count_op_nested(g, "If") == 1 && count_op_nested(g, "SelectV2") == 0;
  };
  // Integer modulo and division by a run-time value can fail (division by zero).
  CHECK(kept([](Graph& b, Output v) { return node(b, "FloorMod", {v, v}); }));
  CHECK(kept([](Graph& b, Output v) { return node(b, "FloorDiv", {int_const(b, 7), v}); }));
  CHECK(kept([](Graph& b, Output v) { return node(b, "FloorMod", {v, int_const(b, 0)}); }));
  // Stateful ops: printing and asserting must happen only on the taken side.
  CHECK(kept([](Graph& b, Output v) {
    b.add_node(op::PrintV2, {b.constant(Tensor::scalar<std::string>("hi"))});
    return v;
  }));
  CHECK(kept([](Graph& b, Output v) {
    b.add_node(op::Assert, {node(b, "Equal", {v, int_const(b, 0)}), v});
    return v;
  }));
  // A Const divisor without zeros cannot fail: that lowers.
  CHECK_FALSE(kept([](Graph& b, Output v) { return node(b, "FloorMod", {v, int_const(b, 3)}); }));
  check_lowered_equivalent([](Graph& g) {
    build_int_if(g, [](Graph& b, Output v) { return node(b, "FloorDiv", {v, int_const(b, -3)}); });
  });
}

TEST_CASE("an If whose output shape is not static stays an If") {
  if (!have({"AddV2", "StatelessIf"})) return;
  Graph g("f");
  Output c = g.placeholder({DType::Bool, Shape{}}, "c");
  Output x = g.placeholder({DType::Float32, Shape::unknown_dims(1)}, "x");
  auto then_g = std::make_shared<Graph>("then", &g);
  then_g->outputs() = {node(*then_g, "AddV2", {then_g->capture(x), then_g->capture(x)})};
  auto else_g = std::make_shared<Graph>("else", &g);
  else_g->outputs() = {else_g->capture(x)};
  Node* n = add_if(g, c, {}, then_g, else_g);
  g.outputs() = {n->output()};
  lower_if_to_select(g);
  CHECK(count_op_nested(g, "StatelessIf") == 1);
}

TEST_CASE("nested Ifs lower bottom-up into straight-line code") {
  if (!have({"AddV2", "Sub", "FloorMod", "Equal", "SelectV2", "StatelessIf"})) return;
  // if a % 3 == 0: a += 1 elif a % 5 == 0: b -= 1 else: (a, b) = (b, a)
  auto build = [](Graph& g) {
    Output a = g.placeholder({DType::Int32, Shape{}}, "a");
    Output b = g.placeholder({DType::Int32, Shape{}}, "b");
    auto divisible = [](Graph& gr, Output v, int32_t d) {
      return node(gr, "Equal", {node(gr, "FloorMod", {v, int_const(gr, d)}), int_const(gr, 0)});
    };
    auto outer_then = std::make_shared<Graph>("then", &g);
    outer_then->outputs() = {node(*outer_then, "AddV2", {outer_then->capture(a), int_const(*outer_then, 1)}),
                             outer_then->capture(b)};
    auto outer_else = std::make_shared<Graph>("else", &g);
    {
      Graph& e = *outer_else;
      auto inner_then = std::make_shared<Graph>("then", &e);
      inner_then->outputs() = {inner_then->capture(e.capture(a)),
                               node(*inner_then, "Sub", {inner_then->capture(e.capture(b)), int_const(*inner_then, 1)})};
      auto inner_else = std::make_shared<Graph>("else", &e);
      inner_else->outputs() = {inner_else->capture(e.capture(b)), inner_else->capture(e.capture(a))};
      Node* inner = add_if(e, divisible(e, e.capture(a), 5), {}, inner_then, inner_else);
      e.outputs() = {inner->output(0), inner->output(1)};
    }
    Node* outer = add_if(g, divisible(g, a, 3), {}, outer_then, outer_else);
    g.outputs() = {outer->output(0), outer->output(1)};
  };
  std::string printed = check_lowered_equivalent(build, 40);
  Graph g("f");
  build(g);
  lower_if_to_select(g);
  CHECK(count_op_nested(g, "StatelessIf") == 0);
  CHECK(count_op_nested(g, "SelectV2") == 4);
  CHECK(printed.find("cond/else/cond") != std::string::npos);  // the inner If's nodes, named after both Ifs
}

namespace {

/// The fizzbuzz loop of bench/fizzbuzz_bench.cpp, built by hand: a While over
/// (i, fizz, buzz, fizzbuzz, other) whose body holds three nested Ifs, with
/// the counters passed as If arguments.
void build_fizzbuzz(Graph& g) {
  const TensorSpec s{DType::Int32, Shape{}};
  Output limit = g.placeholder(s, "limit");
  auto cond = std::make_shared<Graph>("while_cond", &g);
  {
    std::vector<Output> v;
    for (const char* name : {"i", "fizz", "buzz", "fizzbuzz", "other"}) v.push_back(cond->placeholder(s, name));
    cond->outputs() = {node(*cond, "Less", {v[0], cond->capture(limit)})};
  }
  auto body = std::make_shared<Graph>("while_body", &g);
  Graph& b = *body;
  std::vector<Output> v;
  for (const char* name : {"i", "fizz", "buzz", "fizzbuzz", "other"}) v.push_back(b.placeholder(s, name));
  auto divisible = [](Graph& gr, Output x, int32_t d) {
    return node(gr, "Equal", {node(gr, "FloorMod", {x, int_const(gr, d)}), int_const(gr, 0)});
  };
  auto inc = [](Graph& gr, Output x) { return node(gr, "AddV2", {x, int_const(gr, 1)}); };
  // An If over `vars` (the state) whose then branch increments vars[k] and
  // whose else branch is `else_body` (given the branch and its placeholders).
  std::function<std::vector<Output>(Graph&, Output, std::vector<Output>, size_t,
                                    const std::function<std::vector<Output>(Graph&, std::vector<Output>)>&)>
      if_inc = [&](Graph& gr, Output c, std::vector<Output> vars, size_t k, const auto& else_body) {
        auto then_g = std::make_shared<Graph>("cond_true", &gr);
        auto else_g = std::make_shared<Graph>("cond_false", &gr);
        std::vector<Output> tp, ep;
        for (const Output& x : vars) {
          tp.push_back(then_g->placeholder(s, x.node->name));
          ep.push_back(else_g->placeholder(s, x.node->name));
        }
        then_g->outputs() = tp;
        then_g->outputs()[k] = inc(*then_g, tp[k]);
        else_g->outputs() = else_body(*else_g, ep);
        Node* n = add_if(gr, c, vars, then_g, else_g);
        std::vector<Output> out;
        for (size_t i = 0; i < vars.size(); ++i) out.push_back(n->output(static_cast<int>(i)));
        return out;
      };
  // State order in the Ifs: i, fizz, buzz, fizzbuzz, other.
  std::vector<Output> next = if_inc(b, divisible(b, v[0], 15), v, 3, [&](Graph& e1, std::vector<Output> p1) {
    return if_inc(e1, divisible(e1, p1[0], 3), p1, 1, [&](Graph& e2, std::vector<Output> p2) {
      return if_inc(e2, divisible(e2, p2[0], 5), p2, 2, [&](Graph& e3, std::vector<Output> p3) {
        std::vector<Output> out = p3;
        out[4] = inc(e3, p3[4]);
        return out;
      });
    });
  });
  next[0] = inc(b, v[0]);
  b.outputs() = next;
  std::vector<Output> init{g.constant(Tensor::scalar<int32_t>(1))};
  for (int k = 0; k < 4; ++k) init.push_back(g.constant(Tensor::scalar<int32_t>(0)));
  Node* loop = add_while(g, init, cond, body);
  g.outputs() = {loop->output(1), loop->output(2), loop->output(3), loop->output(4)};
}

}  // namespace

TEST_CASE("fizzbuzz's Ifs inside a While body lower and count the same") {
  if (!have({"AddV2", "FloorMod", "Equal", "Less", "SelectV2", "StatelessIf", "StatelessWhile"})) return;
  Graph plain("fizzbuzz"), lowered("fizzbuzz");
  build_fizzbuzz(plain);
  build_fizzbuzz(lowered);
  REQUIRE(count_op_nested(lowered, "StatelessIf") == 3);
  optimize(lowered);
  CHECK(count_op_nested(lowered, "StatelessIf") == 0);
  CHECK(count_op_nested(lowered, "StatelessWhile") == 1);
  Plan a = compile_plan(plain);
  Plan b = compile_plan(lowered);
  for (int32_t limit : {1, 2, 16, 101, 1000}) {
    const std::vector<Tensor> args{Tensor::scalar<int32_t>(limit)};
    auto x = a.run(args);
    auto y = b.run(args);
    REQUIRE(x.size() == 4);
    REQUIRE(y.size() == 4);
    const int32_t n = limit - 1;
    const int32_t expected[4] = {n / 3 - n / 15, n / 5 - n / 15, n / 15, n - n / 3 - n / 5 + n / 15};
    for (size_t k = 0; k < 4; ++k) {
      CHECK(x[k].template scalar_value<int32_t>() == expected[k]);
      CHECK(y[k].template scalar_value<int32_t>() == expected[k]);
      CHECK(y[k].shape() == Shape{});
    }
  }
}

TEST_CASE("after lowering, fizzbuzz's loop body is one FusedScalar node") {
  if (!have({"FusedScalar", "StatelessIf", "StatelessWhile"})) return;
  Graph g("fizzbuzz");
  build_fizzbuzz(g);
  optimize(g);
  const Node* loop = nullptr;
  for (const auto& n : g.nodes()) {
    if (n->op->name == "StatelessWhile") loop = n.get();
  }
  REQUIRE(loop != nullptr);
  CHECK(count_op_nested(*loop->subgraphs[1], "FusedScalar") == 1);
  size_t work = 0;
  for (const auto& n : loop->subgraphs[1]->nodes()) work += n->op->name != "Const" && n->op->name != "Placeholder";
  CHECK(work == 1);
}
