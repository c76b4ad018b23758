// Unary math ops (part of the math family, registered from math_ops.cpp):
// Neg ... Reciprocal. Floating types run Eigen's vectorized array functions
// (the same ones TF's kernels use); integers wrap instead of overflowing.
#include <cmath>
#include <type_traits>

#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/elementwise_ops.h"
#include "runtime/ops/kernels/int_math.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/registry.h"

namespace ag {

void register_unary_math_ops(OpRegistry& reg);

namespace {

using namespace kernels;

struct NegOp {
  template <class T>
  static T apply(T x) {
    if constexpr (kInt<T>) return wrap_neg(x);
    else return -x;
  }
};
struct AbsOp {
  template <class T>
  static T apply(T x) {
    if constexpr (kInt<T>) return x < 0 ? wrap_neg(x) : x;
    else return std::fabs(x);
  }
  template <class A>
  static auto array(const A& x) { return x.abs(); }
};
// NaN stays NaN (as NumPy's sign); zeros keep their sign.
struct SignOp {
  template <class T>
  static T apply(T x) {
    return x > T(0) ? T(1) : (x < T(0) ? T(-1) : x);
  }
};
struct SquareOp {
  template <class T>
  static T apply(T x) {
    if constexpr (kInt<T>) return wrap_mul(x, x);
    else return x * x;
  }
  template <class A>
  static auto array(const A& x) { return x.square(); }
};
// Round: half to even (rint in the default rounding mode), as TF's.
struct RoundOp {
  template <class T>
  static T apply(T x) {
    if constexpr (kInt<T>) return x;
    else return std::nearbyint(x);
  }
  template <class A>
  static auto array(const A& x) { return x.rint(); }
};
struct ReciprocalOp {
  static constexpr TypeMask fails_on = kIntTypes;
  template <class T>
  static void check_rhs(const T* x, int64_t n) {
    if constexpr (kInt<T>) {
      bool zero = false;
      for (int64_t i = 0; i < n; ++i) zero |= x[i] == 0;
      if (zero) throw InvalidArgumentError("Integer division by zero");
    }
  }
  template <class T>
  static T apply(T x) {
    if constexpr (kInt<T>) return trunc_div(T(1), x);
    else return T(1) / x;
  }
  template <class A>
  static auto array(const A& x) { return x.inverse(); }
};

// Invert: ~x on integers (TF's bitwise_ops.cc).
struct InvertOp {
  template <class T>
  static T apply(T x) { return static_cast<T>(~x); }
};

// Floating-point class predicates (float -> bool); bfloat16 is widened.
struct IsNanOp {
  template <class C>
  static bool apply(C x) { return std::isnan(x); }
};
struct IsInfOp {
  template <class C>
  static bool apply(C x) { return std::isinf(x); }
};
struct IsFiniteOp {
  template <class C>
  static bool apply(C x) { return std::isfinite(x); }
};

#define AG_ARRAY_UNARY(Name, expr)                    \
  struct Name {                                       \
    template <class A>                                \
    static auto array(const A& x) { return expr; }    \
  };
AG_ARRAY_UNARY(SqrtOp, x.sqrt())
AG_ARRAY_UNARY(RsqrtOp, x.rsqrt())
AG_ARRAY_UNARY(ExpOp, x.exp())
AG_ARRAY_UNARY(LogOp, x.log())
AG_ARRAY_UNARY(Log1pOp, x.log1p())
AG_ARRAY_UNARY(Expm1Op, x.expm1())
AG_ARRAY_UNARY(TanhOp, x.tanh())
AG_ARRAY_UNARY(SigmoidOp, x.logistic())
AG_ARRAY_UNARY(SinOp, x.sin())
AG_ARRAY_UNARY(CosOp, x.cos())
AG_ARRAY_UNARY(AsinhOp, x.asinh())
AG_ARRAY_UNARY(FloorOp, x.floor())
AG_ARRAY_UNARY(CeilOp, x.ceil())
#undef AG_ARRAY_UNARY


// ---- gradients (GRADIENTS.md 3.2, TF's math_grad.py): x the input, y the
// output, g the upstream gradient.
GradTensor x_(GradContext& c) { return c.input(0); }
GradTensor y_(GradContext& c) { return c.output(0); }
GradTensor g_(GradContext& c) { return c.grad(0); }
GradTensor k_(GradContext& c, double v) { return c.scalar_like(c.input(0), v); }

std::vector<GradTensor> neg_grad(GradContext& c) { return grads({c.neg(g_(c))}); }
std::vector<GradTensor> abs_grad(GradContext& c) { return grads({c.mul(g_(c), c.apply1(op::Sign, {x_(c)}))}); }
std::vector<GradTensor> sign_grad(GradContext& c) { return grads({c.zeros_like(x_(c))}); }
std::vector<GradTensor> square_grad(GradContext& c) { return grads({c.mul(g_(c), c.mul(k_(c, 2), x_(c)))}); }
/// -g·y² (ReciprocalGrad).
std::vector<GradTensor> reciprocal_grad(GradContext& c) {
  return grads({c.neg(c.mul(g_(c), c.mul(y_(c), y_(c))))});
}
/// g·0.5/y (SqrtGrad).
std::vector<GradTensor> sqrt_grad(GradContext& c) { return grads({c.div(c.mul(g_(c), k_(c, 0.5)), y_(c))}); }
/// -0.5·g·y³ (RsqrtGrad).
std::vector<GradTensor> rsqrt_grad(GradContext& c) {
  GradTensor y = y_(c);
  return grads({c.mul(c.mul(k_(c, -0.5), g_(c)), c.mul(y, c.mul(y, y)))});
}
std::vector<GradTensor> exp_grad(GradContext& c) { return grads({c.mul(g_(c), y_(c))}); }
std::vector<GradTensor> log_grad(GradContext& c) { return grads({c.div(g_(c), x_(c))}); }
std::vector<GradTensor> log1p_grad(GradContext& c) { return grads({c.div(g_(c), c.add(k_(c, 1), x_(c)))}); }
/// g·(1 - y²) (TanhGrad), from the output.
std::vector<GradTensor> tanh_grad(GradContext& c) {
  return grads({c.mul(g_(c), c.sub(k_(c, 1), c.mul(y_(c), y_(c))))});
}
/// g·y·(1 - y) (SigmoidGrad), from the output.
std::vector<GradTensor> sigmoid_grad(GradContext& c) {
  return grads({c.mul(g_(c), c.mul(y_(c), c.sub(k_(c, 1), y_(c))))});
}
std::vector<GradTensor> sin_grad(GradContext& c) { return grads({c.mul(g_(c), c.apply1(op::Cos, {x_(c)}))}); }
std::vector<GradTensor> cos_grad(GradContext& c) { return grads({c.neg(c.mul(g_(c), c.apply1(op::Sin, {x_(c)})))}); }
std::vector<GradTensor> expm1_grad(GradContext& c) { return grads({c.mul(g_(c), c.apply1(op::Exp, {x_(c)}))}); }
/// g/sqrt(x² + 1) (TF writes g/cosh(y), the same).
std::vector<GradTensor> asinh_grad(GradContext& c) {
  GradTensor x = x_(c);
  return grads({c.div(g_(c), c.apply1(op::Sqrt, {c.add(c.mul(x, x), k_(c, 1))}))});
}

}  // namespace

void register_unary_math_ops(OpRegistry& reg) {
  constexpr TypeMask kUnary = kUnarySet.mask;
  const char* const unary = kUnarySet.tf_list;
  register_unary<NegOp, kUnary>(reg, "Neg", unary).grad(neg_grad);
  register_unary<AbsOp, kAbsSet.mask>(reg, "Abs", kAbsSet.tf_list).grad(abs_grad);
  register_unary<SignOp, kUnary>(reg, "Sign", unary).grad(sign_grad);
  register_unary<SquareOp, kUnary>(reg, "Square", unary).grad(square_grad);
  register_unary<RoundOp, kUnary>(reg, "Round", unary).not_differentiable();
  register_unary<ReciprocalOp, kUnary>(reg, "Reciprocal", unary).grad(reciprocal_grad);

  constexpr TypeMask kFloat = kUnaryFloatSet.mask;
  const char* const floats = kUnaryFloatSet.tf_list;
  register_unary<SqrtOp, kFloat>(reg, "Sqrt", floats).grad(sqrt_grad);
  register_unary<RsqrtOp, kFloat>(reg, "Rsqrt", floats).grad(rsqrt_grad);
  register_unary<ExpOp, kFloat>(reg, "Exp", floats).grad(exp_grad);
  register_unary<LogOp, kFloat>(reg, "Log", floats).grad(log_grad);
  register_unary<Log1pOp, kFloat>(reg, "Log1p", floats).grad(log1p_grad);
  register_unary<TanhOp, kFloat>(reg, "Tanh", floats).grad(tanh_grad);
  register_unary<SigmoidOp, kFloat>(reg, "Sigmoid", floats).grad(sigmoid_grad);
  register_unary<SinOp, kFloat>(reg, "Sin", floats).grad(sin_grad);
  register_unary<CosOp, kFloat>(reg, "Cos", floats).grad(cos_grad);
  register_unary<FloorOp, kFloorSet.mask>(reg, "Floor", kFloorSet.tf_list).not_differentiable();
  register_unary<CeilOp, kFloorSet.mask>(reg, "Ceil", kFloorSet.tf_list).not_differentiable();
  register_unary<InvertOp, kIntTypes>(reg, "Invert", "int8, int16, int32, int64, uint8, uint16, uint32, uint64")
      .not_differentiable();
  register_unary<Expm1Op, kFloat>(reg, "Expm1", floats).grad(expm1_grad);
  register_unary<AsinhOp, kFloat>(reg, "Asinh", floats).grad(asinh_grad);
  register_unary<IsNanOp, kFloorSet.mask, true>(reg, "IsNan", kFloorSet.tf_list).not_differentiable();
  register_unary<IsInfOp, kFloorSet.mask, true>(reg, "IsInf", kFloorSet.tf_list).not_differentiable();
  register_unary<IsFiniteOp, kFloorSet.mask, true>(reg, "IsFinite", kFloorSet.tf_list).not_differentiable();
}

}  // namespace ag
