// StridedSlice: Python's `tensor[...]`. The sparse spec (one entry per
// subscript, with Ellipsis, newaxis and integer "shrink" entries as mask bits)
// is expanded to a dense one (one entry per input dim), each dim is clamped
// as Python clamps slices, and the result is one strided copy.
//   x[1]      begin [1] end [2] strides [1] shrink_axis_mask 1
//   x[::-1]   begin [0] end [0] strides [-1] begin_mask 1 end_mask 1
//   x[..., 0] ellipsis_mask 1, shrink_axis_mask 2
//   x[:, None] begin_mask 1 end_mask 1 new_axis_mask 2
// StridedSliceGrad is its gradient (g written back into zeros of x's shape
// at the same positions), and Slice (tf.slice: begin and size per dim) the
// plain case.
#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using array::one;

struct SliceMasks {
  int64_t begin = 0, end = 0, ellipsis = 0, new_axis = 0, shrink = 0;
};

SliceMasks read_masks(const Attrs& a) {
  return {a.get_or<int64_t>("begin_mask", 0), a.get_or<int64_t>("end_mask", 0), a.get_or<int64_t>("ellipsis_mask", 0),
          a.get_or<int64_t>("new_axis_mask", 0), a.get_or<int64_t>("shrink_axis_mask", 0)};
}

/// The slice along each input dim, and the output shape.
constexpr int64_t kNewAxis = -1, kShrinkAxis = -2;

struct SlicePlan {
  std::vector<int64_t> begin, stride, size;  // per input dim (size: elements taken)
  std::vector<bool> whole;                    // per input dim: under the (explicit or implicit) Ellipsis
  std::vector<int64_t> gather;                // per output dim: its input dim, kNewAxis or kShrinkAxis
  Shape out;                                  // final shape (new axes added, shrunk dims removed)
};

bool bit(int64_t mask, int64_t i) { return i < 63 && ((mask >> i) & 1) != 0; }

/// Where a plan's elements lie in a dense tensor of shape `in`: the first
/// one's offset, the step per region dim, and the region itself.
struct StridedRegion {
  int64_t offset = 0;
  std::vector<int64_t> strides;
  Shape shape;
};

StridedRegion region_of(const Shape& in, const SlicePlan& p) {
  StridedRegion r;
  r.shape = Shape{std::span<const int64_t>(p.size)};
  std::vector<int64_t> in_st = array::strides_of(in);
  r.strides.resize(static_cast<size_t>(in.rank()));
  for (size_t f = 0; f < r.strides.size(); ++f) {
    r.offset += p.begin[f] * in_st[f];
    // A dim taking one element never steps (and a huge stride must not overflow).
    r.strides[f] = p.size[f] > 1 ? p.stride[f] * in_st[f] : 0;
  }
  return r;
}

