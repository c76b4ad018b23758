// The graph verifier and the optimizer's pass runner: each invariant, broken
// on purpose, is reported with the graph, the node and the rule; a pass that
// breaks a graph is named; dumps show only what a pass changed.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "runtime/core/error.h"
#include "runtime/graph/control_flow.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/graph/optimize/pipeline.h"
#include "runtime/graph/verify.h"
#include "tests/unit/graph/support.h"

using namespace ag;
using ag::test::node;

namespace {

std::string verify_error(const Graph& g) {
  try {
    verify_graph(g);
  } catch (const InternalError& e) {
    return e.what();
  }
  return "<verified>";
}

}  // namespace

TEST_CASE("a traced graph verifies") {
  Graph g("f");
  Output x = g.placeholder({DType::Float32, Shape{2}}, "x");
  Output y = node(g, "Tanh", {x}, "y");
  g.add_node(op::PrintV2, {g.constant(Tensor::scalar<std::string>("a"), "m1")}, {}, "p1");
  g.add_node(op::PrintV2, {g.constant(Tensor::scalar<std::string>("b"), "m2")}, {}, "p2");
  g.outputs() = {y};
  CHECK(verify_error(g) == "<verified>");
}

TEST_CASE("the verifier reports each broken invariant") {
  SUBCASE("a recorded type its op does not give") {
    Graph g("f");
    Output y = node(g, "Tanh", {g.placeholder({DType::Float32, Shape{2}}, "x")}, "y");
    y.node->outputs[0].shape = Shape{3};
    CHECK(verify_error(g) ==
          "graph verifier: graph 'f', node 'y': output 0 is recorded as float32(3,) but its op gives float32(2,)");
  }
  SUBCASE("an input after its reader") {
    Graph g("f");
    Output x = g.placeholder({DType::Float32, Shape{2}}, "x");
    Output a = node(g, "Tanh", {x}, "a");
    Output b = node(g, "Exp", {a}, "b");
    g.reorder_nodes({x.node, b.node, a.node});
    CHECK(verify_error(g) == "graph verifier: graph 'f', node 'b': an input is not an earlier node of the same graph");
  }
  SUBCASE("a stateful node that no longer follows the one before") {
    Graph g("f");
    g.add_node(op::PrintV2, {g.constant(Tensor::scalar<std::string>("a"), "m1")}, {}, "p1");
    Node* p2 = g.add_node(op::PrintV2, {g.constant(Tensor::scalar<std::string>("b"), "m2")}, {}, "p2");
    p2->control_inputs.clear();
    CHECK(verify_error(g) ==
          "graph verifier: graph 'f', node 'p2': it does not depend on the stateful node before it, 'p1'");
  }
  SUBCASE("an output of another graph") {
    Graph g("f"), other("g");
    g.outputs() = {other.placeholder({DType::Float32, Shape{}}, "x")};
    CHECK(verify_error(g) == "graph verifier: graph 'f': an output is not a tensor of the graph");
  }
  SUBCASE("a branch whose outputs no longer match the If") {
    Graph g("f");
    Output p = g.placeholder({DType::Bool, Shape{}}, "p");
    Output x = g.placeholder({DType::Float32, Shape{}}, "x");
    auto then_g = std::make_shared<Graph>("then", &g);
    auto else_g = std::make_shared<Graph>("else", &g);
    then_g->outputs() = {then_g->capture(x)};
    else_g->outputs() = {else_g->capture(x)};
    Node* n = add_if(g, p, {}, then_g, else_g);
    g.outputs() = {n->output()};
    CHECK(verify_error(g) == "<verified>");
    else_g->outputs() = {else_g->constant(Tensor::scalar<int32_t>(1))};
    CHECK(verify_error(g).starts_with("graph verifier: graph 'f', node 'cond': its op's shape rule rejects it now: "));
  }
}

TEST_CASE("run_passes verifies after each pass and names the pass that broke the graph") {
  Graph g("f");
  Output y = node(g, "Tanh", {g.placeholder({DType::Float32, Shape{2}}, "x")}, "y");
  g.outputs() = {y};
  const GraphPass passes[] = {
      {"fold_constants", fold_constants},
      {"breaks_types", [](Graph& h) { h.nodes().back()->outputs[0].dtype = DType::Int32; }},
  };
  PassOptions checked;
  checked.verify = true;
  CHECK_THROWS_WITH_AS(run_passes(g, passes, checked),
                       "after graph pass breaks_types: graph verifier: graph 'f', node 'y': output 0 is recorded as "
                       "int32(2,) but its op gives float32(2,)",
                       InternalError);
}

TEST_CASE("run_passes dumps a graph after the named pass only when it changed it") {
  Graph g("f");
  Output x = g.placeholder({DType::Float32, Shape{2}}, "x");
  Output one = g.constant(Tensor::scalar<float>(1.f), "one");
  Output two = node(g, "AddV2", {one, one}, "two");
  g.outputs() = {node(g, "Mul", {x, two}, "y")};
  std::FILE* log = std::tmpfile();
  REQUIRE(log != nullptr);
  PassOptions dumping;
  dumping.dump_after = "all";
  dumping.log = log;
  const GraphPass passes[] = {{"remove_identities", remove_identities}, {"fold_constants", fold_constants}};
  run_passes(g, passes, dumping);
  std::rewind(log);
  std::string text;
  for (int c; (c = std::fgetc(log)) != EOF;) text += static_cast<char>(c);
  std::fclose(log);
  CHECK(text.find("after remove_identities") == std::string::npos);  // nothing to remove
  CHECK(text.find("--- graph 'f' after fold_constants ---") != std::string::npos);
  CHECK(text.find("two = Const") != std::string::npos);
}
