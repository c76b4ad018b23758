// The gradient ops of the windowed nn ops (TF's nn_ops.cc): Conv2DBackpropInput
// and Conv2DBackpropFilter (Conv2D's, same attrs), MaxPoolGrad (and its own
// gradient, MaxPoolGradGrad) and AvgPoolGrad (NHWC). The convolutions' are
// im2col + GEMM (kernels/conv.h); the pools' direct loops over the forward
// op's windows, each output element's gradient going back to the inputs it
// read. MaxPoolGrad gives a window's
// gradient to its first maximum in row-major window order, as TF's CPU kernel
// (its argmax keeps the first of equal values); a NaN counts as the maximum,
// as in the forward kernel.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/kernels/gemm.h"
#include "runtime/ops/nn_common.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using namespace nn;
using array::one;

// ---- Conv2DBackpropInput(input_sizes, filter, out_backprop),
//      Conv2DBackpropFilter(input, filter_sizes, out_backprop).

/// The forward geometry of a Conv2D of `in` by `f`, checked against the
/// gradient `dy` in TF's words (ConvBackpropComputeDimensions).
kernels::ConvGeom backprop_geom(const char* label, const ConvAttrs& a, const Shape& in, const Shape& f, const Shape& dy) {
  if (in.rank() != 4) throw InvalidArgumentError(std::string(label) + ": input must be 4-dimensional");
  if (f.rank() != 4) throw InvalidArgumentError(std::string(label) + ": filter must be 4-dimensional");
  if (dy.rank() != 4) throw InvalidArgumentError(std::string(label) + ": out_backprop must be 4-dimensional");
  if (in.dim(0) != dy.dim(0)) {
    throw InvalidArgumentError(std::string(label) + ": input and out_backprop must have the same batch size, input batch: " +
                               std::to_string(in.dim(0)) + " outbackprop batch: " + std::to_string(dy.dim(0)) +
                               " batch_dim: 0");
  }
  if (f.dim(2) <= 0 || in.dim(3) % f.dim(2) != 0) {
    throw InvalidArgumentError(std::string(label) + ": input depth must be evenly divisible by filter depth");
  }
  if (f.dim(3) != dy.dim(3)) {
    throw InvalidArgumentError(std::string(label) + ": filter and out_backprop must have the same out_depth");
  }
  kernels::WindowDim w[2];
  for (int d = 1; d <= 2; ++d) {
    w[d - 1] = conv_window(a, d, in.dim(d), f.dim(d - 1));
    if (w[d - 1].out != dy.dim(d)) {
      throw InvalidArgumentError(std::string(label) + ": Size of out_backprop doesn't match computed: actual = " +
                                 std::to_string(dy.dim(d)) + ", computed = " + std::to_string(w[d - 1].out) +
                                 " spatial_dim: " + std::to_string(d) + " input: " + std::to_string(in.dim(d)) +
                                 " filter: " + std::to_string(f.dim(d - 1)) + " output: " + std::to_string(dy.dim(d)) +
                                 " stride: " + std::to_string(a.strides[static_cast<size_t>(d)]) +
                                 " dilation: " + std::to_string(a.dilations[static_cast<size_t>(d)]));
    }
  }
  return {in.dim(0),      in.dim(1),      in.dim(2),   in.dim(3),   f.dim(0),     f.dim(1),
          f.dim(2),       f.dim(3),       w[0].out,    w[1].out,    a.strides[1], a.strides[2],
          a.dilations[1], a.dilations[2], w[0].pad_before, w[1].pad_before};
}

