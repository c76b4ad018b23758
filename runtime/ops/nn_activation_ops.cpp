// The activations (TF's relu_op.h and nn_grad.py): Relu, Relu6, Elu, Selu,
// LeakyRelu, Softplus, Softsign, and the gradient ops TF writes their
// gradients with: ReluGrad, Relu6Grad, EluGrad, SeluGrad, LeakyReluGrad.
// Each elementwise one is a functor (kernels/elementwise_ops.h); LeakyRelu
// and its gradient read attr alpha, so they have a kernel of their own.
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/ops/families.h"
#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/elementwise_ops.h"
#include "runtime/ops/nn_common.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using kernels::TypeSet;

// TF's op defs list half, which agc lacks; their errors print it.
constexpr TypeSet kActivationSet{kFloatTypes, "half, bfloat16, float, double"};

// ---- Elementwise activations: features: T -> T. NaN passes through, as
// Eigen's max/min keep it.

struct ReluOp {
  template <class C>
  static C apply(C x) { return x > 0 || x != x ? x : C(0); }
};
struct Relu6Op {
  template <class C>
  static C apply(C x) { return x != x ? x : x < C(0) ? C(0) : x > C(6) ? C(6) : x; }
};
// Elu and Selu as TF's functors compute them: exp(x) - 1 (not expm1, which
// differs in float32 near 0) and Selu's scale·alpha as one constant.
constexpr double kSeluScale = 1.0507009873554804934193349852946;
constexpr double kSeluScaleAlpha = 1.7580993408473768599402175208123;
struct EluOp {
  template <class C>
  static C apply(C x) { return x < C(0) ? std::exp(x) - C(1) : x; }
};
struct SeluOp {
  template <class C>
  static C apply(C x) { return x < C(0) ? C(kSeluScaleAlpha) * (std::exp(x) - C(1)) : C(kSeluScale) * x; }
};
// Softsign: x / (1 + |x|), as TF's kernel.
struct SoftsignOp {
  template <class C>
  static C apply(C x) { return x / (std::abs(x) + C(1)); }
};
// ReluGrad(gradients, features) and Relu6Grad: TF's kernels multiply by the
// mask (gradients * (features > 0)), so a NaN or infinite gradient where the
// mask is 0 gives NaN, and a negative one -0, as in TF. (The multiply is
// unconditional, so the loop vectorizes: see -fno-trapping-math in meson.build.)
struct ReluGradOp {
  template <class C>
  static C apply(C g, C x) {
    const C mask = x > C(0) ? C(1) : C(0);
    return g * mask;
  }
};
struct Relu6GradOp {
  template <class C>
  static C apply(C g, C x) {
    const C mask = x > C(0) && x < C(6) ? C(1) : C(0);
    return g * mask;
  }
};
// EluGrad(gradients, outputs) and SeluGrad(gradients, outputs), from the
// forward op's output y as TF's functors: (y + 1)·g where y < 0, else g;
// g·(y + scale·alpha) where y < 0, else g·scale. A NaN y selects the
// positive side.
struct EluGradOp {
  template <class C>
  static C apply(C g, C y) { return y < C(0) ? (y + C(1)) * g : g; }
};
struct SeluGradOp {
  template <class C>
  static C apply(C g, C y) { return y < C(0) ? g * (y + C(kSeluScaleAlpha)) : g * C(kSeluScale); }
};
// Softplus' cut-offs come from the storage type's epsilon, as TF computes
// them (bfloat16's is 2^-7 though the math runs in float).
struct SoftplusOp {
  template <class T, class C>
  static C apply_for(C x) {
    C eps;
    if constexpr (std::is_same_v<T, bfloat16>) eps = C(0.0078125);
    else eps = std::numeric_limits<T>::epsilon();
    const C threshold = std::log(eps) + C(2);
    if (x > -threshold) return x;
    if (x < threshold) return std::exp(x);
    return std::log1p(std::exp(x));
  }
};

// ---- EluGrad, SeluGrad, LeakyReluGrad take two tensors of one shape:
// TF's shape function merges them (MergeBothInputsShapeFn) and its kernel
// (BinaryElementWiseOp) requires them equal; neither broadcasts.

std::string same_shape_error(std::string_view op, const Shape& a, const Shape& b) {
  return "Inputs to operation " + std::string(op) + " of type " + std::string(op) +
         " must have the same size and shape.  Input 0: " + a.debug_string() + " != input 1: " + b.debug_string();
}

/// The merge of the two inputs' shapes, in the shape function's words while
/// tracing and the kernel's eagerly.
Shape merge_both_inputs(const InferContext& c) {
  const Shape& a = c.inputs[0].shape;
  const Shape& b = c.inputs[1].shape;
  if (!a.rank_known()) return b;
  if (!b.rank_known()) return a;
  if (a.rank() != b.rank()) {
    throw InvalidArgumentError(c.tracing ? "Shapes must be equal rank, but are " + std::to_string(a.rank()) + " and " +
                                               std::to_string(b.rank())
                                         : same_shape_error(c.op, a, b));
  }
  Shape out = a;
  for (int d = 0; d < a.rank(); ++d) {
    if (a.dim(d) == kUnknownDim) {
      out.set_dim(d, b.dim(d));
    } else if (b.dim(d) != kUnknownDim && a.dim(d) != b.dim(d)) {
      throw InvalidArgumentError(c.tracing ? "Dimension " + std::to_string(d) + " in both shapes must be equal, but are " +
                                                 std::to_string(a.dim(d)) + " and " + std::to_string(b.dim(d)) +
                                                 ". Shapes are " + a.debug_string() + " and " + b.debug_string() + "."
                                           : same_shape_error(c.op, a, b));
    }
  }
  return out;
}

