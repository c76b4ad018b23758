#include <doctest/doctest.h>

#include <random>
#include <string>

#include "runtime/core/error.h"
#include "runtime/exec/plan.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/ops/registry.h"
#include "tests/unit/graph/support.h"

using namespace ag;
using ag::test::bytes_of;
using ag::test::count_op;
using ag::test::have;
using ag::test::node;

namespace {

/// x, y: int32 scalars, f: float scalar, c: bool scalar.
/// r0 = select(c && x % 7 >= y, x * y - 3, -y);
/// r1 = max(f * 2, float(r0) - 1) < 0.5;  r2 = (x + y) // -4.
/// The Cast is not fusable and reads the first run's r0: it cuts the run.
void build(Graph& g) {
  Output x = g.placeholder({DType::Int32, Shape{}}, "x");
  Output y = g.placeholder({DType::Int32, Shape{}}, "y");
  Output f = g.placeholder({DType::Float32, Shape{}}, "f");
  Output c = g.placeholder({DType::Bool, Shape{}}, "c");
  auto i32 = [&](int32_t v) { return g.constant(Tensor::scalar<int32_t>(v)); };
  Output cond = node(g, "LogicalAnd", {c, node(g, "GreaterEqual", {node(g, "FloorMod", {x, i32(7)}), y})});
  Output r0 = node(g, "SelectV2", {cond, node(g, "Sub", {node(g, "Mul", {x, y}), i32(3)}), node(g, "Neg", {y})});
  Output as_float = g.add_node(op::Cast, {r0}, Attrs{{"DstT", DType::Float32}})->output();
  Output two = g.constant(Tensor::scalar<float>(2.f));
  Output one = g.constant(Tensor::scalar<float>(1.f));
  Output m = node(g, "Maximum", {node(g, "Mul", {f, two}), node(g, "Sub", {as_float, one})});
  Output r1 = node(g, "Less", {m, g.constant(Tensor::scalar<float>(0.5f))});
  Output r2 = node(g, "FloorDiv", {node(g, "AddV2", {x, y}), i32(-4)});
  g.outputs() = {r0, r1, r2, cond};
}

}  // namespace

TEST_CASE("runs of scalar ops fuse into FusedScalar nodes with the same results") {
  if (OpRegistry::global().find("FusedScalar") == nullptr) return;
  Graph plain("f"), fused("f");
  build(plain);
  build(fused);
  fuse_scalar(fused);
  CHECK(count_op(fused, "FusedScalar") == 2);  // cut by the Cast
  CHECK(count_op(fused, "Cast") == 1);
  CHECK(count_op(fused, "FloorMod") == 0);
  for (const auto& n : fused.nodes()) {
    for (const Output& in : n->inputs) CHECK(in.node->id < n->id);
  }
  Plan a = compile_plan(plain);
  Plan b = compile_plan(fused);
  std::mt19937 rng(3);
  for (int t = 0; t < 200; ++t) {
    std::vector<Tensor> args{Tensor::scalar<int32_t>(std::uniform_int_distribution<int32_t>(-50, 50)(rng)),
                             Tensor::scalar<int32_t>(std::uniform_int_distribution<int32_t>(-50, 50)(rng)),
                             Tensor::scalar<float>(std::uniform_real_distribution<float>(-2.f, 2.f)(rng)),
                             Tensor::scalar<bool>(t % 3 != 0)};
    auto x = a.run(args);
    auto y = b.run(args);
    REQUIRE(x.size() == y.size());
    for (size_t i = 0; i < x.size(); ++i) {
      REQUIRE(x[i].dtype() == y[i].dtype());
      REQUIRE(x[i].shape() == y[i].shape());
      CHECK(bytes_of(x[i]) == bytes_of(y[i]));
    }
  }
}

TEST_CASE("a fused integer division by zero fails as the kernel does") {
  if (OpRegistry::global().find("FusedScalar") == nullptr) return;
  Graph g("f");
  Output x = g.placeholder({DType::Int64, Shape{}}, "x");
  Output y = g.placeholder({DType::Int64, Shape{}}, "y");
  g.outputs() = {node(g, "FloorMod", {node(g, "AddV2", {x, y}), y})};
  fuse_scalar(g);
  REQUIRE(count_op(g, "FusedScalar") == 1);
  Plan p = compile_plan(g);
  std::vector<Tensor> ok{Tensor::scalar<int64_t>(-7), Tensor::scalar<int64_t>(3)};
  CHECK(p.run(ok)[0].scalar_value<int64_t>() == 2);  // (-7 + 3) mod 3, Python's sign
  std::vector<Tensor> zero{Tensor::scalar<int64_t>(5), Tensor::scalar<int64_t>(0)};
  CHECK_THROWS_AS(p.run(zero), InvalidArgumentError);
}

TEST_CASE("non-scalar and stateful nodes are not fused") {
  if (OpRegistry::global().find("FusedScalar") == nullptr) return;
  Graph g("f");
  Output v = g.placeholder({DType::Int32, Shape{2}}, "v");
  Output s = g.placeholder({DType::Int32, Shape{}}, "s");
  Output a = node(g, "AddV2", {node(g, "Mul", {v, v}), v});
  g.outputs() = {a, s};
  fuse_scalar(g);
  CHECK(count_op(g, "FusedScalar") == 0);
}

TEST_CASE("a stateful node cuts a run, so a fused error keeps its place before it") {
  if (OpRegistry::global().find("FusedScalar") == nullptr || OpRegistry::global().find("PrintV2") == nullptr) return;
  Graph g("f");
  Output x = g.placeholder({DType::Int32, Shape{}}, "x");
  Output y = g.placeholder({DType::Int32, Shape{}}, "y");
  Output b = node(g, "FloorMod", {node(g, "AddV2", {x, y}), y});
  g.add_node(op::PrintV2, {g.constant(Tensor::scalar<std::string>("after the modulo"))});
  Output d = node(g, "Sub", {node(g, "Mul", {x, x}), y});
  g.outputs() = {b, d};
  fuse_scalar(g);
  CHECK(count_op(g, "FusedScalar") == 2);
}
