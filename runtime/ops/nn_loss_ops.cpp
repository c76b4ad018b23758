// The fused training ops of TF's nn_ops.cc that Keras' losses and
// BatchNormalization apply: SoftmaxCrossEntropyWithLogits and
// SparseSoftmaxCrossEntropyWithLogits (loss per row, and the logits' gradient
// as a second output, which their gradients reuse), FusedBatchNormV3 (its
// gradient built from other ops: TF's FusedBatchNormGradV3 formulas), and
// L2Loss (sum(t²) / 2, what tf.nn.l2_loss and tf.linalg.global_norm apply).
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/nn_common.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using namespace nn;

// ---- SoftmaxCrossEntropyWithLogits(features [B, C], labels [B, C]) -> loss [B], backprop [B, C].
// SparseSoftmaxCrossEntropyWithLogits(features [B, C], labels [B] int) -> loss [B], backprop [B, C].

void check_float(const InferContext& c) {
  DType t = c.inputs[0].dtype;
  check_attr_type(t, float_type(t), kFloatList);
}

std::vector<TensorSpec> loss_outputs(DType t, int64_t batch, int64_t classes) {
  return {{t, Shape{batch}}, {t, Shape{batch, classes}}};
}

std::vector<TensorSpec> infer_xent(const InferContext& c) {
  check_float(c);
  if (c.inputs[1].dtype != c.inputs[0].dtype) {
    throw InvalidArgumentError(std::string("Inconsistent values for attr 'T' ") + dtype_tf_string(c.inputs[0].dtype) +
                               " vs. " + dtype_tf_string(c.inputs[1].dtype) +
                               " while building NodeDef 'SoftmaxCrossEntropyWithLogits'");
  }
  const Shape& f = c.inputs[0].shape;
  const Shape& l = c.inputs[1].shape;
  if ((f.rank_known() && f.rank() != 2) || (l.rank_known() && l.rank() != 2)) {
    throw InvalidArgumentError("logits and labels must be either 2-dimensional, or broadcasted to be 2-dimensional");
  }
  if (f.rank_known() && l.rank_known() && !f.is_compatible_with(l)) {
    throw InvalidArgumentError("logits and labels must be broadcastable: logits_size=" + f.debug_string() +
                               " labels_size=" + l.debug_string());
  }
  Shape s = f.rank_known() ? f : l.rank_known() ? l : Shape::unknown_dims(2);
  for (int d = 0; d < 2 && l.rank_known(); ++d) {
    if (s.dim(d) < 0) s.set_dim(d, l.dim(d));
  }
  return loss_outputs(c.inputs[0].dtype, s.dim(0), s.dim(1));
}

std::vector<TensorSpec> infer_sparse_xent(const InferContext& c) {
  check_float(c);
  array::check_index_dtype(c.inputs[1].dtype, "Tlabels");
  const Shape& f = c.inputs[0].shape;
  const Shape& l = c.inputs[1].shape;
  if (f.rank_known() && f.rank() != 2) throw InvalidArgumentError("logits must be 2-D, but got shape " + f.debug_string());
  if (l.rank_known() && l.rank() != 1) throw InvalidArgumentError("labels must be 1-D, but got shape " + l.debug_string());
  Shape s = f.rank_known() ? f : Shape::unknown_dims(2);
  if (l.rank_known()) {
    if (s.dim(0) >= 0 && l.dim(0) >= 0 && s.dim(0) != l.dim(0)) {
      throw InvalidArgumentError("logits and labels must have the same first dimension, got logits shape " +
                                 f.debug_string() + " and labels shape " + l.debug_string());
    }
    if (s.dim(0) < 0) s.set_dim(0, l.dim(0));
  }
  return loss_outputs(c.inputs[0].dtype, s.dim(0), s.dim(1));
}

