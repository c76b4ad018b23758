// Array ops that grow a tensor: Tile (copies of it along each dim),
// BroadcastTo (copies along the dims NumPy's rule adds or stretches), Pad,
// PadV2 (a border of zeros or of a constant) and MirrorPad (a border
// mirroring the edge, with or without it: REFLECT, SYMMETRIC). Their
// gradients take back what was copied: Tile's and BroadcastTo's sum the
// copies, Pad's slices the border off, MirrorPad's (MirrorPadGrad) folds the
// border back onto what it mirrored (TF's array_grad.py).
#include <tuple>

#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/kernels/broadcast.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using array::one;

/// Tile's output shape (dims of `in` may be unknown).
Shape tile_shape(const Shape& in, const std::vector<int64_t>& mult) {
  if (static_cast<int64_t>(mult.size()) != in.rank()) {
    throw InvalidArgumentError("Expected multiples argument to be a vector of length " + std::to_string(in.rank()) +
                               " but got length " + std::to_string(mult.size()));
  }
  Shape out;
  for (int i = 0; i < in.rank(); ++i) {
    if (mult[static_cast<size_t>(i)] < 0) {
      throw InvalidArgumentError("Expected multiples[" + std::to_string(i) + "] >= 0, but got " +
                                 std::to_string(mult[static_cast<size_t>(i)]));
    }
    int64_t d = in.dim(i), n = 0;
    if (d < 0) { out.push_back(kUnknownDim); continue; }
    if (__builtin_mul_overflow(d, mult[static_cast<size_t>(i)], &n)) {
      throw InvalidArgumentError("Encountered overflow when multiplying " + std::to_string(d) + " with " +
                                 std::to_string(mult[static_cast<size_t>(i)]) + ", result: -1");
    }
    out.push_back(n);
  }
  if (out.fully_defined()) (void)out.num_elements();
  return out;
}

template <class T>
void tile_into(const Tensor& in, Tensor& out) {
  const Shape& is = in.shape();
  const Shape& os = out.shape();
  int r = is.rank();
  if (out.num_elements() == 0) return;
  if (r == 0) { out.data<T>()[0] = in.data<T>()[0]; return; }
  const T* src = in.data<T>();
  T* dst = out.data<T>();
  int64_t in_row = is.dim(r - 1), out_row = os.dim(r - 1);
  int64_t rows = out.num_elements() / out_row;
  std::vector<int64_t> in_st = array::strides_of(is);
  int64_t idx[kMaxRank] = {};
  for (int64_t row = 0; row < rows; ++row) {
    int64_t s = 0;
    for (int d = 0; d < r - 1; ++d) s += (idx[d] % is.dim(d)) * in_st[static_cast<size_t>(d)];
    T* o = dst + row * out_row;
    for (int64_t j = 0; j < out_row; j += in_row) std::copy_n(src + s, in_row, o + j);
    for (int d = r - 2; d >= 0; --d) {
      if (++idx[d] < os.dim(d)) break;
      idx[d] = 0;
    }
  }
}

/// Pad's paddings as (before, after) pairs, checked against an input of rank `r`.
std::vector<int64_t> pad_amounts(const Tensor& p, const Shape& in) {
  int r = in.rank();
  if (p.rank() != 2 || p.shape().dim(1) != 2) {
    throw InvalidArgumentError("paddings must be a matrix with 2 columns: " + p.shape().debug_string());
  }
  if (p.shape().dim(0) != r) {
    throw InvalidArgumentError("The first dimension of paddings must be the rank of inputs" + p.shape().debug_string() +
                               " " + in.debug_string());
  }
  std::vector<int64_t> v = array::int_values(p);
  for (int i = 0; i < r; ++i) {
    if (v[2 * i] < 0 || v[2 * i + 1] < 0) {
      throw InvalidArgumentError("Paddings must be non-negative: " + std::to_string(v[2 * i]) + " " +
                                 std::to_string(v[2 * i + 1]));
    }
  }
  return v;
}

Shape pad_shape(const Shape& in, const std::vector<int64_t>& pads) {
  Shape out;
  for (int i = 0; i < in.rank(); ++i) {
    int64_t d = in.dim(i), n = 0;
    if (d < 0) { out.push_back(kUnknownDim); continue; }
    if (__builtin_add_overflow(d, pads[2 * i], &n) || __builtin_add_overflow(n, pads[2 * i + 1], &n)) {
      throw InvalidArgumentError("Encountered overflow when padding dimension " + std::to_string(i));
    }
    out.push_back(n);
  }
  if (out.fully_defined()) (void)out.num_elements();
  return out;
}

