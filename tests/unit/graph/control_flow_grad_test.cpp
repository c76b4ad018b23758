// Gradients through If, While and function calls (GRADIENTS.md section 2), built in a traced
// graph as a tape inside a tf.function builds them, then compiled and run:
// each gradient against central differences of the same graph in float64,
// and the forward rewrites (exported intermediates, the iteration counter,
// accumulators) checked for what they add.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/core/variable.h"
#include "runtime/exec/compile.h"
#include "runtime/graph/control_flow.h"
#include "runtime/graph/control_flow_grad.h"
#include "runtime/graph/gradients.h"
#include "runtime/graph/tape.h"

using namespace ag;

namespace control_flow_grad_test {

using Handles = std::vector<TensorHandle>;
using Body = std::function<Handles(const Handles&)>;

const TensorSpec kF64{DType::Float64, Shape{}};
const TensorSpec kI32{DType::Int32, Shape{}};

TensorHandle call(const char* type, Handles in) { return apply_op1(OpType(type), in); }
TensorHandle call(OpType type, Handles in, const Attrs& attrs = {}) { return apply_op1(type, in, attrs); }
TensorHandle f64(double v) { return TensorHandle(Tensor::scalar<double>(v)); }
TensorHandle i32(int32_t v) { return TensorHandle(Tensor::scalar<int32_t>(v)); }

/// A subgraph of the current graph traced from `f` on placeholders of `specs`.
std::shared_ptr<Graph> trace_sub(const char* name, const std::vector<TensorSpec>& specs, const Body& f) {
  Graph& parent = *current_graph();
  auto g = std::make_shared<Graph>(name, &parent);
  TraceScope scope(*g);
  Handles args;
  for (const TensorSpec& s : specs) args.emplace_back(g->placeholder(s, "arg"));
  for (const TensorHandle& h : f(args)) g->outputs().push_back(h.symbolic() ? g->capture(h.output()) : g->constant(h.value()));
  return g;
}

std::vector<TensorSpec> specs_of(const Handles& hs) {
  std::vector<TensorSpec> out;
  for (const TensorHandle& h : hs) out.push_back({h.dtype(), h.shape()});
  return out;
}

std::vector<Output> outputs_of(const Handles& hs) {
  std::vector<Output> out;
  for (const TensorHandle& h : hs) out.push_back(h.symbolic() ? current_graph()->capture(h.output()) : current_graph()->constant(h.value()));
  return out;
}

Handles results(Node* n) {
  Handles out;
  for (int i = 0; i < static_cast<int>(n->outputs.size()); ++i) out.emplace_back(n->output(i));
  return out;
}

/// tf.cond(pred, then, else) over `args`.
Handles cond(const TensorHandle& pred, const Handles& args, const Body& then_f, const Body& else_f) {
  auto t = trace_sub("then", specs_of(args), then_f);
  auto e = trace_sub("else", specs_of(args), else_f);
  Graph& g = *current_graph();
  return results(add_if(g, outputs_of({pred})[0], outputs_of(args), t, e));
}

/// tf.while_loop(cond, body, vars).
Handles loop(const Handles& vars, const Body& cond_f, const Body& body_f) {
  auto c = trace_sub("cond", specs_of(vars), cond_f);
  auto b = trace_sub("body", specs_of(vars), body_f);
  return results(add_while(*current_graph(), outputs_of(vars), c, b));
}

/// A call of `f` over `args`: `f` traced into a graph nested in the current one.
Handles function_call(const Handles& args, const Body& f) {
  auto body = trace_sub("fn", specs_of(args), f);
  return results(add_call(*current_graph(), outputs_of(args), body, "body"));
}

/// A function of one float64 scalar and its derivative, traced once into a
/// graph (the derivative by a tape inside the trace) and compiled.
struct TracedDerivative {
  std::shared_ptr<Graph> graph = std::make_shared<Graph>("f");
  Executable exe;

