// The While kernel's scalar fast path (runtime/exec/scalar_while.h): which
// loops take it, and that they compute what the plans compute, with the same
// errors, integer wrapping and loop-variable rules.
#include <doctest/doctest.h>

#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/graph/control_flow.h"
#include "runtime/exec/plan.h"
#include "runtime/exec/scalar_while.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/ops/registry.h"

using namespace ag;

namespace {

const TensorSpec kI32{DType::Int32, Shape{}};
const TensorSpec kI64{DType::Int64, Shape{}};
const TensorSpec kF64{DType::Float64, Shape{}};
const TensorSpec kBool{DType::Bool, Shape{}};

Output node(Graph& g, const char* name, std::vector<Output> in) { return g.add_node(OpType{name}, std::move(in))->output(); }
Output i32(Graph& g, int32_t v) { return g.constant(Tensor::scalar<int32_t>(v)); }
Tensor t32(int32_t v) { return Tensor::scalar<int32_t>(v); }

/// f(vars...; outer...) = While(vars) with cond and body made by builders that
/// get the subgraph, its loop-variable placeholders and the outer graph's
/// extra placeholders (to capture). Arguments run in that order.
struct Loop {
  using Builder = std::function<std::vector<Output>(Graph&, const std::vector<Output>&, const std::vector<Output>&)>;
  Graph g{"f"};
  std::shared_ptr<Graph> cond = std::make_shared<Graph>("cond", &g);
  std::shared_ptr<Graph> body = std::make_shared<Graph>("body", &g);
  Node* node = nullptr;

  Loop(const std::vector<TensorSpec>& vars, const std::vector<TensorSpec>& outer, const Builder& cond_fn,
       const Builder& body_fn, WhileOptions o = {}) {
    std::vector<Output> v, cv, bv, out;
    for (size_t i = 0; i < vars.size(); ++i) {
      const std::string name = "v" + std::to_string(i);
      v.push_back(g.placeholder(vars[i], name));
      cv.push_back(cond->placeholder(vars[i], name));
      bv.push_back(body->placeholder(vars[i], name));
    }
    for (size_t i = 0; i < outer.size(); ++i) out.push_back(g.placeholder(outer[i], "o" + std::to_string(i)));
    cond->outputs() = cond_fn(*cond, cv, out);
    body->outputs() = body_fn(*body, bv, out);
    node = add_while(g, v, cond, body, o);
    for (size_t i = 0; i < vars.size(); ++i) g.outputs().push_back(node->output(static_cast<int>(i)));
  }

  /// True when the While node's kernel is the ScalarProgram one.
  bool scalar() const {
    std::vector<TensorSpec> in;
    for (const Output& o : node->inputs) in.push_back(o.spec());
    KernelSpec s{node->op->name, in, node->outputs, node->attrs};
    return static_cast<bool>(scalar_while_kernel(*cond, *body, node->outputs.size(), s));
  }
};

/// fizzbuzz counting: vars i, fizz, buzz, fizzbuzz, other; while i < o0.
Loop fizzbuzz_loop() {
  auto cond = [](Graph& c, const std::vector<Output>& v, const std::vector<Output>& o) {
    return std::vector<Output>{node(c, "Less", {v[0], c.capture(o[0])})};
  };
  auto body = [](Graph& b, const std::vector<Output>& v, const std::vector<Output>&) {
    auto is0 = [&](int32_t m) { return node(b, "Equal", {node(b, "FloorMod", {v[0], i32(b, m)}), i32(b, 0)}); };
    auto inc = [&](Output x) { return node(b, "AddV2", {x, i32(b, 1)}); };
    Output by15 = is0(15), by3 = is0(3), by5 = is0(5);
    Output not15 = node(b, "LogicalNot", {by15});
    Output fizz = node(b, "LogicalAnd", {not15, by3});
    Output buzz = node(b, "LogicalAnd", {node(b, "LogicalAnd", {not15, node(b, "LogicalNot", {by3})}), by5});
    Output other = node(b, "LogicalNot", {node(b, "LogicalOr", {node(b, "LogicalOr", {by15, by3}), by5})});
    return std::vector<Output>{inc(v[0]), node(b, "SelectV2", {fizz, inc(v[1]), v[1]}),
                               node(b, "SelectV2", {buzz, inc(v[2]), v[2]}), node(b, "SelectV2", {by15, inc(v[3]), v[3]}),
                               node(b, "SelectV2", {other, inc(v[4]), v[4]})};
  };
  return Loop({kI32, kI32, kI32, kI32, kI32}, {kI32}, cond, body);
}

void check_fizzbuzz(const Plan& p, int32_t n) {
  auto out = p.run(std::vector<Tensor>{t32(1), t32(0), t32(0), t32(0), t32(0), t32(n + 1)});
  CHECK(out[0].scalar_value<int32_t>() == n + 1);
  CHECK(out[1].scalar_value<int32_t>() == n / 3 - n / 15);
  CHECK(out[2].scalar_value<int32_t>() == n / 5 - n / 15);
  CHECK(out[3].scalar_value<int32_t>() == n / 15);
  CHECK(out[4].scalar_value<int32_t>() == n - n / 3 - n / 5 + n / 15);
  CHECK(out[0].shape() == Shape{});
}

}  // namespace

