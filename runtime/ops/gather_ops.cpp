// Array ops that pick elements by index: GatherV2 (slices along an axis, with
// batch_dims), GatherNd (slices by index tuples) and OneHot. Their gradients
// write by index: GatherNd's is ScatterNd (scatter_ops.cpp), GatherV2's
// UnsortedSegmentSum (segment_ops.cpp), dense where TF returns
// IndexedSlices. Every index is range-checked before it is read: an
// out-of-range index is an InvalidArgumentError in TF's words, never an
// out-of-bounds read.
#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using array::one;

struct GatherGeom {
  Shape out;
  int64_t axis = 0, batch_dims = 0;
};

/// GatherV2's output shape and canonical axis/batch_dims. `p` and `i` have known rank.
GatherGeom gather_geom(const Shape& p, const Shape& i, int64_t axis, int64_t batch_dims) {
  int64_t pr = p.rank(), ir = i.rank();
  if (pr < 1) throw InvalidArgumentError("Shape must be at least rank 1 but is rank 0");
  GatherGeom g;
  if (!array::canonical_axis(axis, pr, g.axis)) {
    throw InvalidArgumentError("Expected axis in the range [" + std::to_string(-pr) + ", " + std::to_string(pr) +
                               "), but got " + std::to_string(axis));
  }
  g.batch_dims = batch_dims < 0 ? batch_dims + ir : batch_dims;
  if (g.batch_dims < 0 || g.batch_dims > ir) {
    throw InvalidArgumentError("Expected batch_dims in the range [" + std::to_string(-ir) + ", " + std::to_string(ir) +
                               "], but got " + std::to_string(batch_dims));
  }
  if (g.batch_dims >= pr) {
    throw InvalidArgumentError("batch_dims (" + std::to_string(g.batch_dims) + ") must be less than rank(params) (" +
                               std::to_string(pr) + ").");
  }
  if (g.axis < g.batch_dims) {
    throw InvalidArgumentError("batch_dims (" + std::to_string(g.batch_dims) + ") must be less than or equal to axis (" +
                               std::to_string(g.axis) + ").");
  }
  for (int d = 0; d < g.batch_dims; ++d) {
    if (p.dim(d) >= 0 && i.dim(d) >= 0 && p.dim(d) != i.dim(d)) {
      throw InvalidArgumentError("params.shape[" + std::to_string(d) + "]: " + std::to_string(p.dim(d)) +
                                 " should be equal to indices.shape[" + std::to_string(d) + "]: " +
                                 std::to_string(i.dim(d)));
    }
  }
  for (int d = 0; d < g.axis; ++d) g.out.push_back(p.dim(d) >= 0 || d >= g.batch_dims ? p.dim(d) : i.dim(d));
  for (int d = static_cast<int>(g.batch_dims); d < ir; ++d) g.out.push_back(i.dim(d));
  for (int d = static_cast<int>(g.axis) + 1; d < pr; ++d) g.out.push_back(p.dim(d));
  if (g.out.fully_defined()) (void)g.out.num_elements();
  return g;
}

template <class T, class I>
void gather_run(const Tensor& params, const Tensor& indices, const GatherGeom& g, Tensor& out) {
  const Shape& ps = params.shape();
  int ax = static_cast<int>(g.axis), bd = static_cast<int>(g.batch_dims);
  int64_t batch = array::dims_product(ps, 0, bd);
  int64_t outer = array::dims_product(ps, bd, ax);
  int64_t limit = ps.dim(ax);
  int64_t inner = array::dims_product(ps, ax + 1, ps.rank());
  int64_t nidx = batch > 0 ? indices.num_elements() / batch : 0;
  const I* ix = indices.data<I>();
  // Check every index first: the copy below then never reads out of bounds.
  for (int64_t j = 0; j < indices.num_elements(); ++j) {
    if (ix[j] < 0 || ix[j] >= limit) {
      throw InvalidArgumentError("indices" + array::slice_debug_string(indices.shape(), j) + " = " + std::to_string(ix[j]) +
                                 " is not in [0, " + std::to_string(limit) + ")");
    }
  }
  if (out.num_elements() == 0) return;
  const T* src = params.data<T>();
  T* dst = out.data<T>();
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t o = 0; o < outer; ++o) {
      const T* s = src + (b * outer + o) * limit * inner;
      const I* bix = ix + b * nidx;
      for (int64_t j = 0; j < nidx; ++j, dst += inner) std::copy_n(s + static_cast<int64_t>(bix[j]) * inner, inner, dst);
    }
  }
}