  explicit TracedDerivative(const std::function<TensorHandle(const TensorHandle&)>& f) {
    TraceScope scope(*graph);
    TensorHandle x(graph->placeholder(kF64, "x"));
    Tape tape(false, true);
    tape.start();
    tape.watch(x);
    TensorHandle y = f(x);
    tape.stop();
    std::optional<TensorHandle> seed;
    GradientSource source{key_of(x), kF64};
    auto grads = compute_gradient(tape.entries(), std::span<const TensorHandle>(&y, 1),
                                  std::span<const std::optional<TensorHandle>>(&seed, 1), std::span(&source, 1));
    REQUIRE(grads[0].has_value());
    graph->outputs() = outputs_of({y, *grads[0]});
    exe = compile(*graph);
  }

  std::pair<double, double> at(double x) const {
    Tensor in = Tensor::scalar<double>(x);
    const Tensor* args[] = {&in};
    std::vector<Tensor> out(2);
    exe.plan().run(args, out);
    return {out[0].scalar_value<double>(), out[1].scalar_value<double>()};
  }

  /// The traced derivative at x agrees with central differences.
  void check(double x) const {
    INFO("x = ", x);
    const double d = 1e-4;
    double numeric = (at(x + d).first - at(x - d).first) / (2 * d);
    CHECK(at(x).second == doctest::Approx(numeric).epsilon(1e-6));
  }
};

/// y = x; repeat n times: y = sin(y) * x.
TensorHandle sin_loop(const TensorHandle& x, int n) {
  Handles out = loop(
      {i32(0), x}, [n](const Handles& v) { return Handles{call("Less", {v[0], i32(n)})}; },
      [&x](const Handles& v) { return Handles{call("AddV2", {v[0], i32(1)}), call("Mul", {call("Sin", {v[1]}), x})}; });
  return out[1];
}

}  // namespace control_flow_grad_test

using namespace control_flow_grad_test;

TEST_CASE("the gradient of an If is an If on the same predicate over the forward branches") {
  TracedDerivative t([](const TensorHandle& x) {
    return cond(call("Greater", {x, f64(0.5)}), {x},
                [](const Handles& a) { return Handles{call("Mul", {call("Sin", {a[0]}), a[0]})}; },
                [](const Handles& a) { return Handles{call("Mul", {call("Mul", {a[0], a[0]}), a[0]})}; })[0];
  });
  t.check(0.7);  // then: cos(x) x + sin(x)
  t.check(0.3);  // else: 3x^2
  CHECK(t.at(0.3).second == doctest::Approx(0.27));
  // The forward If exports sin(x) for the gradient; the else branch fills zeros.
  const Node* forward = nullptr;
  for (const auto& n : t.graph->nodes()) {
    if (n->subgraphs.size() == 2 && !n->attrs.has("gradient_of")) forward = n.get();
  }
  REQUIRE(forward != nullptr);
  CHECK(forward->outputs.size() > 1);
  CHECK(forward->subgraphs[0]->outputs().size() == forward->subgraphs[1]->outputs().size());
}

TEST_CASE("the gradient of a function call is a call of the differentiated function, through captures and calls") {
  TracedDerivative t([](const TensorHandle& x) {
    TensorHandle z = call("Exp", {x});  // captured by the outer function
    return function_call({x}, [&z](const Handles& a) {
      Handles inner = function_call({a[0]}, [](const Handles& b) { return Handles{call("Mul", {call("Sin", {b[0]}), b[0]})}; });
      return Handles{call("Mul", {inner[0], z})};
    })[0];
  });
  t.check(0.7);  // d/dx x sin(x) e^x
  t.check(-0.3);
  // The forward call exports what its gradient reads; the gradient is a call.
  int forward = 0, gradient = 0;
  for (const auto& n : t.graph->nodes()) {
    if (n->op->role() != OpRole::Call) continue;
    if (n->attrs.has("gradient_of")) {
      ++gradient;
    } else {
      ++forward;
      CHECK(n->outputs.size() > 1);
    }
  }
  CHECK(forward == 1);
  CHECK(gradient == 1);
}