std::vector<TensorSpec> infer_same_shape_pair(const InferContext& c) {
  kernels::check_elementwise_inputs<kFloatTypes>(c, 2, kActivationSet);
  return {{c.inputs[0].dtype, merge_both_inputs(c)}};
}

/// The kernel's check, for nodes whose shapes were not all known.
void check_same_shape(const KernelContext& k, std::string_view op) {
  if (!(k.input(0).shape() == k.input(1).shape())) {
    throw InvalidArgumentError(same_shape_error(op, k.input(0).shape(), k.input(1).shape()));
  }
}

/// An activation's gradient op over functor F: the elementwise op
/// register_binary makes, with the same-shape rule and kernel check.
template <class F>
OpBuilder register_activation_grad(OpRegistry& reg, const char* name, const char* signature) {
  return kernels::register_binary<F, kFloatTypes>(reg, name, kActivationSet.tf_list)
      .tf_signature(signature)
      .infer(infer_same_shape_pair)
      .cpu([](const KernelSpec& s) -> Kernel {
        Kernel inner = kernels::dispatch_kernel<kFloatTypes>(s.op, s.inputs[0].dtype, [&]<class T>() {
          return kernels::make_binary_kernel<F, T, T>(s);
        });
        return [inner, op = std::string(s.op)](KernelContext& k) {
          check_same_shape(k, op);
          inner(k);
        };
      });
}

// ---- LeakyRelu(features) and LeakyReluGrad(gradients, features), attr
// alpha (float, 0.2 by default): x where x > 0, else x·alpha; g where
// x > 0, else g·alpha. Selects, as TF's functors, since alpha may be above 1
// or negative. alpha is TF's float attr converted to T as TF's kernel
// converts it: float64's 0.2 is 0.2f (0.20000000298...), bfloat16's 0.2002.

template <class T>
nn::Compute<T> alpha_of(const Attrs& a) {
  return nn::widen(static_cast<T>(static_cast<float>(a.get_or<double>("alpha", 0.2))));
}

std::vector<TensorSpec> infer_leaky_relu(const InferContext& c) {
  kernels::check_allowed(c.op, c.inputs[0].dtype, kActivationSet);
  (void)c.attrs.get_or<double>("alpha", 0.2);
  return {c.inputs[0]};
}

std::vector<TensorSpec> infer_leaky_relu_grad(const InferContext& c) {
  (void)c.attrs.get_or<double>("alpha", 0.2);
  return infer_same_shape_pair(c);
}

/// LeakyRelu's kernel (grad false: the features scaled by themselves) or
/// LeakyReluGrad's (the gradients, input 0, scaled by the features' sign).
KernelFactory leaky_relu_kernel(bool grad) {
  return [grad](const KernelSpec& s) -> Kernel {
    return kernels::dispatch_kernel<kFloatTypes>(s.op, s.inputs[0].dtype, [&]<class T>() -> Kernel {
      const nn::Compute<T> alpha = alpha_of<T>(s.attrs);
      return [alpha, grad, op = std::string(s.op)](KernelContext& k) {
        if (grad) check_same_shape(k, op);
        const Tensor& x = k.input(grad ? 1 : 0);
        const T* px = x.data<T>();
        const T* pg = k.input(0).data<T>();
        T* py = k.allocate_output(0, x.dtype(), x.shape()).data<T>();
        kernels::split_run(x.num_elements(), [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) {
            const auto g = nn::widen(pg[i]);
            py[i] = T(nn::widen(px[i]) > 0 ? g : g * alpha);
          }
        });
      };
    });
  };
}

// ---- gradients (GRADIENTS.md 3.2, TF's nn_grad.py)