/// GatherNd's output shape; `p` and `i` have known rank.
Shape gather_nd_shape(const Shape& p, const Shape& i) {
  if (i.rank() < 1) throw InvalidArgumentError("Shape must be at least rank 1 but is rank 0");
  int64_t k = i.dim(i.rank() - 1);
  if (k > p.rank()) {
    throw InvalidArgumentError("index innermost dimension length must be <= params rank; saw: " + std::to_string(k) +
                               " vs. " + std::to_string(p.rank()));
  }
  Shape out;
  for (int d = 0; d < i.rank() - 1; ++d) out.push_back(i.dim(d));
  if (k < 0) return Shape::unknown_rank();
  for (int d = static_cast<int>(k); d < p.rank(); ++d) out.push_back(p.dim(d));
  if (out.fully_defined()) (void)out.num_elements();
  return out;
}

template <class T, class I>
void gather_nd_run(const Tensor& params, const Tensor& indices, Tensor& out) {
  const Shape& ps = params.shape();
  const Shape& is = indices.shape();
  int k = static_cast<int>(is.dim(is.rank() - 1));
  int64_t n = k > 0 ? indices.num_elements() / k : array::dims_product(is, 0, is.rank() - 1);
  int64_t slice = array::dims_product(ps, k, ps.rank());
  std::vector<int64_t> st = array::strides_of(ps);
  const I* ix = indices.data<I>();
  const T* src = params.data<T>();
  T* dst = out.data<T>();
  Shape batch;
  for (int d = 0; d < is.rank() - 1; ++d) batch.push_back(is.dim(d));
  for (int64_t j = 0; j < n; ++j) {
    int64_t off = 0;
    for (int d = 0; d < k; ++d) {
      int64_t v = ix[j * k + d];
      if (v < 0 || v >= ps.dim(d)) {
        std::vector<int64_t> bad(ix + j * k, ix + j * k + k);
        throw InvalidArgumentError("indices" + array::slice_debug_string(batch, j) + " = [" + array::int_list_string(bad, ", ") +
                                   "] does not index into param shape " + ps.debug_string());
      }
      off += v * st[static_cast<size_t>(d)];
    }
    std::copy_n(src + off, slice, dst + j * slice);
  }
}

/// OneHot's canonical axis for indices of rank `r`.
int64_t one_hot_axis(int64_t axis, int64_t r) {
  if (axis != -1 && (axis < 0 || axis > r)) {
    throw InvalidArgumentError("Expected axis to be -1 or between [0, " + std::to_string(r + 1) +
                               ").  But received: " + std::to_string(axis));
  }
  return axis == -1 ? r : axis;
}

int64_t one_hot_depth(const Tensor& d) {
  if (d.rank() != 0) throw InvalidArgumentError("depth must be a scalar, but got: " + d.shape().debug_string());
  int64_t depth = array::int_at(d, 0);
  if (depth < 0) throw InvalidArgumentError("depth must be non-negative, got: " + std::to_string(depth));
  return depth;
}

// ---- gradients (GRADIENTS.md 3.2, TF's array_grad.py and math_grad.py)

GradTensor scalar_int(GradContext& c, int64_t v) { return c.constant(Tensor::scalar(static_cast<int32_t>(v))); }