TEST_CASE("a branch without a gradient for an input gives zeros, and captures get theirs") {
  TracedDerivative t([](const TensorHandle& x) {
    TensorHandle z = call("Exp", {x});  // captured by the then branch only
    return cond(call("Greater", {x, f64(0.0)}), {x},
                [&z](const Handles& a) { return Handles{call("Mul", {a[0], z})}; },
                [](const Handles&) { return Handles{f64(2.0)}; })[0];
  });
  t.check(0.4);
  t.check(-0.4);
  CHECK(t.at(-0.4).second == 0.0);
}

TEST_CASE("the gradient of a While runs its iterations in reverse over accumulated values") {
  TracedDerivative t([](const TensorHandle& x) { return sin_loop(x, 3); });
  t.check(0.5);
  t.check(1.3);
  // The forward loop gained an iteration counter and accumulators.
  const Node* forward = nullptr;
  for (const auto& n : t.graph->nodes()) {
    if (n->subgraphs.size() == 2 && !n->attrs.has("gradient_of")) forward = n.get();
  }
  REQUIRE(forward != nullptr);
  CHECK(forward->attrs.has("iteration_counter"));
  CHECK(forward->outputs.size() > 2);
}

TEST_CASE("a While that runs no iteration passes the gradient through") {
  TracedDerivative t([](const TensorHandle& x) { return call("Mul", {sin_loop(x, 0), f64(3.0)}); });
  CHECK(t.at(0.5).second == 3.0);
}

TEST_CASE("loop invariants and captured tensors get gradients summed over the iterations") {
  TracedDerivative t([](const TensorHandle& x) {
    TensorHandle z = call("Exp", {x});
    Handles out = loop(
        {i32(0), f64(1.0), x}, [](const Handles& v) { return Handles{call("Less", {v[0], i32(4)})}; },
        [&z](const Handles& v) {
          return Handles{call("AddV2", {v[0], i32(1)}), call("AddV2", {call("Mul", {v[1], z}), v[2]}), v[2]};
        });
    return out[1];
  });
  t.check(0.3);
}

TEST_CASE("nested loops, an If in a loop and a loop in an If") {
  TracedDerivative nested([](const TensorHandle& x) {
    Handles out = loop(
        {i32(0), x}, [](const Handles& v) { return Handles{call("Less", {v[0], i32(3)})}; },
        [&x](const Handles& v) { return Handles{call("AddV2", {v[0], i32(1)}), call("AddV2", {sin_loop(v[1], 2), x})}; });
    return out[1];
  });
  nested.check(0.6);

  TracedDerivative if_in_loop([](const TensorHandle& x) {
    Handles out = loop(
        {i32(0), x}, [](const Handles& v) { return Handles{call("Less", {v[0], i32(4)})}; },
        [&x](const Handles& v) {
          TensorHandle even = call("Equal", {call("FloorMod", {v[0], i32(2)}), i32(0)});
          TensorHandle y = cond(even, {v[1]},
                                [&x](const Handles& a) { return Handles{call("Mul", {a[0], x})}; },
                                [&x](const Handles& a) { return Handles{call("AddV2", {a[0], call("Sin", {x})})}; })[0];
          return Handles{call("AddV2", {v[0], i32(1)}), y};
        });
    return out[1];
  });
  if_in_loop.check(0.3);

  TracedDerivative loop_in_if([](const TensorHandle& x) {
    return cond(call("Greater", {x, f64(0.0)}), {x},
                [](const Handles& a) { return Handles{sin_loop(a[0], 3)}; },
                [](const Handles& a) { return Handles{call("Neg", {a[0]})}; })[0];
  });
  loop_in_if.check(1.5);
  loop_in_if.check(-1.5);
}