std::vector<TensorSpec> infer_conv_backprop(const InferContext& c, int sizes_input, int tensor_input) {
  array::check_index_dtype(c.inputs[static_cast<size_t>(sizes_input)].dtype, "T");
  DType t = c.inputs[static_cast<size_t>(tensor_input)].dtype;
  check_attr_type(t, is_floating(t), "bfloat16, float, double");
  if (c.inputs[2].dtype != t) {
    throw InvalidArgumentError(std::string("Inconsistent values for attr 'T' ") + dtype_tf_string(t) + " vs. " +
                               dtype_tf_string(c.inputs[2].dtype) + " while building NodeDef '" + std::string(c.op) + "'");
  }
  (void)conv_attrs(c.attrs);
  const Shape& ss = c.inputs[static_cast<size_t>(sizes_input)].shape;
  if (ss.rank_known() && ss.rank() != 1) {
    throw InvalidArgumentError(std::string(c.op) + ": " + (sizes_input == 0 ? "input_sizes" : "filter_sizes") +
                               " input must be 1-dim, not " + std::to_string(ss.rank()));
  }
  if (const Tensor* sizes = c.constant(static_cast<size_t>(sizes_input))) {
    Shape s = array::checked_shape(array::int_values(*sizes));
    if (s.rank() != 4) throw InvalidArgumentError(std::string(c.op) + ": shape must have 4 elements, got " + s.debug_string());
    return one(t, s);
  }
  // While tracing, a Pack of the batch size and constants (Keras's
  // Conv2DTranspose stacks tf.shape(x)[0] with its output dims) is known in
  // part, as TF's MakeShapeFromShapeTensor reads it.
  if (sizes_input == 0) {
    if (std::optional<Shape> s = array::shape_input(c, 0); s && s->rank_known() && s->rank() == 4) return one(t, *s);
  }
  return one(t, Shape::unknown_dims(4));
}

/// The forward Conv2D's product (conv2d_dims), from dy and the filter's shape.
ContractionDims backprop_dims(const Shape& f, const Shape& dy) {
  if (!f.rank_known() || f.rank() != 4 || !dy.rank_known() || dy.rank() != 4) return {1, -1, -1, -1};
  return {1, static_cast<double>(dy.dim(0)) * static_cast<double>(dy.dim(1)) * static_cast<double>(dy.dim(2)),
          static_cast<double>(f.dim(0)) * static_cast<double>(f.dim(1)) * static_cast<double>(f.dim(2)),
          static_cast<double>(f.dim(3))};
}
ContractionDims backprop_input_dims(const InferContext& c, std::span<const TensorSpec>) {
  return backprop_dims(c.inputs[1].shape, c.inputs[2].shape);
}
ContractionDims backprop_filter_dims(const InferContext& c, std::span<const TensorSpec> out) {
  return backprop_dims(out[0].shape, c.inputs[2].shape);
}

template <class T>
Tensor& allocate_zeroed(KernelContext& k, const Shape& s, std::vector<Compute<T>>& acc) {
  acc.assign(static_cast<size_t>(s.num_elements()), Compute<T>(0));
  return k.allocate_output(0, dtype_of<T>(), s);
}

template <class T>
void store(const std::vector<Compute<T>>& acc, Tensor& out) {
  T* o = out.data<T>();
  for (size_t i = 0; i < acc.size(); ++i) o[i] = T(acc[i]);
}

KernelFactory conv_backprop_input_kernel() {
  return [](const KernelSpec& s) -> Kernel {
    ConvAttrs a = conv_attrs(s.attrs);
    return dispatch_dtype(s.inputs[1].dtype, [&]<class T>() -> Kernel {
      if constexpr (!std::is_floating_point_v<T> && !std::is_same_v<T, bfloat16>) {
        throw InternalError("Conv2DBackpropInput kernel for a non-float dtype");
      } else {
        return [a](KernelContext& k) {
          Shape in = array::checked_shape(array::int_values(k.input(0)));
          const Tensor& f = k.input(1);
          const Tensor& dy = k.input(2);
          kernels::ConvGeom g = backprop_geom("Conv2DBackpropInput", a, in, f.shape(), dy.shape());
          Tensor& out = k.allocate_output(0, dtype_of<T>(), in);
          in_compute_type<T>({&f, &dy}, out, [&](const auto* fp, const auto* dp, auto* op) {
            kernels::conv2d_backprop_input_nhwc(fp, dp, op, g);
          });
        };
      }
    });
  };
}

KernelFactory conv_backprop_filter_kernel() {
  return [](const KernelSpec& s) -> Kernel {
    ConvAttrs a = conv_attrs(s.attrs);
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() -> Kernel {
      if constexpr (!std::is_floating_point_v<T> && !std::is_same_v<T, bfloat16>) {
        throw InternalError("Conv2DBackpropFilter kernel for a non-float dtype");
      } else {
        return [a](KernelContext& k) {
          const Tensor& x = k.input(0);
          Shape fs = array::checked_shape(array::int_values(k.input(1)));
          const Tensor& dy = k.input(2);
          kernels::ConvGeom g = backprop_geom("Conv2DBackpropFilter", a, x.shape(), fs, dy.shape());
          Tensor& out = k.allocate_output(0, dtype_of<T>(), fs);
          in_compute_type<T>({&x, &dy}, out, [&](const auto* xp, const auto* dp, auto* op) {
            kernels::conv2d_backprop_filter_nhwc(xp, dp, op, g);
          });
        };
      }
    });
  };
}

