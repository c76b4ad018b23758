#include <doctest/doctest.h>

#include "runtime/graph/graph.h"
#include "runtime/graph/printer.h"
#include "runtime/ops/registry.h"

using namespace ag;

TEST_CASE("print_graph lists nodes as the seeds print a GraphDef") {
  if (OpRegistry::global().find("AddV2") == nullptr) return;
  // @tf.function def f(a): return a + a   (000_*: "['a', 'a'] -> add")
  Graph g("f");
  Output a = g.placeholder({DType::Int32, Shape{}}, "a");
  Output add = g.add_node(op::AddV2, {a, a}, {}, "add")->output();
  g.outputs() = {g.add_node(op::Identity, {add})->output()};
  CHECK(print_graph(g) == "[] -> a\n['a', 'a'] -> add\n['add'] -> Identity\n");
}

TEST_CASE("print_graph names outputs past the first and control inputs as GraphDef does") {
  Graph g("f");
  Output x = g.placeholder({DType::Float32, Shape{4}}, "x");
  Node* split = nullptr;
  if (OpRegistry::global().find("Split") != nullptr) {
    split = g.add_node(op::Split, {g.constant(Tensor::scalar<int32_t>(0), "axis"), x}, Attrs{{"num_split", int64_t{2}}},
                       "split");
    g.add_node(op::Identity, {split->output(1)}, {}, "second");
  }
  if (OpRegistry::global().find("PrintV2") != nullptr) {
    Output s = g.constant(Tensor::scalar<std::string>("hi"), "s");
    g.add_node(op::PrintV2, {s}, {}, "print");
    g.add_node(op::PrintV2, {s}, {}, "print2");
  }
  std::string text = print_graph(g);
  if (split) CHECK(text.find("['split:1'] -> second\n") != std::string::npos);
  if (g.find("print2")) CHECK(text.find("['s', '^print'] -> print2\n") != std::string::npos);
  CHECK(text.find("[] -> x\n") == 0);
}

TEST_CASE("dump_graph shows op types, output types, attributes and subgraphs") {
  Graph g("f");
  Output x = g.placeholder({DType::Float32, Shape{2, kUnknownDim}}, "x");
  Output c = g.constant(Tensor::scalar<float>(1.5f), "c");
  g.outputs() = {g.add_node(op::Identity, {x}, {}, "y")->output(), c};
  std::string d = dump_graph(g);
  CHECK(d.find("graph f\n") == 0);
  CHECK(d.find("  x = Placeholder() : float32(2, None) {dtype=float32, shape=(2, None)}\n") != std::string::npos);
  CHECK(d.find("  c = Const() : float32() {value=<tensor float32() = 1.500000>}\n") != std::string::npos);
  CHECK(d.find("  y = Identity(x) : float32(2, None)\n") != std::string::npos);
  CHECK(d.find("  inputs: x\n  outputs: y c\n") != std::string::npos);
}