namespace control_flow_grad_test {

/// d/dv of y after 4 iterations of y = tanh(y * v) from y = 1.5, traced
/// with v a variable read in the loop body (that adds `step` to v after
/// reading it when step != 0), run once; and what the loop saved.
std::pair<double, std::vector<SavedPerIteration>> variable_loop_gradient(double step) {
  auto v = Variable::create(Tensor::scalar<double>(0.7), "v");
  std::shared_ptr<Graph> g = std::make_shared<Graph>("f");
  TraceScope scope(*g);
  Tape tape(false, true);
  tape.start();
  Handles out = loop(
      {i32(0), f64(1.5)}, [](const Handles& vars) { return Handles{call("Less", {vars[0], i32(4)})}; },
      [&v, step](const Handles& vars) {
        TensorHandle w = apply_op1(op::ReadVariableOp, {}, Attrs{{"var", v->id()}, {"dtype", DType::Float64}});
        if (step != 0) apply_op(op::AssignAddVariableOp, Handles{f64(step)}, Attrs{{"var", v->id()}});
        return Handles{call("AddV2", {vars[0], i32(1)}), call("Tanh", {call("Mul", {vars[1], w})})};
      });
  tape.stop();
  REQUIRE(tape.watched_variables().size() == 1);
  std::optional<TensorHandle> seed;
  GradientSource source{variable_key(v->id()), kF64};
  auto grads = compute_gradient(tape.entries(), std::span<const TensorHandle>(&out[1], 1),
                                std::span<const std::optional<TensorHandle>>(&seed, 1), std::span(&source, 1));
  REQUIRE(grads[0].has_value());
  g->outputs() = outputs_of({*grads[0]});
  Executable exe = compile(*g);
  std::vector<Tensor> result(1);
  exe.plan().run(std::span<const Tensor* const>(), result);
  return {result[0].scalar_value<double>(), while_saved_tensors(*out[1].output().node)};
}

/// The same derivative by the chain rule, v read as 0.7 + step * i at iteration i.
double variable_loop_expected(double step) {
  double y = 1.5, dy = 0;
  for (int i = 0; i < 4; ++i) {
    double w = 0.7 + step * i;
    double next = std::tanh(y * w);
    dy = (1 - next * next) * (dy * w + y);
    y = next;
  }
  return dy;
}

bool saves_a_read(const std::vector<SavedPerIteration>& saved) {
  return std::any_of(saved.begin(), saved.end(),
                     [](const SavedPerIteration& s) { return s.tensor.starts_with("ReadVariableOp"); });
}

}  // namespace control_flow_grad_test

TEST_CASE("a variable read in a loop body gets its gradient") {
  // Not written in the loop: one read before the loop serves every
  // iteration of the gradient, nothing of it is saved per iteration.
  auto [grad, saved] = variable_loop_gradient(0.0);
  CHECK(grad == doctest::Approx(variable_loop_expected(0.0)).epsilon(1e-12));
  CHECK_FALSE(saves_a_read(saved));
  CHECK(saved.size() == 2);  // the carried y (for Mul's gradient) and the Tanh (for its own)

  // Written in the loop: each iteration's value is saved.
  auto [grad_written, saved_written] = variable_loop_gradient(0.1);
  CHECK(grad_written == doctest::Approx(variable_loop_expected(0.1)).epsilon(1e-12));
  CHECK(saves_a_read(saved_written));
}