TEST_CASE("a fizzbuzz loop over scalars runs as one program with the expected counts") {
  Loop l = fizzbuzz_loop();
  CHECK(l.scalar());
  Plan p = compile_plan(l.g);
  for (int rep = 0; rep < 2; ++rep) check_fizzbuzz(p, 1000);
  check_fizzbuzz(p, 0);  // zero iterations: the inputs come back
}

TEST_CASE("a body fused into FusedScalar nodes still runs as one program") {
  if (OpRegistry::global().find("FusedScalar") == nullptr) return;
  Loop l = fizzbuzz_loop();
  fuse_scalar(*l.body);
  size_t fused = 0;
  for (const auto& n : l.body->nodes()) fused += n->op->name == "FusedScalar";
  CHECK(fused == 1);
  CHECK(l.scalar());
  Plan p = compile_plan(l.g);
  check_fizzbuzz(p, 300);
}

TEST_CASE("the scalar loop wraps int32 arithmetic as the kernels do") {
  // while i < 40: x = x * 7 + 12345; i += 1   (x overflows many times)
  Loop l({kI32, kI32}, {},
         [](Graph& c, const std::vector<Output>& v, const std::vector<Output>&) {
           return std::vector<Output>{node(c, "Less", {v[0], i32(c, 40)})};
         },
         [](Graph& b, const std::vector<Output>& v, const std::vector<Output>&) {
           Output x = node(b, "AddV2", {node(b, "Mul", {v[1], i32(b, 7)}), i32(b, 12345)});
           return std::vector<Output>{node(b, "AddV2", {v[0], i32(b, 1)}), x};
         });
  CHECK(l.scalar());
  uint32_t want = 2000000000u;
  for (int k = 0; k < 40; ++k) want = want * 7u + 12345u;
  auto out = compile_plan(l.g).run(std::vector<Tensor>{t32(0), t32(2000000000)});
  CHECK(out[0].scalar_value<int32_t>() == 40);
  CHECK(static_cast<uint32_t>(out[1].scalar_value<int32_t>()) == want);
  // INT32_MAX + 1 wraps to INT32_MIN, which ends a `while x > 0` loop.
  Loop up({kI32}, {},
          [](Graph& c, const std::vector<Output>& v, const std::vector<Output>&) {
            return std::vector<Output>{node(c, "Greater", {v[0], i32(c, 0)})};
          },
          [](Graph& b, const std::vector<Output>& v, const std::vector<Output>&) {
            return std::vector<Output>{node(b, "AddV2", {v[0], i32(b, 1)})};
          });
  CHECK(up.scalar());
  auto top = compile_plan(up.g).run(std::vector<Tensor>{t32(INT32_MAX - 2)});
  CHECK(top[0].scalar_value<int32_t>() == INT32_MIN);
}

TEST_CASE("an op failing inside the scalar loop raises its kernel's error, and the plan runs again") {
  // while i < 3: x = x % i; i += 1   from i = -2: fails when i reaches 0.
  Loop l({kI32, kI32}, {},
         [](Graph& c, const std::vector<Output>& v, const std::vector<Output>&) {
           return std::vector<Output>{node(c, "Less", {v[0], i32(c, 3)})};
         },
         [](Graph& b, const std::vector<Output>& v, const std::vector<Output>&) {
           return std::vector<Output>{node(b, "AddV2", {v[0], i32(b, 1)}), node(b, "FloorMod", {v[1], v[0]})};
         });
  CHECK(l.scalar());
  Plan p = compile_plan(l.g);
  CHECK_THROWS_WITH_AS(p.run(std::vector<Tensor>{t32(-2), t32(7)}), "Integer division by zero", InvalidArgumentError);
  auto out = p.run(std::vector<Tensor>{t32(1), t32(7)});  // 7 % 1 % 2 = 0
  CHECK(out[0].scalar_value<int32_t>() == 3);
  CHECK(out[1].scalar_value<int32_t>() == 0);
  // The same loop's error through a fused body.
  if (OpRegistry::global().find("FusedScalar") == nullptr) return;
  fuse_scalar(*l.body);
  CHECK(l.scalar());
  CHECK_THROWS_WITH_AS(compile_plan(l.g).run(std::vector<Tensor>{t32(-2), t32(7)}), "Integer division by zero",
                       InvalidArgumentError);
}