/// One row: backprop = softmax(x) - p and loss = -Σ p·log_softmax(x), with
/// the row's maximum subtracted first (TF's XentEigenImpl).
template <class T, class Label>
void xent_row(const T* x, int64_t classes, Label&& label, T* loss, T* backprop) {
  using C = Compute<T>;
  C m = widen(x[0]);
  for (int64_t j = 1; j < classes; ++j) m = std::max(m, widen(x[j]));
  C sum = 0;
  for (int64_t j = 0; j < classes; ++j) sum += std::exp(widen(x[j]) - m);
  const C log_sum = std::log(sum);
  C l = 0;
  for (int64_t j = 0; j < classes; ++j) {
    const C shifted = widen(x[j]) - m;
    const C p = label(j);
    if (p != C(0)) l += p * (log_sum - shifted);
    backprop[j] = T(std::exp(shifted) / sum - p);
  }
  *loss = T(l);
}

/// A sparse label as an index (the dense instantiations never call it).
template <class L>
int64_t as_index(L v) {
  if constexpr (std::is_integral_v<L>) return static_cast<int64_t>(v);
  else return static_cast<int64_t>(widen(v));
}

KernelFactory xent_kernel(bool sparse) {
  return [sparse](const KernelSpec& s) -> Kernel {
    Kernel kernel;
    dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
      if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, bfloat16>) {
        dispatch_dtype(s.inputs[1].dtype, [&]<class L>() {
          if constexpr (std::is_same_v<L, T> || std::is_same_v<L, int32_t> || std::is_same_v<L, int64_t>) {
            kernel = [sparse](KernelContext& k) {
              using C = Compute<T>;
              const Tensor& x = k.input(0);
              const Tensor& labels = k.input(1);
              const Shape& xs = x.shape();
              if (!sparse) {
                if (xs.rank() != 2 || labels.rank() != 2) {
                  throw InvalidArgumentError(
                      "logits and labels must be either 2-dimensional, or broadcasted to be 2-dimensional");
                }
                if (!(xs == labels.shape())) {
                  throw InvalidArgumentError("logits and labels must be broadcastable: logits_size=" + xs.debug_string() +
                                             " labels_size=" + labels.shape().debug_string());
                }
              } else {
                if (xs.rank() != 2) throw InvalidArgumentError("logits must be 2-D, but got shape " + xs.debug_string());
                if (labels.rank() != 1) {
                  throw InvalidArgumentError("labels must be 1-D, but got shape " + labels.shape().debug_string());
                }
                if (xs.dim(0) != labels.shape().dim(0)) {
                  throw InvalidArgumentError("logits and labels must have the same first dimension, got logits shape " +
                                             xs.debug_string() + " and labels shape " + labels.shape().debug_string());
                }
              }
              const int64_t batch = xs.dim(0), classes = xs.dim(1);
              if (sparse) {
                if (classes == 0 && batch > 0) {
                  throw InvalidArgumentError("Must have at least one class, but got logits shape " + xs.debug_string());
                }
                const L* lp = labels.data<L>();
                for (int64_t b = 0; b < batch; ++b) {
                  if (as_index(lp[b]) < 0 || as_index(lp[b]) >= classes) {
                    std::string values;
                    for (int64_t i = 0; i < batch; ++i) values += (i ? " " : "") + std::to_string(as_index(lp[i]));
                    throw InvalidArgumentError("Received a label value of " + std::to_string(as_index(lp[b])) +
                                               " which is outside the valid range of [0, " + std::to_string(classes) +
                                               ").  Label values: " + values);
                  }
                }
              }
              Tensor& loss = k.allocate_output(0, x.dtype(), Shape{batch});
              Tensor& backprop = k.allocate_output(1, x.dtype(), xs);
              const T* xp = x.data<T>();
              for (int64_t b = 0; b < batch; ++b) {
                const T* row = xp + b * classes;
                T* out = backprop.data<T>() + b * classes;
                if (sparse) {
                  const int64_t target = as_index(labels.data<L>()[b]);
                  xent_row<T>(row, classes, [&](int64_t j) { return C(j == target ? 1 : 0); }, loss.data<T>() + b, out);
                } else {
                  const L* lp = labels.data<L>() + b * classes;
                  xent_row<T>(row, classes, [&](int64_t j) { return C(widen(lp[j])); }, loss.data<T>() + b, out);
                }
              }
            };
          }
        });
      }
    });
    if (!kernel) throw InternalError("cross-entropy kernel for an unchecked dtype");
    return kernel;
  };
}