/// TF's ValidateStridedSliceOp for an input of `in` (rank known, dims may be
/// unknown: those give unknown output dims).
SlicePlan plan_slice(const Shape& in, const std::vector<int64_t>& begin, const std::vector<int64_t>& end,
                     const std::vector<int64_t>& strides, const SliceMasks& m) {
  if (begin.size() != end.size() || begin.size() != strides.size()) {
    throw InvalidArgumentError("Expected begin, end, and strides to be 1D equal size tensors, but got shapes [" +
                               std::to_string(begin.size()) + "], [" + std::to_string(end.size()) + "], and [" +
                               std::to_string(strides.size()) + "] instead.");
  }
  int64_t sparse_dims = static_cast<int64_t>(begin.size());
  if (sparse_dims > 32) throw InvalidArgumentError("StridedSlice supports at most 32 subscripts");
  int64_t ellipsis = m.ellipsis & ((int64_t{1} << sparse_dims) - 1);
  if (ellipsis & (ellipsis - 1)) throw InvalidArgumentError("Multiple ellipses in slice spec not allowed");
  // Without an Ellipsis, TF appends an implicit one after the last subscript.
  if (ellipsis == 0) {
    ellipsis = int64_t{1} << sparse_dims;
    ++sparse_dims;
  }
  const int dims = in.rank();
  int64_t new_axes_after_ellipsis = 0;
  {
    bool after = false;
    for (int64_t i = 0; i < sparse_dims; ++i) {
      if (after && bit(m.new_axis, i)) ++new_axes_after_ellipsis;
      if (bit(ellipsis, i)) after = true;
    }
  }
  // Dense spec.
  std::vector<int64_t> db(static_cast<size_t>(dims), 0), de(static_cast<size_t>(dims), 0),
      ds(static_cast<size_t>(dims), 1);
  std::vector<bool> bm(static_cast<size_t>(dims), false), em(static_cast<size_t>(dims), false),
      sm(static_cast<size_t>(dims), false);
  SlicePlan p;
  p.whole.assign(static_cast<size_t>(dims), false);
  std::vector<int64_t>& gather = p.gather;
  int64_t full = 0;
  for (int64_t i = 0; i < sparse_dims; ++i) {
    if (bit(ellipsis, i)) {
      int64_t next = std::min<int64_t>(dims - (sparse_dims - i) + 1 + new_axes_after_ellipsis, dims);
      for (; full < next; ++full) {
        bm[static_cast<size_t>(full)] = em[static_cast<size_t>(full)] = true;
        p.whole[static_cast<size_t>(full)] = true;
        gather.push_back(full);
      }
    } else if (bit(m.new_axis, i)) {
      gather.push_back(kNewAxis);
    } else {
      if (full == dims) {
        throw InvalidArgumentError("Index out of range using input dim " + std::to_string(full) + "; input has only " +
                                   std::to_string(dims) + " dims");
      }
      size_t f = static_cast<size_t>(full);
      db[f] = begin[static_cast<size_t>(i)];
      de[f] = end[static_cast<size_t>(i)];
      ds[f] = strides[static_cast<size_t>(i)];
      bm[f] = bit(m.begin, i);
      em[f] = bit(m.end, i);
      sm[f] = bit(m.shrink, i);
      gather.push_back(sm[f] ? kShrinkAxis : full);
      ++full;
    }
  }
  p.begin.resize(static_cast<size_t>(dims));
  p.stride = ds;
  p.size.resize(static_cast<size_t>(dims));
  for (int i = 0; i < dims; ++i) {
    size_t f = static_cast<size_t>(i);
    int64_t stride = ds[f];
    if (stride == 0) throw InvalidArgumentError("strides[" + std::to_string(i) + "] must be non-zero");
    if (sm[f] && stride <= 0) throw InvalidArgumentError("only stride 1 allowed on non-range indexing.");
    int64_t d = in.dim(i);
    if (d < 0) {
      p.size[f] = sm[f] ? 1 : kUnknownDim;
      continue;
    }
    if (sm[f]) {
      int64_t x = db[f] < 0 ? d + db[f] : db[f];
      if (x < 0 || x >= d) {
        throw InvalidArgumentError("slice index " + std::to_string(db[f]) + " of dimension " + std::to_string(i) +
                                   " out of bounds.");
      }
      p.begin[f] = x;
      p.size[f] = 1;
      continue;
    }
    // Python's slice clamping: [0, d] going forward, [-1, d-1] going backward.
    const int64_t lo = stride > 0 ? 0 : -1, hi = stride > 0 ? d : d - 1;
    auto canonical = [&](int64_t x, bool masked, bool is_end) {
      if (masked) return (stride > 0) != is_end ? lo : hi;
      int64_t fwd = x < 0 ? d + x : x;
      return std::clamp(fwd, lo, hi);
    };
    int64_t b = canonical(db[f], bm[f], false);
    int64_t e = canonical(de[f], em[f], true);
    int64_t len = e - b;  // both in [-1, d]: no overflow
    int64_t n = 0;
    if (len != 0 && (len < 0) == (stride < 0)) {
      // |len| / |stride| rounded up, without negating INT64_MIN.
      n = stride > 0 ? (len - 1) / stride + 1 : (len + 1) / stride + 1;
    }
    p.begin[f] = b;
    p.size[f] = n;
  }
  for (int64_t g : gather) {
    if (g == kNewAxis) p.out.push_back(1);
    else if (g != kShrinkAxis) p.out.push_back(p.size[static_cast<size_t>(g)]);
  }
  return p;
}

void check_vectors(const InferContext& c) {
  static const char* const kNames[] = {"", "begin", "end", "strides"};
  for (size_t i = 1; i < 4; ++i) {
    if (c.inputs[i].dtype != c.inputs[1].dtype) {
      throw InvalidArgumentError(std::string("Inconsistent values for attr 'Index' ") +
                                 dtype_tf_string(c.inputs[1].dtype) + " vs. " + dtype_tf_string(c.inputs[i].dtype) +
                                 " while building NodeDef 'StridedSlice'");
    }
    const Shape& s = c.inputs[i].shape;
    if (s.rank_known() && s.rank() != 1) {
      throw InvalidArgumentError(std::string(kNames[i]) + " must be 1-D, not " + s.debug_string());
    }
  }
}