TEST_CASE("the scalar loop honours maximum_iterations, captures, swaps and a bool loop variable") {
  WhileOptions o;
  o.maximum_iterations = 5;
  // vars: go (bool), i (int64), a, b (float64); captured step s (float64).
  // cond: go; body: i + 1, a + s, swap -> (b, a + s) ... keeps going while i + 1 < 100.
  Loop l({kBool, kI64, kF64, kF64}, {kF64},
         [](Graph&, const std::vector<Output>& v, const std::vector<Output>&) { return std::vector<Output>{v[0]}; },
         [](Graph& b, const std::vector<Output>& v, const std::vector<Output>& outer) {
           Output i = node(b, "AddV2", {v[1], b.constant(Tensor::scalar<int64_t>(1))});
           Output go = node(b, "Less", {i, b.constant(Tensor::scalar<int64_t>(100))});
           return std::vector<Output>{go, i, v[3], node(b, "AddV2", {v[2], b.capture(outer[0])})};
         },
         o);
  CHECK(l.scalar());
  Plan p = compile_plan(l.g);
  auto run = [&](bool go) {
    return p.run(std::vector<Tensor>{Tensor::scalar<bool>(go), Tensor::scalar<int64_t>(0), Tensor::scalar<double>(1.0),
                                     Tensor::scalar<double>(10.0), Tensor::scalar<double>(0.5)});
  };
  // (a, b): (1, 10) -> (10, 1.5) -> (1.5, 10.5) -> (10.5, 2) -> (2, 11) -> (11, 2.5)
  auto out = run(true);
  CHECK(out[0].scalar_value<bool>());
  CHECK(out[1].scalar_value<int64_t>() == 5);
  CHECK(out[2].scalar_value<double>() == 11.0);
  CHECK(out[3].scalar_value<double>() == 2.5);
  out = run(false);
  CHECK(out[1].scalar_value<int64_t>() == 0);
  CHECK(out[2].scalar_value<double>() == 1.0);
}

TEST_CASE("loops over tensors or with stateful or unknown ops keep the plans") {
  auto counter_cond = [](Graph& c, const std::vector<Output>& v, const std::vector<Output>&) {
    return std::vector<Output>{node(c, "Less", {v[0], i32(c, 3)})};
  };
  // A vector loop variable.
  Loop vec({kI32, {DType::Int32, Shape{2}}}, {}, counter_cond,
           [](Graph& b, const std::vector<Output>& v, const std::vector<Output>&) {
             return std::vector<Output>{node(b, "AddV2", {v[0], i32(b, 1)}), node(b, "AddV2", {v[1], v[1]})};
           });
  CHECK_FALSE(vec.scalar());
  auto out = compile_plan(vec.g).run(
      std::vector<Tensor>{t32(0), Tensor::from_vector<int32_t>(Shape{2}, std::vector<int32_t>{1, 2})});
  CHECK(out[1].data<int32_t>()[1] == 16);
  // An op the program does not run (Cast).
  Loop cast({kI32, kF64}, {}, counter_cond, [](Graph& b, const std::vector<Output>& v, const std::vector<Output>&) {
    Output f = b.add_node(op::Cast, {v[0]}, Attrs{{"DstT", DType::Float64}})->output();
    return std::vector<Output>{node(b, "AddV2", {v[0], i32(b, 1)}), node(b, "AddV2", {v[1], f})};
  });
  CHECK_FALSE(cast.scalar());
  out = compile_plan(cast.g).run(std::vector<Tensor>{t32(0), Tensor::scalar<double>(0.5)});
  CHECK(out[1].scalar_value<double>() == 3.5);  // 0.5 + 0 + 1 + 2
  // A shape invariant that lets the variable change shape.
  WhileOptions o;
  o.shape_invariants = {std::nullopt, Shape::unknown_rank()};
  Loop inv({kI32, kI32}, {}, counter_cond,
           [](Graph& b, const std::vector<Output>& v, const std::vector<Output>&) {
             return std::vector<Output>{node(b, "AddV2", {v[0], i32(b, 1)}), node(b, "AddV2", {v[1], i32(b, 2)})};
           },
           o);
  CHECK_FALSE(inv.scalar());
  out = compile_plan(inv.g).run(std::vector<Tensor>{t32(0), t32(1)});
  CHECK(out[1].scalar_value<int32_t>() == 7);
}
