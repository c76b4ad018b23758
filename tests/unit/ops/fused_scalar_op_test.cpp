// Sweep case for FusedScalar: every op it runs, on every dtype it takes, as a
// one-op program against the op's own kernel on random scalars (Python-sign
// modulo, wrapping and NaN included), plus its error for a zero divisor.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/exec/plan.h"
#include "runtime/graph/graph.h"
#include "runtime/ops/fused_scalar.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;

AG_SWEEP_COVERS("FusedScalar");

namespace {

/// Runs `op` on `args` through its kernel and as a one-op FusedScalar.
void check_op(const char* op, const std::vector<Tensor>& args) {
  Graph plain("f"), fused("f");
  std::vector<Output> pin, fin;
  std::vector<int64_t> operands;
  for (size_t i = 0; i < args.size(); ++i) {
    pin.push_back(plain.placeholder({args[i].dtype(), Shape{}}, "a"));
    fin.push_back(fused.placeholder({args[i].dtype(), Shape{}}, "a"));
    operands.push_back(static_cast<int64_t>(i));
  }
  while (operands.size() < 3) operands.push_back(-1);
  plain.outputs() = {plain.add_node(OpType{op}, pin)->output()};
  const auto result = static_cast<int64_t>(args.size());
  fused.outputs() = {fused
                         .add_node(op::FusedScalar, fin,
                                   Attrs{{"ops", std::vector<std::string>{op}},
                                         {"operands", operands},
                                         {"results", std::vector<int64_t>{result}}})
                         ->output()};
  std::string what = std::string("FusedScalar ") + op + " " + dtype_name(args.back().dtype());
  bool plain_threw = false, fused_threw = false;
  std::vector<Tensor> want, got;
  try { want = compile_plan(plain).run(args); } catch (const InvalidArgumentError&) { plain_threw = true; }
  try { got = compile_plan(fused).run(args); } catch (const InvalidArgumentError&) { fused_threw = true; }
  CHECK_MESSAGE(plain_threw == fused_threw, what);
  if (!plain_threw && !fused_threw) sweep::expect_close(got[0], want[0], what, 0, 0);
}

}  // namespace

TEST_CASE("FusedScalar computes what each op's kernel computes") {
  const DType numeric[] = {DType::Int32, DType::Int64, DType::Float32, DType::Float64};
  const char* binary[] = {"AddV2", "Sub", "Mul", "Maximum", "Minimum", "FloorDiv", "FloorMod",
                          "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"};
  for (int trial = 0; trial < 30; ++trial) {
    for (DType t : numeric) {
      Tensor a = sweep::random_tensor(t, Shape{}, -9, 9);
      Tensor b = sweep::random_tensor(t, Shape{}, -9, 9);
      for (const char* op : binary) check_op(op, {a, b});
      check_op("Neg", {a});
      check_op("SelectV2", {sweep::random_tensor(DType::Bool, Shape{}), a, b});
    }
    Tensor p = sweep::random_tensor(DType::Bool, Shape{});
    Tensor q = sweep::random_tensor(DType::Bool, Shape{});
    for (const char* op : {"LogicalAnd", "LogicalOr", "Equal", "NotEqual"}) check_op(op, {p, q});
    check_op("LogicalNot", {p});
  }
  // Edges: the most negative integer, zero divisors, NaN.
  const int32_t min32 = std::numeric_limits<int32_t>::min();
  for (const char* op : {"FloorDiv", "FloorMod", "Mul", "Sub"}) {
    check_op(op, {Tensor::scalar<int32_t>(min32), Tensor::scalar<int32_t>(-1)});
    check_op(op, {Tensor::scalar<int32_t>(5), Tensor::scalar<int32_t>(0)});
  }
  check_op("Neg", {Tensor::scalar<int32_t>(min32)});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const char* op : {"Maximum", "Minimum", "FloorMod", "Equal", "Less"}) {
    check_op(op, {Tensor::scalar<float>(nan), Tensor::scalar<float>(1.f)});
    check_op(op, {Tensor::scalar<float>(1.f), Tensor::scalar<float>(nan)});
  }
}

TEST_CASE("FusedScalar rejects programs it cannot run") {
  Graph g("f");
  Output x = g.placeholder({DType::Int32, Shape{}}, "x");
  Output v = g.placeholder({DType::Int32, Shape{2}}, "v");
  auto add = [&](std::vector<Output> in, std::vector<std::string> ops, std::vector<int64_t> operands) {
    g.add_node(op::FusedScalar, std::move(in),
               Attrs{{"ops", std::move(ops)}, {"operands", std::move(operands)}, {"results", std::vector<int64_t>{1}}});
  };
  CHECK_THROWS_AS(add({v}, {"Neg"}, {0, -1, -1}), InvalidArgumentError);         // not a scalar
  CHECK_THROWS_AS(add({x}, {"Tanh"}, {0, -1, -1}), InvalidArgumentError);        // not an op it runs
  CHECK_THROWS_AS(add({x}, {"LogicalNot"}, {0, -1, -1}), InvalidArgumentError);  // wrong dtype
  CHECK_THROWS_AS(add({x}, {"Neg"}, {1, -1, -1}), InvalidArgumentError);         // operand not yet computed
}