// ---- Slice(input, begin, size): size -1 takes the rest of the dim.

/// TF's SharedSliceValidation: the begin and size per dim, -1 resolved.
void slice_bounds(const Shape& in, const std::vector<int64_t>& begin, std::vector<int64_t>& size,
                  const Shape& begin_shape, const Shape& size_shape) {
  const int r = in.rank();
  if (begin_shape.rank() != 1 || size_shape.rank() != 1 || static_cast<int64_t>(begin.size()) != r ||
      static_cast<int64_t>(size.size()) != r) {
    throw InvalidArgumentError("Expected begin and size arguments to be 1-D tensors of size " + std::to_string(r) +
                               ", but got shapes " + begin_shape.debug_string() + " and " + size_shape.debug_string() +
                               " instead.");
  }
  for (int i = 0; i < r; ++i) {
    size_t f = static_cast<size_t>(i);
    int64_t d = in.dim(i), b = begin[f];
    if (d < 0) {
      if (size[f] == -1) size[f] = kUnknownDim;
      continue;
    }
    if (size[f] == -1) size[f] = d - b;
    if (b < 0 || b > d) {
      throw InvalidArgumentError("Expected begin[" + std::to_string(i) + "] in [0, " + std::to_string(d) +
                                 "], but got " + std::to_string(b));
    }
    if (size[f] < 0 || b + size[f] > d) {
      throw InvalidArgumentError("Expected size[" + std::to_string(i) + "] in [0, " + std::to_string(d - b) +
                                 "], but got " + std::to_string(size[f]));
    }
  }
}

std::vector<TensorSpec> infer_slice(const InferContext& c) {
  array::check_index_dtype(c.inputs[1].dtype, "Index");
  if (c.inputs[2].dtype != c.inputs[1].dtype) {
    throw InvalidArgumentError(std::string("Inconsistent values for attr 'Index' ") + dtype_tf_string(c.inputs[1].dtype) +
                               " vs. " + dtype_tf_string(c.inputs[2].dtype) + " while building NodeDef 'Slice'");
  }
  for (size_t i = 1; i < 3; ++i) {
    const Shape& s = c.inputs[i].shape;
    if (s.rank_known() && s.rank() != 1) throw InvalidArgumentError("Shape must be rank 1 but is rank " + std::to_string(s.rank()));
  }
  const Shape& in = c.inputs[0].shape;
  DType t = c.inputs[0].dtype;
  const Shape& bs = c.inputs[1].shape;
  int rank = in.rank_known() ? in.rank() : (bs.rank_known() && bs.dim(0) >= 0) ? static_cast<int>(bs.dim(0)) : -1;
  if (rank < 0) return one(t, Shape::unknown_rank());
  const Tensor* size = c.constant(2);
  if (size == nullptr) return one(t, Shape::unknown_dims(rank));
  std::vector<int64_t> sz = array::int_values(*size);
  const Tensor* begin = c.constant(1);
  if (begin == nullptr || !in.rank_known()) {
    if (static_cast<int>(sz.size()) != rank) {
      throw InvalidArgumentError("Expected begin and size arguments to be 1-D tensors of size " + std::to_string(rank) +
                                 ", but got shapes " + bs.debug_string() + " and " + size->shape().debug_string() +
                                 " instead.");
    }
    for (int64_t& d : sz) {
      if (d == -1) d = kUnknownDim;
    }
    return one(t, Shape{std::span<const int64_t>(sz)});
  }
  slice_bounds(in, array::int_values(*begin), sz, begin->shape(), size->shape());
  return one(t, Shape{std::span<const int64_t>(sz)});
}

KernelFactory slice_kernel() {
  return [](const KernelSpec& s) {
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
      return Kernel([](KernelContext& k) {
        const Tensor& in = k.input(0);
        std::vector<int64_t> begin = array::int_values(k.input(1)), size = array::int_values(k.input(2));
        slice_bounds(in.shape(), begin, size, k.input(1).shape(), k.input(2).shape());
        Shape region{std::span<const int64_t>(size)};
        Tensor& out = k.allocate_output(0, dtype_of<T>(), region);
        std::vector<int64_t> src_st = array::strides_of(in.shape());
        int64_t off = 0;
        for (int i = 0; i < in.rank(); ++i) off += begin[static_cast<size_t>(i)] * src_st[static_cast<size_t>(i)];
        std::vector<int64_t> dst_st = array::strides_of(region);
        array::copy_nd<T>(region, in.data<T>(), off, src_st.data(), out.data<T>(), 0, dst_st.data());
      });
    });
  };
}

