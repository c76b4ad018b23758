// Sweep cases for nn_activation_ops.cpp: the activations and their gradient
// ops against their formulas on random shapes and dtypes, values worked out
// by hand (TF's selects at 0 and NaN, alpha as a float attr), and TF's error
// texts, eager and while tracing.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "runtime/graph/graph.h"
#include "runtime/graph/tracing.h"
#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("Relu", "ReluGrad", "Relu6", "Relu6Grad", "Elu", "EluGrad", "Selu", "SeluGrad", "LeakyRelu",
                "LeakyReluGrad", "Softplus", "Softsign");

namespace {

const DType kActivationFloats[] = {DType::Float32, DType::Float64, DType::BFloat16};
const DType kActivationReals[] = {DType::Float32, DType::Float64, DType::BFloat16, DType::Int32,
                                  DType::Int64,   DType::Int8,    DType::UInt8};

double activation_rtol(DType t) { return t == DType::BFloat16 ? 2e-2 : t == DType::Float32 ? 2e-5 : 1e-10; }
double activation_atol(DType t) { return t == DType::BFloat16 ? 2e-2 : t == DType::Float32 ? 1e-5 : 1e-12; }

// SELU's constants (Klambauer et al.), as TF's functors hold them.
constexpr double kScale = 1.0507009873554804934193349852946;
constexpr double kScaleAlpha = 1.7580993408473768599402175208123;

Tensor f32s(std::vector<float> v) { return Tensor::from_vector<float>(Shape{static_cast<int64_t>(v.size())}, v); }
Tensor f64s(std::vector<double> v) { return Tensor::from_vector<double>(Shape{static_cast<int64_t>(v.size())}, v); }
Attrs alpha(double a) { return Attrs{{"alpha", a}}; }

/// The message of the ValueError adding `op` to a traced graph on
/// placeholders of shapes a and b raises ("<no error>" if none).
std::string traced_error(const char* op, const Shape& a, const Shape& b) {
  Graph g("f");
  TraceScope tracing(g);
  Output x = g.placeholder({DType::Float32, a}, "g");
  Output y = g.placeholder({DType::Float32, b}, "y");
  try {
    g.add_node(OpType(op), {x, y}, {});
  } catch (const ValueError& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST_CASE("activations match their formulas") {
  struct Case {
    const char* op;
    bool floats_only;
    std::function<double(double)> f;
  };
  const Case cases[] = {
      {"Relu", false, [](double x) { return x > 0 ? x : 0; }},
      {"Relu6", false, [](double x) { return std::min(6.0, std::max(0.0, x)); }},
      {"Elu", true, [](double x) { return x < 0 ? std::expm1(x) : x; }},
      {"Selu", true, [&](double x) { return x < 0 ? kScaleAlpha * std::expm1(x) : kScale * x; }},
      {"Softplus", true, [](double x) { return std::log1p(std::exp(x)); }},
      {"Softsign", true, [](double x) { return x / (1 + std::fabs(x)); }},
  };
  for (const Case& c : cases) {
    for (DType dt : kActivationReals) {
      if (c.floats_only && !is_floating(dt)) continue;
      for (int trial = 0; trial < 4; ++trial) {
        Tensor in = sweep::random_tensor(dt, sweep::random_shape(3, 5), -9, 9);
        Tensor want(dt, in.shape());
        for (int64_t i = 0; i < in.num_elements(); ++i) put(want, i, c.f(sweep::element(in, i)));
        sweep::expect_close(run1(c.op, {in}), want, std::string(c.op) + " " + dtype_name(dt), activation_rtol(dt),
                            dt == DType::Float32 ? 1e-5 : activation_atol(dt));
      }
    }
  }
  // Softplus' far tails and NaN through Relu.
  Tensor tails = Tensor::from_vector<float>(Shape{3}, {-100.0f, 100.0f, 0.0f});
  Tensor sp = run1("Softplus", {tails});
  CHECK(sp.data<float>()[0] == doctest::Approx(std::exp(-100.0)).epsilon(1e-5));
  CHECK(sp.data<float>()[1] == 100.0f);
  CHECK(sp.data<float>()[2] == doctest::Approx(std::log(2.0)));
  Tensor nan = Tensor::from_vector<float>(Shape{1}, {NAN});
  CHECK(std::isnan(run1("Relu", {nan}).data<float>()[0]));
  Tensor b = sweep::random_tensor(DType::Bool, Shape{2});
  CHECK_THROWS_WITH_AS(run1("Relu", {b}),
                       "Value for attr 'T' of bool is not in the list of allowed values: float, double, int32, uint8, "
                       "int8, int64, bfloat16\n\t; NodeDef: {{node Relu}}",
                       InvalidArgumentError);
  Tensor i = sweep::random_tensor(DType::Int32, Shape{2});
  CHECK_THROWS_WITH_AS(run1("Elu", {i}), "Value for attr 'T' of int32 is not in the list of allowed values: half, "
                                         "bfloat16, float, double\n\t; NodeDef: {{node Elu}}",
                       InvalidArgumentError);
}

TEST_CASE("ReluGrad and Relu6Grad multiply the gradient by the mask, as TF's kernels do") {
  Tensor g = Tensor::from_vector<float>(Shape{6}, {1.5f, -2.0f, NAN, INFINITY, -3.0f, 4.0f});
  Tensor x = Tensor::from_vector<float>(Shape{6}, {1.0f, 0.0f, -1.0f, -2.0f, 7.0f, 6.0f});
  Tensor r = run1("ReluGrad", {g, x});
  CHECK(r.data<float>()[0] == 1.5f);
  CHECK(r.data<float>()[1] == 0.0f);
  CHECK(std::signbit(r.data<float>()[1]));  // -2 * 0: TF prints -0.
  CHECK(std::isnan(r.data<float>()[2]));   // NaN * 0
  CHECK(std::isnan(r.data<float>()[3]));   // inf * 0
  CHECK(r.data<float>()[4] == -3.0f);
  Tensor r6 = run1("Relu6Grad", {g, x});
  CHECK(r6.data<float>()[0] == 1.5f);
  CHECK(r6.data<float>()[4] == 0.0f);  // above 6
  CHECK(r6.data<float>()[5] == 0.0f);  // at 6
  Tensor gi = Tensor::from_vector<int32_t>(Shape{2}, {5, 5});
  Tensor xi = Tensor::from_vector<int32_t>(Shape{2}, {1, -1});
  Tensor ri = run1("ReluGrad", {gi, xi});
  CHECK(ri.data<int32_t>()[0] == 5);
  CHECK(ri.data<int32_t>()[1] == 0);
}

TEST_CASE("LeakyRelu and the gradient ops match their formulas on random shapes and dtypes") {
  for (DType dt : kActivationFloats) {
    for (int trial = 0; trial < 6; ++trial) {
      const Shape s = sweep::random_shape(3, 5);
      Tensor x = sweep::random_tensor(dt, s, -4, 4);
      Tensor g = sweep::random_tensor(dt, s, -3, 3);
      // alpha as the float attr holds it, then in the op's type.
      const double a = trial % 3 == 0 ? 0.2 : trial % 3 == 1 ? 1.5 : -0.25;
      double at = static_cast<float>(a);
      if (dt == DType::BFloat16) at = static_cast<float>(bfloat16(static_cast<float>(a)));
      Tensor leaky(dt, s), leaky_grad(dt, s), elu_grad(dt, s), selu_grad(dt, s);
      for (int64_t i = 0; i < x.num_elements(); ++i) {
        const double xv = sweep::element(x, i), gv = sweep::element(g, i);
        put(leaky, i, xv > 0 ? xv : xv * at);
        put(leaky_grad, i, xv > 0 ? gv : gv * at);
        put(elu_grad, i, xv < 0 ? gv * (xv + 1) : gv);
        put(selu_grad, i, xv < 0 ? gv * (xv + kScaleAlpha) : gv * kScale);
      }
      const std::string what = std::string(dtype_name(dt)) + " " + s.str();
      const double rt = activation_rtol(dt), at_ = activation_atol(dt);
      sweep::expect_close(run1("LeakyRelu", {x}, alpha(a)), leaky, "LeakyRelu " + what, rt, at_);
      sweep::expect_close(run1("LeakyReluGrad", {g, x}, alpha(a)), leaky_grad, "LeakyReluGrad " + what, rt, at_);
      // The outputs input of EluGrad/SeluGrad: any values, both signs.
      sweep::expect_close(run1("EluGrad", {g, x}), elu_grad, "EluGrad " + what, rt, at_);
      sweep::expect_close(run1("SeluGrad", {g, x}), selu_grad, "SeluGrad " + what, rt, at_);
    }
  }
  // Without the attr, alpha is 0.2.
  CHECK(run1("LeakyRelu", {f32s({-1.0f})}).data<float>()[0] == -0.2f);
}

TEST_CASE("Elu, Selu, LeakyRelu and their gradient ops on values worked out by hand") {
  // Elu(x) = exp(x) - 1 below 0: exp(-1) - 1 = -0.63212055882855767.
  Tensor elu = run1("Elu", {f64s({-1.0, 0.0, 2.0, -INFINITY})});
  CHECK(elu.data<double>()[0] == doctest::Approx(-0.63212055882855767).epsilon(1e-15));
  CHECK(elu.data<double>()[1] == 0.0);
  CHECK(elu.data<double>()[2] == 2.0);
  CHECK(elu.data<double>()[3] == -1.0);
  // Selu: 1.7580993408473768·(exp(-1) - 1) = -1.1113307378125628; 2·1.0507009873554805.
  Tensor selu = run1("Selu", {f64s({-1.0, 2.0})});
  CHECK(selu.data<double>()[0] == doctest::Approx(-1.1113307378125628).epsilon(1e-15));
  CHECK(selu.data<double>()[1] == doctest::Approx(2.101401974710961).epsilon(1e-15));
  // EluGrad(g, y): (y + 1)·g where y < 0, else g (also at y = 0 and NaN).
  Tensor eg = run1("EluGrad", {f64s({3, 3, 3, 3}), f64s({-0.5, 2, 0, NAN})});
  CHECK(eg.data<double>()[0] == 1.5);
  CHECK(eg.data<double>()[1] == 3.0);
  CHECK(eg.data<double>()[2] == 3.0);
  CHECK(eg.data<double>()[3] == 3.0);
  // SeluGrad(g, y): g·(y + 1.7580993408473768) = 2·1.2580993408473768 where y < 0, else g·1.0507...
  Tensor sg = run1("SeluGrad", {f64s({2, 2}), f64s({-0.5, 1})});
  CHECK(sg.data<double>()[0] == doctest::Approx(2.5161986816947537).epsilon(1e-15));
  CHECK(sg.data<double>()[1] == doctest::Approx(2.101401974710961).epsilon(1e-15));
  // LeakyRelu selects, so alpha above 1 or below 0 is not a max: -2·1.5 = -3, -2·-0.5 = 1.
  Tensor l15 = run1("LeakyRelu", {f32s({-2, 3, 0})}, alpha(1.5));
  CHECK(l15.data<float>()[0] == -3.0f);
  CHECK(l15.data<float>()[1] == 3.0f);
  CHECK(l15.data<float>()[2] == 0.0f);
  CHECK(run1("LeakyRelu", {f32s({-2})}, alpha(-0.5)).data<float>()[0] == 1.0f);
  CHECK(std::isnan(run1("LeakyRelu", {f32s({NAN})}).data<float>()[0]));
  // alpha is a float attr: in float64, 0.2 is 0.2f = 0.20000000298023224, so
  // -2 gives -0.4000000059604645, as TF's kernel does.
  CHECK(run1("LeakyRelu", {f64s({-2})}, alpha(0.2)).data<double>()[0] == -0.4000000059604645);
  // In bfloat16, alpha rounds to 0.2001953125 first: -2 gives -0.400390625.
  Tensor b(DType::BFloat16, Shape{1});
  b.data<bfloat16>()[0] = bfloat16(-2.0f);
  CHECK(static_cast<float>(run1("LeakyRelu", {b}, alpha(0.2)).data<bfloat16>()[0]) == -0.400390625f);
  // LeakyReluGrad(g, x): g where x > 0, else g·alpha (x = 0 included): 5·0.2f = 1 in float32.
  Tensor lg = run1("LeakyReluGrad", {f32s({5, 5, 5}), f32s({-1, 0, 1})}, alpha(0.2));
  CHECK(lg.data<float>()[0] == 1.0f);
  CHECK(lg.data<float>()[1] == 1.0f);
  CHECK(lg.data<float>()[2] == 5.0f);
}

TEST_CASE("the activations' gradient ops take one shape, in TF's words eagerly and while tracing") {
  CHECK(error_of("EluGrad", {f32s({1, 2}), f32s({1, 2, 3})}) ==
        "Inputs to operation EluGrad of type EluGrad must have the same size and shape.  Input 0: [2] != input 1: [3]");
  CHECK(error_of("SeluGrad", {f32s({1, 2}), Tensor::from_vector<float>(Shape{1, 2}, {1, 2})}) ==
        "Inputs to operation SeluGrad of type SeluGrad must have the same size and shape.  Input 0: [2] != input 1: "
        "[1,2]");
  CHECK(error_of("LeakyReluGrad", {Tensor::from_vector<float>(Shape{2, 2}, {1, 2, 3, 4}), f32s({1, 2, 3, 4})}) ==
        "Inputs to operation LeakyReluGrad of type LeakyReluGrad must have the same size and shape.  Input 0: [2,2] != "
        "input 1: [4]");
  CHECK(error_of("EluGrad", {f32s({1}), f64s({1})}) ==
        "cannot compute EluGrad as input #1(zero-based) was expected to be a float tensor but is a double tensor");
  CHECK(error_of("LeakyRelu", {Tensor::from_vector<int32_t>(Shape{1}, {1})}) ==
        "Value for attr 'T' of int32 is not in the list of allowed values: half, bfloat16, float, double\n\t; NodeDef: "
        "{{node LeakyRelu}}");
  CHECK(error_of("SeluGrad", {Tensor::from_vector<int32_t>(Shape{1}, {1}), Tensor::from_vector<int32_t>(Shape{1}, {1})}) ==
        "Value for attr 'T' of int32 is not in the list of allowed values: half, bfloat16, float, double\n\t; NodeDef: "
        "{{node SeluGrad}}");
  // While tracing: the shape function's merge (MergeBothInputsShapeFn).
  CHECK(traced_error("EluGrad", Shape{2}, Shape{3}).starts_with(
      "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3]. for '{{node EluGrad}} = "
      "EluGrad[T=DT_FLOAT](g, y)' with input shapes: [2], [3]."));
  CHECK(traced_error("LeakyReluGrad", Shape{2}, Shape{2, 1}).starts_with("Shapes must be equal rank, but are 1 and 2 for "));
  // Unknown dims merge: [?, 3] and [2, ?] is [2, 3].
  Graph g("f");
  TraceScope tracing(g);
  Output x = g.placeholder({DType::Float32, Shape{kUnknownDim, 3}}, "g");
  Output y = g.placeholder({DType::Float32, Shape{2, kUnknownDim}}, "y");
  CHECK(g.add_node(op::SeluGrad, {x, y}, {})->outputs[0].shape == Shape{2, 3});
}
