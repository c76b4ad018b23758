// Neural-network ops (TF's nn_ops.cc): Softmax/LogSoftmax over the last
// axis, BiasAdd, Conv2D (im2col + GEMM, kernels/conv.h), MaxPool and AvgPool
// (NHWC). The activations are in nn_activation_ops.cpp, the gradient ops of
// the windowed ops in nn_grad_ops.cpp, the losses and batch normalization in
// nn_loss_ops.cpp.
#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/ops/families.h"
#include "runtime/ops/kernels/conv.h"
#include "runtime/ops/kernels/elementwise_ops.h"
#include "runtime/ops/grad_context.h"
#include "runtime/ops/nn_common.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using namespace nn;

void check_same_types(const InferContext& c) {
  for (size_t i = 1; i < c.inputs.size(); ++i) {
    if (c.inputs[i].dtype != c.inputs[0].dtype) {
      throw InvalidArgumentError("cannot compute " + std::string(c.op) + " as input #" + std::to_string(i) +
                                 "(zero-based) was expected to be a " + dtype_tf_string(c.inputs[0].dtype) +
                                 " tensor but is a " + dtype_tf_string(c.inputs[i].dtype) + " tensor");
    }
  }
}

// ---- Softmax, LogSoftmax: logits: T -> T over the last axis.

OpBuilder register_softmax(OpRegistry& reg, const char* name, bool log) {
  return reg.op(name)
      .inputs(1)
      .infer([](const InferContext& c) {
        check_attr_type(c.inputs[0].dtype, float_type(c.inputs[0].dtype), kFloatList);
        const Shape& s = c.inputs[0].shape;
        if (s.rank_known() && s.rank() < 1) {
          throw InvalidArgumentError("logits must have >= 1 dimension, got " + s.debug_string());
        }
        return std::vector<TensorSpec>{c.inputs[0]};
      })
      .cpu([log](const KernelSpec& s) -> Kernel {
        return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() -> Kernel {
          if constexpr (!std::is_floating_point_v<T> && !std::is_same_v<T, bfloat16>) {
            throw InternalError("softmax kernel for a non-float dtype");
          } else {
            return [log](KernelContext& k) {
              using C = Compute<T>;
              const Tensor& in = k.input(0);
              Tensor& out = k.allocate_output(0, in.dtype(), in.shape());
              int64_t len = in.shape().dim(in.rank() - 1);
              if (len == 0) return;
              int64_t rows = in.num_elements() / len;
              const T* x = in.data<T>();
              T* y = out.data<T>();
              using Row = Eigen::Array<C, Eigen::Dynamic, 1>;
              Row e(len);
              for (int64_t r = 0; r < rows; ++r) {
                const T* xr = x + r * len;
                T* yr = y + r * len;
                // Eigen's vectorized exp; the max subtracted first keeps it finite.
                if constexpr (std::is_same_v<T, C>) {
                  e = Eigen::Map<const Row>(xr, len);
                } else {
                  for (int64_t j = 0; j < len; ++j) e[j] = widen(xr[j]);
                }
                e -= e.maxCoeff();
                if (log) {
                  C ls = std::log(e.exp().sum());
                  e -= ls;
                } else {
                  e = e.exp();
                  e /= e.sum();
                }
                if constexpr (std::is_same_v<T, C>) {
                  Eigen::Map<Row>(yr, len) = e;
                } else {
                  for (int64_t j = 0; j < len; ++j) yr[j] = T(e[j]);
                }
              }
            };
          }
        });
      });
}

// ---- BiasAdd: value: T, bias: T -> T; attr data_format ("NHWC": last dim, "NCHW": dim 1).

bool nchw_format(const Attrs& a) {
  const std::string& f = a.get_or<std::string>("data_format", "NHWC");
  if (f != "NHWC" && f != "NCHW") throw InvalidArgumentError("Invalid data format");
  return f == "NCHW";
}