/// GatherV2 with batch_dims b > 0 (TF's _BatchGatherGrad): the gathered
/// axis moved next to the batch dims, the batch dims folded into the segment
/// ids (index + batch position · params.shape[axis]), one
/// UnsortedSegmentSum, and the result unfolded and moved back. Shapes are
/// constants when static, else read from tf.shape(params).
GradTensor batch_gather_grad(GradContext& c, const Shape& ps, int64_t ax, int64_t b) {
  GradTensor indices = c.input(1);
  const Shape& is = c.spec(indices).shape;
  if (!is.rank_known()) {
    throw UnimplementedError("The gradient of GatherV2 with batch_dims needs its indices' rank known while tracing");
  }
  const int r = ps.rank();
  const bool fixed = ps.fully_defined();
  GradTensor shape = fixed ? GradTensor{} : c.shape_of(c.input(0));
  // params' dims at `idx`, an int32 vector.
  auto pick = [&](const std::vector<int64_t>& idx) {
    if (fixed) {
      std::vector<int64_t> v;
      for (int64_t i : idx) v.push_back(ps.dim(static_cast<int>(i)));
      return c.ints(v);
    }
    return c.apply1(op::GatherV2, {shape, c.ints(idx), scalar_int(c, 0)}, Attrs{{"batch_dims", int64_t{0}}});
  };
  auto join = [&](std::vector<GradTensor> parts) {
    parts.push_back(scalar_int(c, 0));
    return c.apply(op::ConcatV2, parts)[0];
  };
  auto range = [](int64_t from, int64_t to) {
    std::vector<int64_t> v;
    for (int64_t i = from; i < to; ++i) v.push_back(i);
    return v;
  };
  const GradTensor all_reduce = c.ints({0});
  const Attrs prod_attrs{{"keep_dims", false}, {"Tidx", DType::Int32}};
  GradTensor rows = c.reshape(pick({ax}), c.ints({}));
  GradTensor batch = c.apply1(op::Prod, {pick(range(0, b)), all_reduce}, prod_attrs);
  // g: P[:ax] + I[b:] + P[ax+1:] -> P[:ax] + [n] + P[ax+1:], then the axis moved to b.
  GradTensor values = c.reshape(c.grad(0), join({pick(range(0, ax)), c.ints({-1}), pick(range(ax + 1, r))}));
  std::vector<int64_t> perm = range(0, b), tail = range(b, ax), inverse(static_cast<size_t>(r));
  perm.push_back(ax);
  for (int64_t d = ax + 1; d < r; ++d) tail.push_back(d);
  perm.insert(perm.end(), tail.begin(), tail.end());
  for (int i = 0; i < r; ++i) inverse[static_cast<size_t>(perm[static_cast<size_t>(i)])] = i;
  if (ax != b) values = c.apply1(op::Transpose, {values, c.ints(perm)});
  values = c.reshape(values, join({c.ints({-1}), pick(tail)}));
  // Segment ids: index + (its batch position) · rows.
  GradTensor offsets = c.mul(c.apply1(op::Range, {scalar_int(c, 0), batch, scalar_int(c, 1)}, Attrs{{"Tidx", DType::Int32}}), rows);
  offsets = c.reshape(c.cast(offsets, c.dtype(indices)),
                      join({pick(range(0, b)), c.ints(std::vector<int64_t>(static_cast<size_t>(is.rank() - b), 1))}));
  GradTensor ids = c.reshape(c.add(indices, offsets), c.ints({-1}));
  GradTensor summed = c.apply1(op::UnsortedSegmentSum, {values, ids, c.mul(batch, rows)});
  summed = c.reshape(summed, join({pick(range(0, b)), pick({ax}), pick(tail)}));
  return ax != b ? c.apply1(op::Transpose, {summed, c.ints(inverse)}) : summed;
}

