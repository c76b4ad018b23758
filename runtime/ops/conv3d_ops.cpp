// Conv3D (NDHWC input, DHWIO filter) and its gradient ops
// Conv3DBackpropInputV2 and Conv3DBackpropFilterV2, as TF's conv_ops_3d:
// strides and dilations of 5 (batch and depth 1), SAME or VALID, feature
// groups. Each runs as patch rows (kernels/conv_nd.h) times the filter on
// kernels::gemm, in chunks of output positions; bfloat16 computes in float
// and rounds once, as Conv2D's kernel does.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "runtime/ops/families.h"
#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/kernels/conv_nd.h"
#include "runtime/ops/kernels/gemm.h"
#include "runtime/ops/nn_common.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using nn::check_attr_type;

struct Conv3dAttrs {
  std::array<int64_t, 3> strides{}, dilations{};
  kernels::Padding padding = kernels::Padding::Valid;
};

std::vector<int64_t> five(const Attrs& a, const char* name, std::vector<int64_t> fallback) {
  std::vector<int64_t> v = a.get_or<std::vector<int64_t>>(name, fallback);
  if (v.size() != 5) throw InvalidArgumentError(std::string("Sliding window ") + name + " field must specify 5 dimensions");
  return v;
}

Conv3dAttrs conv3d_attrs(const Attrs& a) {
  const std::string& format = a.get_or<std::string>("data_format", "NDHWC");
  if (format == "NCDHW") {
    throw UnimplementedError("The Conv3D op currently only supports the NDHWC tensor format on the CPU. The op was given "
                             "the format: NCDHW");
  }
  if (format != "NDHWC") throw InvalidArgumentError("Invalid data format");
  const std::vector<int64_t> s = five(a, "strides", {});
  const std::vector<int64_t> d = five(a, "dilations", {1, 1, 1, 1, 1});
  if (s[0] != 1 || s[4] != 1) {
    throw InvalidArgumentError("Current implementation does not yet support strides in the batch and depth dimensions.");
  }
  if (d[0] != 1 || d[4] != 1) {
    throw InvalidArgumentError("Current implementation does not yet support dilations in the batch and depth dimensions.");
  }
  Conv3dAttrs c;
  for (size_t i = 0; i < 3; ++i) {
    c.strides[i] = s[i + 1];
    c.dilations[i] = d[i + 1];
    if (c.strides[i] <= 0 || c.dilations[i] <= 0) throw InvalidArgumentError("Strides and dilations must be positive");
  }
  c.padding = nn::padding_attr(a, false);
  return c;
}

/// The convolution of `in` by `f` (both rank 5, known), checked as TF's
/// kernel checks them.
kernels::ConvNdGeom geometry(const Conv3dAttrs& a, const Shape& in, const Shape& f) {
  if (in.rank() != 5) throw InvalidArgumentError("input must be 5-dimensional" + in.debug_string());
  if (f.rank() != 5) throw InvalidArgumentError("filter must be 5-dimensional" + f.debug_string());
  if (f.dim(3) <= 0 || in.dim(4) % f.dim(3) != 0) {
    throw InvalidArgumentError("Input depth must be evenly divisible by filter depth: " + std::to_string(in.dim(4)) +
                               " vs " + std::to_string(f.dim(3)));
  }
  kernels::ConvNdGeom g;
  g.batch = in.dim(0);
  g.channels = in.dim(4);
  g.filter_channels = f.dim(3);
  g.out_channels = f.dim(4);
  if (g.out_channels % g.groups() != 0) {
    throw InvalidArgumentError("output depth must be evenly divisible by number of groups: " +
                               std::to_string(g.out_channels) + " vs " + std::to_string(g.groups()));
  }
  for (size_t d = 0; d < 3; ++d) {
    g.in[d] = in.dim(static_cast<int>(d) + 1);
    g.k[d] = f.dim(static_cast<int>(d));
    g.stride[d] = a.strides[d];
    g.dil[d] = a.dilations[d];
    const kernels::WindowDim w = kernels::window_dim(g.in[d], g.k[d], g.stride[d], g.dil[d], a.padding);
    g.out[d] = w.out;
    g.pad[d] = w.pad_before;
  }
  return g;
}