std::vector<TensorSpec> infer_bias_add(const InferContext& c) {
  check_same_types(c);
  check_attr_type(c.inputs[0].dtype, real_type(c.inputs[0].dtype), kRealList);
  const Shape& v = c.inputs[0].shape;
  const Shape& b = c.inputs[1].shape;
  bool nchw = nchw_format(c.attrs);
  if (v.rank_known() && v.rank() < 2) {
    throw InvalidArgumentError("Input tensor must be at least 2D: " + v.debug_string());
  }
  if (b.rank_known() && b.rank() != 1) throw InvalidArgumentError("Biases must be 1D: " + b.debug_string());
  if (v.rank_known() && b.rank_known()) {
    int64_t ch = v.dim(nchw ? 1 : v.rank() - 1);
    if (ch != kUnknownDim && b.dim(0) != kUnknownDim && ch != b.dim(0)) {
      throw InvalidArgumentError("Must provide as many biases as the last dimension of the input tensor: " +
                                 b.debug_string() + " vs. " + v.debug_string());
    }
  }
  return {c.inputs[0]};
}

/// BiasAdd over the last dim (NHWC) is AddV2 of a [channels] vector, which
/// NumPy broadcasting gives: fusers then see one kind of addition.
std::optional<CanonicalForm> bias_add_as_add(const InferContext& c) {
  if (nchw_format(c.attrs)) return std::nullopt;
  return CanonicalForm{op::AddV2, {}};
}

Kernel bias_add_kernel(const KernelSpec& s) {
  bool nchw = nchw_format(s.attrs);
  return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() -> Kernel {
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
      throw InternalError("BiasAdd kernel for a non-numeric dtype");
    } else {
      return [nchw](KernelContext& k) {
        const Tensor& v = k.input(0);
        const T* bias = k.input(1).data<T>();
        Tensor& out = k.allocate_output(0, v.dtype(), v.shape());
        int ch_dim = nchw ? 1 : v.rank() - 1;
        int64_t channels = v.shape().dim(ch_dim), outer = 1, inner = 1;
        for (int i = 0; i < ch_dim; ++i) outer *= v.shape().dim(i);
        for (int i = ch_dim + 1; i < v.rank(); ++i) inner *= v.shape().dim(i);
        const T* x = v.data<T>();
        T* y = out.data<T>();
        auto add = [](T a, T b) {
          if constexpr (std::is_integral_v<T>) {
            using U = std::make_unsigned_t<T>;  // wraps as TF's does, without signed overflow
            return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
          } else {
            return T(widen(a) + widen(b));
          }
        };
        for (int64_t o = 0; o < outer; ++o) {
          if (inner == 1) {  // channels last: the innermost loop runs along them
            const T* xo = x + o * channels;
            T* yo = y + o * channels;
            for (int64_t c = 0; c < channels; ++c) yo[c] = add(xo[c], bias[c]);
            continue;
          }
          for (int64_t c = 0; c < channels; ++c) {
            int64_t base = (o * channels + c) * inner;
            for (int64_t i = 0; i < inner; ++i) y[base + i] = add(x[base + i], bias[c]);
          }
        }
      };
    }
  });
}

/// A 2-D convolution's output rows and columns, where the input's and the
/// filter's sizes are known.
void set_output_window(const ConvAttrs& a, const Shape& in, const Shape& filter, Shape& out) {
  for (int d = 1; d <= 2; ++d) {
    if (in.dim(d) != kUnknownDim && filter.dim(d - 1) != kUnknownDim) {
      out.set_dim(d, conv_window(a, d, in.dim(d), filter.dim(d - 1)).out);
    }
  }
}