// ---- gradients (GRADIENTS.md 3.2, TF's array_grad.py)

/// Slice: g padded back to x's shape, [begin, shape(x) - begin - shape(y)] per dim.
std::vector<GradTensor> slice_grad(GradContext& c) {
  GradTensor x = c.input(0), y = c.output(0);
  const Shape &xs = c.spec(x).shape, &ys = c.spec(y).shape;
  const Tensor* begin = c.value(c.input(1));
  GradTensor paddings;
  if (begin != nullptr && xs.fully_defined() && ys.fully_defined()) {
    std::vector<int64_t> b = array::int_values(*begin);
    Tensor p(DType::Int32, Shape{xs.rank(), 2});
    for (int i = 0; i < xs.rank(); ++i) {
      p.data<int32_t>()[2 * i] = static_cast<int32_t>(b[static_cast<size_t>(i)]);
      p.data<int32_t>()[2 * i + 1] = static_cast<int32_t>(xs.dim(i) - b[static_cast<size_t>(i)] - ys.dim(i));
    }
    paddings = c.constant(p);
  } else {
    GradTensor b = c.cast(c.input(1), DType::Int32);
    GradTensor after = c.sub(c.sub(c.shape_of(x), b), c.shape_of(y));
    paddings = c.apply1(op::Pack, {b, after}, Attrs{{"axis", int64_t{1}}, {"N", int64_t{2}}});
  }
  return grads({c.apply1(op::Pad, {c.grad(0), paddings}), GradTensor{}, GradTensor{}});
}

/// StridedSlice: StridedSliceGrad(shape(x), begin, end, strides, g), same masks.
std::vector<GradTensor> strided_slice_grad(GradContext& c) {
  GradTensor shape = c.shape_of(c.input(0));
  if (c.dtype(c.input(1)) != DType::Int32) shape = c.cast(shape, c.dtype(c.input(1)));
  GradTensor g = c.apply1(op::StridedSliceGrad, {shape, c.input(1), c.input(2), c.input(3), c.grad(0)}, c.attrs());
  return grads({g, GradTensor{}, GradTensor{}, GradTensor{}});
}

/// StridedSliceGrad is linear in dy: its gradient is the same StridedSlice of g.
std::vector<GradTensor> strided_slice_grad_grad(GradContext& c) {
  GradTensor g = c.apply1(op::StridedSlice, {c.grad(0), c.input(1), c.input(2), c.input(3)}, c.attrs());
  return grads({GradTensor{}, GradTensor{}, GradTensor{}, GradTensor{}, g});
}

}  // namespace