Shape out_shape(const kernels::ConvNdGeom& g) { return Shape{g.batch, g.out[0], g.out[1], g.out[2], g.out_channels}; }

template <class T>
void forward(const T* in, const T* filter, T* out, const kernels::ConvNdGeom& g) {
  kernels::conv_nd_forward(in, filter, out, g, kernels::FloatGemm{});
}

/// dw = Σ over positions of patch(in)ᵀ · dy.
template <class T>
void backprop_filter(const T* in, const T* dy, T* dw, const kernels::ConvNdGeom& g) {
  const int64_t positions = g.positions(), patch = g.patch(), og = g.out_channels / g.groups();
  std::fill(dw, dw + patch * g.out_channels, T(0));
  if (positions == 0 || g.out_channels == 0) return;
  const int64_t rows = kernels::conv_nd_chunk_rows(g, sizeof(T));
  std::vector<T> cols(static_cast<size_t>(rows * patch));
  for (int64_t p0 = 0; p0 < positions; p0 += rows) {
    const int64_t p1 = std::min(positions, p0 + rows);
    const double flops = static_cast<double>(p1 - p0) * static_cast<double>(patch) * static_cast<double>(og);
    for (int64_t grp = 0; grp < g.groups(); ++grp) {
      kernels::im2col_nd_rows(in, g, grp, p0, p1, cols.data());
      kernels::gemm_add(cols.data(), dy + p0 * g.out_channels + grp * og, dw + grp * og, patch, og, p1 - p0, patch,
                        g.out_channels, g.out_channels, true, false, kernels::threads_for(flops));
    }
  }
}

/// dx = col2im(dy · wᵀ).
template <class T>
void backprop_input(const T* filter, const T* dy, T* dx, const kernels::ConvNdGeom& g) {
  const int64_t positions = g.positions(), patch = g.patch(), og = g.out_channels / g.groups();
  std::fill(dx, dx + g.batch * g.in[0] * g.in[1] * g.in[2] * g.channels, T(0));
  if (positions == 0 || g.out_channels == 0) return;
  const int64_t rows = kernels::conv_nd_chunk_rows(g, sizeof(T));
  std::vector<T> cols(static_cast<size_t>(rows * patch));
  for (int64_t p0 = 0; p0 < positions; p0 += rows) {
    const int64_t p1 = std::min(positions, p0 + rows);
    const double flops = static_cast<double>(p1 - p0) * static_cast<double>(patch) * static_cast<double>(og);
    for (int64_t grp = 0; grp < g.groups(); ++grp) {
      kernels::gemm(dy + p0 * g.out_channels + grp * og, filter + grp * og, cols.data(), p1 - p0, patch, og,
                    g.out_channels, g.out_channels, patch, false, true, kernels::threads_for(flops));
      kernels::col2im_nd_rows(cols.data(), g, grp, p0, p1, dx);
    }
  }
}

/// A kernel for float, double or bfloat16 `dtype`: body<T>(KernelContext&).
template <class Body>
Kernel float_kernel(DType dtype, const char* op, Body body) {
  switch (dtype) {
    case DType::Float32: return [body](KernelContext& k) { body.template operator()<float>(k); };
    case DType::Float64: return [body](KernelContext& k) { body.template operator()<double>(k); };
    case DType::BFloat16: return [body](KernelContext& k) { body.template operator()<bfloat16>(k); };
    default: throw InternalError(std::string(op) + " kernel for an unchecked dtype");
  }
}

void check_float_types(const InferContext& c, std::initializer_list<size_t> tensors) {
  const DType t = c.inputs[*tensors.begin()].dtype;
  check_attr_type(t, is_floating(t), nn::kFloatList);
  for (size_t i : tensors) {
    if (c.inputs[i].dtype != t) {
      throw InvalidArgumentError(std::string("Inconsistent values for attr 'T' ") + dtype_tf_string(t) + " vs. " +
                                 dtype_tf_string(c.inputs[i].dtype) + " while building NodeDef '" + std::string(c.op) + "'");
    }
  }
}

