// Special functions (part of the math family, registered from math_ops.cpp;
// TF's tf.math.erf, lgamma, digamma, erfc, erfinv, polygamma, the modified
// Bessel functions bessel_i0/i1 and their exponentially scaled i0e/i1e, and
// xlogy, xlog1py, xdivy): Eigen's implementations, the ones TF's kernels
// use, on floating types.
#include <cmath>
#include <limits>
#include <vector>

#include <unsupported/Eigen/SpecialFunctions>

#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/bessel.h"
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
  static T apply(T n, T x) {
    // At a pole (x a non-positive integer) Eigen's zeta casts n + 1 to long,
    // undefined past 2^63 (found by ops_fuzz: n = 1e300). There n + 1 is an
    // even integer, for which Eigen (and so TF on x86) gives +inf.
    if (n >= T(0x1p62) && x <= T(0) && x == std::floor(x)) return std::numeric_limits<T>::infinity();
    return Eigen::numext::polygamma(n, x);
  }
};

// The modified Bessel functions of the first kind (TF's cwise_op_bessel):
// kernels/bessel, element by element (bfloat16 widened to float).
struct BesselI0Op {
  template <class T>
  static T apply(T x) { return bessel_i0(x); }
};
struct BesselI1Op {
  template <class T>
  static T apply(T x) { return bessel_i1(x); }
};
struct BesselI0eOp {
  template <class T>
  static T apply(T x) { return bessel_i0e(x); }
};
struct BesselI1eOp {
  template <class T>
  static T apply(T x) { return bessel_i1e(x); }
};
// TF's xlogy_op, xlog1py_op, xdivy_op: 0 where x is 0 (whatever y is, NaN
// and inf included), else x·log(y), x·log1p(y), x/y.
struct XlogyOp {
  template <class T>
  static T apply(T x, T y) { return x == T(0) ? T(0) : x * std::log(y); }
};
struct Xlog1pyOp {
  template <class T>
  static T apply(T x, T y) { return x == T(0) ? T(0) : x * std::log1p(y); }
};
struct XdivyOp {
  template <class T>
  static T apply(T x, T y) { return x == T(0) ? T(0) : x / y; }
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

/// g·i1(x).
std::vector<GradTensor> bessel_i0_grad(GradContext& c) {
  return grads({c.mul(c.grad(0), c.apply1(op::BesselI1, {c.input(0)}))});
}
/// g·(i1e(x) - sign(x)·y).
std::vector<GradTensor> bessel_i0e_grad(GradContext& c) {
  GradTensor x = c.input(0);
  GradTensor partial = c.sub(c.apply1(op::BesselI1e, {x}), c.mul(c.apply1(op::Sign, {x}), c.output(0)));
  return grads({c.mul(c.grad(0), partial)});
}
/// g·(1 where x is 0, else i0(x) - y/x): TF imputes the limit the division misses.
std::vector<GradTensor> bessel_i1_grad(GradContext& c) {
  GradTensor x = c.input(0);
  GradTensor at_zero = c.apply1(op::Equal, {x, k_(c, 0)});
  GradTensor other = c.sub(c.apply1(op::BesselI0, {x}), c.div(c.output(0), x));
  return grads({c.mul(c.grad(0), c.select(at_zero, k_(c, 1), other))});
}
/// g·(0.5 where x is 0, else i0e(x) - y·(sign(x) + 1/x)).
std::vector<GradTensor> bessel_i1e_grad(GradContext& c) {
  GradTensor x = c.input(0);
  GradTensor at_zero = c.apply1(op::Equal, {x, k_(c, 0)});
  GradTensor scale = c.add(c.apply1(op::Sign, {x}), c.apply1(op::Reciprocal, {x}));
  GradTensor other = c.sub(c.apply1(op::BesselI0e, {x}), c.mul(c.output(0), scale));
  return grads({c.mul(c.grad(0), c.select(at_zero, k_(c, 0.5), other))});
}

/// TF's _XLogyGrad, _XLog1pyGrad and _XDivyGrad: with nz = cast(x != 0),
///   xlogy:   xlogy(nz, y)·g,   xdivy(x, y)·g
///   xlog1py: xlog1py(nz, y)·g, xdivy(x, y + 1)·g
///   xdivy:   xdivy(nz, y)·g,   xdivy(-x, y²)·g
/// each summed to its input's shape.
std::vector<GradTensor> x_family_grad(GradContext& c, OpType self) {
  GradTensor g = c.grad(0), x = c.input(0), y = c.input(1);
  GradTensor nz = c.cast(c.apply1(op::NotEqual, {x, c.scalar_like(x, 0)}), c.dtype(x));
  GradTensor partial_x = c.apply1(self, {nz, y});
  GradTensor partial_y;
  if (self == op::Xlogy) {
    partial_y = c.apply1(op::Xdivy, {x, y});
  } else if (self == op::Xlog1py) {
    partial_y = c.apply1(op::Xdivy, {x, c.add(y, c.scalar_like(y, 1))});
  } else {
    partial_y = c.apply1(op::Xdivy, {c.neg(x), c.apply1(op::Pow, {y, c.scalar_like(y, 2)})});
  }
  return grads({c.unbroadcast(c.mul(partial_x, g), x), c.unbroadcast(c.mul(partial_y, g), y)});
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
  register_unary<BesselI0Op, kFloat>(reg, "BesselI0", floats).grad(bessel_i0_grad);
  register_unary<BesselI1Op, kFloat>(reg, "BesselI1", floats).grad(bessel_i1_grad);
  register_unary<BesselI0eOp, kFloat>(reg, "BesselI0e", floats).grad(bessel_i0e_grad);
  register_unary<BesselI1eOp, kFloat>(reg, "BesselI1e", floats).grad(bessel_i1e_grad);
  // TF's list has no bfloat16 for these three.
  constexpr TypeMask kReal = bit(DType::Float32) | bit(DType::Float64);
  const char* const x_family = "half, float, double, complex64, complex128";
  register_binary<XlogyOp, kReal>(reg, "Xlogy", x_family).grad([](GradContext& c) { return x_family_grad(c, op::Xlogy); });
  register_binary<Xlog1pyOp, kReal>(reg, "Xlog1py", x_family).grad([](GradContext& c) {
    return x_family_grad(c, op::Xlog1py);
  });
  register_binary<XdivyOp, kReal>(reg, "Xdivy", x_family).grad([](GradContext& c) { return x_family_grad(c, op::Xdivy); });
}

}  // namespace ag
