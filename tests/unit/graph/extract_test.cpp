#include <doctest/doctest.h>

#include "runtime/core/variable.h"
#include "runtime/exec/compile.h"
#include "runtime/graph/extract.h"

using namespace ag;

namespace {

std::vector<Tensor> run(const Graph& g, std::vector<Tensor> args) { return compile(g).plan().run(args); }

}  // namespace

TEST_CASE("a TF1 graph does not chain its stateful nodes") {
  Graph g;
  g.set_v1();
  auto v = Variable::create_uninitialized(DType::Float32, Shape{}, "v");
  Node* assign = g.add_node(op::AssignVariableOp, {g.constant(Tensor::scalar<float>(1))}, Attrs{{"var", v->id()}});
  Node* read = g.add_node(op::ReadVariableOp, {}, Attrs{{"var", v->id()}});
  CHECK(assign->control_inputs.empty());
  CHECK(read->control_inputs.empty());
  CHECK(g.last_stateful() == nullptr);
}

TEST_CASE("a run takes only the nodes its fetches need, fed tensors cutting the walk") {
  Graph g;
  g.set_v1();
  Output x = g.placeholder({DType::Float32, Shape{2}}, "x");
  Output unused = g.placeholder({DType::Float32, Shape{}}, "unused");
  Output y = g.add_node(op::Mul, {x, x}, {}, "y")->output(0);
  Output z = g.add_node(op::AddV2, {y, g.constant(Tensor::scalar<float>(1))}, {}, "z")->output(0);
  (void)g.add_node(op::Neg, {unused}, {}, "other");

  Output feeds[] = {x};
  Output fetches[] = {z};
  auto run_graph = extract_subgraph(g, feeds, fetches, {});
  CHECK(run_graph->find("other") == nullptr);
  CHECK(run_graph->find("unused") == nullptr);
  auto out = run(*run_graph, {Tensor::from_vector<float>({2}, {2, 3})});
  CHECK(out[0].data<float>()[0] == 5);
  CHECK(out[0].data<float>()[1] == 10);

  // Feeding y: x is no longer needed (nor fed).
  Output feed_y[] = {y};
  auto cut = extract_subgraph(g, feed_y, fetches, {});
  CHECK(cut->find("x") == nullptr);
  CHECK(run(*cut, {Tensor::from_vector<float>({2}, {7, 8})})[0].data<float>()[1] == 9);
}

TEST_CASE("a needed placeholder that is not fed is TF's must-feed error") {
  Graph g;
  g.set_v1();
  Output x = g.placeholder({DType::Float32, Shape::unknown_dims(2)}, "x");
  Output y = g.add_node(op::Neg, {x})->output(0);
  Output fetches[] = {y};
  CHECK_THROWS_WITH_AS(extract_subgraph(g, {}, fetches, {}),
                       "You must feed a value for placeholder tensor 'x' with dtype float and shape [?,?]\n\t [[{{node x}}]]",
                       InvalidArgumentError);
}

TEST_CASE("a target runs its control inputs") {
  Graph g;
  g.set_v1();
  auto v = Variable::create_uninitialized(DType::Float32, Shape{}, "v");
  Node* assign = g.add_node(op::AssignVariableOp, {g.constant(Tensor::scalar<float>(4))}, Attrs{{"var", v->id()}});
  Node* init = g.add_node(op::NoOp, {}, {}, "init");
  init->control_inputs.push_back(assign);
  CHECK_FALSE(v->initialized());
  Node* targets[] = {init};
  run(*extract_subgraph(g, {}, {}, targets), {});
  CHECK(v->read().scalar_value<float>() == 4);
}
