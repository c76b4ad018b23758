// Array ops that grow a tensor: Tile (copies of it along each dim) and Pad,
// PadV2 (a border of zeros or of a constant). Their gradients take back what
// was copied: Tile's sums the copies, Pad's slices the border off (TF's
// array_grad.py).
#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
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

}  // namespace

void register_pad_ops(OpRegistry& reg) {
  reg.op("Tile")
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
      .cost(CostKind::DataMovement).tpu()
      .grad(tile_grad);

  for (auto [name, inputs] : {std::pair{"Pad", 2}, std::pair{"PadV2", 3}}) {
    reg.op(name).inputs(inputs).infer(pad_infer).cpu(pad_kernel()).cost(CostKind::DataMovement).tpu().grad(pad_grad);
  }
}

}  // namespace ag