/// GatherV2: g's slices summed into the rows they were read from. TF returns
/// IndexedSlices for axis 0; agc has none and gives the dense sum
/// (UnsortedSegmentSum), the value IndexedSlices densify to. Another axis is
/// moved to the front first and back after (TF's scheme).
std::vector<GradTensor> gather_grad(GradContext& c) {
  GradTensor params = c.input(0), indices = c.input(1);
  const Shape& ps = c.spec(params).shape;
  const Tensor* axis_value = c.value(c.input(2));
  if (!ps.rank_known() || axis_value == nullptr) {
    throw UnimplementedError("The gradient of GatherV2 needs its axis and its params' rank known while tracing");
  }
  const int r = ps.rank();
  int64_t ax = array::int_at(*axis_value, 0);
  if (ax < 0) ax += r;
  int64_t batch_dims = c.attrs().get_or<int64_t>("batch_dims", 0);
  if (batch_dims < 0) {
    const Shape& is = c.spec(indices).shape;
    if (!is.rank_known()) throw UnimplementedError("The gradient of GatherV2 with negative batch_dims needs its indices' rank");
    batch_dims += is.rank();
  }
  if (batch_dims > 0) return grads({batch_gather_grad(c, ps, ax, batch_dims), GradTensor{}, GradTensor{}});
  // g's shape is params' with the axis replaced by indices' dims: flatten those.
  GradTensor values_shape, rows;
  if (ps.fully_defined()) {
    std::vector<int64_t> dims(ps.dims().begin(), ps.dims().end());
    rows = scalar_int(c, dims[static_cast<size_t>(ax)]);
    dims[static_cast<size_t>(ax)] = -1;
    values_shape = c.ints(dims);
  } else {
    GradTensor shape = c.shape_of(params);
    rows = c.apply1(op::GatherV2, {shape, scalar_int(c, ax), scalar_int(c, 0)}, Attrs{{"batch_dims", int64_t{0}}});
    GradTensor before = c.apply1(op::Slice, {shape, c.ints({0}), c.ints({ax})});
    GradTensor after = c.apply1(op::Slice, {shape, c.ints({ax + 1}), c.ints({r - ax - 1})});
    values_shape = c.apply(op::ConcatV2, std::vector<GradTensor>{before, c.ints({-1}), after, scalar_int(c, 0)})[0];
  }
  GradTensor values = c.reshape(c.grad(0), values_shape);
  std::vector<int64_t> to_front{ax}, back;
  for (int64_t d = 0; d < r; ++d) {
    if (d != ax) to_front.push_back(d);
  }
  for (int64_t d = 1; d <= ax; ++d) back.push_back(d);
  back.push_back(0);
  for (int64_t d = ax + 1; d < r; ++d) back.push_back(d);
  if (ax != 0) values = c.apply1(op::Transpose, {values, c.ints(to_front)});
  GradTensor flat = c.reshape(indices, c.ints({-1}));
  GradTensor summed = c.apply1(op::UnsortedSegmentSum, {values, flat, rows});
  if (ax != 0) summed = c.apply1(op::Transpose, {summed, c.ints(back)});
  return grads({summed, GradTensor{}, GradTensor{}});
}

/// GatherNd: g scattered back into zeros of params' shape.
std::vector<GradTensor> gather_nd_grad(GradContext& c) {
  GradTensor indices = c.input(1);
  GradTensor shape = c.cast(c.shape_of(c.input(0)), c.dtype(indices));
  return grads({c.apply1(op::ScatterNd, {indices, c.grad(0), shape}), GradTensor{}});
}

}  // namespace

/// x[i] as a `for` over x's rows traces it: a scalar index on axis 0.
bool gathers_row(const InferContext& c) {
  const Tensor* axis = c.constant(2);
  if (axis == nullptr || axis->num_elements() != 1 ||
      (axis->dtype() != DType::Int32 && axis->dtype() != DType::Int64)) {
    return false;
  }
  const int64_t a = axis->dtype() == DType::Int64 ? axis->scalar_value<int64_t>() : axis->scalar_value<int32_t>();
  return a == 0 && c.inputs[1].shape.rank_known() && c.inputs[1].shape.rank() == 0 &&
         c.attrs.get_or<int64_t>("batch_dims", 0) == 0;
}

