#include <doctest/doctest.h>

#include <string>

#include "runtime/core/proto/graph_def.pb.h"
#include "runtime/core/variable.h"
#include "runtime/exec/compile.h"
#include "runtime/graph/control_flow.h"
#include "runtime/graph/dot.h"
#include "runtime/graph/function_def.h"
#include "runtime/ops/registry.h"

using namespace ag;

namespace {

Output node(Graph& g, OpType op, std::vector<Output> in, std::string_view name = {}) {
  return g.add_node(op, std::move(in), {}, name)->output(0);
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// f(p, x) = (x * 10 if p else x - 1) + x, the branches capturing their constants.
std::shared_ptr<Graph> if_graph() {
  auto g = std::make_shared<Graph>("f");
  Output p = g->placeholder({DType::Bool, Shape{}}, "p");
  Output x = g->placeholder({DType::Float32, Shape{3}}, "x");
  Output ten = g->constant(Tensor::scalar<float>(10), "ten");
  Output one = g->constant(Tensor::scalar<float>(1), "one");
  auto then_g = std::make_shared<Graph>("cond_true", g.get());
  Output tx = then_g->placeholder({DType::Float32, Shape{3}}, "x");
  then_g->outputs() = {node(*then_g, op::Mul, {tx, then_g->capture(ten)}, "mul")};
  auto else_g = std::make_shared<Graph>("cond_false", g.get());
  Output ex = else_g->placeholder({DType::Float32, Shape{3}}, "x");
  else_g->outputs() = {node(*else_g, op::Sub, {ex, else_g->capture(one)}, "sub")};
  Node* n = add_if(*g, p, {x}, then_g, else_g);
  g->outputs() = {node(*g, op::AddV2, {n->output(0), x}, "add")};
  return g;
}

const tensorflow::NodeDef& node_def(const tensorflow::GraphDef& def, const std::string& name) {
  for (const auto& n : def.node()) {
    if (n.name() == name) return n;
  }
  FAIL("no node " << name);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("dot_type_text writes dtype and dims, ? for an unknown dim") {
  CHECK(dot_type_text({DType::Float32, Shape{3}}) == "float32[3]");
  CHECK(dot_type_text({DType::Int32, Shape{}}) == "int32[]");
  CHECK(dot_type_text({DType::Float32, Shape{kUnknownDim, 2}}) == "float32[?,2]");
  CHECK(dot_type_text({DType::String, Shape::unknown_rank()}) == "string[unknown]");
}

TEST_CASE("dot_quoted escapes quotes and backslashes, and writes newlines as DOT's \\n") {
  CHECK(dot_quoted("add") == "\"add\"");
  CHECK(dot_quoted("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(dot_quoted("add (AddV2)\nfloat32[3]") == "\"add (AddV2)\\nfloat32[3]\"");
  CHECK(dot_quoted("tab\there") == "\"tab here\"");
}

TEST_CASE("graph_to_dot draws each node with its name, op and types, and the graph's outputs") {
  Graph g("f");
  Output x = g.placeholder({DType::Float32, Shape{3}}, "x");
  Output two = g.constant(Tensor::scalar<float>(2), "Const");
  g.outputs() = {node(g, op::AddV2, {x, two}, "add")};
  CHECK(graph_to_dot(g, "f(x)") ==
        "digraph \"f(x)\" {\n"
        "  graph [label=\"f(x)\", labelloc=t, compound=true];\n"
        "  node [shape=box, style=\"rounded,filled\", fontsize=11];\n"
        "  edge [fontsize=9];\n"
        "  n0 [label=\"x (Placeholder)\\nfloat32[3]\", shape=invhouse, fillcolor=\"#dbe8f7\"];\n"
        "  n1 [label=\"Const (Const)\\nfloat32[]\\n= 2.0\", fillcolor=\"#eeeeee\"];\n"
        "  n2 [label=\"add (AddV2)\\nfloat32[3]\", fillcolor=\"#ffffff\"];\n"
        "  n0 -> n2;\n"
        "  n1 -> n2;\n"
        "  out0 [label=\"output 0\", shape=house, fillcolor=\"#fce5cd\"];\n"
        "  n2 -> out0;\n"
        "}\n");
}

TEST_CASE("graph_to_dot labels edges from a node of several outputs and dashes control edges") {
  if (OpRegistry::global().find("Split") == nullptr || OpRegistry::global().find("PrintV2") == nullptr) return;
  Graph g("f");
  Output x = g.placeholder({DType::Float32, Shape{4}}, "x");
  Node* split = g.add_node(op::Split, {g.constant(Tensor::scalar<int32_t>(0), "axis"), x},
                           Attrs{{"num_split", int64_t{2}}}, "split");
  Output s = g.constant(Tensor::scalar<std::string>("hi"), "s");
  g.add_node(op::PrintV2, {s}, {}, "print");
  g.add_node(op::PrintV2, {s}, {}, "print2");
  g.outputs() = {split->output(1)};
  std::string dot = graph_to_dot(g, "f");
  CHECK(has(dot, "n2 [label=\"split (Split)\\n0: float32[2]\\n1: float32[2]\""));
  CHECK(has(dot, "n2 -> out0 [label=\"1\"];\n"));
  CHECK(has(dot, "n4 -> n5 [style=dashed, color=\"#888888\"];\n"));
  CHECK(has(dot, "n3 [label=\"s (Const)\\nstring[]\\n= b'hi'\""));
}

TEST_CASE("graph_to_dot names the variable a variable op reads") {
  auto w = Variable::create(Tensor::from_vector<float>({2}, {1, 2}), "w");
  Graph g("f");
  g.outputs() = {g.add_node(op::ReadVariableOp, {}, Attrs{{"var", w->id()}}, "ReadVariableOp")->output(0)};
  CHECK(has(graph_to_dot(g, "f"), "n0 [label=\"ReadVariableOp (ReadVariableOp)\\nfloat32[2]\\nvariable w\""));
}

TEST_CASE("graph_to_dot draws an If's branches as clusters under it, captures named") {
  auto g = if_graph();
  std::string dot = graph_to_dot(*g, "f(p, x)");
  CHECK(has(dot, "  n4 [label=\"cond (StatelessIf)\\nfloat32[3]\", fillcolor=\"#fff2cc\"];\n"));
  CHECK(has(dot, "  subgraph cluster_n4_s0 {\n    label=\"cond then_branch: cond_true\";\n"));
  CHECK(has(dot, "    n4_s0_n1 [label=\"ten (Placeholder)\\nfloat32[]\\ncaptures ten\", shape=invhouse"));
  CHECK(has(dot, "    n4_s0_n2 -> n4_s0_out0;\n"));
  CHECK(has(dot, "  n4 -> n4_s0_n0 [lhead=cluster_n4_s0, label=\"then_branch\", style=dotted, arrowhead=none];\n"));
  CHECK(has(dot, "  subgraph cluster_n4_s1 {\n    label=\"cond else_branch: cond_false\";\n"));
  CHECK(graph_to_dot(*g, "f(p, x)") == dot);  // the same graph, the same bytes
}

TEST_CASE("export_graph_def writes TF's GraphDef: placeholders, node:index inputs, branches as functions") {
  auto g = if_graph();
  tensorflow::GraphDef def;
  export_graph_def(*g, &def);
  CHECK(def.node(0).name() == "p");
  CHECK(def.node(0).op() == "Placeholder");
  CHECK(def.node(0).attr().at("dtype").type() == tensorflow::DT_BOOL);
  CHECK(def.node(1).name() == "x");
  CHECK(def.node(1).attr().at("shape").shape().dim(0).size() == 3);
  const tensorflow::NodeDef& cond = node_def(def, "cond");
  CHECK(cond.op() == "StatelessIf");
  REQUIRE(cond.input_size() == 4);
  CHECK(cond.input(0) == "p");
  CHECK(cond.input(1) == "x");
  CHECK(cond.input(2) == "ten");
  CHECK(cond.attr().at("_output_shapes").list().shape(0).dim(0).size() == 3);
  const std::string then_name = cond.attr().at("then_branch").func().name();
  const tensorflow::NodeDef& add = node_def(def, "add");
  CHECK(add.input(0) == "cond");
  CHECK(add.input(1) == "x");
  CHECK(def.node(def.node_size() - 1).name() == "add");  // no nodes for the results
  CHECK(add.attr().at("T").type() == tensorflow::DT_FLOAT);
  REQUIRE(def.library().function_size() == 2);
  CHECK(def.library().function(0).signature().name() == then_name);
  CHECK(def.versions().producer() > 0);
  // The text TensorBoard and Netron read.
  std::string text = graph_def_text(*g);
  CHECK(text.find("node {\n  name: \"p\"\n  op: \"Placeholder\"\n") == 0);
  CHECK(has(text, "library {\n  function {\n"));
}

TEST_CASE("an optimized graph's fused nodes are written under agc's name, their bodies as functions") {
  Graph g("f");
  Output x = g.placeholder({DType::Float32, Shape{1024}}, "x");
  Output y = node(g, op::Mul, {x, g.constant(Tensor::scalar<float>(2))}, "mul");
  Output z = node(g, op::Exp, {node(g, op::AddV2, {y, g.constant(Tensor::scalar<float>(1))}, "add")}, "exp");
  g.outputs() = {node(g, op::Tanh, {z}, "tanh")};
  Executable e = compile(g);
  const Graph& opt = e.graph();
  bool fused = false;
  for (const auto& n : opt.nodes()) fused = fused || n->op->role() == OpRole::Fused;
  REQUIRE(fused);
  tensorflow::GraphDef def;
  export_graph_def(opt, &def);
  bool found = false;
  for (const auto& n : def.node()) {
    if (n.op().rfind("Fused", 0) != 0) continue;
    found = true;
    CHECK(n.input(0) == "x");
    REQUIRE(n.attr().count("body") == 1);
    CHECK(def.library().function_size() >= 1);
  }
  CHECK(found);
  CHECK(has(graph_to_dot(opt, "f"), " body: "));
}