/// x[i] as getitem traces it: axis 0 alone, shrunk (one [1] spec per input).
bool selects_row(const InferContext& c) {
  for (const char* mask : {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask"}) {
    if (c.attrs.get_or<int64_t>(mask, 0) != 0) return false;
  }
  if (c.attrs.get_or<int64_t>("shrink_axis_mask", 0) != 1) return false;
  for (size_t i = 1; i < 4; ++i) {
    if (!(c.inputs[i].shape == Shape{1})) return false;
  }
  return true;
}

void register_slice_ops(OpRegistry& reg) {
  reg.op("StridedSlice")
      .inputs(4)
      .tf_signature("input: T, begin: Index, end: Index, strides: Index -> output: T")
      .selects_row(selects_row)
      .infer([](const InferContext& c) {
        array::check_index_dtype(c.inputs[1].dtype, "Index");
        check_vectors(c);
        const Shape& in = c.inputs[0].shape;
        DType t = c.inputs[0].dtype;
        if (!in.rank_known()) return one(t, Shape::unknown_rank());
        if (!c.constant(1) || !c.constant(2) || !c.constant(3)) {
          // Values unknown but the subscript count known: the masks still fix
          // the rank (sliced dims unknown, new axes 1, shrunk dims gone), as in TF.
          const Shape& bs = c.inputs[1].shape;
          if (!bs.rank_known() || bs.dim(0) < 0) return one(t, Shape::unknown_rank());
          std::vector<int64_t> zeros(static_cast<size_t>(bs.dim(0)), 0), ones(zeros.size(), 1);
          SlicePlan p = plan_slice(Shape::unknown_dims(in.rank()), zeros, zeros, ones, read_masks(c.attrs));
          // The dims under the Ellipsis (or after the last subscript) are
          // taken whole and keep their sizes (x[t] of a [T, B, F] tensor is
          // [B, F], x[..., t] is [T, B]), as TF's shape function infers them.
          Shape out;
          for (int64_t g : p.gather) {
            if (g == kNewAxis) out.push_back(1);
            else if (g != kShrinkAxis) {
              out.push_back(p.whole[static_cast<size_t>(g)] ? in.dim(static_cast<int>(g)) : kUnknownDim);
            }
          }
          return one(t, out);
        }
        SlicePlan p = plan_slice(in, array::int_values(*c.constant(1)), array::int_values(*c.constant(2)),
                                 array::int_values(*c.constant(3)), read_masks(c.attrs));
        return one(t, p.out);
      })
      .cpu([](const KernelSpec& s) {
        SliceMasks masks = read_masks(s.attrs);
        return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
          return Kernel([masks](KernelContext& k) {
            const Tensor& in = k.input(0);
            SlicePlan p = plan_slice(in.shape(), array::int_values(k.input(1)), array::int_values(k.input(2)),
                                     array::int_values(k.input(3)), masks);
            Tensor& out = k.allocate_output(0, dtype_of<T>(), p.out);
            StridedRegion r = region_of(in.shape(), p);
            // An empty region reads nothing, so a begin just past the end is harmless.
            std::vector<int64_t> dst_st = array::strides_of(r.shape);
            array::copy_nd<T>(r.shape, in.data<T>(), r.offset, r.strides.data(), out.data<T>(), 0, dst_st.data());
          });
        });
      })
      .cost(CostKind::DataMovement).tpu({1, 2, 3})
      .grad(strided_slice_grad);

  // StridedSliceGrad(shape, begin, end, strides, dy), StridedSlice's attrs:
  // zeros of `shape` with dy at the positions StridedSlice reads.
  reg.op("StridedSliceGrad")
      .tf_signature("shape: Index, begin: Index, end: Index, strides: Index, dy: T -> output: T")
      .inputs(5)
      .infer([](const InferContext& c) {
        array::check_index_dtype(c.inputs[0].dtype, "Index");
        DType t = c.inputs[4].dtype;
        if (const Tensor* shape = c.constant(0)) {
          Shape in = array::checked_shape(array::int_values(*shape));
          if (c.constant(1) && c.constant(2) && c.constant(3)) {
            SlicePlan p = plan_slice(in, array::int_values(*c.constant(1)), array::int_values(*c.constant(2)),
                                     array::int_values(*c.constant(3)), read_masks(c.attrs));
            if (!p.out.is_compatible_with(c.inputs[4].shape)) {
              throw InvalidArgumentError("shape of dy was " + c.inputs[4].shape.debug_string() + " instead of " +
                                         p.out.debug_string());
            }
          }
          return one(t, in);
        }
        const Shape& ss = c.inputs[0].shape;
        if (ss.rank_known() && ss.rank() == 1 && ss.dim(0) >= 0) return one(t, Shape::unknown_dims(static_cast<int>(ss.dim(0))));
        return one(t, Shape::unknown_rank());
      })
      .cpu([](const KernelSpec& s) {
        SliceMasks masks = read_masks(s.attrs);
        return dispatch_dtype(s.inputs[4].dtype, [&]<class T>() {
          return Kernel([masks](KernelContext& k) {
            Shape in = array::checked_shape(array::int_values(k.input(0)));
            SlicePlan p = plan_slice(in, array::int_values(k.input(1)), array::int_values(k.input(2)),
                                     array::int_values(k.input(3)), masks);
            const Tensor& dy = k.input(4);
            if (!(dy.shape() == p.out)) {
              throw InvalidArgumentError("shape of dy was " + dy.shape().debug_string() + " instead of " +
                                         p.out.debug_string());
            }
            Tensor& out = k.allocate_output(0, dtype_of<T>(), in);
            T zero{};
            if constexpr (std::is_same_v<T, bfloat16>) zero = bfloat16(0.0f);
            std::fill_n(out.data<T>(), out.num_elements(), zero);
            StridedRegion r = region_of(in, p);
            std::vector<int64_t> src_st = array::strides_of(r.shape);
            array::copy_nd<T>(r.shape, dy.data<T>(), 0, src_st.data(), out.data<T>(), r.offset, r.strides.data());
          });
        });
      })
      .cost(CostKind::DataMovement).tpu()
      .grad(strided_slice_grad_grad);

  reg.op("Slice")
      .tf_signature("input: T, begin: Index, size: Index -> output: T")
      .inputs(3)
      .infer(infer_slice)
      .cpu(slice_kernel())
      .cost(CostKind::DataMovement).tpu({1, 2})
      .grad(slice_grad);
}

}  // namespace ag