std::vector<TensorSpec> infer_conv2d(const InferContext& c) {
  check_same_types(c);
  DType t = c.inputs[0].dtype;
  check_attr_type(t, is_floating(t) || t == DType::Int32, "bfloat16, float, double, int32");
  ConvAttrs a = conv_attrs(c.attrs);
  const Shape& in = c.inputs[0].shape;
  const Shape& f = c.inputs[1].shape;
  if (in.rank_known() && in.rank() != 4) throw InvalidArgumentError("input must be 4-dimensional" + in.debug_string());
  if (f.rank_known() && f.rank() != 4) throw InvalidArgumentError("filter must be 4-dimensional: " + f.debug_string());
  Shape i4 = in.rank_known() ? in : Shape::unknown_dims(4);
  Shape f4 = f.rank_known() ? f : Shape::unknown_dims(4);
  int64_t in_depth = i4.dim(3), patch_depth = f4.dim(2), out_depth = f4.dim(3);
  if (patch_depth == 0) throw InvalidArgumentError("filter depth must be stricly positive, got 0");
  if (in_depth != kUnknownDim && patch_depth != kUnknownDim) {
    if (in_depth % patch_depth != 0) {
      throw InvalidArgumentError("input depth must be evenly divisible by filter depth: " + std::to_string(in_depth) +
                                 " vs " + std::to_string(patch_depth));
    }
    if (f4.fully_defined() && f4.num_elements() == 0) {
      throw InvalidArgumentError("filter must not have zero elements (i.e. all dimensions must be non-zero)");
    }
    int64_t groups = in_depth / patch_depth;
    if (groups <= 0) {
      throw InvalidArgumentError("number of groups must be stricly positive, got " + std::to_string(groups));
    }
    if (out_depth != kUnknownDim && out_depth % groups != 0) {
      throw InvalidArgumentError("output depth must be evenly divisible by number of groups: " +
                                 std::to_string(out_depth) + " vs " + std::to_string(groups));
    }
  }
  Shape out{i4.dim(0), kUnknownDim, kUnknownDim, out_depth};
  set_output_window(a, i4, f4, out);
  return {{t, out}};
}

/// A 2-D convolution as the product im2col computes: [N·Ho·Wo, patch] ·
/// [patch, Cout], the patch kh·kw·Cin/groups, or kh·kw for a depthwise one
/// (its [KH, KW, C, M] filter is [KH, KW, 1, C·M] in memory).
template <bool Depthwise>
ContractionDims conv2d_dims(const InferContext& c, std::span<const TensorSpec> out) {
  const Shape& f = c.inputs[1].shape;
  const Shape& y = out[0].shape;
  if (!f.rank_known() || f.rank() != 4 || !y.rank_known() || y.rank() != 4) return {1, -1, -1, -1};
  const double patch = static_cast<double>(f.dim(0)) * static_cast<double>(f.dim(1)) * (Depthwise ? 1.0 : static_cast<double>(f.dim(2)));
  return {1, static_cast<double>(y.dim(0)) * static_cast<double>(y.dim(1)) * static_cast<double>(y.dim(2)), patch,
          static_cast<double>(y.dim(3))};
}

/// DepthwiseConv2dNative: input [N, H, W, C], filter [KH, KW, C, M] ->
/// [N, Ho, Wo, C·M]; attrs as Conv2D's.
std::vector<TensorSpec> infer_depthwise_conv2d(const InferContext& c) {
  check_same_types(c);
  DType t = c.inputs[0].dtype;
  check_attr_type(t, is_floating(t), "half, bfloat16, float, double");
  ConvAttrs a = conv_attrs(c.attrs);
  const Shape& in = c.inputs[0].shape;
  const Shape& f = c.inputs[1].shape;
  if (in.rank_known() && in.rank() != 4) throw InvalidArgumentError("input must be 4-dimensional" + in.debug_string());
  if (f.rank_known() && f.rank() != 4) throw InvalidArgumentError("filter must be 4-dimensional: " + f.debug_string());
  Shape i4 = in.rank_known() ? in : Shape::unknown_dims(4);
  Shape f4 = f.rank_known() ? f : Shape::unknown_dims(4);
  if (i4.dim(3) != kUnknownDim && f4.dim(2) != kUnknownDim && i4.dim(3) != f4.dim(2)) {
    throw InvalidArgumentError("input and filter must have the same depth: " + std::to_string(i4.dim(3)) + " vs " +
                               std::to_string(f4.dim(2)));
  }
  const int64_t depth = i4.dim(3) != kUnknownDim ? i4.dim(3) : f4.dim(2);
  Shape out{i4.dim(0), kUnknownDim, kUnknownDim,
            depth == kUnknownDim || f4.dim(3) == kUnknownDim ? kUnknownDim : depth * f4.dim(3)};
  set_output_window(a, i4, f4, out);
  return {{t, out}};
}