// ---- MaxPoolGrad(orig_input, orig_output, grad), AvgPoolGrad(orig_input_shape, grad).

struct PoolGeom {
  int64_t n, h, w, ch;
  kernels::WindowDim r, c;
};

PoolGeom pool_geom(const PoolAttrs& p, const Shape& in, const Shape& grad, const char* label) {
  if (in.rank() != 4) throw InvalidArgumentError("orig_input must be 4-dimensional");
  if (grad.rank() != 4) throw InvalidArgumentError("grad must be 4-dimensional");
  PoolGeom g{in.dim(0), in.dim(1), in.dim(2), in.dim(3),
             kernels::window_dim(in.dim(1), p.ksize[1], p.strides[1], 1, p.padding),
             kernels::window_dim(in.dim(2), p.ksize[2], p.strides[2], 1, p.padding)};
  Shape want{g.n, g.r.out, g.c.out, g.ch};
  if (!(grad == want)) {
    throw InvalidArgumentError(std::string(label) + ": expected grad of shape " + want.debug_string() + ", got " +
                               grad.debug_string());
  }
  return g;
}

/// Calls body(batch, first output index of the window, window bounds) per
/// window of batches [b0, b1); windows clipped to the input, as the forward
/// kernels clip them.
template <class F>
void for_each_window(const PoolAttrs& p, const PoolGeom& g, int64_t b0, int64_t b1, F&& body) {
  for (int64_t b = b0; b < b1; ++b) {
    for (int64_t oh = 0; oh < g.r.out; ++oh) {
      int64_t h0 = std::max<int64_t>(0, oh * p.strides[1] - g.r.pad_before);
      int64_t h1 = std::min(g.h, oh * p.strides[1] - g.r.pad_before + p.ksize[1]);
      for (int64_t ow = 0; ow < g.c.out; ++ow) {
        int64_t w0 = std::max<int64_t>(0, ow * p.strides[2] - g.c.pad_before);
        int64_t w1 = std::min(g.w, ow * p.strides[2] - g.c.pad_before + p.ksize[2]);
        body(b, ((b * g.r.out + oh) * g.c.out + ow) * g.ch, h0, h1, w0, w1);
      }
    }
  }
}

template <class F>
void for_each_window(const PoolAttrs& p, const PoolGeom& g, F&& body) {
  for_each_window(p, g, 0, g.n, std::forward<F>(body));
}

/// Channels per tile of a window's argmax: the running maxima and their
/// positions live in arrays of this size on the stack.
constexpr int64_t kArgmaxTile = 64;

/// For channels [d0, d0 + n) of one window, whose positions' element offsets
/// (channel 0) are `at`, the position of each channel's first maximum (a NaN
/// counts as the maximum, as in MaxPool) into `pos`. Read position by
/// position with the channels innermost: contiguous reads, and branch-free
/// comparisons (random data makes a branch on them mispredict half the
/// time).
template <class T>
void window_argmax(const T* x, const int64_t* at, int64_t positions, int64_t d0, int64_t n, int32_t* pos) {
  using C = Compute<T>;
  C best[kArgmaxTile];
  for (int64_t d = 0; d < n; ++d) {
    best[d] = widen(x[at[0] + d0 + d]);
    pos[d] = 0;
  }
  int64_t d_fast = 0;
  if constexpr (std::is_same_v<T, float>) {
    // Eight channels at a time in vector registers (GCC's and Clang's vector
    // extensions: GCC's vectorizer leaves this loop scalar and branching).
    using F8 = float __attribute__((vector_size(32)));
    using I8 = int32_t __attribute__((vector_size(32)));
    for (; d_fast + 8 <= n; d_fast += 8) {
      F8 bv;
      I8 bp = {};
      std::memcpy(&bv, best + d_fast, sizeof bv);
      for (int64_t q = 1; q < positions; ++q) {
        F8 v;
        std::memcpy(&v, x + at[q] + d0 + d_fast, sizeof v);
        I8 take = (bv == bv) & ((v > bv) | (v != v));  // lanes all ones where taken
        I8 qv = I8{} + static_cast<int32_t>(q);
        bp = (bp & ~take) | (qv & take);
        I8 vb, bb;
        std::memcpy(&vb, &v, sizeof vb);
        std::memcpy(&bb, &bv, sizeof bb);
        bb = (bb & ~take) | (vb & take);
        std::memcpy(&bv, &bb, sizeof bv);
      }
      std::memcpy(pos + d_fast, &bp, sizeof bp);
    }
  }
  for (int64_t q = 1; q < positions; ++q) {
    const T* px = x + at[q] + d0;
    for (int64_t d = d_fast; d < n; ++d) {
      C v = widen(px[d]);
      C bv = best[d];
      // The first strict maximum wins ties; a NaN wins once.
      bool take = (bv == bv) & ((v > bv) | (v != v));
      pos[d] = take ? static_cast<int32_t>(q) : pos[d];
      best[d] = take ? v : bv;
    }
  }
}