// ---- FusedBatchNormV3(x, scale, offset, mean, variance) -> y, batch_mean,
// batch_variance, reserve_space_1, reserve_space_2, reserve_space_3; attrs
// epsilon, exponential_avg_factor, data_format (NHWC, NCHW), is_training.
// Training normalizes with the batch's mean and biased variance (saved in
// the reserve spaces) and returns the running statistics updated with the
// factor, the variance Bessel-corrected (n / (n - 1)), as TF's CPU kernel.

bool batch_norm_nchw(const Attrs& a) {
  const std::string& f = a.get_or<std::string>("data_format", "NHWC");
  if (f != "NHWC" && f != "NCHW") throw InvalidArgumentError("Invalid data format: " + f);
  return f == "NCHW";
}

std::vector<TensorSpec> infer_batch_norm(const InferContext& c) {
  DType t = c.inputs[0].dtype;
  check_attr_type(t, t == DType::Float32 || t == DType::Float64 || t == DType::BFloat16, "half, bfloat16, float");
  for (size_t i = 1; i < 5; ++i) {
    if (c.inputs[i].dtype != (t == DType::BFloat16 ? DType::Float32 : t)) {
      throw InvalidArgumentError(std::string("Inconsistent values for attr 'U' ") + dtype_tf_string(c.inputs[1].dtype) +
                                 " vs. " + dtype_tf_string(c.inputs[i].dtype) + " while building NodeDef 'FusedBatchNormV3'");
    }
  }
  const bool nchw = batch_norm_nchw(c.attrs);
  const Shape& x = c.inputs[0].shape;
  if (x.rank_known() && x.rank() != 4) throw InvalidArgumentError("input must be 4-dimensional" + x.debug_string());
  static const char* const kNames[] = {"", "scale", "offset", "mean", "variance"};
  for (size_t i = 1; i < 5; ++i) {
    const Shape& s = c.inputs[i].shape;
    if (s.rank_known() && s.rank() != 1) {
      throw InvalidArgumentError(std::string(kNames[i]) + " must be 1-dimensional" + s.debug_string());
    }
  }
  const int64_t channels = x.rank_known() ? x.dim(nchw ? 1 : 3) : c.inputs[1].shape.rank_known() ? c.inputs[1].shape.dim(0) : kUnknownDim;
  DType u = c.inputs[1].dtype;
  Shape vec{channels};
  return {{t, x.rank_known() ? x : Shape::unknown_dims(4)}, {u, vec}, {u, vec}, {u, vec}, {u, vec}, {u, Shape{0}}};
}