std::vector<TensorSpec> pad_infer(const InferContext& c) {
  array::check_index_dtype(c.inputs[1].dtype, "Tpaddings");
  const Shape& in = c.inputs[0].shape;
  const Shape& ps = c.inputs[1].shape;
  if (ps.rank_known() && (ps.rank() != 2 || (ps.dim(1) >= 0 && ps.dim(1) != 2))) {
    throw InvalidArgumentError("paddings must be a matrix with 2 columns: " + ps.debug_string());
  }
  if (c.inputs.size() == 3) {
    if (c.inputs[2].dtype != c.inputs[0].dtype) {
      throw InvalidArgumentError(std::string("Inconsistent values for attr 'T' ") + dtype_tf_string(c.inputs[0].dtype) +
                                 " vs. " + dtype_tf_string(c.inputs[2].dtype) + " while building NodeDef 'PadV2'");
    }
    const Shape& cs = c.inputs[2].shape;
    if (cs.rank_known() && cs.rank() != 0) {
      throw InvalidArgumentError("constant_values must be a scalar. Got: " + cs.debug_string());
    }
  }
  DType t = c.inputs[0].dtype;
  int rank = in.rank_known() ? in.rank() : (ps.rank_known() && ps.dim(0) >= 0) ? static_cast<int>(ps.dim(0)) : -1;
  if (in.rank_known() && ps.rank_known() && ps.dim(0) >= 0 && ps.dim(0) != in.rank()) {
    throw InvalidArgumentError("The first dimension of paddings must be the rank of inputs" + ps.debug_string() + " " +
                               in.debug_string());
  }
  if (rank < 0) return one(t, Shape::unknown_rank());
  const Tensor* p = c.constant(1);
  if (!p || !in.rank_known()) return one(t, Shape::unknown_dims(rank));
  return one(t, pad_shape(in, pad_amounts(*p, in)));
}

KernelFactory pad_kernel() {
  return [](const KernelSpec& s) {
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
      return Kernel([](KernelContext& k) {
        const Tensor& in = k.input(0);
        int r = in.rank();
        std::vector<int64_t> pads = pad_amounts(k.input(1), in.shape());
        Tensor& out = k.allocate_output(0, dtype_of<T>(), pad_shape(in.shape(), pads));
        T fill{};
        if (k.inputs.size() == 3) {
          if (k.input(2).num_elements() != 1) {
            throw InvalidArgumentError("constant_values must be a scalar. Got: " + k.input(2).shape().debug_string());
          }
          fill = k.input(2).scalar_value<T>();
        } else if constexpr (std::is_same_v<T, bfloat16>) {
          fill = bfloat16(0.0f);
        }
        std::fill_n(out.data<T>(), out.num_elements(), fill);
        std::vector<int64_t> src_st = array::strides_of(in.shape());
        std::vector<int64_t> dst_st = array::strides_of(out.shape());
        int64_t off = 0;
        for (int i = 0; i < r; ++i) off += pads[2 * i] * dst_st[static_cast<size_t>(i)];
        array::copy_nd<T>(in.shape(), in.data<T>(), 0, src_st.data(), out.data<T>(), off, dst_st.data());
      });
    });
  };
}

// ---- MirrorPad(input, paddings) with attr mode: REFLECT mirrors the rows
// next to the edge (pads < dim), SYMMETRIC the edge too (pads <= dim).
// MirrorPadGrad(grad, paddings): the padded tensor's gradient folded back.

/// 1 for REFLECT (the mirror skips the edge row), 0 for SYMMETRIC.
int64_t mirror_offset(const Attrs& attrs) {
  const std::string mode = attrs.get_or<std::string>("mode", "REFLECT");
  if (mode == "REFLECT") return 1;
  if (mode == "SYMMETRIC") return 0;
  throw InvalidArgumentError("Value for attr 'mode' of \"" + mode + "\" is not in the list of allowed values: "
                             "\"REFLECT\", \"SYMMETRIC\"");
}

/// MirrorPad's amounts, checked against the input's dims (TF's MirrorPadOp).
std::vector<int64_t> mirror_amounts(const Tensor& p, const Shape& in, int64_t offset) {
  std::vector<int64_t> v = pad_amounts(p, in);
  for (int i = 0; i < in.rank(); ++i) {
    const int64_t before = v[2 * static_cast<size_t>(i)], after = v[2 * static_cast<size_t>(i) + 1], d = in.dim(i);
    if (offset == 0 && (before > d || after > d)) {
      throw InvalidArgumentError("paddings must be no greater than the dimension size: " + std::to_string(before) +
                                 ", " + std::to_string(after) + " greater than " + std::to_string(d));
    }
    if (offset == 1 && (before >= d || after >= d)) {
      throw InvalidArgumentError("paddings must be less than the dimension size: " + std::to_string(before) + ", " +
                                 std::to_string(after) + " not less than " + std::to_string(d));
    }
  }
  return v;
}