/// MaxPoolGrad (grad_grad false): dy added at each window's maximum, into
/// zeros of x's shape. MaxPoolGradGrad (true): the gradient of x's shape read
/// at each window's maximum, into y's shape. Batches run in parallel: each
/// writes only its own rows. Float and double accumulate in the output
/// itself; bfloat16 in a float buffer, rounded once at the end.
KernelFactory max_pool_grad_kernel(bool grad_grad) {
  return [grad_grad](const KernelSpec& s) -> Kernel {
    PoolAttrs p = pool_attrs(s.attrs, true);
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() -> Kernel {
      if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
        throw InternalError("MaxPoolGrad kernel for a non-numeric dtype");
      } else {
        return [p, grad_grad](KernelContext& k) {
          using C = Compute<T>;
          const Tensor& x = k.input(0);
          const Tensor& g_in = k.input(2);
          const Shape& pooled = grad_grad ? k.input(1).shape() : g_in.shape();
          PoolGeom g = pool_geom(p, x.shape(), pooled, grad_grad ? "MaxPoolGradGrad" : "MaxPoolGrad");
          if (grad_grad && !(g_in.shape() == x.shape())) {
            throw InvalidArgumentError("MaxPoolGradGrad: expected grad of shape " + x.shape().debug_string() + ", got " +
                                       g_in.shape().debug_string());
          }
          const Shape& out_shape = grad_grad ? pooled : x.shape();
          Tensor& out = k.allocate_output(0, dtype_of<T>(), out_shape);
          std::vector<C> wide;
          C* acc;
          if constexpr (std::is_same_v<T, C>) {
            acc = out.data<T>();
            std::fill(acc, acc + out.num_elements(), C(0));
          } else {
            wide.assign(static_cast<size_t>(out.num_elements()), C(0));
            acc = wide.data();
          }
          const T* xp = x.data<T>();
          const T* gp = g_in.data<T>();
          double work = static_cast<double>(x.num_elements()) * static_cast<double>(p.ksize[1] * p.ksize[2]);
          int parts = kernels::threads_for(work) > 1 ? static_cast<int>(std::min<int64_t>(g.n, 8)) : 1;
          kernels::parallel_for(g.n, parts, [&](int64_t b0, int64_t b1) {
            std::vector<int64_t> at(static_cast<size_t>(std::max<int64_t>(1, p.ksize[1] * p.ksize[2])));
            int32_t pos[kArgmaxTile];
            for_each_window(p, g, b0, b1, [&](int64_t b, int64_t o, int64_t h0, int64_t h1, int64_t w0, int64_t w1) {
              if (h0 >= h1 || w0 >= w1) return;  // an empty window routes nothing
              int64_t positions = 0;
              for (int64_t ih = h0; ih < h1; ++ih) {
                for (int64_t iw = w0; iw < w1; ++iw) at[static_cast<size_t>(positions++)] = ((b * g.h + ih) * g.w + iw) * g.ch;
              }
              for (int64_t d0 = 0; d0 < g.ch; d0 += kArgmaxTile) {
                const int64_t n = std::min(kArgmaxTile, g.ch - d0);
                window_argmax(xp, at.data(), positions, d0, n, pos);
                for (int64_t d = 0; d < n; ++d) {
                  const int64_t i = at[static_cast<size_t>(pos[d])] + d0 + d;
                  if (grad_grad) acc[o + d0 + d] = widen(gp[i]);
                  else acc[i] += widen(gp[o + d0 + d]);
                }
              }
            });
          });
          if constexpr (!std::is_same_v<T, C>) {
            T* op = out.data<T>();
            for (size_t i = 0; i < wide.size(); ++i) op[i] = T(wide[i]);
          }
        };
      }
    });
  };
}

