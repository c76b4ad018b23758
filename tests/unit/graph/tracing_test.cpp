#include <doctest/doctest.h>

#include "runtime/graph/tracing.h"

using namespace ag;

TEST_CASE("apply_op runs eagerly with no graph and builds nodes while tracing") {
  Tensor t = Tensor::from_vector<int32_t>({2}, {4, 1});
  std::vector<TensorHandle> in{t};
  CHECK(current_graph() == nullptr);
  TensorHandle e = apply_op1(op::Identity, in);
  CHECK_FALSE(e.symbolic());
  CHECK(e.value().data<int32_t>()[1] == 1);

  Graph g("f");
  {
    TraceScope scope(g);
    CHECK(current_graph() == &g);
    TensorHandle s = apply_op1(op::Identity, in, {}, "y");
    REQUIRE(s.symbolic());
    CHECK(s.output().name() == "y:0");
    CHECK(s.dtype() == DType::Int32);
    CHECK(s.shape() == Shape{2});
    // The eager input became a Const node.
    CHECK(s.output().node->inputs[0].node->op->name == "Const");
    // A symbolic tensor is fine as input while its graph is traced.
    std::vector<TensorHandle> in2{s};
    CHECK(apply_op1(op::Identity, in2).output().name() == "Identity:0");
  }
  CHECK(current_graph() == nullptr);
}

TEST_CASE("a symbolic tensor used eagerly is a typed error, not a crash") {
  Graph g("f");
  Output a = g.placeholder({DType::Float32, Shape{}}, "a");
  std::vector<TensorHandle> in{a};
  CHECK_THROWS_AS(apply_op1(op::Identity, in), InvalidArgumentError);
}

TEST_CASE("trace scopes nest and a body graph captures from its parent") {
  Graph outer("outer");
  Output x = outer.placeholder({DType::Float32, Shape{}}, "x");
  Graph body("body", &outer);
  {
    TraceScope s1(outer);
    {
      TraceScope s2(body);
      std::vector<TensorHandle> in{x};
      TensorHandle y = apply_op1(op::Identity, in);
      CHECK(y.output().node->graph == &body);
      CHECK(body.captures().size() == 1);
    }
    CHECK(current_graph() == &outer);
  }
}
