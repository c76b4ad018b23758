// Comparison, logic and selection ops (part of the math family, registered
// from math_ops.cpp): Equal ... GreaterEqual give bool with broadcasting;
// LogicalAnd/Or/Not take bool only; SelectV2 is tf.where(c, x, y) with
// broadcasting among all three; Where is tf.where(c): true coordinates.
#include <string>
#include <vector>

#include "runtime/ops/kernels/elementwise_ops.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/grad_context.h"
#include "runtime/ops/registry.h"

namespace ag {

void register_compare_ops(OpRegistry& reg);

namespace {

using namespace kernels;

struct EqualOp {
  template <class T>
  static bool apply(const T& a, const T& b) { return a == b; }
};
struct NotEqualOp {
  template <class T>
  static bool apply(const T& a, const T& b) { return a != b; }
};
struct LessOp {
  template <class T>
  static bool apply(T a, T b) { return a < b; }
};
struct LessEqualOp {
  template <class T>
  static bool apply(T a, T b) { return a <= b; }
};
struct GreaterOp {
  template <class T>
  static bool apply(T a, T b) { return a > b; }
};
struct GreaterEqualOp {
  template <class T>
  static bool apply(T a, T b) { return a >= b; }
};
struct LogicalAndOp {
  static bool apply(bool a, bool b) { return a && b; }
};
struct LogicalOrOp {
  static bool apply(bool a, bool b) { return a || b; }
};
struct LogicalNotOp {
  static bool apply(bool a) { return !a; }
};
struct SelectOp {
  template <class T>
  static T apply(bool c, const T& a, const T& b) { return c ? a : b; }
};

/// Equal and NotEqual, on every dtype. With incompatible_shape_error=false
/// (Python's `==` on tensors) shapes that do not broadcast give the scalar
/// `kIncompatible` instead of an error.
template <class F, bool kIncompatible>
OpBuilder equality_op(OpRegistry& reg, const char* name) {
  return reg.op(name)
      .inputs(2)
      .infer([](const InferContext& c) {
        check_same_dtype(c, 0, 1);
        bool strict = c.attrs.get_or<bool>("incompatible_shape_error", true);
        Shape out;
        if (!broadcast_static(c.inputs[0].shape, c.inputs[1].shape, out)) {
          if (strict) throw InvalidArgumentError(broadcast_error(c.inputs[0].shape, c.inputs[1].shape, c.tracing));
          out = Shape{};
        } else if (!strict && !out.fully_defined()) {
          out = Shape::unknown_rank();  // scalar if the shapes turn out incompatible
        }
        return std::vector<TensorSpec>{{DType::Bool, out}};
      })
      .cpu([](const KernelSpec& s) {
        bool strict = s.attrs.get_or<bool>("incompatible_shape_error", true);
        return dispatch_kernel<kAllTypes>(s.op, s.inputs[0].dtype, [&]<class T>() {
          if (strict) return make_binary_kernel<F, T, bool>(s);
          return Kernel([](KernelContext& k) {
            Shape out;
            if (!broadcast_static(k.input(0).shape(), k.input(1).shape(), out)) {
              k.allocate_output(0, DType::Bool, Shape{}).template data<bool>()[0] = kIncompatible;
              return;
            }
            binary_dynamic<F, T, bool>(k);
          });
        });
      })
      .elementwise(elementwise_def_of<F, 2, kAllTypes, true>())
      .commutative()
      .speculatable()
      .cost(CostKind::Elementwise)
      .tpu()
      .not_differentiable();
}

/// Shapes of SelectV2's inputs broadcast together, with TF's error texts.
Shape select_shape(const Shape& c, const Shape& t, const Shape& e) {
  Shape te, out;
  if (!broadcast_static(t, e, te)) {
    throw InvalidArgumentError("then " + t.debug_string() + " and else " + e.debug_string() + " must be broadcastable");
  }
  if (!broadcast_static(c, te, out)) {
    throw InvalidArgumentError("condition " + c.debug_string() + ", then " + t.debug_string() + ", and else " +
                               e.debug_string() + " must be broadcastable");
  }
  return out;
}

template <class T>
void select_run(const bool* c, int64_t sc, const T* t, int64_t st, const T* e, int64_t se, T* o, int64_t n) {
  if (sc != 0 && st != 0 && se != 0) {
    for (int64_t i = 0; i < n; ++i) o[i] = c[i] ? t[i] : e[i];
  } else if (sc == 0) {
    const T* src = *c ? t : e;
    int64_t ss = *c ? st : se;
    for (int64_t i = 0; i < n; ++i) o[i] = src[i * ss];
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = c[i * sc] ? t[i * st] : e[i * se];
  }
}

template <class T>
void select_exec(KernelContext& k, const Shape& out, const BroadcastPlan<3>* plan) {
  const Tensor& c = k.input(0);
  const Tensor& t = k.input(1);
  const Tensor& e = k.input(2);
  Tensor& o = k.allocate_output(0, dtype_of<T>(), out);
  if (o.num_elements() == 0) return;
  const bool* pc = c.data<bool>();
  const T* pt = t.data<T>();
  const T* pe = e.data<T>();
  T* po = o.data<T>();
  if (plan == nullptr) {  // all three of the output's shape
    split_run(o.num_elements(), [&](int64_t b, int64_t e) {
      select_run<T>(pc + b, 1, pt + b, 1, pe + b, 1, po + b, e - b);
    });
    return;
  }
  plan->for_each_run([&](const std::array<int64_t, 3>& off, const std::array<int64_t, 3>& is, int64_t len) {
    select_run<T>(pc + off[0], is[0], pt + off[1], is[1], pe + off[2], is[2], po, len);
    po += len;
  });
}

template <class T>
Kernel make_select_kernel(const KernelSpec& s) {
  const Shape& sc = s.inputs[0].shape;
  const Shape& st = s.inputs[1].shape;
  const Shape& se = s.inputs[2].shape;
  const Shape& out = s.outputs[0].shape;
  if (sc.fully_defined() && st.fully_defined() && se.fully_defined() && out.fully_defined()) {
    if (sc == out && st == out && se == out) return Kernel([out](KernelContext& k) { select_exec<T>(k, out, nullptr); });
    BroadcastPlan<3> plan(out, {&sc, &st, &se});
    return Kernel([out, plan](KernelContext& k) { select_exec<T>(k, out, &plan); });
  }
  return Kernel([](KernelContext& k) {
    const Shape& c = k.input(0).shape();
    const Shape& t = k.input(1).shape();
    const Shape& e = k.input(2).shape();
    Shape out = select_shape(c, t, e);
    if (c == out && t == out && e == out) {
      select_exec<T>(k, out, nullptr);
    } else {
      BroadcastPlan<3> plan(out, {&c, &t, &e});
      select_exec<T>(k, out, &plan);
    }
  });
}

template <class T>
bool nonzero(const T& x) {
  if constexpr (std::is_same_v<T, bfloat16>) {
    return static_cast<float>(x) != 0.0f;
  } else {
    return x != T(0);
  }
}

template <class T>
Kernel make_where_kernel(const KernelSpec&) {
  return Kernel([](KernelContext& k) {
    const Tensor& x = k.input(0);
    const T* px = x.data<T>();
    int64_t n = x.num_elements();
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i) count += nonzero(px[i]) ? 1 : 0;
    int rank = x.rank();
    Tensor& o = k.allocate_output(0, DType::Int64, Shape{count, rank});
    int64_t* po = o.data<int64_t>();
    std::array<int64_t, kMaxRank> idx{};
    for (int64_t i = 0; i < n; ++i) {
      if (nonzero(px[i])) {
        for (int d = 0; d < rank; ++d) *po++ = idx[static_cast<size_t>(d)];
      }
      for (int d = rank - 1; d >= 0; --d) {  // row-major odometer
        if (++idx[static_cast<size_t>(d)] < x.shape().dim(d)) break;
        idx[static_cast<size_t>(d)] = 0;
      }
    }
  });
}

/// where(c, t, e): the condition gets None; t and e their side of g.
std::vector<GradTensor> select_grad(GradContext& c) {
  GradTensor cond = c.input(0), g = c.grad(0);
  GradTensor zeros = c.zeros_like(g);
  return grads({GradTensor{}, c.unbroadcast(c.select(cond, g, zeros), c.input(1)),
                c.unbroadcast(c.select(cond, zeros, g), c.input(2))});
}

}  // namespace