void register_gather_ops(OpRegistry& reg) {
  // GatherV2(params, indices, axis) with attr batch_dims.
  reg.op("GatherV2")
      .tf_signature("params: Tparams, indices: Tindices, axis: Taxis -> output: Tparams")
      .inputs(3)
      // Constant positions of a vector read as a shape: tf.shape(x)[i] keeps x's static dim.
      .shape_value([](const ShapeValueQuery& q) -> std::optional<Shape> {
        std::optional<Tensor> axis = q.value(2);
        std::optional<Tensor> at = q.value(1);
        if (!axis || array::int_values(*axis).at(0) != 0 || !at || at->shape().rank() != 1) return std::nullopt;
        std::optional<Shape> from = q.shape(0);
        if (!from || !from->rank_known()) return std::nullopt;
        Shape out;
        for (int64_t i : array::int_values(*at)) {
          if (i < 0) i += from->rank();
          if (i < 0 || i >= from->rank()) return std::nullopt;
          out.push_back(from->dim(static_cast<int>(i)));
        }
        return out;
      })
      .selects_row(gathers_row)
      .infer([](const InferContext& c) {
        array::check_index_dtype(c.inputs[1].dtype, "Tindices");
        array::check_index_dtype(c.inputs[2].dtype, "Taxis");
        const Shape& p = c.inputs[0].shape;
        const Shape& i = c.inputs[1].shape;
        const Shape& as = c.inputs[2].shape;
        if (as.rank_known() && as.rank() != 0) {
          throw InvalidArgumentError("axis must be scalar, but got " + as.debug_string());
        }
        DType t = c.inputs[0].dtype;
        const Tensor* axis = c.constant(2);
        if (!p.rank_known() || !i.rank_known() || !axis) {
          if (p.rank_known() && i.rank_known() && axis == nullptr) {
            return one(t, Shape::unknown_dims(p.rank() + i.rank() - 1 -
                                              static_cast<int>(c.attrs.get_or<int64_t>("batch_dims", 0))));
          }
          return one(t, Shape::unknown_rank());
        }
        return one(t, gather_geom(p, i, array::int_at(*axis, 0), c.attrs.get_or<int64_t>("batch_dims", 0)).out);
      })
      .cpu([](const KernelSpec& s) {
        int64_t batch_dims = s.attrs.get_or<int64_t>("batch_dims", 0);
        Kernel kernel;
        dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
          array::dispatch_index(s.inputs[1].dtype, [&]<class I>() {
            kernel = [batch_dims](KernelContext& k) {
              const Tensor& axis = k.input(2);
              if (axis.rank() != 0) throw InvalidArgumentError("axis must be scalar, but got " + axis.shape().debug_string());
              GatherGeom g = gather_geom(k.input(0).shape(), k.input(1).shape(), array::int_at(axis, 0), batch_dims);
              Tensor& out = k.allocate_output(0, dtype_of<T>(), g.out);
              gather_run<T, I>(k.input(0), k.input(1), g, out);
            };
          });
        });
        return kernel;
      })
      .cost(CostKind::DataMovement).tpu()
      .quantization(QuantRole::Gather)
      .grad(gather_grad);

  reg.op("GatherNd")
      .tf_signature("params: Tparams, indices: Tindices -> output: Tparams")
      .inputs(2)
      .infer([](const InferContext& c) {
        array::check_index_dtype(c.inputs[1].dtype, "Tindices");
        const Shape& p = c.inputs[0].shape;
        const Shape& i = c.inputs[1].shape;
        if (!p.rank_known() || !i.rank_known()) return one(c.inputs[0].dtype, Shape::unknown_rank());
        return one(c.inputs[0].dtype, gather_nd_shape(p, i));
      })
      .cpu([](const KernelSpec& s) {
        Kernel kernel;
        dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
          array::dispatch_index(s.inputs[1].dtype, [&]<class I>() {
            kernel = [](KernelContext& k) {
              Tensor& out =
                  k.allocate_output(0, dtype_of<T>(), gather_nd_shape(k.input(0).shape(), k.input(1).shape()));
              gather_nd_run<T, I>(k.input(0), k.input(1), out);
            };
          });
        });
        return kernel;
      })
      .cost(CostKind::DataMovement).tpu()
      .grad(gather_nd_grad);

  // OneHot(indices, depth, on_value, off_value) with attr axis (-1: last).
  reg.op("OneHot")
      .tf_signature("indices: TI, depth: int32, on_value: T, off_value: T -> output: T")
      .inputs(4)
      .infer([](const InferContext& c) {
        DType it = c.inputs[0].dtype;
        if (it != DType::UInt8 && it != DType::Int8 && it != DType::Int32 && it != DType::Int64) {
          array::bad_attr_type("TI", it, "uint8, int8, int32, int64");
        }
        array::check_index_dtype(c.inputs[1].dtype, "depth");
        DType t = c.inputs[2].dtype;
        if (c.inputs[3].dtype != t) {
          throw InvalidArgumentError(std::string("Inconsistent values for attr 'T' ") + dtype_tf_string(t) + " vs. " +
                                     dtype_tf_string(c.inputs[3].dtype) + " while building NodeDef 'OneHot'");
        }
        static const char* const kNames[] = {"", "depth", "on_value", "off_value"};
        for (size_t i = 1; i < 4; ++i) {
          const Shape& s = c.inputs[i].shape;
          if (s.rank_known() && s.rank() != 0) {
            throw InvalidArgumentError(std::string(kNames[i]) + " must be a scalar, but got: " + s.debug_string());
          }
        }
        const Shape& in = c.inputs[0].shape;
        int64_t axis = c.attrs.get_or<int64_t>("axis", -1);
        if (!in.rank_known()) return one(t, Shape::unknown_rank());
        int64_t ax = one_hot_axis(axis, in.rank());
        int64_t depth = c.constant(1) ? one_hot_depth(*c.constant(1)) : kUnknownDim;
        Shape out;
        for (int d = 0; d < in.rank(); ++d) {
          if (d == ax) out.push_back(depth);
          out.push_back(in.dim(d));
        }
        if (ax == in.rank()) out.push_back(depth);
        if (out.fully_defined()) (void)out.num_elements();
        return one(t, out);
      })
      .cpu([](const KernelSpec& s) {
        int64_t axis = s.attrs.get_or<int64_t>("axis", -1);
        Kernel kernel;
        dispatch_dtype(s.inputs[2].dtype, [&]<class T>() {
          dispatch_dtype(s.inputs[0].dtype, [&]<class I>() {
            if constexpr (std::is_integral_v<I> && !std::is_same_v<I, bool>) {
              kernel = [axis](KernelContext& k) {
                const Tensor& in = k.input(0);
                int ax = static_cast<int>(one_hot_axis(axis, in.rank()));
                int64_t depth = one_hot_depth(k.input(1));
                Shape os;
                for (int d = 0; d < in.rank(); ++d) {
                  if (d == ax) os.push_back(depth);
                  os.push_back(in.shape().dim(d));
                }
                if (ax == in.rank()) os.push_back(depth);
                (void)os.num_elements();
                Tensor& out = k.allocate_output(0, dtype_of<T>(), os);
                if (k.input(2).rank() != 0 || k.input(3).rank() != 0) {
                  const Tensor& bad = k.input(2).rank() != 0 ? k.input(2) : k.input(3);
                  throw InvalidArgumentError(std::string(k.input(2).rank() != 0 ? "on_value" : "off_value") +
                                             " must be a scalar, but got: " + bad.shape().debug_string());
                }
                const T on = k.input(2).scalar_value<T>();
                const T off = k.input(3).scalar_value<T>();
                int64_t prefix = array::dims_product(in.shape(), 0, ax);
                int64_t suffix = array::dims_product(in.shape(), ax, in.rank());
                const I* ix = in.data<I>();
                T* dst = out.data<T>();
                std::fill_n(dst, out.num_elements(), off);
                for (int64_t p = 0; p < prefix; ++p) {
                  for (int64_t q = 0; q < suffix; ++q) {
                    int64_t v = static_cast<int64_t>(ix[p * suffix + q]);
                    if (v >= 0 && v < depth) dst[(p * depth + v) * suffix + q] = on;
                  }
                }
              };
            }
          });
        });
        return kernel;
      })
      .cost(CostKind::Elementwise).tpu({1})
      .not_differentiable();
}

}  // namespace ag