TEST_CASE("a row of a tensor the loop does not change is cut again, not saved") {
  // y = 1.5; for i in range(3): y = tanh(y * x[i]); d/dx of y, x captured.
  std::shared_ptr<Graph> g = std::make_shared<Graph>("f");
  TraceScope scope(*g);
  TensorHandle x(g->placeholder({DType::Float64, Shape{3}}, "x"));
  Tape tape(false, true);
  tape.start();
  tape.watch(x);
  auto one_elem = [](const TensorHandle& i) {
    TensorHandle shape(Tensor::from_vector<int32_t>({1}, {1}));
    return call(op::Reshape, {i, shape});
  };
  Handles out = loop(
      {i32(0), f64(1.5)}, [](const Handles& v) { return Handles{call("Less", {v[0], i32(3)})}; },
      [&](const Handles& v) {
        TensorHandle next = call("AddV2", {v[0], i32(1)});
        TensorHandle row = call(op::StridedSlice,
                                {x, one_elem(v[0]), one_elem(next), TensorHandle(Tensor::from_vector<int32_t>({1}, {1}))},
                                Attrs{{"shrink_axis_mask", int64_t{1}}, {"Index", DType::Int32}});
        return Handles{next, call("Tanh", {call("Mul", {v[1], row})})};
      });
  tape.stop();
  std::optional<TensorHandle> seed;
  GradientSource source{key_of(x), {DType::Float64, Shape{3}}};
  auto grads = compute_gradient(tape.entries(), std::span<const TensorHandle>(&out[1], 1),
                                std::span<const std::optional<TensorHandle>>(&seed, 1), std::span(&source, 1));
  REQUIRE(grads[0].has_value());
  for (const SavedPerIteration& saved : while_saved_tensors(*out[1].output().node)) {
    CHECK_FALSE(saved.tensor.starts_with("StridedSlice"));
  }
  g->outputs() = outputs_of({*grads[0]});
  Executable exe = compile(*g);
  Tensor in = Tensor::from_vector<double>({3}, {0.7, -0.4, 1.2});
  const Tensor* args[] = {&in};
  std::vector<Tensor> result(1);
  exe.plan().run(args, result);
  // Forward values, then the chain rule backwards.
  const double xs[] = {0.7, -0.4, 1.2};
  double ys[4] = {1.5};
  for (int i = 0; i < 3; ++i) ys[i + 1] = std::tanh(ys[i] * xs[i]);
  double dy = 1;
  double expected[3];
  for (int i = 2; i >= 0; --i) {
    double d = dy * (1 - ys[i + 1] * ys[i + 1]);
    expected[i] = d * ys[i];
    dy = d * xs[i];
  }
  for (int i = 0; i < 3; ++i) CHECK(result[0].data<double>()[i] == doctest::Approx(expected[i]).epsilon(1e-12));
}

TEST_CASE("differentiating a loop's gradient again is refused, not answered wrongly") {
  std::shared_ptr<Graph> g = std::make_shared<Graph>("f");
  TraceScope scope(*g);
  TensorHandle x(g->placeholder(kF64, "x"));
  Tape outer(false, true), inner(false, true);
  outer.start();
  outer.watch(x);
  inner.start();
  inner.watch(x);
  TensorHandle y = sin_loop(x, 2);
  inner.stop();
  std::optional<TensorHandle> seed;
  GradientSource source{key_of(x), kF64};
  auto first = compute_gradient(inner.entries(), std::span<const TensorHandle>(&y, 1),
                                std::span<const std::optional<TensorHandle>>(&seed, 1), std::span(&source, 1));
  outer.stop();
  CHECK_THROWS_AS(compute_gradient(outer.entries(), std::span<const TensorHandle>(&*first[0], 1),
                                   std::span<const std::optional<TensorHandle>>(&seed, 1), std::span(&source, 1)),
                  UnimplementedError);
}

