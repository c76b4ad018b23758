// Sweep case for FusedScalar: every op with a scalar step (ElementwiseDef),
// on every register dtype it takes, as a one-op body against the op's own
// kernel on random scalars (Python-sign modulo, wrapping and NaN included),
// errors (zero divisors) included; plus the bodies it refuses.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/exec/plan.h"
#include "runtime/graph/builders.h"
#include "runtime/graph/fused_ops.h"
#include "runtime/graph/graph.h"
#include "runtime/ops/elementwise_def.h"
#include "runtime/ops/registry.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;

AG_SWEEP_COVERS("FusedScalar");

namespace {

/// Runs `op` on `args` through its kernel and as a one-op FusedScalar.
void check_op(const OpDef& op, const std::vector<Tensor>& args) {
  Graph plain("f"), fused("f");
  std::vector<Output> pin;
  for (const Tensor& a : args) pin.push_back(plain.placeholder({a.dtype(), Shape{}}, "a"));
  Node* n = plain.add_node(op, pin);
  plain.outputs() = {n->output()};
  std::vector<Output> fin;
  for (const Tensor& a : args) fin.push_back(fused.placeholder({a.dtype(), Shape{}}, "a"));
  Node* copy = fused.add_copy(*n, fin);
  Node* const members[1] = {copy};
  const Output results[1] = {copy->output()};
  std::vector<Output> inputs;
  auto body = fusion_body(fused, members, results, inputs);
  fused.outputs() = {build::fused_scalar(fused, body, inputs, "FusedScalar")->output()};
  std::string what = "FusedScalar " + op.name + " " + dtype_name(args.back().dtype());
  bool plain_threw = false, fused_threw = false;
  std::vector<Tensor> want, got;
  try { want = compile_plan(plain).run(args); } catch (const InvalidArgumentError&) { plain_threw = true; }
  try { got = compile_plan(fused).run(args); } catch (const InvalidArgumentError&) { fused_threw = true; }
  CHECK_MESSAGE(plain_threw == fused_threw, what);
  if (!plain_threw && !fused_threw) sweep::expect_close(got[0], want[0], what, 0, 0);
}

/// Every op with a scalar step for `t`, on `args` made by `make`.
template <class Make>
void each_scalar_op(DType t, Make make) {
  for (const auto& op : OpRegistry::global().ops()) {
    const ElementwiseDef* e = op->elementwise;
    if (e == nullptr || e->scalar_for(t) == nullptr) continue;
    std::vector<Tensor> args;
    for (int i = 0; i < e->arity; ++i) {
      args.push_back(e->arity == 3 && i == 0 ? sweep::random_tensor(DType::Bool, Shape{}) : make());
    }
    check_op(*op, args);
  }
}

}  // namespace

TEST_CASE("FusedScalar computes what each op's kernel computes, for every op with a scalar step") {
  const DType types[] = {DType::Int32, DType::Int64, DType::Float32, DType::Float64, DType::Bool};
  for (int trial = 0; trial < 30; ++trial) {
    for (DType t : types) each_scalar_op(t, [&] { return sweep::random_tensor(t, Shape{}, -9, 9); });
  }
  // Edges: the most negative integer, zero divisors, NaN.
  const int32_t min32 = std::numeric_limits<int32_t>::min();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (Tensor v : {Tensor::scalar<int32_t>(min32), Tensor::scalar<int32_t>(-1), Tensor::scalar<int32_t>(0)}) {
    each_scalar_op(DType::Int32, [&] { return v; });
  }
  for (Tensor v : {Tensor::scalar<float>(nan), Tensor::scalar<float>(1.f), Tensor::scalar<float>(-0.f)}) {
    each_scalar_op(DType::Float32, [&] { return v; });
  }
  const OpDef& floor_div = OpRegistry::global().get(op::FloorDiv);
  check_op(floor_div, {Tensor::scalar<int32_t>(min32), Tensor::scalar<int32_t>(-1)});
  check_op(floor_div, {Tensor::scalar<int32_t>(5), Tensor::scalar<int32_t>(0)});
}

TEST_CASE("FusedScalar rejects bodies it cannot run") {
  Graph g("f");
  Output x = g.placeholder({DType::Int32, Shape{}}, "x");
  Output v = g.placeholder({DType::Int32, Shape{2}}, "v");
  auto fuse = [&](Node* n) {
    Node* const members[1] = {n};
    const Output results[1] = {n->output()};
    std::vector<Output> inputs;
    auto body = fusion_body(g, members, results, inputs);
    build::fused_scalar(g, body, inputs, "FusedScalar");
  };
  CHECK_THROWS_WITH_AS(fuse(g.add_node(op::Neg, {v})),
                       "FusedScalar: malformed body: every value must be a scalar of a register dtype",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(fuse(g.add_node(op::Size, {x})), "FusedScalar: malformed body: Size is not a pure elementwise op",
                       InvalidArgumentError);
}