/// The input index a padded index `j` (in [-before, d + after)) mirrors.
inline int64_t mirrored(int64_t j, int64_t d, int64_t offset) {
  if (j < 0) return -j - 1 + offset;
  if (j >= d) return 2 * d - j - 1 - offset;
  return j;
}

/// For each element of the padded shape `out` of input shape `in`, f(flat
/// input index, flat padded index).
template <class F>
void for_each_mirrored(const Shape& in, const Shape& out, const std::vector<int64_t>& pads, int64_t offset, F&& f) {
  const int r = in.rank();
  const int64_t n = out.num_elements();
  if (n == 0) return;
  std::vector<int64_t> st = array::strides_of(in);
  int64_t idx[kMaxRank] = {};
  for (int64_t o = 0; o < n; ++o) {
    int64_t src = 0;
    for (int d = 0; d < r; ++d) {
      src += mirrored(idx[d] - pads[2 * static_cast<size_t>(d)], in.dim(d), offset) * st[static_cast<size_t>(d)];
    }
    f(src, o);
    for (int d = r - 1; d >= 0; --d) {
      if (++idx[d] < out.dim(d)) break;
      idx[d] = 0;
    }
  }
}

std::vector<TensorSpec> mirror_pad_infer(const InferContext& c) {
  const int64_t offset = mirror_offset(c.attrs);
  std::vector<TensorSpec> out = pad_infer(c);
  const Tensor* p = c.constant(1);
  if (p != nullptr && c.inputs[0].shape.fully_defined()) (void)mirror_amounts(*p, c.inputs[0].shape, offset);
  return out;
}

KernelFactory mirror_pad_kernel() {
  return [](const KernelSpec& s) {
    const int64_t offset = mirror_offset(s.attrs);
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
      return Kernel([offset](KernelContext& k) {
        const Tensor& in = k.input(0);
        std::vector<int64_t> pads = mirror_amounts(k.input(1), in.shape(), offset);
        Tensor& out = k.allocate_output(0, dtype_of<T>(), pad_shape(in.shape(), pads));
        const T* src = in.data<T>();
        T* dst = out.data<T>();
        for_each_mirrored(in.shape(), out.shape(), pads, offset, [&](int64_t i, int64_t o) { dst[o] = src[i]; });
      });
    });
  };
}

/// MirrorPadGrad's output shape: the gradient's, less the paddings.
Shape unpadded_shape(const Shape& padded, const std::vector<int64_t>& pads) {
  Shape out;
  for (int i = 0; i < padded.rank(); ++i) {
    const int64_t d = padded.dim(i) - pads[2 * static_cast<size_t>(i)] - pads[2 * static_cast<size_t>(i) + 1];
    if (padded.dim(i) >= 0 && d < 0) {
      throw InvalidArgumentError("Paddings must be less than the input dimension: " + padded.debug_string());
    }
    out.push_back(padded.dim(i) < 0 ? kUnknownDim : d);
  }
  return out;
}

KernelFactory mirror_pad_grad_kernel() {
  return [](const KernelSpec& s) {
    const int64_t offset = mirror_offset(s.attrs);
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() -> Kernel {
      if constexpr (!array::kAddable<T>) {
        throw InternalError("MirrorPadGrad kernel for a dtype it cannot add");
      } else {
        return Kernel([offset](KernelContext& k) {
          const Tensor& g = k.input(0);
          std::vector<int64_t> pads = pad_amounts(k.input(1), g.shape());
          Shape in_shape = unpadded_shape(g.shape(), pads);
          (void)mirror_amounts(k.input(1), in_shape, offset);
          Tensor& out = k.allocate_output(0, dtype_of<T>(), in_shape);
          T* dst = out.data<T>();
          std::fill_n(dst, out.num_elements(), T(0));
          const T* src = g.data<T>();
          for_each_mirrored(in_shape, g.shape(), pads, offset,
                            [&](int64_t i, int64_t o) { dst[i] = array::add_elems(dst[i], src[o]); });
        });
      }
    });
  };
}

// ---- BroadcastTo(input, shape): input copied along the dims NumPy's rule
// stretches or adds.