template <class T>
void batch_norm_run(KernelContext& k, bool nchw, bool training, double epsilon, double factor) {
  using U = Compute<T>;
  const Tensor& x = k.input(0);
  const Shape& xs = x.shape();
  if (xs.rank() != 4) throw InvalidArgumentError("input must be 4-dimensional" + xs.debug_string());
  const int64_t ch = xs.dim(nchw ? 1 : 3);
  // x as [outer, ch, inner]: NHWC is [N·H·W, C, 1], NCHW [N, C, H·W].
  const int64_t outer = nchw ? xs.dim(0) : xs.dim(0) * xs.dim(1) * xs.dim(2);
  const int64_t inner = nchw ? xs.dim(2) * xs.dim(3) : 1;
  const int64_t n = outer * inner;
  auto check_vec = [&](size_t i, const char* name, bool may_be_empty) {
    const Tensor& v = k.input(i);
    if (v.rank() != 1) throw InvalidArgumentError(std::string(name) + " must be 1-dimensional" + v.shape().debug_string());
    if (v.shape().dim(0) != ch && !(may_be_empty && v.shape().dim(0) == 0)) {
      throw InvalidArgumentError(std::string(name) + " must have the same number of elements as the channels of x, got " +
                                 std::to_string(v.shape().dim(0)) + " and " + std::to_string(ch));
    }
  };
  check_vec(1, "scale", false);
  check_vec(2, "offset", false);
  // Training with factor 1 never reads the running statistics: they may be empty.
  const bool reads_running = !training || factor != 1.0;
  check_vec(3, "estimated_mean", !reads_running);
  check_vec(4, "estimated_variance", !reads_running);
  const U* scale = k.input(1).data<U>();
  const U* offset = k.input(2).data<U>();
  const U* est_mean = k.input(3).data<U>();
  const U* est_var = k.input(4).data<U>();
  const T* xp = x.data<T>();
  std::vector<U> mean(static_cast<size_t>(ch), U(0)), var(static_cast<size_t>(ch), U(0));
  auto at = [&](int64_t o, int64_t c, int64_t i) { return (o * ch + c) * inner + i; };
  if (training) {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t c = 0; c < ch; ++c)
        for (int64_t i = 0; i < inner; ++i) mean[static_cast<size_t>(c)] += widen(xp[at(o, c, i)]);
    for (U& m : mean) m /= static_cast<U>(n);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t c = 0; c < ch; ++c)
        for (int64_t i = 0; i < inner; ++i) {
          U d = widen(xp[at(o, c, i)]) - mean[static_cast<size_t>(c)];
          var[static_cast<size_t>(c)] += d * d;
        }
    for (U& v : var) v /= static_cast<U>(n);
  } else {
    for (int64_t c = 0; c < ch; ++c) {
      mean[static_cast<size_t>(c)] = est_mean[c];
      var[static_cast<size_t>(c)] = est_var[c];
    }
  }
  Tensor& y = k.allocate_output(0, x.dtype(), xs);
  T* yp = y.data<T>();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t c = 0; c < ch; ++c) {
      const size_t cc = static_cast<size_t>(c);
      const U inv = U(1) / std::sqrt(var[cc] + static_cast<U>(epsilon));
      for (int64_t i = 0; i < inner; ++i) {
        yp[at(o, c, i)] = T((widen(xp[at(o, c, i)]) - mean[cc]) * inv * scale[c] + offset[c]);
      }
    }
  DType u = k.input(1).dtype();
  U* batch_mean = k.allocate_output(1, u, Shape{ch}).data<U>();
  U* batch_var = k.allocate_output(2, u, Shape{ch}).data<U>();
  U* saved_mean = k.allocate_output(3, u, Shape{ch}).data<U>();
  U* saved_var = k.allocate_output(4, u, Shape{ch}).data<U>();
  k.allocate_output(5, u, Shape{0});
  const U bessel = n > 1 ? static_cast<U>(n) / static_cast<U>(n - 1) : U(1);
  for (int64_t c = 0; c < ch; ++c) {
    const size_t cc = static_cast<size_t>(c);
    saved_mean[c] = mean[cc];
    saved_var[c] = var[cc];
    if (!training) {
      batch_mean[c] = mean[cc];
      batch_var[c] = var[cc];
    } else if (factor == 1.0) {
      batch_mean[c] = mean[cc];
      batch_var[c] = var[cc] * bessel;
    } else {
      const U f = static_cast<U>(factor);
      batch_mean[c] = (U(1) - f) * est_mean[c] + f * mean[cc];
      batch_var[c] = (U(1) - f) * est_var[c] + f * bessel * var[cc];
    }
  }
}

KernelFactory batch_norm_kernel() {
  return [](const KernelSpec& s) -> Kernel {
    const bool nchw = batch_norm_nchw(s.attrs);
    const bool training = s.attrs.get_or<bool>("is_training", true);
    const double epsilon = s.attrs.get_or<double>("epsilon", 0.0001);
    const double factor = s.attrs.get_or<double>("exponential_avg_factor", 1.0);
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() -> Kernel {
      if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, bfloat16>) {
        return [=](KernelContext& k) { batch_norm_run<T>(k, nchw, training, epsilon, factor); };
      } else {
        throw InternalError("FusedBatchNormV3 kernel for an unchecked dtype");
      }
    });
  };
}

