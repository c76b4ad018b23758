#include <doctest/doctest.h>

#include "runtime/core/proto/graph_def.pb.h"
#include "runtime/core/variable.h"
#include "runtime/exec/compile.h"
#include "runtime/graph/function_def.h"

using namespace ag;

namespace {

std::vector<Tensor> run(const Graph& g, std::vector<Tensor> args) { return compile(g).plan().run(args); }

/// relu(x @ w + 1) over a variable w, as a tf.function traces it.
std::shared_ptr<Graph> dense_graph(const Variable& w) {
  auto g = std::make_shared<Graph>("dense");
  Output x = g->placeholder({DType::Float32, Shape{kUnknownDim, 2}}, "x");
  Output read = g->add_node(op::ReadVariableOp, {}, Attrs{{"var", w.id()}}, "ReadVariableOp")->output(0);
  Output mm = g->add_node(op::MatMul, {x, read}, Attrs{{"transpose_a", false}, {"transpose_b", false}}, "MatMul")->output(0);
  Output add = g->add_node(op::AddV2, {mm, g->constant(Tensor::scalar<float>(1))}, {}, "add")->output(0);
  g->outputs().push_back(g->add_node(op::Relu, {add}, {}, "Relu")->output(0));
  return g;
}

/// Through bytes, as a SavedModel stores it.
tensorflow::FunctionDef reparse(const tensorflow::FunctionDef& def) {
  std::string bytes;
  REQUIRE(def.SerializeToString(&bytes));
  tensorflow::FunctionDef back;
  REQUIRE(back.ParseFromString(bytes));
  return back;
}

}  // namespace

TEST_CASE("a graph is written as TF's FunctionDef: argument names, node:arg:index inputs, type attrs") {
  auto w = Variable::create(Tensor::from_vector<float>({2, 2}, {1, -2, 3, 4}), "w");
  auto g = dense_graph(*w);
  ExportedFunction e = export_function_def(*g, "__inference_dense_12");
  const tensorflow::FunctionDef& def = *e.def;
  CHECK(def.signature().name() == "__inference_dense_12");
  REQUIRE(def.signature().input_arg_size() == 2);
  CHECK(def.signature().input_arg(0).name() == "x");
  CHECK(def.signature().input_arg(0).type() == tensorflow::DT_FLOAT);
  CHECK(def.signature().input_arg(1).name() == "readvariableop_resource");
  CHECK(def.signature().input_arg(1).type() == tensorflow::DT_RESOURCE);
  CHECK(e.variables == std::vector<int64_t>{w->id()});
  CHECK(def.signature().is_stateful());
  const tensorflow::NodeDef* matmul = nullptr;
  const tensorflow::NodeDef* read = nullptr;
  for (const auto& n : def.node_def()) {
    if (n.name() == "MatMul") matmul = &n;
    if (n.name() == "ReadVariableOp") read = &n;
  }
  REQUIRE(matmul != nullptr);
  REQUIRE(read != nullptr);
  CHECK(matmul->input(0) == "x");
  CHECK(matmul->input(1) == "ReadVariableOp:value:0");
  CHECK(matmul->attr().at("T").type() == tensorflow::DT_FLOAT);
  CHECK(matmul->attr().at("transpose_a").b() == false);
  CHECK(read->input(0) == "readvariableop_resource");
  CHECK(read->attr().at("dtype").type() == tensorflow::DT_FLOAT);
  CHECK(read->attr().count("var") == 0);  // agc's own way to name the variable stays out
  CHECK(def.ret().at("output_0") == "Relu:activations:0");
  CHECK(def.arg_attr().at(0).attr().at("_output_shapes").list().shape(0).dim(0).size() == -1);
}