Shape broadcast_target(const Shape& in, const Shape& target) {
  Shape out;
  if (!kernels::broadcast_static(in, target, out)) {
    throw InvalidArgumentError(kernels::incompatible_shapes(in, target));
  }
  if (in.rank_known() && target.rank_known() && (!(out == target) && target.fully_defined() && out.fully_defined())) {
    throw InvalidArgumentError("Unable to broadcast tensor of shape " + in.debug_string() + " to tensor of shape " +
                               target.debug_string());
  }
  return target.rank_known() ? target : out;
}

std::vector<TensorSpec> broadcast_to_infer(const InferContext& c) {
  array::check_index_dtype(c.inputs[1].dtype, "Tidx");
  const Shape& ss = c.inputs[1].shape;
  if (ss.rank_known() && ss.rank() != 1) throw InvalidArgumentError("Shape must be rank 1 but is rank " + std::to_string(ss.rank()));
  DType t = c.inputs[0].dtype;
  if (const Tensor* shape = c.constant(1)) {
    return one(t, broadcast_target(c.inputs[0].shape, array::checked_shape(array::int_values(*shape))));
  }
  if (ss.rank_known() && ss.dim(0) >= 0) return one(t, Shape::unknown_dims(static_cast<int>(ss.dim(0))));
  return one(t, Shape::unknown_rank());
}

KernelFactory broadcast_to_kernel() {
  return [](const KernelSpec& s) {
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
      return Kernel([](KernelContext& k) {
        const Tensor& in = k.input(0);
        const Tensor& shape = k.input(1);
        if (shape.rank() != 1) throw InvalidArgumentError("Shape must be rank 1 but is rank " + std::to_string(shape.rank()));
        Shape os = broadcast_target(in.shape(), array::checked_shape(array::int_values(shape)));
        Tensor& out = k.allocate_output(0, dtype_of<T>(), os);
        if (out.num_elements() == 0) return;
        const T* src = in.data<T>();
        T* dst = out.data<T>();
        kernels::BroadcastPlan<1>(os, {&in.shape()}).for_each_run([&](const std::array<int64_t, 1>& off,
                                                                      const std::array<int64_t, 1>& is, int64_t len) {
          for (int64_t j = 0; j < len; ++j) dst[j] = src[off[0] + j * is[0]];
          dst += len;
        });
      });
    });
  };
}

// ---- gradients (GRADIENTS.md 3.2, TF's array_grad.py)

int known_rank(GradContext& c, GradTensor t) {
  const Shape& s = c.spec(t).shape;
  if (!s.rank_known()) throw UnimplementedError("The gradient of " + c.op().name + " needs its input's rank known while tracing");
  return s.rank();
}

/// Tile: g reshaped to [m0, d0, m1, d1, ...] and summed over the multiples'
/// axes (the even ones).
std::vector<GradTensor> tile_grad(GradContext& c) {
  GradTensor x = c.input(0);
  const int r = known_rank(c, x);
  std::vector<int64_t> even;
  for (int i = 0; i < r; ++i) even.push_back(2 * i);
  GradTensor split_shape;
  const Shape& xs = c.spec(x).shape;
  if (const Tensor* m = c.value(c.input(1)); m != nullptr && xs.fully_defined()) {
    std::vector<int64_t> mult = array::int_values(*m), dims;
    for (int i = 0; i < r; ++i) {
      dims.push_back(mult[static_cast<size_t>(i)]);
      dims.push_back(xs.dim(i));
    }
    split_shape = c.ints(dims);
  } else {
    GradTensor pairs = c.apply1(op::Pack, {c.cast(c.input(1), DType::Int32), c.shape_of(x)}, Attrs{{"axis", int64_t{1}}, {"N", int64_t{2}}});
    split_shape = c.reshape(pairs, c.ints({-1}));
  }
  GradTensor summed = r == 0 ? c.grad(0) : c.sum(c.reshape(c.grad(0), split_shape), c.ints(even));
  return grads({c.reshape(summed, c.shape_of(x)), GradTensor{}});
}

/// Pad, PadV2: the slice of g where x was, [pad_before, pad_before + shape(x)).
std::vector<GradTensor> pad_grad(GradContext& c) {
  GradTensor x = c.input(0);
  const int r = known_rank(c, x);
  GradTensor begin;
  if (const Tensor* p = c.value(c.input(1))) {
    std::vector<int64_t> v = array::int_values(*p), before;
    for (int i = 0; i < r; ++i) before.push_back(v[2 * static_cast<size_t>(i)]);
    begin = c.ints(before);
  } else {
    // paddings[:, 0]
    begin = c.apply1(op::StridedSlice, {c.cast(c.input(1), DType::Int32), c.ints({0, 0}), c.ints({0, 1}), c.ints({1, 1})},
                     Attrs{{"begin_mask", int64_t{1}}, {"end_mask", int64_t{1}}, {"shrink_axis_mask", int64_t{2}}});
  }
  std::vector<GradTensor> out(static_cast<size_t>(c.num_inputs()));
  out[0] = c.apply1(op::Slice, {c.grad(0), begin, c.shape_of(x)});
  return out;
}