// ---- gradients (GRADIENTS.md 3.2, TF's nn_grad.py)

GradTensor expand_last(GradContext& c, GradTensor t) {
  return c.apply1(op::ExpandDims, {t, c.constant(Tensor::scalar(int32_t{-1}))});
}

/// The part of the logits' gradient that flows through the backprop output:
/// backprop = softmax(x) - p, so (gg - Σ gg·softmax)·softmax (TF adds it when
/// that output has a gradient).
GradTensor through_backprop(GradContext& c, GradTensor logits) {
  GradTensor gg = c.grad(1);
  GradTensor softmax = c.apply1(op::Softmax, {logits});
  GradTensor dot = c.apply1(op::Sum, {c.mul(gg, softmax), c.ints({1})}, Attrs{{"keep_dims", true}, {"Tidx", DType::Int32}});
  return c.mul(c.sub(gg, dot), softmax);
}

/// Logits: g_loss[:, None] · backprop; labels: g_loss[:, None] · -log_softmax(logits)
/// (as in TF, the backprop output's gradient does not reach the labels).
std::vector<GradTensor> xent_grad(GradContext& c) {
  GradTensor logits = c.input(0);
  GradTensor g = expand_last(c, c.grad(0));
  GradTensor dlogits = c.mul(g, c.output(1));
  if (c.has_grad(1)) dlogits = c.add(dlogits, through_backprop(c, logits));
  GradTensor dlabels;
  if (c.needed(1)) dlabels = c.mul(g, c.neg(c.apply1(op::LogSoftmax, {logits})));
  return grads({dlogits, dlabels});
}

/// Logits: g_loss[:, None] · backprop (softmax - onehot); labels: None.
std::vector<GradTensor> sparse_xent_grad(GradContext& c) {
  GradTensor dlogits = c.mul(expand_last(c, c.grad(0)), c.output(1));
  if (c.has_grad(1)) dlogits = c.add(dlogits, through_backprop(c, c.input(0)));
  return grads({dlogits, GradTensor{}});
}

/// FusedBatchNormV3 (TF's FusedBatchNormGradV3 formulas, in ops; mean and
/// variance get None). Training, with the batch's mean m and biased variance
/// v (reserve spaces 1 and 2) and x̂ = (x - m)·rsqrt(v + ε):
///   doffset = Σ g, dscale = Σ g·x̂,
///   dx = scale·rsqrt(v + ε)·(g - doffset/n - x̂·dscale/n).
/// Inference, with the given mean and variance: dx = g·scale·rsqrt(var + ε),
/// dscale = Σ g·(x - mean)·rsqrt(var + ε), doffset = Σ g.
std::vector<GradTensor> batch_norm_grad(GradContext& c) {
  GradTensor scale = c.input(1);
  // bfloat16 x computes in its statistics' float32, as the kernel does.
  const DType x_type = c.dtype(c.input(0)), u = c.dtype(scale);
  GradTensor x = c.cast(c.input(0), u), g = c.cast(c.grad(0), u);
  const bool nchw = batch_norm_nchw(c.attrs());
  const bool training = c.attrs().get_or<bool>("is_training", true);
  const double epsilon = c.attrs().get_or<double>("epsilon", 0.0001);
  GradTensor axes = c.ints(nchw ? std::vector<int64_t>{0, 2, 3} : std::vector<int64_t>{0, 1, 2});
  // A per-channel vector shaped to broadcast against x.
  auto per_channel = [&](GradTensor v) { return nchw ? c.reshape(v, c.ints({-1, 1, 1})) : v; };
  GradTensor mean = training ? c.output(3) : c.input(3);
  GradTensor var = training ? c.output(4) : c.input(4);
  GradTensor inv = c.apply1(op::Rsqrt, {c.add(var, c.scalar_like(var, epsilon))});
  GradTensor xhat = c.mul(c.sub(x, per_channel(mean)), per_channel(inv));
  GradTensor doffset = c.sum(g, axes);
  GradTensor dscale = c.sum(c.mul(g, xhat), axes);
  GradTensor dx;
  if (training) {
    // n: the elements per channel.
    GradTensor n;
    if (const Shape& xs = c.spec(x).shape; xs.fully_defined()) {
      n = c.scalar_like(x, static_cast<double>(xs.num_elements() / std::max<int64_t>(1, xs.dim(nchw ? 1 : 3))));
    } else {
      Attrs int32{{"out_type", DType::Int32}};
      n = c.div(c.cast(c.apply1(op::Size, {x}, int32), c.dtype(x)), c.cast(c.apply1(op::Size, {scale}, int32), c.dtype(x)));
    }
    GradTensor centered = c.sub(c.sub(g, per_channel(c.div(doffset, n))), c.mul(xhat, per_channel(c.div(dscale, n))));
    dx = c.mul(per_channel(c.mul(scale, inv)), centered);
  } else {
    dx = c.mul(g, per_channel(c.mul(scale, inv)));
  }
  return grads({c.cast(dx, x_type), dscale, doffset, GradTensor{}, GradTensor{}});
}

