#include <doctest/doctest.h>

#include "runtime/core/proto/graph_def.pb.h"
#include "runtime/core/variable.h"
#include "runtime/exec/compile.h"
#include "runtime/graph/control_flow.h"
#include "runtime/graph/function_def.h"
#include "runtime/ops/registry.h"

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

Output node(Graph& g, OpType op, std::vector<Output> in) { return g.add_node(op, std::move(in))->output(0); }

/// Through bytes, as a SavedModel stores it.
std::shared_ptr<const tensorflow::FunctionDefLibrary> reparse(const tensorflow::FunctionDefLibrary& lib) {
  std::string bytes;
  REQUIRE(lib.SerializeToString(&bytes));
  auto back = std::make_shared<tensorflow::FunctionDefLibrary>();
  REQUIRE(back->ParseFromString(bytes));
  return back;
}

const tensorflow::FunctionDef& function(const tensorflow::FunctionDefLibrary& lib, const std::string& name) {
  for (const auto& f : lib.function()) {
    if (f.signature().name() == name) return f;
  }
  FAIL("no function " << name);
  throw std::logic_error("unreachable");
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
  auto back = FunctionDefReader(reparse(*e.library)).read("f", e.variables);
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
  auto other = FunctionDefReader(reparse(*e.library)).read("f", {w2->id()});
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
  auto back = FunctionDefReader(reparse(*e.library)).read("cat", {});
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
  // An op of a registry of the test's own: every builtin op TF has declares its arguments.
  OpRegistry local;
  const OpDef& bare = local.op("BareOp").inputs(1).infer([](const InferContext& c) { return std::vector<TensorSpec>{c.inputs[0]}; }).def();
  Graph g("c");
  Output x = g.placeholder({DType::Float32, Shape{3}}, "x");
  g.outputs().push_back(g.add_node(bare, {x}, {}, "BareOp")->output(0));
  CHECK_THROWS_WITH_AS(export_function_def(g, "c"),
                       "op BareOp cannot be written to a FunctionDef yet: agc has not declared its TensorFlow arguments",
                       UnimplementedError);
}

TEST_CASE("a call is a StatefulPartitionedCall of the callee's own FunctionDef; the variable it reads passed as a resource") {
  auto w = Variable::create(Tensor::from_vector<float>({2, 2}, {1, -2, 3, 4}), "w");
  Graph g("outer");
  Output x = g.placeholder({DType::Float32, Shape{kUnknownDim, 2}}, "x");
  Output two = g.constant(Tensor::scalar<float>(2));
  // The callee as a nested graph that also captures the caller's constant.
  auto nested = std::make_shared<Graph>("dense", &g);
  Output bx = nested->placeholder({DType::Float32, Shape{kUnknownDim, 2}}, "x");
  Output read = nested->add_node(op::ReadVariableOp, {}, Attrs{{"var", w->id()}}, "ReadVariableOp")->output(0);
  Output mm = nested->add_node(op::MatMul, {bx, read}, Attrs{{"transpose_a", false}, {"transpose_b", false}}, "MatMul")->output(0);
  nested->outputs() = {node(*nested, op::Mul, {mm, nested->capture(two)})};
  Node* call = add_call(g, {x}, nested, "__inference_dense_7");
  g.outputs() = {node(g, op::AddV2, {call->output(0), g.constant(Tensor::scalar<float>(1))})};

  ExportedFunction e = export_function_def(g, "__inference_outer_8");
  REQUIRE(e.library->function_size() == 2);
  CHECK(e.variables == std::vector<int64_t>{w->id()});
  const auto& outer = function(*e.library, "__inference_outer_8");
  const tensorflow::NodeDef* c = nullptr;
  for (const auto& n : outer.node_def()) {
    if (n.op() == "StatefulPartitionedCall") c = &n;
  }
  REQUIRE(c != nullptr);
  CHECK(c->attr().at("f").func().name() == "__inference_dense_7");
  REQUIRE(c->input_size() == 3);  // x, the captured constant, the variable
  CHECK(c->input(0) == "x");
  CHECK(c->input(2) == outer.signature().input_arg(1).name());
  CHECK(c->attr().at("Tin").list().type(2) == tensorflow::DT_RESOURCE);
  CHECK(c->attr().at("Tout").list().type(0) == tensorflow::DT_FLOAT);
  CHECK(c->attr().count("config_proto") == 1);
  const auto& callee = function(*e.library, "__inference_dense_7");
  CHECK(callee.signature().input_arg(2).type() == tensorflow::DT_RESOURCE);

  FunctionDefReader reader(reparse(*e.library));
  auto back = reader.read("__inference_outer_8", e.variables);
  Tensor in = Tensor::from_vector<float>({1, 2}, {1, 1});
  auto got = run(*back, {in});
  auto want = run(g, {in});
  REQUIRE(got.size() == 1);
  CHECK(got[0].data<float>()[0] == want[0].data<float>()[0]);  // (1 + 3) * 2 + 1
  CHECK(got[0].data<float>()[0] == 9);
  CHECK(got[0].data<float>()[1] == want[0].data<float>()[1]);
  bool has_call = false;
  for (const auto& n : back->nodes()) has_call = has_call || (n->op->role() == OpRole::Call && n->attrs.get<std::string>("f") == "__inference_dense_7");
  CHECK(has_call);
}