/// MirrorPad: MirrorPadGrad of g; MirrorPadGrad: MirrorPad of g (TF's
/// _MirrorPadGrad, _MirrorPadGradGrad).
GradFn mirror_grad(OpType to) {
  return [to](GradContext& c) {
    Attrs a{{"mode", c.attrs().get_or<std::string>("mode", "REFLECT")}};
    return grads({c.apply1(to, {c.grad(0), c.input(1)}, a), GradTensor{}});
  };
}

}  // namespace

void register_pad_ops(OpRegistry& reg) {
  reg.op("Tile")
      .tf_signature("input: T, multiples: Tmultiples -> output: T")
      .inputs(2)
      .infer([](const InferContext& c) {
        array::check_index_dtype(c.inputs[1].dtype, "Tmultiples");
        const Shape& in = c.inputs[0].shape;
        const Shape& ms = c.inputs[1].shape;
        if (ms.rank_known() && ms.rank() != 1) {
          throw InvalidArgumentError("Expected multiples argument to be a vector of length " +
                                     std::to_string(in.rank()) + " but got length " + std::to_string(ms.num_elements()));
        }
        DType t = c.inputs[0].dtype;
        int rank = in.rank_known() ? in.rank() : (ms.rank_known() && ms.dim(0) >= 0) ? static_cast<int>(ms.dim(0)) : -1;
        if (rank < 0) return one(t, Shape::unknown_rank());
        const Tensor* m = c.constant(1);
        if (!m) return one(t, Shape::unknown_dims(rank));
        return one(t, tile_shape(in.rank_known() ? in : Shape::unknown_dims(rank), array::int_values(*m)));
      })
      .cpu([](const KernelSpec& s) {
        return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
          return Kernel([](KernelContext& k) {
            const Tensor& in = k.input(0);
            Tensor& out = k.allocate_output(0, dtype_of<T>(), tile_shape(in.shape(), array::int_values(k.input(1))));
            tile_into<T>(in, out);
          });
        });
      })
      .cost(CostKind::DataMovement).tpu({1})
      .grad(tile_grad);

  for (auto [name, inputs, signature] :
       {std::tuple{"Pad", 2, "input: T, paddings: Tpaddings -> output: T"},
        std::tuple{"PadV2", 3, "input: T, paddings: Tpaddings, constant_values: T -> output: T"}}) {
    reg.op(name).inputs(inputs).tf_signature(signature).infer(pad_infer).cpu(pad_kernel()).cost(CostKind::DataMovement).tpu({1}).grad(pad_grad);
  }
  reg.op("MirrorPad").tf_signature("input: T, paddings: Tpaddings -> output: T").inputs(2).infer(mirror_pad_infer).cpu(mirror_pad_kernel()).cost(CostKind::DataMovement).tpu({1})
      .grad(mirror_grad(op::MirrorPadGrad));
  reg.op("MirrorPadGrad")
      .tf_signature("input: T, paddings: Tpaddings -> output: T")
      .inputs(2)
      .infer([](const InferContext& c) {
        array::check_index_dtype(c.inputs[1].dtype, "Tpaddings");
        const Shape& g = c.inputs[0].shape;
        const Tensor* p = c.constant(1);
        if (!g.rank_known()) return one(c.inputs[0].dtype, Shape::unknown_rank());
        if (p == nullptr) return one(c.inputs[0].dtype, Shape::unknown_dims(g.rank()));
        return one(c.inputs[0].dtype, unpadded_shape(g, pad_amounts(*p, g)));
      })
      .cpu(mirror_pad_grad_kernel())
      .cost(CostKind::DataMovement)
      .tpu()
      .grad(mirror_grad(op::MirrorPad));
  reg.op("BroadcastTo").tf_signature("input: T, shape: Tidx -> output: T").inputs(2).infer(broadcast_to_infer).cpu(broadcast_to_kernel()).cost(CostKind::DataMovement).tpu({1})
      .grad([](GradContext& c) { return grads({c.unbroadcast(c.grad(0), c.input(0)), GradTensor{}}); });
}

}  // namespace ag
