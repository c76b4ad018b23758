// Special functions (part of the math family, registered from math_ops.cpp;
// TF's tf.math.erf, lgamma, digamma, erfc, erfinv, polygamma): Eigen's
// implementations, the ones TF's kernels use, on floating types.
#include <cmath>
#include <vector>

#include <unsupported/Eigen/SpecialFunctions>

#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/elementwise_ops.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/registry.h"

namespace ag {

void register_special_math_ops(OpRegistry& reg);

namespace {

using namespace kernels;

struct ErfOp {
  template <class A>
  static auto array(const A& x) { return x.erf(); }
};
struct ErfcOp {
  template <class A>
  static auto array(const A& x) { return x.erfc(); }
};
struct LgammaOp {
  template <class A>
  static auto array(const A& x) { return x.lgamma(); }
};
struct DigammaOp {
  template <class A>
  static auto array(const A& x) { return x.digamma(); }
};
// TF's scalar_erfinv_op: erfinv(x) = ndtri((x + 1) / 2) / sqrt(2), in the
// element type; NaN past ±1, where erf takes no value (this Eigen's ndtri
// would give ±inf there).
struct ErfinvOp {
  template <class A>
  static auto array(const A& x) {
    using S = typename A::Scalar;
    return (x.abs() <= S(1)).select((x * S(0.5) + S(0.5)).ndtri() * S(M_SQRT1_2), S(NAN));
  }
};
// Polygamma(n, x): the n-th derivative of digamma at x; NaN unless n is a
// non-negative integer.
struct PolygammaOp {
  template <class T>
  static T apply(T n, T x) { return Eigen::numext::polygamma(n, x); }
};

// ---- gradients (TF's math_grad.py): x the input, y the output, g the upstream gradient.

GradTensor k_(GradContext& c, double v) { return c.scalar_like(c.input(0), v); }

/// ±g·2/sqrt(pi)·exp(-x²): Erf's (sign +1) and Erfc's (-1).
GradTensor erf_family_grad(GradContext& c, double sign) {
  GradTensor x = c.input(0);
  GradTensor e = c.apply1(op::Exp, {c.neg(c.mul(x, x))});
  return c.mul(c.grad(0), c.mul(k_(c, sign * 2 / std::sqrt(M_PI)), e));
}
/// g·sqrt(pi)/2·exp(y²).
std::vector<GradTensor> erfinv_grad(GradContext& c) {
  GradTensor y = c.output(0);
  return grads({c.mul(c.grad(0), c.mul(k_(c, std::sqrt(M_PI) / 2), c.apply1(op::Exp, {c.mul(y, y)})))});
}
/// g·digamma(x).
std::vector<GradTensor> lgamma_grad(GradContext& c) {
  return grads({c.mul(c.grad(0), c.apply1(op::Digamma, {c.input(0)}))});
}
/// g·polygamma(1, x).
std::vector<GradTensor> digamma_grad(GradContext& c) {
  return grads({c.mul(c.grad(0), c.apply1(op::Polygamma, {k_(c, 1), c.input(0)}))});
}
/// None for n (TF has no derivative in n); g·polygamma(n + 1, x) for x.
std::vector<GradTensor> polygamma_grad(GradContext& c) {
  GradTensor n = c.input(0), x = c.input(1);
  GradTensor next = c.apply1(op::Polygamma, {c.add(n, c.scalar_like(n, 1)), x});
  return grads({GradTensor{}, c.unbroadcast(c.mul(c.grad(0), next), x)});
}

}  // namespace

void register_special_math_ops(OpRegistry& reg) {
  constexpr TypeMask kFloat = kFloorSet.mask;
  const char* const floats = kFloorSet.tf_list;
  register_unary<ErfOp, kFloat>(reg, "Erf", floats).grad([](GradContext& c) { return grads({erf_family_grad(c, 1)}); });
  register_unary<ErfcOp, kFloat>(reg, "Erfc", floats).grad([](GradContext& c) { return grads({erf_family_grad(c, -1)}); });
  register_unary<ErfinvOp, kFloat>(reg, "Erfinv", floats).grad(erfinv_grad);
  register_unary<LgammaOp, kFloat>(reg, "Lgamma", floats).grad(lgamma_grad);
  register_unary<DigammaOp, kFloat>(reg, "Digamma", floats).grad(digamma_grad);
  register_binary<PolygammaOp, bit(DType::Float32) | bit(DType::Float64)>(reg, "Polygamma", "float, double")
      .grad(polygamma_grad);
}

}  // namespace ag