TEST_CASE("an If is written with both branches taking every input, and read back runs the branch the predicate picks") {
  Graph g("f");
  Output p = g.placeholder({DType::Bool, Shape{}}, "p");
  Output x = g.placeholder({DType::Float32, Shape{3}}, "x");
  Output ten = g.constant(Tensor::scalar<float>(10));
  Output one = g.constant(Tensor::scalar<float>(1));
  auto then_g = std::make_shared<Graph>("then", &g);
  Output tx = then_g->placeholder({DType::Float32, Shape{3}}, "x");
  then_g->outputs() = {node(*then_g, op::Mul, {tx, then_g->capture(ten)})};
  auto else_g = std::make_shared<Graph>("else", &g);
  Output ex = else_g->placeholder({DType::Float32, Shape{3}}, "x");
  else_g->outputs() = {node(*else_g, op::Sub, {ex, else_g->capture(one)})};
  Node* n = add_if(g, p, {x}, then_g, else_g);
  g.outputs() = {n->output(0)};
  ExportedFunction e = export_function_def(g, "f");
  REQUIRE(e.library->function_size() == 3);
  const auto& outer = function(*e.library, "f");
  const tensorflow::NodeDef* if_def = nullptr;
  for (const auto& nd : outer.node_def()) {
    if (nd.op() == "StatelessIf") if_def = &nd;
  }
  REQUIRE(if_def != nullptr);
  CHECK(if_def->input_size() == 4);  // cond, x, the then branch's capture, the else branch's
  CHECK(if_def->attr().at("Tcond").type() == tensorflow::DT_BOOL);
  CHECK(if_def->attr().at("Tin").list().type_size() == 3);
  CHECK(if_def->attr().at("output_shapes").list().shape(0).dim(0).size() == 3);
  CHECK(if_def->attr().count("output_names") == 0);
  const auto& t = function(*e.library, if_def->attr().at("then_branch").func().name());
  const auto& f = function(*e.library, if_def->attr().at("else_branch").func().name());
  CHECK(t.signature().input_arg_size() == 3);
  CHECK(f.signature().input_arg_size() == 3);

  auto back = FunctionDefReader(reparse(*e.library)).read("f", {});
  Tensor in = Tensor::from_vector<float>({3}, {1, 2, 3});
  for (bool pred : {true, false}) {
    auto got = run(*back, {Tensor::scalar<bool>(pred), in});
    CHECK(got[0].data<float>()[2] == (pred ? 30.f : 2.f));
  }
}