/// Conv2D's kernel, or DepthwiseConv2dNative's (`depthwise`: the filter
/// read as [KH, KW, 1, C·M], a group per input channel).
KernelFactory conv_kernel(bool depthwise) {
  return [depthwise](const KernelSpec& s) -> Kernel {
    ConvAttrs a = conv_attrs(s.attrs);
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() -> Kernel {
      return [a, depthwise](KernelContext& k) {
        const Tensor& in = k.input(0);
        const Tensor& f = k.input(1);
        const Shape& is = in.shape();
        const Shape& fs = f.shape();
        if (depthwise && fs.dim(2) != is.dim(3)) {
          throw InvalidArgumentError("input and filter must have the same depth: " + std::to_string(is.dim(3)) + " vs " +
                                     std::to_string(fs.dim(2)));
        }
        kernels::WindowDim r = conv_window(a, 1, is.dim(1), fs.dim(0));
        kernels::WindowDim c = conv_window(a, 2, is.dim(2), fs.dim(1));
        const int64_t filter_depth = depthwise ? 1 : fs.dim(2), out_depth = depthwise ? fs.dim(2) * fs.dim(3) : fs.dim(3);
        kernels::ConvGeom g{is.dim(0),    is.dim(1),    is.dim(2),    is.dim(3),    fs.dim(0),   fs.dim(1),
                            filter_depth, out_depth,    r.out,        c.out,        a.strides[1], a.strides[2],
                            a.dilations[1], a.dilations[2], r.pad_before, c.pad_before};
        Tensor& out = k.allocate_output(0, in.dtype(), Shape{g.batch, g.out_rows, g.out_cols, g.out_depth});
        if constexpr (std::is_same_v<T, bfloat16> || std::is_same_v<T, float> || std::is_same_v<T, double> ||
                      std::is_same_v<T, int32_t>) {
          in_compute_type<T>({&in, &f}, out, [&](const auto* x, const auto* w, auto* y) { kernels::conv2d_nhwc(x, w, y, g); });
        } else {
          throw InternalError("convolution kernel for an unchecked dtype");
        }
      };
    });
  };
}

InferFn infer_pool(bool is_max) {
  return [is_max](const InferContext& c) -> std::vector<TensorSpec> {
    DType t = c.inputs[0].dtype;
    if (is_max) check_attr_type(t, real_type(t), kRealList);
    else check_attr_type(t, float_type(t), kFloatList);
    PoolAttrs p = pool_attrs(c.attrs, is_max);
    const Shape& in = c.inputs[0].shape;
    if (!in.rank_known()) return {{t, Shape::unknown_dims(4)}};
    if (in.rank() != 4) throw InvalidArgumentError("tensor_in must be 4-dimensional");
    Shape out = in;
    for (int d = 1; d <= 2; ++d) {
      if (in.dim(d) != kUnknownDim) {
        size_t u = static_cast<size_t>(d);
        out.set_dim(d, kernels::window_dim(in.dim(d), p.ksize[u], p.strides[u], 1, p.padding).out);
      }
    }
    return {{t, out}};
  };
}

KernelFactory pool_kernel(bool is_max) {
  return [is_max](const KernelSpec& s) -> Kernel {
    PoolAttrs p = pool_attrs(s.attrs, is_max);
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() -> Kernel {
      if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
        throw InternalError("pool kernel for a non-numeric dtype");
      } else {
        return [p, is_max](KernelContext& k) {
          using C = Compute<T>;
          const Tensor& in = k.input(0);
          const Shape& is = in.shape();
          int64_t n = is.dim(0), h = is.dim(1), w = is.dim(2), ch = is.dim(3);
          kernels::WindowDim r = kernels::window_dim(h, p.ksize[1], p.strides[1], 1, p.padding);
          kernels::WindowDim c = kernels::window_dim(w, p.ksize[2], p.strides[2], 1, p.padding);
          Tensor& out = k.allocate_output(0, in.dtype(), Shape{n, r.out, c.out, ch});
          const T* x = in.data<T>();
          T* y = out.data<T>();
          // Batches apart in parallel: each writes only its own rows.
          double work = static_cast<double>(in.num_elements()) * static_cast<double>(p.ksize[1] * p.ksize[2]) /
                        static_cast<double>(p.strides[1] * p.strides[2]);
          int parts = kernels::threads_for(work) > 1 ? static_cast<int>(std::min<int64_t>(n, 8)) : 1;
          kernels::parallel_for(n, parts, [&](int64_t b0, int64_t b1) {
            std::vector<C> acc(static_cast<size_t>(ch));
            for (int64_t b = b0; b < b1; ++b) {
              for (int64_t oh = 0; oh < r.out; ++oh) {
                int64_t h0 = std::max<int64_t>(0, oh * p.strides[1] - r.pad_before);
                int64_t h1 = std::min(h, oh * p.strides[1] - r.pad_before + p.ksize[1]);
                for (int64_t ow = 0; ow < c.out; ++ow) {
                  int64_t w0 = std::max<int64_t>(0, ow * p.strides[2] - c.pad_before);
                  int64_t w1 = std::min(w, ow * p.strides[2] - c.pad_before + p.ksize[2]);
                  std::fill(acc.begin(), acc.end(), is_max ? std::numeric_limits<C>::lowest() : C(0));
                  for (int64_t ih = h0; ih < h1; ++ih) {
                    for (int64_t iw = w0; iw < w1; ++iw) {
                      const T* px = x + ((b * h + ih) * w + iw) * ch;
                      for (int64_t d = 0; d < ch; ++d) {
                        C v = widen(px[d]);
                        C& a = acc[static_cast<size_t>(d)];
                        if (is_max) a = (v > a || v != v) ? v : a;  // NaN propagates
                        else a += v;
                      }
                    }
                  }
                  T* py = y + ((b * r.out + oh) * c.out + ow) * ch;
                  // AvgPool divides by the count of window elements inside the input (SAME pads don't count).
                  C count = static_cast<C>((h1 - h0) * (w1 - w0));
                  for (int64_t d = 0; d < ch; ++d) {
                    py[d] = T(is_max ? acc[static_cast<size_t>(d)] : acc[static_cast<size_t>(d)] / count);
                  }
                }
              }
            }
          });
        };
      }
    });
  };
}