void register_compare_ops(OpRegistry& reg) {
  // TF's comparisons, logical ops and shape-like results have no gradient (MG).
  equality_op<EqualOp, false>(reg, "Equal").tf_signature("x: T, y: T -> z: bool");
  equality_op<NotEqualOp, true>(reg, "NotEqual").tf_signature("x: T, y: T -> z: bool");
  const char* const real = kRealNumberSet.tf_list;
  register_binary<LessOp, kRealTypes, true>(reg, "Less", real).semantic(OpSemantic::Less).not_differentiable();
  register_binary<LessEqualOp, kRealTypes, true>(reg, "LessEqual", real).not_differentiable();
  register_binary<GreaterOp, kRealTypes, true>(reg, "Greater", real).not_differentiable();
  register_binary<GreaterEqualOp, kRealTypes, true>(reg, "GreaterEqual", real).not_differentiable();
  register_binary<LogicalAndOp, bit(DType::Bool)>(reg, "LogicalAnd", "bool").commutative().not_differentiable();
  register_binary<LogicalOrOp, bit(DType::Bool)>(reg, "LogicalOr", "bool").commutative().not_differentiable();
  register_unary<LogicalNotOp, bit(DType::Bool)>(reg, "LogicalNot", "bool").not_differentiable();

  // SelectV2(condition: bool, t: T, e: T) -> T.
  reg.op("SelectV2")
      .tf_signature("condition: bool, t: T, e: T -> output: T")
      .inputs(3)
      .infer([](const InferContext& c) {
        check_dtype(c, 0, DType::Bool);
        check_same_dtype(c, 1, 2);
        return std::vector<TensorSpec>{
            {c.inputs[1].dtype, select_shape(c.inputs[0].shape, c.inputs[1].shape, c.inputs[2].shape)}};
      })
      .cpu([](const KernelSpec& s) {
        return dispatch_kernel<kAllTypes>(s.op, s.inputs[1].dtype, [&]<class T>() { return make_select_kernel<T>(s); });
      })
      .elementwise(elementwise_def_of<SelectOp, 3, kAllTypes>())
      .speculatable()
      .cost(CostKind::Elementwise)
      .tpu()
      .grad(select_grad);

  // Where(input: T) -> int64 [num_true, rank], T numbers or bool.
  static constexpr TypeSet kWhereSet{
      kAllTypes & ~bit(DType::String),
      "float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, "
      "uint16, complex128, half, uint32, uint64, bool"};
  reg.op("Where")
      .tf_signature("input: T -> index: int64")
      .inputs(1)
      .infer([](const InferContext& c) {
        check_allowed(c.op, c.inputs[0].dtype, kWhereSet);
        const Shape& in = c.inputs[0].shape;
        Shape out = Shape::unknown_dims(2);
        if (in.rank_known()) out.set_dim(1, in.rank());
        return std::vector<TensorSpec>{{DType::Int64, out}};
      })
      .cpu([](const KernelSpec& s) {
        return dispatch_kernel<kWhereSet.mask>(s.op, s.inputs[0].dtype,
                                               [&]<class T>() { return make_where_kernel<T>(s); });
      })
      .cost(CostKind::DataMovement)
      .tpu_unsupported("its output shape depends on the input's values")
      .not_differentiable();
}

}  // namespace ag