KernelFactory avg_pool_grad_kernel() {
  return [](const KernelSpec& s) -> Kernel {
    PoolAttrs p = pool_attrs(s.attrs, false);
    return dispatch_dtype(s.inputs[1].dtype, [&]<class T>() -> Kernel {
      if constexpr (!std::is_floating_point_v<T> && !std::is_same_v<T, bfloat16>) {
        throw InternalError("AvgPoolGrad kernel for a non-float dtype");
      } else {
        return [p](KernelContext& k) {
          using C = Compute<T>;
          const Tensor& sizes = k.input(0);
          if (sizes.rank() != 1 || sizes.num_elements() != 4) {
            throw InvalidArgumentError("out_backprop must be 1-dimensional and 4 elements");
          }
          Shape in = array::checked_shape(array::int_values(sizes));
          const Tensor& dy = k.input(1);
          PoolGeom g = pool_geom(p, in, dy.shape(), "AvgPoolGrad");
          std::vector<C> acc;
          Tensor& out = allocate_zeroed<T>(k, in, acc);
          const T* dp = dy.data<T>();
          for_each_window(p, g, [&](int64_t b, int64_t o, int64_t h0, int64_t h1, int64_t w0, int64_t w1) {
            // The forward divides by the window's elements inside the input.
            C count = static_cast<C>((h1 - h0) * (w1 - w0));
            for (int64_t ih = h0; ih < h1; ++ih) {
              for (int64_t iw = w0; iw < w1; ++iw) {
                int64_t i = ((b * g.h + ih) * g.w + iw) * g.ch;
                for (int64_t d = 0; d < g.ch; ++d) acc[static_cast<size_t>(i + d)] += widen(dp[o + d]) / count;
              }
            }
          });
          store<T>(acc, out);
        };
      }
    });
  };
}

// ---- gradients (TF's nn_grad.py): the backprop ops are linear in their
// tensor inputs, so their gradients are the other two convolutions.

/// Conv2DBackpropInput(sizes, w, dy): None, Conv2DBackpropFilter(g, shape(w), dy), Conv2D(g, w).
std::vector<GradTensor> conv_backprop_input_grad(GradContext& c) {
  GradTensor w = c.input(1), dy = c.input(2), g = c.grad(0);
  GradTensor dw, ddy;
  if (c.needed(1)) dw = c.apply1(op::Conv2DBackpropFilter, {g, c.shape_of(w), dy}, c.attrs());
  if (c.needed(2)) ddy = c.apply1(op::Conv2D, {g, w}, c.attrs());
  return grads({GradTensor{}, dw, ddy});
}

/// Conv2DBackpropFilter(x, sizes, dy): Conv2DBackpropInput(shape(x), g, dy), None, Conv2D(x, g).
std::vector<GradTensor> conv_backprop_filter_grad(GradContext& c) {
  GradTensor x = c.input(0), dy = c.input(2), g = c.grad(0);
  GradTensor dx, ddy;
  if (c.needed(0)) dx = c.apply1(op::Conv2DBackpropInput, {c.shape_of(x), g, dy}, c.attrs());
  if (c.needed(2)) ddy = c.apply1(op::Conv2D, {x, g}, c.attrs());
  return grads({dx, GradTensor{}, ddy});
}

/// MaxPoolGrad(x, y, dy): zeros for x and y (the routing is piecewise
/// constant in them), MaxPoolGradGrad(x, y, g) for dy.
std::vector<GradTensor> max_pool_grad_grad(GradContext& c) {
  return grads({c.zeros_like(c.input(0)), c.zeros_like(c.input(1)),
                c.apply1(op::MaxPoolGradGrad, {c.input(0), c.input(1), c.grad(0)}, c.attrs())});
}