TEST_CASE("a FunctionDef read back computes what the graph did, its resource bound to the variable") {
  auto w = Variable::create(Tensor::from_vector<float>({2, 2}, {1, -2, 3, 4}), "w");
  auto g = dense_graph(*w);
  ExportedFunction e = export_function_def(*g, "f");
  auto back = import_function_def(reparse(*e.def), e.variables);
  Tensor x = Tensor::from_vector<float>({3, 2}, {1, 2, -1, 0, 0.5f, 0.5f});
  std::vector<Tensor> want = run(*g, {x});
  std::vector<Tensor> got = run(*back, {x});
  REQUIRE(got.size() == 1);
  CHECK(got[0].shape() == want[0].shape());
  for (int64_t i = 0; i < want[0].num_elements(); ++i) CHECK(got[0].data<float>()[i] == want[0].data<float>()[i]);
  CHECK(back->inputs().size() == 1);
  CHECK(back->inputs()[0]->outputs[0].shape == (Shape{kUnknownDim, 2}));
  // Bound to another variable, it reads that one.
  auto w2 = Variable::create(Tensor::from_vector<float>({2, 2}, {0, 0, 0, 0}), "w2");
  auto other = import_function_def(reparse(*e.def), {w2->id()});
  CHECK(run(*other, {x})[0].data<float>()[0] == 1);
}

TEST_CASE("list arguments: ConcatV2's values take N tensors, N written as TF's attr") {
  Graph g("cat");
  Output a = g.placeholder({DType::Float32, Shape{2}}, "a");
  Output b = g.placeholder({DType::Float32, Shape{3}}, "b");
  Output axis = g.constant(Tensor::scalar<int32_t>(0));
  Node* cat = g.add_node(op::ConcatV2, {a, b, a, axis}, {}, "concat");
  g.outputs().push_back(cat->output(0));
  ExportedFunction e = export_function_def(g, "cat");
  const tensorflow::NodeDef& n = e.def->node_def(1);
  REQUIRE(n.name() == "concat");
  CHECK(n.input_size() == 4);
  CHECK(n.input(3) == "Const:output:0");
  CHECK(n.attr().at("N").i() == 3);
  CHECK(n.attr().at("Tidx").type() == tensorflow::DT_INT32);
  auto back = import_function_def(reparse(*e.def), {});
  auto out = run(*back, {Tensor::from_vector<float>({2}, {1, 2}), Tensor::from_vector<float>({3}, {3, 4, 5})});
  CHECK(out[0].num_elements() == 7);
  CHECK(out[0].data<float>()[6] == 2);
}

TEST_CASE("reading names every op agc lacks at once, and a bad input reference") {
  tensorflow::FunctionDef def;
  def.mutable_signature()->set_name("__inference_f_3");
  auto* n1 = def.add_node_def();
  n1->set_name("a");
  n1->set_op("FancyOp");
  auto* n2 = def.add_node_def();
  n2->set_name("b");
  n2->set_op("OtherOp");
  CHECK_THROWS_WITH_AS(import_function_def(def, {}),
                       "Function __inference_f_3 uses ops agc does not have: FancyOp, OtherOp (agc's ops are listed in "
                       "docs/api.md)",
                       NotFoundError);

  tensorflow::FunctionDef bad;
  bad.mutable_signature()->set_name("g");
  auto* id = bad.add_node_def();
  id->set_name("Identity");
  id->set_op("Identity");
  id->add_input("nowhere:output:0");
  CHECK_THROWS_AS(import_function_def(bad, {}), InvalidArgumentError);
  id->set_input(0, "x:bad");
  CHECK_THROWS_WITH_AS(import_function_def(bad, {}),
                       "Function g: node Identity reads 'x:bad', which names no argument or node output",
                       InvalidArgumentError);
}

TEST_CASE("an op without declared TF arguments is not written, and says which") {
  Graph g("c");
  Output x = g.placeholder({DType::Float32, Shape{3}}, "x");
  g.outputs().push_back(g.add_node(op::Cumsum, {x, g.constant(Tensor::scalar<int32_t>(0))}, {}, "Cumsum")->output(0));
  CHECK_THROWS_WITH_AS(export_function_def(g, "c"),
                       "op Cumsum cannot be written to a FunctionDef yet: agc has not declared its TensorFlow arguments",
                       UnimplementedError);
}