/// ReluGrad(g, y), from the output as TF's _ReluGrad.
std::vector<GradTensor> relu_grad(GradContext& c) {
  return grads({c.apply1(op::ReluGrad, {c.grad(0), c.output(0)})});
}
/// Relu6Grad(g, y).
std::vector<GradTensor> relu6_grad(GradContext& c) {
  return grads({c.apply1(op::Relu6Grad, {c.grad(0), c.output(0)})});
}
/// The gradient of ReluGrad(g, x) / Relu6Grad / LeakyReluGrad: the same op
/// applied to the incoming gradient (LeakyReluGrad's with the forward alpha);
/// zeros for the features (TF's _ReluGradGrad, _LeakyReluGradGrad).
std::vector<GradTensor> mask_grad_grad(GradContext& c, OpType mask, const Attrs& attrs = {}) {
  GradTensor x = c.input(1);
  return grads({c.apply1(mask, {c.grad(0), x}, attrs), c.zeros_like(x)});
}
/// EluGrad(g, y) and SeluGrad(g, y), from the output (TF's _EluGrad, _SeluGrad).
std::vector<GradTensor> elu_grad(GradContext& c) {
  return grads({c.apply1(op::EluGrad, {c.grad(0), c.output(0)})});
}
std::vector<GradTensor> selu_grad(GradContext& c) {
  return grads({c.apply1(op::SeluGrad, {c.grad(0), c.output(0)})});
}
/// EluGrad(g, y) / SeluGrad(g, y) are linear in g with slope op(1, y), and
/// y enters where y < 0 as g·y plus a constant: the gradient is op(ddx, y)
/// for g and ddx·g where y < 0 (else 0) for y (TF's _EluGradGrad, _SeluGradGrad).
std::vector<GradTensor> elu_grad_grad(GradContext& c, OpType op) {
  GradTensor g = c.input(0), y = c.input(1), ddx = c.grad(0);
  GradTensor dg, dy;
  if (c.needed(0)) dg = c.apply1(op, {ddx, y});
  if (c.needed(1)) {
    GradTensor negative = c.apply1(op::Less, {y, c.scalar_like(y, 0)});
    dy = c.select(negative, c.mul(ddx, g), c.zeros_like(y));
  }
  return grads({dg, dy});
}
/// LeakyReluGrad(g, x), alpha as the forward op's (TF's _LeakyReluGrad).
std::vector<GradTensor> leaky_relu_grad(GradContext& c) {
  return grads({c.apply1(op::LeakyReluGrad, {c.grad(0), c.input(0)}, c.attrs())});
}
/// g·sigmoid(x).
std::vector<GradTensor> softplus_grad(GradContext& c) {
  return grads({c.mul(c.grad(0), c.apply1(op::Sigmoid, {c.input(0)}))});
}
/// g/(1 + |x|)².
std::vector<GradTensor> softsign_grad(GradContext& c) {
  GradTensor d = c.add(c.scalar_like(c.input(0), 1), c.apply1(op::Abs, {c.input(0)}));
  return grads({c.div(c.grad(0), c.mul(d, d))});
}

}  // namespace

void register_nn_activation_ops(OpRegistry& reg) {
  using kernels::register_binary;
  using kernels::register_unary;
  register_unary<ReluOp, kRealTypes>(reg, "Relu", nn::kRealList).tf_signature("features: T -> activations: T").grad(relu_grad).quantization(QuantRole::Relu);
  register_unary<Relu6Op, kRealTypes>(reg, "Relu6", nn::kRealList).tf_signature("features: T -> activations: T").grad(relu6_grad).quantization(QuantRole::Relu6);
  register_binary<ReluGradOp, kRealTypes>(reg, "ReluGrad", nn::kRealList).grad([](GradContext& c) {
    return mask_grad_grad(c, op::ReluGrad);
  });
  register_binary<Relu6GradOp, kRealTypes>(reg, "Relu6Grad", nn::kRealList).grad([](GradContext& c) {
    return mask_grad_grad(c, op::Relu6Grad);
  });
  register_unary<EluOp, kFloatTypes>(reg, "Elu", kActivationSet.tf_list).tf_signature("features: T -> activations: T").grad(elu_grad);
  register_unary<SeluOp, kFloatTypes>(reg, "Selu", kActivationSet.tf_list).tf_signature("features: T -> activations: T").grad(selu_grad);
  register_unary<SoftplusOp, kFloatTypes>(reg, "Softplus", nn::kFloatList).tf_signature("features: T -> activations: T").grad(softplus_grad);
  register_unary<SoftsignOp, kFloatTypes>(reg, "Softsign", "half, bfloat16, float, double").tf_signature("features: T -> activations: T").grad(softsign_grad);
  register_activation_grad<EluGradOp>(reg, "EluGrad", "gradients: T, outputs: T -> backprops: T").grad([](GradContext& c) {
    return elu_grad_grad(c, op::EluGrad);
  });
  register_activation_grad<SeluGradOp>(reg, "SeluGrad", "gradients: T, outputs: T -> backprops: T").grad([](GradContext& c) {
    return elu_grad_grad(c, op::SeluGrad);
  });
  reg.op("LeakyRelu")
      .tf_signature("features: T -> activations: T")
      .inputs(1)
      .infer(infer_leaky_relu)
      .cpu(leaky_relu_kernel(false))
      .speculatable()
      .cost(CostKind::Elementwise)
      .tpu()
      .grad(leaky_relu_grad);
  reg.op("LeakyReluGrad")
      .tf_signature("gradients: T, features: T -> backprops: T")
      .inputs(2)
      .infer(infer_leaky_relu_grad)
      .cpu(leaky_relu_kernel(true))
      .speculatable()
      .cost(CostKind::Elementwise)
      .tpu()
      .grad([](GradContext& c) { return mask_grad_grad(c, op::LeakyReluGrad, c.attrs()); });
}

}  // namespace ag