/// MaxPoolGradGrad(x, y, g): zeros for x and y, MaxPoolGrad(x, y, g') for g.
std::vector<GradTensor> max_pool_grad_grad_grad(GradContext& c) {
  return grads({c.zeros_like(c.input(0)), c.zeros_like(c.input(1)),
                c.apply1(op::MaxPoolGrad, {c.input(0), c.input(1), c.grad(0)}, c.attrs())});
}

/// AvgPoolGrad(sizes, dy): None, AvgPool(g).
std::vector<GradTensor> avg_pool_grad_grad(GradContext& c) {
  return grads({GradTensor{}, c.apply1(op::AvgPool, {c.grad(0)}, c.attrs())});
}

}  // namespace

void register_nn_grad_ops(OpRegistry& reg) {
  reg.op("Conv2DBackpropInput")
      .tf_signature("input_sizes: int32, filter: T, out_backprop: T -> output: T")
      .inputs(3)
      .infer([](const InferContext& c) { return infer_conv_backprop(c, 0, 1); })
      .cpu(conv_backprop_input_kernel())
      .cost(CostKind::Contraction, backprop_input_dims)
      .tpu()
      .grad(conv_backprop_input_grad);
  reg.op("Conv2DBackpropFilter")
      .tf_signature("input: T, filter_sizes: int32, out_backprop: T -> output: T")
      .inputs(3)
      .infer([](const InferContext& c) { return infer_conv_backprop(c, 1, 0); })
      .cpu(conv_backprop_filter_kernel())
      .cost(CostKind::Contraction, backprop_filter_dims)
      .tpu()
      .grad(conv_backprop_filter_grad);
  reg.op("MaxPoolGrad")
      .tf_signature("orig_input: T, orig_output: T, grad: T -> output: T")
      .inputs(3)
      .infer([](const InferContext& c) -> std::vector<TensorSpec> {
        DType t = c.inputs[0].dtype;
        check_attr_type(t, real_type(t), kRealList);
        (void)pool_attrs(c.attrs, true);
        const Shape& in = c.inputs[0].shape;
        if (in.rank_known() && in.rank() != 4) throw InvalidArgumentError("orig_input must be 4-dimensional");
        return {{t, in.rank_known() ? in : Shape::unknown_dims(4)}};
      })
      .cpu(max_pool_grad_kernel(false))
      .cost(CostKind::Elementwise)
      .tpu()
      .grad(max_pool_grad_grad);
  // MaxPoolGradGrad(orig_input, orig_output, grad): grad (x's shape) read at
  // each window's maximum, in y's shape.
  reg.op("MaxPoolGradGrad")
      .tf_signature("orig_input: T, orig_output: T, grad: T -> output: T")
      .inputs(3)
      .infer([](const InferContext& c) -> std::vector<TensorSpec> {
        DType t = c.inputs[0].dtype;
        check_attr_type(t, real_type(t), kRealList);
        (void)pool_attrs(c.attrs, true);
        const Shape& out = c.inputs[1].shape;
        if (out.rank_known() && out.rank() != 4) throw InvalidArgumentError("orig_output must be 4-dimensional");
        return {{t, out.rank_known() ? out : Shape::unknown_dims(4)}};
      })
      .cpu(max_pool_grad_kernel(true))
      .cost(CostKind::Elementwise)
      .tpu()
      .grad(max_pool_grad_grad_grad);
  reg.op("AvgPoolGrad")
      .tf_signature("orig_input_shape: int32, grad: T -> output: T")
      .inputs(2)
      .infer([](const InferContext& c) -> std::vector<TensorSpec> {
        array::check_index_dtype(c.inputs[0].dtype, "orig_input_shape");
        DType t = c.inputs[1].dtype;
        check_attr_type(t, float_type(t), kFloatList);
        (void)pool_attrs(c.attrs, false);
        if (const Tensor* sizes = c.constant(0)) return {{t, array::checked_shape(array::int_values(*sizes))}};
        return {{t, Shape::unknown_dims(4)}};
      })
      .cpu(avg_pool_grad_kernel())
      .cost(CostKind::Elementwise)
      .tpu()
      .grad(avg_pool_grad_grad);
}

}  // namespace ag