// ---- gradients (GRADIENTS.md 3.2, TF's nn_grad.py)
/// A sum over the last axis, kept (for the softmax gradients).
GradTensor sum_last(GradContext& c, GradTensor t) {
  return c.apply1(op::Sum, {t, c.constant(Tensor::scalar(int32_t{-1}))}, Attrs{{"keep_dims", true}, {"Tidx", DType::Int32}});
}
/// (g - sum_last(g·y))·y.
std::vector<GradTensor> softmax_grad(GradContext& c) {
  GradTensor y = c.output(0), g = c.grad(0);
  return grads({c.mul(c.sub(g, sum_last(c, c.mul(g, y))), y)});
}
/// g - sum_last(g)·exp(y).
std::vector<GradTensor> log_softmax_grad(GradContext& c) {
  GradTensor y = c.output(0), g = c.grad(0);
  return grads({c.sub(g, c.mul(sum_last(c, g), c.apply1(op::Exp, {y})))});
}
/// g for the value; for the bias, g summed over every axis but the channels'.
std::vector<GradTensor> bias_add_grad(GradContext& c) {
  GradTensor g = c.grad(0);
  const Shape& gs = c.spec(g).shape;
  if (!gs.rank_known()) throw UnimplementedError("The gradient of BiasAdd needs its input's rank");
  bool nchw = c.attrs().get_or<std::string>("data_format", "NHWC") == "NCHW";
  std::vector<int32_t> axes;
  for (int i = 0; i < gs.rank(); ++i) {
    if (i != (nchw ? 1 : gs.rank() - 1)) axes.push_back(i);
  }
  Tensor a(DType::Int32, Shape{static_cast<int64_t>(axes.size())});
  for (size_t i = 0; i < axes.size(); ++i) a.data<int32_t>()[i] = axes[i];
  return grads({g, c.sum(g, c.constant(a))});
}


/// Conv2D: Conv2DBackpropInput(shape(x), w, g) and Conv2DBackpropFilter(x,
/// shape(w), g), with the forward op's attrs.
std::vector<GradTensor> conv2d_grad(GradContext& c) {
  GradTensor x = c.input(0), w = c.input(1), g = c.grad(0);
  GradTensor dx, dw;
  if (c.needed(0)) dx = c.apply1(op::Conv2DBackpropInput, {c.shape_of(x), w, g}, c.attrs());
  if (c.needed(1)) dw = c.apply1(op::Conv2DBackpropFilter, {x, c.shape_of(w), g}, c.attrs());
  return grads({dx, dw});
}