// ---- L2Loss(t) -> sum(t²) / 2, a scalar, summed in T (float for bfloat16),
// as TF's L2LossOp sums.

KernelFactory l2_loss_kernel() {
  return [](const KernelSpec& s) {
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() -> Kernel {
      return [](KernelContext& k) {
        const Tensor& t = k.input(0);
        Tensor& out = k.allocate_output(0, t.dtype(), Shape{});
        if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, bfloat16>) {
          using Acc = std::conditional_t<std::is_same_v<T, double>, double, float>;
          Acc sum = 0;
          const T* p = t.data<T>();
          for (int64_t i = 0; i < t.num_elements(); ++i) {
            Acc v = static_cast<Acc>(p[i]);
            sum += v * v;
          }
          *out.data<T>() = static_cast<T>(sum / Acc(2));
        } else {
          throw InternalError("L2Loss kernel for a non-floating dtype");
        }
      };
    });
  };
}

}  // namespace

void register_nn_loss_ops(OpRegistry& reg) {
  reg.op("L2Loss")
      .tf_signature("t: T -> output: T")
      .inputs(1)
      .infer([](const InferContext& c) {
        check_float(c);
        return std::vector<TensorSpec>{{c.inputs[0].dtype, Shape{}}};
      })
      .cpu(l2_loss_kernel())
      .cost(CostKind::Elementwise)
      .tpu()
      .grad([](GradContext& c) { return grads({c.mul(c.input(0), c.grad(0))}); });
  reg.op("SoftmaxCrossEntropyWithLogits")
      .tf_signature("features: T, labels: T -> loss: T, backprop: T")
      .inputs(2)
      .outputs(2)
      .infer(infer_xent)
      .cpu(xent_kernel(false))
      .cost(CostKind::Elementwise)
      .tpu()
      .grad(xent_grad);
  reg.op("SparseSoftmaxCrossEntropyWithLogits")
      .tf_signature("features: T, labels: Tlabels -> loss: T, backprop: T")
      .inputs(2)
      .outputs(2)
      .infer(infer_sparse_xent)
      .cpu(xent_kernel(true))
      .cost(CostKind::Elementwise)
      .tpu()
      .grad(sparse_xent_grad);
  reg.op("FusedBatchNormV3")
      .tf_signature("x: T, scale: U, offset: U, mean: U, variance: U -> y: T, batch_mean: U, batch_variance: U, reserve_space_1: U, reserve_space_2: U, reserve_space_3: U")
      .inputs(5)
      .outputs(6)
      .infer(infer_batch_norm)
      .cpu(batch_norm_kernel())
      .cost(CostKind::Elementwise)
      .tpu()
      .grad(batch_norm_grad);
}

}  // namespace ag
