// Unary math ops (part of the math family, registered from math_ops.cpp):
// Neg ... Reciprocal. Floating types run Eigen's vectorized array functions
// (the same ones TF's kernels use); integers wrap instead of overflowing.
#include <cmath>
#include <type_traits>

#include "runtime/ops/kernels/elementwise.h"
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
AG_ARRAY_UNARY(TanhOp, x.tanh())
AG_ARRAY_UNARY(SigmoidOp, x.logistic())
AG_ARRAY_UNARY(SinOp, x.sin())
AG_ARRAY_UNARY(CosOp, x.cos())
AG_ARRAY_UNARY(FloorOp, x.floor())
AG_ARRAY_UNARY(CeilOp, x.ceil())
#undef AG_ARRAY_UNARY

/// Registers unary op `name` (x: T -> y: T) for the dtypes in `set`.
template <class F, TypeMask Mask>
void unary_op(OpRegistry& reg, const char* name, const char* tf_list) {
  TypeSet set{Mask, tf_list};
  reg.op(name)
      .inputs(1)
      .infer([set](const InferContext& c) {
        check_allowed(c.op, c.inputs[0].dtype, set);
        return std::vector<TensorSpec>{c.inputs[0]};
      })
      .cpu([](const KernelSpec& s) {
        return dispatch_kernel<Mask>(s.op, s.inputs[0].dtype, [&]<class T>() { return make_unary_kernel<F, T>(s); });
      });
}

}  // namespace

void register_unary_math_ops(OpRegistry& reg) {
  constexpr TypeMask kUnary = kUnarySet.mask;
  unary_op<NegOp, kUnary>(reg, "Neg", kUnarySet.tf_list);
  unary_op<AbsOp, kAbsSet.mask>(reg, "Abs", kAbsSet.tf_list);
  unary_op<SignOp, kUnary>(reg, "Sign", kUnarySet.tf_list);
  unary_op<SquareOp, kUnary>(reg, "Square", kUnarySet.tf_list);
  unary_op<RoundOp, kUnary>(reg, "Round", kUnarySet.tf_list);
  unary_op<ReciprocalOp, kUnary>(reg, "Reciprocal", kUnarySet.tf_list);

  constexpr TypeMask kFloat = kUnaryFloatSet.mask;
  unary_op<SqrtOp, kFloat>(reg, "Sqrt", kUnaryFloatSet.tf_list);
  unary_op<RsqrtOp, kFloat>(reg, "Rsqrt", kUnaryFloatSet.tf_list);
  unary_op<ExpOp, kFloat>(reg, "Exp", kUnaryFloatSet.tf_list);
  unary_op<LogOp, kFloat>(reg, "Log", kUnaryFloatSet.tf_list);
  unary_op<Log1pOp, kFloat>(reg, "Log1p", kUnaryFloatSet.tf_list);
  unary_op<TanhOp, kFloat>(reg, "Tanh", kUnaryFloatSet.tf_list);
  unary_op<SigmoidOp, kFloat>(reg, "Sigmoid", kUnaryFloatSet.tf_list);
  unary_op<SinOp, kFloat>(reg, "Sin", kUnaryFloatSet.tf_list);
  unary_op<CosOp, kFloat>(reg, "Cos", kUnaryFloatSet.tf_list);
  unary_op<FloorOp, kFloorSet.mask>(reg, "Floor", kFloorSet.tf_list);
  unary_op<CeilOp, kFloorSet.mask>(reg, "Ceil", kFloorSet.tf_list);
  unary_op<InvertOp, kIntTypes>(reg, "Invert", "int8, int16, int32, int64, uint8, uint16, uint32, uint64");
}

}  // namespace ag
