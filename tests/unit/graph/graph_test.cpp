#include <doctest/doctest.h>

#include "runtime/graph/graph.h"

using namespace ag;

TEST_CASE("node names are made unique as TensorFlow does") {
  Graph g;
  CHECK(g.unique_name("add") == "add");
  CHECK(g.unique_name("add") == "add_1");
  CHECK(g.unique_name("add_2") == "add_2");
  CHECK(g.unique_name("add") == "add_3");  // add_2 is taken
  CHECK(g.unique_name("Add") == "Add_4");  // case-insensitive, as TF
  CHECK(g.unique_name("x") == "x");
}

TEST_CASE("nodes record inputs, inferred types and Const values") {
  Graph g("f");
  Output a = g.placeholder({DType::Int32, Shape{}}, "a");
  Output c = g.constant(Tensor::scalar<int32_t>(3));
  Node* id = g.add_node(op::Identity, {a});
  CHECK(id->name == "Identity");
  CHECK(id->outputs[0].dtype == DType::Int32);
  CHECK(a.name() == "a:0");
  CHECK(Graph::constant_value(c)->scalar_value<int32_t>() == 3);
  CHECK(Graph::constant_value(a) == nullptr);
  CHECK(g.inputs().size() == 1);
  CHECK(g.find("Const") == c.node);
  CHECK(id->inputs[0] == a);
}

TEST_CASE("an input from an unrelated graph is rejected") {
  Graph g1, g2;
  Output a = g1.placeholder({DType::Float32, Shape{}}, "a");
  CHECK_THROWS_AS(g2.add_node(op::Identity, {a}), InvalidArgumentError);
  CHECK_THROWS_AS(g2.capture(a), InvalidArgumentError);
}

TEST_CASE("a branch graph captures tensors of enclosing graphs once, through every level") {
  Graph outer("outer");
  Output x = outer.placeholder({DType::Float32, Shape{2}}, "x");
  Graph mid("mid", &outer);
  Graph inner("inner", &mid);
  Output in1 = inner.capture(x);
  Output in2 = inner.capture(x);
  CHECK(in1 == in2);
  CHECK(in1.node->graph == &inner);
  CHECK(in1.spec().shape == Shape{2});
  REQUIRE(mid.captures().size() == 1);
  CHECK(mid.captures()[0].first == x);
  REQUIRE(inner.captures().size() == 1);
  CHECK(inner.captures()[0].first == mid.captures()[0].second);
}

TEST_CASE("removing nodes renumbers the rest") {
  Graph g;
  Output a = g.placeholder({DType::Float32, Shape{}}, "a");
  g.constant(Tensor::scalar<float>(1));
  Node* id = g.add_node(op::Identity, {a});
  g.remove_nodes({true, false, true});
  CHECK(g.nodes().size() == 2);
  CHECK(id->id == 1);
  CHECK(g.find("Const") == nullptr);
}