/// DepthwiseConv2dNative as the grouped Conv2D it is: dx from
/// Conv2DBackpropInput over the filter read as [KH, KW, 1, C·M], dw from
/// Conv2DBackpropFilter of that shape, reshaped back (TF has ops of its own
/// for both, with the same values).
std::vector<GradTensor> depthwise_conv2d_grad(GradContext& c) {
  GradTensor x = c.input(0), w = c.input(1), g = c.grad(0);
  const Shape& ws = c.spec(w).shape;
  GradTensor grouped;  // [KH, KW, 1, C·M]
  if (ws.fully_defined()) {
    grouped = c.ints({ws.dim(0), ws.dim(1), 1, ws.dim(2) * ws.dim(3)});
  } else {
    GradTensor s = c.shape_of(w);
    GradTensor depth = c.apply1(op::Prod, {c.apply1(op::Slice, {s, c.ints({2}), c.ints({2})}), c.ints({0})},
                                Attrs{{"keep_dims", true}});
    std::vector<GradTensor> parts = {c.apply1(op::Slice, {s, c.ints({0}), c.ints({2})}), c.ints({1}), depth,
                                     c.constant(Tensor::scalar<int32_t>(0))};
    grouped = c.apply(op::ConcatV2, parts)[0];
  }
  GradTensor dx, dw;
  if (c.needed(0)) dx = c.apply1(op::Conv2DBackpropInput, {c.shape_of(x), c.reshape(w, grouped), g}, c.attrs());
  if (c.needed(1)) dw = c.reshape(c.apply1(op::Conv2DBackpropFilter, {x, grouped, g}, c.attrs()), c.shape_of(w));
  return grads({dx, dw});
}

/// MaxPool: MaxPoolGrad(x, y, g), the forward attrs (g to the first max of each window).
std::vector<GradTensor> max_pool_grad(GradContext& c) {
  return grads({c.apply1(op::MaxPoolGrad, {c.input(0), c.output(0), c.grad(0)}, c.attrs())});
}

/// AvgPool: AvgPoolGrad(shape(x), g), the forward attrs.
std::vector<GradTensor> avg_pool_grad(GradContext& c) {
  return grads({c.apply1(op::AvgPoolGrad, {c.shape_of(c.input(0)), c.grad(0)}, c.attrs())});
}

}  // namespace

void register_nn_ops(OpRegistry& reg) {
  register_nn_activation_ops(reg);
  register_softmax(reg, "Softmax", false).tf_signature("logits: T -> softmax: T").cost(CostKind::Elementwise).tpu().grad(softmax_grad);
  register_softmax(reg, "LogSoftmax", true).tf_signature("logits: T -> logsoftmax: T").cost(CostKind::Elementwise).tpu().grad(log_softmax_grad);
  reg.op("BiasAdd")
      .tf_signature("value: T, bias: T -> output: T")
      .inputs(2)
      .infer(infer_bias_add)
      .cpu(bias_add_kernel)
      .canonicalize(bias_add_as_add)
      .cost(CostKind::Elementwise)
      .tpu()
      .quantization(QuantRole::Bias)
      .grad(bias_add_grad);
  reg.op("Conv2D")
      .tf_signature("input: T, filter: T -> output: T")
      .inputs(2)
      .infer(infer_conv2d)
      .cpu(conv_kernel(false))
      .cost(CostKind::Contraction, conv2d_dims<false>)
      .tpu()
      .quantization(QuantRole::Conv)
      .grad(conv2d_grad);
  reg.op("DepthwiseConv2dNative")
      .tf_signature("input: T, filter: T -> output: T")
      .inputs(2)
      .infer(infer_depthwise_conv2d)
      .cpu(conv_kernel(true))
      .cost(CostKind::Contraction, conv2d_dims<true>)
      .tpu()
      .quantization(QuantRole::DepthwiseConv)
      .grad(depthwise_conv2d_grad);
  reg.op("MaxPool").tf_signature("input: T -> output: T").inputs(1).infer(infer_pool(true)).cpu(pool_kernel(true)).cost(CostKind::Elementwise).tpu().grad(max_pool_grad);
  reg.op("AvgPool").tf_signature("value: T -> output: T").inputs(1).infer(infer_pool(false)).cpu(pool_kernel(false)).cost(CostKind::Elementwise).tpu().grad(avg_pool_grad);
  register_nn_grad_ops(reg);
  register_nn_loss_ops(reg);
}

}  // namespace ag