TEST_CASE("the TensorList ops' gradients agree with central differences") {
  // sum(w1 · stack(pop_back(push_back(set_item(from_tensor(x), 1, 2y), 3 get_item(., 0))).list))
  //   + sum(w2 · the popped item), eagerly, differentiated in x and y.
  Tensor w1 = Tensor::from_vector<double>({3, 2}, {0.5, -1.0, 2.0, 0.25, 1.5, -0.75});
  Tensor w2 = Tensor::from_vector<double>({2}, {1.25, -2.0});
  auto objective = [&](const TensorHandle& x, const TensorHandle& y) {
    Attrs elem{{"element_dtype", DType::Float64}, {"element_shape", Shape{2}}};
    TensorHandle l = call(op::TensorListFromTensor, {x}, Attrs{{"element_shape", Shape{2}}});
    l = call(op::TensorListSetItem, {l, i32(1), call("Mul", {y, f64(2.0)})});
    TensorHandle first = call(op::TensorListGetItem, {l, i32(0)}, elem);
    l = call(op::TensorListPushBack, {l, call("Mul", {first, f64(3.0)})});
    Handles popped = apply_op(op::TensorListPopBack, Handles{l}, elem);
    TensorHandle stacked = call(op::TensorListStack, {popped[0]}, elem);
    auto total = [](const TensorHandle& t, const Tensor& w) {
      std::vector<int32_t> axes;
      for (int i = 0; i < w.rank(); ++i) axes.push_back(i);
      return call(op::Sum, {call("Mul", {t, TensorHandle(w)}), TensorHandle(Tensor::from_vector(Shape{w.rank()}, axes))},
                       Attrs{{"keep_dims", false}, {"Tidx", DType::Int32}});
    };
    return call("AddV2", {total(stacked, w1), total(popped[1], w2)});
  };
  Tensor x = Tensor::from_vector<double>({3, 2}, {0.1, 0.2, 0.3, 0.4, 0.5, 0.6});
  Tensor y = Tensor::from_vector<double>({2}, {-0.3, 0.7});
  TensorHandle hx(x), hy(y);
  Tape tape(false, true);
  tape.watch(hx);
  tape.watch(hy);
  tape.start();
  TensorHandle loss = objective(hx, hy);
  tape.stop();
  std::optional<TensorHandle> seed;
  GradientSource sources[] = {{key_of(hx), {DType::Float64, x.shape()}}, {key_of(hy), {DType::Float64, y.shape()}}};
  auto grads = compute_gradient(tape.entries(), std::span<const TensorHandle>(&loss, 1),
                                std::span<const std::optional<TensorHandle>>(&seed, 1), sources);
  REQUIRE(grads[0].has_value());
  REQUIRE(grads[1].has_value());
  const Tensor* inputs[] = {&x, &y};
  for (int which = 0; which < 2; ++which) {
    const Tensor& base = *inputs[which];
    for (int64_t k = 0; k < base.num_elements(); ++k) {
      auto shifted = [&](double d) {
        Tensor t = Tensor::from_vector(base.shape(), std::vector<double>(base.data<double>(), base.data<double>() + base.num_elements()));
        t.data<double>()[k] += d;
        TensorHandle v = objective(which == 0 ? TensorHandle(t) : hx, which == 1 ? TensorHandle(t) : hy);
        return v.value().scalar_value<double>();
      };
      double numeric = (shifted(1e-3) - shifted(-1e-3)) / 2e-3;
      INFO("input ", which, " element ", k);
      CHECK(grads[static_cast<size_t>(which)]->value().data<double>()[k] == doctest::Approx(numeric).epsilon(1e-8));
    }
  }
}

TEST_CASE("AddN sums tensors, and TensorLists elementwise with unset elements as zeros") {
  Tensor a = Tensor::from_vector<float>({2}, {1, 2}), b = Tensor::from_vector<float>({2}, {10, 20});
  TensorHandle sum = call(op::AddN, {TensorHandle(a), TensorHandle(b), TensorHandle(a)});
  CHECK(sum.value().data<float>()[1] == 24.f);
  Attrs elem{{"element_dtype", DType::Float32}, {"element_shape", Shape{2}}};
  TensorHandle l1 = call(op::TensorListReserve, {i32(2)}, elem);
  l1 = call(op::TensorListSetItem, {l1, i32(0), TensorHandle(a)});
  TensorHandle l2 = call(op::TensorListFromTensor, {TensorHandle(Tensor::from_vector<float>({2, 2}, {1, 1, 2, 2}))},
                              Attrs{{"element_shape", Shape{2}}});
  TensorHandle stacked = call(op::TensorListStack, {call(op::AddN, {l1, l2})}, elem);
  CHECK(stacked.value().data<float>()[0] == 2.f);
  CHECK(stacked.value().data<float>()[3] == 2.f);
  CHECK_THROWS_WITH_AS(call(op::AddN, {TensorHandle(a), TensorHandle(Tensor::from_vector<float>({3}, {1, 2, 3}))}),
                       doctest::Contains("Shapes must be equal rank"), InvalidArgumentError);
}