std::vector<TensorSpec> infer_conv3d(const InferContext& c) {
  check_float_types(c, {0, 1});
  const Conv3dAttrs a = conv3d_attrs(c.attrs);
  const Shape& in = c.inputs[0].shape;
  const Shape& f = c.inputs[1].shape;
  if (in.rank_known() && in.rank() != 5) throw InvalidArgumentError("input must be 5-dimensional" + in.debug_string());
  if (f.rank_known() && f.rank() != 5) throw InvalidArgumentError("filter must be 5-dimensional" + f.debug_string());
  if (in.fully_defined() && f.fully_defined()) return {{c.inputs[0].dtype, out_shape(geometry(a, in, f))}};
  Shape out = Shape::unknown_dims(5);
  if (in.rank_known()) out.set_dim(0, in.dim(0));
  if (f.rank_known()) out.set_dim(4, f.dim(4));
  return {{c.inputs[0].dtype, out}};
}

/// Conv3D as the product its patch rows make, from its filter and output
/// (dy for the gradients): [positions, patch] · [patch, out channels].
ContractionDims dims_of(const Shape& f, const Shape& y) {
  if (!f.rank_known() || f.rank() != 5 || !y.rank_known() || y.rank() != 5) return {1, -1, -1, -1};
  auto product = [](const Shape& s, int from, int to) {
    double p = 1;
    for (int i = from; i < to; ++i) p *= static_cast<double>(s.dim(i));
    return p;
  };
  return {1, product(y, 0, 4), product(f, 0, 4), static_cast<double>(f.dim(4))};
}
ContractionDims conv3d_dims(const InferContext& c, std::span<const TensorSpec> out) {
  return dims_of(c.inputs[1].shape, out[0].shape);
}
ContractionDims backprop_input_dims(const InferContext& c, std::span<const TensorSpec>) {
  return dims_of(c.inputs[1].shape, c.inputs[2].shape);
}
ContractionDims backprop_filter_dims(const InferContext& c, std::span<const TensorSpec> out) {
  return dims_of(out[0].shape, c.inputs[2].shape);
}

/// A backprop op's sizes input (input 0 or 1) as a shape, when known.
std::vector<TensorSpec> infer_backprop(const InferContext& c, size_t sizes, std::initializer_list<size_t> tensors) {
  check_float_types(c, tensors);
  (void)conv3d_attrs(c.attrs);
  const DType t = c.inputs[*tensors.begin()].dtype;
  if (const Tensor* s = c.constant(sizes)) {
    Shape shape = array::checked_shape(array::int_values(*s));
    if (shape.rank() != 5) throw InvalidArgumentError(std::string(c.op) + ": shape must have 5 elements, got " + shape.debug_string());
    return {{t, shape}};
  }
  return {{t, Shape::unknown_dims(5)}};
}

/// The forward geometry, checked against dy's shape.
kernels::ConvNdGeom checked_geometry(const char* op, const Conv3dAttrs& a, const Shape& in, const Shape& f, const Shape& dy) {
  kernels::ConvNdGeom g = geometry(a, in, f);
  if (!(dy == out_shape(g))) {
    throw InvalidArgumentError(std::string(op) + ": out_backprop has shape " + dy.debug_string() + ", expected " +
                               out_shape(g).debug_string());
  }
  return g;
}

std::vector<GradTensor> conv3d_grad(GradContext& c) {
  GradTensor x = c.input(0), w = c.input(1), g = c.grad(0);
  GradTensor dx, dw;
  if (c.needed(0)) dx = c.apply1(op::Conv3DBackpropInputV2, {c.shape_of(x), w, g}, c.attrs());
  if (c.needed(1)) dw = c.apply1(op::Conv3DBackpropFilterV2, {x, c.shape_of(w), g}, c.attrs());
  return {dx, dw};
}

/// Conv3DBackpropInputV2(sizes, w, dy): None, BackpropFilter(g, shape(w), dy), Conv3D(g, w).
std::vector<GradTensor> backprop_input_grad(GradContext& c) {
  GradTensor w = c.input(1), dy = c.input(2), g = c.grad(0);
  GradTensor dw, ddy;
  if (c.needed(1)) dw = c.apply1(op::Conv3DBackpropFilterV2, {g, c.shape_of(w), dy}, c.attrs());
  if (c.needed(2)) ddy = c.apply1(op::Conv3D, {g, w}, c.attrs());
  return {GradTensor{}, dw, ddy};
}