TEST_CASE("a While is written as TF's while_v2 writes it: counter and limit first, captures passed through") {
  for (int64_t limit : {-1, 2}) {
    Graph g("f");
    Output i0 = g.placeholder({DType::Int32, Shape{}}, "i");
    Output acc0 = g.placeholder({DType::Float32, Shape{}}, "acc");
    Output step = g.constant(Tensor::scalar<float>(0.5f));
    auto cond = std::make_shared<Graph>("cond", &g);
    Output ci = cond->placeholder({DType::Int32, Shape{}}, "i");
    cond->placeholder({DType::Float32, Shape{}}, "acc");
    cond->outputs() = {node(*cond, op::Less, {ci, cond->constant(Tensor::scalar<int32_t>(5))})};
    auto body = std::make_shared<Graph>("body", &g);
    Output bi = body->placeholder({DType::Int32, Shape{}}, "i");
    Output bacc = body->placeholder({DType::Float32, Shape{}}, "acc");
    body->outputs() = {node(*body, op::AddV2, {bi, body->constant(Tensor::scalar<int32_t>(1))}),
                       node(*body, op::AddV2, {bacc, body->capture(step)})};
    WhileOptions options;
    options.maximum_iterations = limit;
    Node* loop = add_while(g, {i0, acc0}, cond, body, options);
    g.outputs() = {loop->output(0), loop->output(1)};
    ExportedFunction e = export_function_def(g, "f");
    const tensorflow::NodeDef* w = nullptr;
    for (const auto& nd : function(*e.library, "f").node_def()) {
      if (nd.op() == "StatelessWhile") w = &nd;
    }
    REQUIRE(w != nullptr);
    CHECK(w->input_size() == 5);  // counter, limit, i, acc, the captured step
    CHECK(w->attr().at("T").list().type_size() == 5);
    CHECK(w->attr().at("parallel_iterations").i() == 10);
    const auto& b = function(*e.library, w->attr().at("body").func().name());
    CHECK(b.signature().output_arg_size() == 5);
    CHECK(function(*e.library, "f").ret().at("output_1") == w->name() + ":output:3");

    auto back = FunctionDefReader(reparse(*e.library)).read("f", {});
    auto got = run(*back, {Tensor::scalar<int32_t>(0), Tensor::scalar<float>(0)});
    auto want = run(g, {Tensor::scalar<int32_t>(0), Tensor::scalar<float>(0)});
    CHECK(got[0].scalar_value<int32_t>() == want[0].scalar_value<int32_t>());
    CHECK(got[0].scalar_value<int32_t>() == (limit < 0 ? 5 : 2));
    CHECK(got[1].scalar_value<float>() == want[1].scalar_value<float>());
  }
}

TEST_CASE("a function the library lacks, or that calls one agc cannot run, is named") {
  auto lib = std::make_shared<tensorflow::FunctionDefLibrary>();
  auto* f = lib->add_function();
  f->mutable_signature()->set_name("outer");
  auto* c = f->add_node_def();
  c->set_name("call");
  c->set_op("PartitionedCall");
  (*c->mutable_attr())["f"].mutable_func()->set_name("inner");
  FunctionDefReader reader(lib);
  CHECK_THROWS_WITH_AS(reader.read("outer", {}), "Function inner is not in the function library", NotFoundError);
  CHECK_THROWS_WITH_AS(reader.read("nothing", {}), "Function nothing is not in the function library", NotFoundError);
  auto* inner = lib->add_function();
  inner->mutable_signature()->set_name("inner");
  inner->add_node_def()->set_op("TPUEmbeddingThing");
  FunctionDefReader reader2(lib);
  CHECK_THROWS_WITH_AS(reader2.read("outer", {}),
                       "Function outer uses op agc does not have: TPUEmbeddingThing (agc's ops are listed in docs/api.md)",
                       NotFoundError);
}