/// Conv3DBackpropFilterV2(x, sizes, dy): BackpropInput(shape(x), g, dy), None, Conv3D(x, g).
std::vector<GradTensor> backprop_filter_grad(GradContext& c) {
  GradTensor x = c.input(0), dy = c.input(2), g = c.grad(0);
  GradTensor dx, ddy;
  if (c.needed(0)) dx = c.apply1(op::Conv3DBackpropInputV2, {c.shape_of(x), g, dy}, c.attrs());
  if (c.needed(2)) ddy = c.apply1(op::Conv3D, {x, g}, c.attrs());
  return {dx, GradTensor{}, ddy};
}

}  // namespace

void register_conv3d_ops(OpRegistry& reg) {
  // Conv3D(input: T, filter: T) -> T; attrs strides, padding, data_format, dilations.
  reg.op("Conv3D")
      .tf_signature("input: T, filter: T -> output: T")
      .inputs(2)
      .infer(infer_conv3d)
      .cpu([](const KernelSpec& s) {
        const Conv3dAttrs a = conv3d_attrs(s.attrs);
        return float_kernel(s.inputs[0].dtype, "Conv3D", [a]<class T>(KernelContext& k) {
          const kernels::ConvNdGeom g = geometry(a, k.input(0).shape(), k.input(1).shape());
          Tensor& out = k.allocate_output(0, k.input(0).dtype(), out_shape(g));
          nn::in_compute_type<T>({&k.input(0), &k.input(1)}, out, [&](const auto* x, const auto* w, auto* y) { forward(x, w, y, g); });
        });
      })
      .cost(CostKind::Contraction, conv3d_dims)
      .tpu()
      .quantization(QuantRole::Conv)
      .grad(conv3d_grad);
  // Conv3DBackpropInputV2(input_sizes: Tshape, filter: T, out_backprop: T) -> T.
  reg.op("Conv3DBackpropInputV2")
      .tf_signature("input_sizes: Tshape, filter: T, out_backprop: T -> output: T")
      .inputs(3)
      .infer([](const InferContext& c) { return infer_backprop(c, 0, {1, 2}); })
      .cpu([](const KernelSpec& s) {
        const Conv3dAttrs a = conv3d_attrs(s.attrs);
        return float_kernel(s.inputs[1].dtype, "Conv3DBackpropInputV2", [a]<class T>(KernelContext& k) {
          const Shape in = array::checked_shape(array::int_values(k.input(0)));
          const kernels::ConvNdGeom g =
              checked_geometry("Conv3DBackpropInputV2", a, in, k.input(1).shape(), k.input(2).shape());
          Tensor& out = k.allocate_output(0, k.input(1).dtype(), in);
          nn::in_compute_type<T>({&k.input(1), &k.input(2)}, out,
                             [&](const auto* w, const auto* dy, auto* dx) { backprop_input(w, dy, dx, g); });
        });
      })
      .cost(CostKind::Contraction, backprop_input_dims)
      .tpu({0})
      .grad(backprop_input_grad);
  // Conv3DBackpropFilterV2(input: T, filter_sizes: int32, out_backprop: T) -> T.
  reg.op("Conv3DBackpropFilterV2")
      .tf_signature("input: T, filter_sizes: int32, out_backprop: T -> output: T")
      .inputs(3)
      .infer([](const InferContext& c) { return infer_backprop(c, 1, {0, 2}); })
      .cpu([](const KernelSpec& s) {
        const Conv3dAttrs a = conv3d_attrs(s.attrs);
        return float_kernel(s.inputs[0].dtype, "Conv3DBackpropFilterV2", [a]<class T>(KernelContext& k) {
          const Shape fs = array::checked_shape(array::int_values(k.input(1)));
          const kernels::ConvNdGeom g =
              checked_geometry("Conv3DBackpropFilterV2", a, k.input(0).shape(), fs, k.input(2).shape());
          Tensor& out = k.allocate_output(0, k.input(0).dtype(), fs);
          nn::in_compute_type<T>({&k.input(0), &k.input(2)}, out,
                             [&](const auto* x, const auto* dy, auto* dw) { backprop_filter(x, dy, dw, g); });
        });
      })
      .cost(CostKind::Contraction, backprop_filter_dims)
      .tpu({1})
      .grad(backprop_filter_grad);
}

}  // namespace ag
