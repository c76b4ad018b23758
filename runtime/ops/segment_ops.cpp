// Reductions over segments (TF's segment_reduction_ops.cc, bincount_op.cc),
// part of the math family:
//   - Segment{Sum,Mean,Max,Min,Prod}(data, segment_ids): ids a vector over
//     data's first dim, in increasing order; one output row per id up to the
//     last (an id that never occurs gives 0, 1 for Prod);
//   - UnsortedSegment{Sum,Max,Min,Prod}(data, segment_ids, num_segments): ids
//     in any order, of a shape that starts data's; negative ids are dropped
//     and an empty segment gives the reduction's identity (the type's lowest
//     value for Max, its highest for Min);
//   - DenseBincount(input, size, weights): per value below `size`, the count
//     of its occurrences (or the sum of their weights), per row for a matrix.
// Every id is checked before any row is combined: a bad one is TF's
// InvalidArgumentError, never an out-of-bounds write.
#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/kernels/int_math.h"
#include "runtime/ops/registry.h"

namespace ag {

void register_segment_ops(OpRegistry& reg);

namespace {

using array::one;

enum class Reduce { Sum, Mean, Max, Min, Prod };

/// How a reduction combines values of T: in float for bfloat16, wrapping for integers.
template <Reduce R, class T>
struct Combine {
  using Acc = std::conditional_t<std::is_same_v<T, bfloat16>, float, T>;
  static Acc identity() {
    if constexpr (R == Reduce::Max) return std::numeric_limits<Acc>::lowest();
    else if constexpr (R == Reduce::Min) return std::numeric_limits<Acc>::max();
    else if constexpr (R == Reduce::Prod) return Acc(1);
    else return Acc(0);
  }
  static Acc apply(Acc a, Acc b) {
    if constexpr (R == Reduce::Max) return b > a ? b : a;
    else if constexpr (R == Reduce::Min) return b < a ? b : a;
    else if constexpr (R == Reduce::Prod) {
      if constexpr (kernels::kInt<Acc>) return kernels::wrap_mul(a, b);
      else return a * b;
    } else {
      if constexpr (kernels::kInt<Acc>) return kernels::wrap_add(a, b);
      else return a + b;
    }
  }
};

/// The rows of `data` (n rows of `inner` elements) combined into `rows`
/// output rows by id; negative ids are skipped (the caller has checked the
/// rest are below `rows`). A row no id names gets `empty`.
template <Reduce R, class T, class I>
void reduce_segments(const T* data, const I* ids, int64_t n, int64_t inner, T* out, int64_t rows,
                     typename Combine<R, T>::Acc empty) {
  using C = Combine<R, T>;
  using Acc = typename C::Acc;
  std::vector<Acc> acc(static_cast<size_t>(rows * inner), C::identity());
  std::vector<int64_t> count(static_cast<size_t>(rows), 0);
  for (int64_t j = 0; j < n; ++j) {
    if (ids[j] < 0) continue;
    const int64_t row = static_cast<int64_t>(ids[j]);
    ++count[static_cast<size_t>(row)];
    Acc* a = acc.data() + row * inner;
    const T* d = data + j * inner;
    for (int64_t q = 0; q < inner; ++q) a[q] = C::apply(a[q], static_cast<Acc>(d[q]));
  }
  for (int64_t row = 0; row < rows; ++row) {
    const int64_t k = count[static_cast<size_t>(row)];
    const Acc* a = acc.data() + row * inner;
    T* o = out + row * inner;
    for (int64_t q = 0; q < inner; ++q) {
      Acc v = a[q];
      if (k == 0) {
        v = empty;
      } else if constexpr (R == Reduce::Mean) {
        if constexpr (kernels::kInt<Acc>) v = static_cast<Acc>(static_cast<int64_t>(v) / k);
        else v = v / static_cast<Acc>(k);
      }
      o[q] = static_cast<T>(v);
    }
  }
}

/// The element types a segment reduction takes: numbers (TF's
/// numbertypes for Sum and Prod, realnumbertypes for the others).
void check_data_dtype(DType t) {
  if (!is_numeric(t)) {
    array::bad_attr_type("T", t, "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64");
  }
}

// ---- the sorted segment ops

/// Segment*'s checks of the ids against data (TF's SegmentReductionOp), and
/// its output's row count: the last id + 1.
template <class I>
int64_t sorted_rows(const Tensor& data, const Tensor& ids) {
  if (ids.rank() != 1) throw InvalidArgumentError("segment_ids should be a vector.");
  const int64_t n = ids.num_elements();
  if (data.rank() < 1 || n != data.shape().dim(0)) {
    throw InvalidArgumentError("segment_ids should be the same size as dimension 0 of input.");
  }
  const I* ix = ids.data<I>();
  for (int64_t j = 0; j < n; ++j) {
    if (ix[j] < 0) throw InvalidArgumentError("segment ids must be >= 0");
    if (j > 0 && ix[j] < ix[j - 1]) throw InvalidArgumentError("segment ids are not increasing");
  }
  return n > 0 ? static_cast<int64_t>(ix[n - 1]) + 1 : 0;
}

std::vector<TensorSpec> infer_sorted(const InferContext& c) {
  check_data_dtype(c.inputs[0].dtype);
  array::check_index_dtype(c.inputs[1].dtype, "Tindices");
  const Shape& data = c.inputs[0].shape;
  const Shape& ids = c.inputs[1].shape;
  if (ids.rank_known() && ids.rank() != 1) throw InvalidArgumentError("segment_ids should be a vector.");
  if (data.rank_known() && data.rank() < 1) throw InvalidArgumentError("Shape must be at least rank 1 but is rank 0");
  if (data.rank_known() && ids.rank_known() && data.dim(0) >= 0 && ids.dim(0) >= 0 && data.dim(0) != ids.dim(0)) {
    throw InvalidArgumentError("segment_ids should be the same size as dimension 0 of input.");
  }
  // The row count depends on the ids' values: unknown here, as TF's shape rule leaves it.
  if (!data.rank_known()) return one(c.inputs[0].dtype, Shape::unknown_rank());
  Shape out{kUnknownDim};
  for (int d = 1; d < data.rank(); ++d) out.push_back(data.dim(d));
  return one(c.inputs[0].dtype, out);
}

template <Reduce R>
KernelFactory sorted_kernel() {
  return [](const KernelSpec& s) {
    Kernel kernel;
    dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
      array::dispatch_index(s.inputs[1].dtype, [&]<class I>() {
        if constexpr (array::kAddable<T>) {
          kernel = [](KernelContext& k) {
            const Tensor& data = k.input(0);
            const Tensor& ids = k.input(1);
            const int64_t rows = sorted_rows<I>(data, ids);
            Shape os{rows};
            for (int d = 1; d < data.rank(); ++d) os.push_back(data.shape().dim(d));
            Tensor& out = k.allocate_output(0, dtype_of<T>(), os);
            const int64_t n = ids.num_elements();
            const int64_t inner = array::dims_product(data.shape(), 1, data.rank());
            // An id that never occurs: 0, or 1 for a product (TF's sorted kernels).
            using Acc = typename Combine<R, T>::Acc;
            reduce_segments<R, T, I>(data.data<T>(), ids.data<I>(), n, inner, out.data<T>(), rows,
                                     R == Reduce::Prod ? Acc(1) : Acc(0));
          };
        }
      });
    });
    return kernel;
  };
}

// ---- the unsorted segment ops

Shape unsorted_shape(const Shape& data, const Shape& ids, int64_t num_segments) {
  if (!data.rank_known() || !ids.rank_known()) return Shape::unknown_rank();
  bool prefix = ids.rank() <= data.rank();
  for (int d = 0; prefix && d < ids.rank(); ++d) {
    if (data.dim(d) >= 0 && ids.dim(d) >= 0 && data.dim(d) != ids.dim(d)) prefix = false;
  }
  if (!prefix) {
    throw InvalidArgumentError("data.shape = " + data.debug_string() + " does not start with segment_ids.shape = " +
                               ids.debug_string());
  }
  Shape out{num_segments};
  for (int d = ids.rank(); d < data.rank(); ++d) out.push_back(data.dim(d));
  return out;
}

int64_t num_segments_of(const Tensor& t) {
  if (t.rank() != 0) throw InvalidArgumentError("num_segments should be a scalar, not shape " + t.shape().debug_string());
  int64_t n = array::int_at(t, 0);
  if (n < 0) throw InvalidArgumentError("Input num_segments == " + std::to_string(n) + " must not be negative.");
  return n;
}

std::vector<TensorSpec> infer_unsorted(const InferContext& c) {
  check_data_dtype(c.inputs[0].dtype);
  array::check_index_dtype(c.inputs[1].dtype, "Tindices");
  array::check_index_dtype(c.inputs[2].dtype, "Tnumsegments");
  const Shape& ns = c.inputs[2].shape;
  if (ns.rank_known() && ns.rank() != 0) {
    throw InvalidArgumentError("num_segments should be a scalar, not shape " + ns.debug_string());
  }
  const Tensor* n = c.constant(2);
  return one(c.inputs[0].dtype, unsorted_shape(c.inputs[0].shape, c.inputs[1].shape, n ? num_segments_of(*n) : kUnknownDim));
}

template <Reduce R>
KernelFactory unsorted_kernel() {
  return [](const KernelSpec& s) {
    Kernel kernel;
    dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
      array::dispatch_index(s.inputs[1].dtype, [&]<class I>() {
        if constexpr (array::kAddable<T>) {
          kernel = [](KernelContext& k) {
            const Tensor& data = k.input(0);
            const Tensor& ids = k.input(1);
            Shape os = unsorted_shape(data.shape(), ids.shape(), num_segments_of(k.input(2)));
            Tensor& out = k.allocate_output(0, dtype_of<T>(), os);
            const int64_t rows = os.dim(0);
            const int64_t n = ids.num_elements();
            const I* ix = ids.data<I>();
            for (int64_t j = 0; j < n; ++j) {
              if (ix[j] >= rows) {
                throw InvalidArgumentError("segment_ids" + array::slice_debug_string(ids.shape(), j) + " = " +
                                           std::to_string(ix[j]) + " is out of range [0, " + std::to_string(rows) + ")");
              }
            }
            const int64_t inner = array::dims_product(data.shape(), ids.rank(), data.rank());
            reduce_segments<R, T, I>(data.data<T>(), ix, n, inner, out.data<T>(), rows, Combine<R, T>::identity());
          };
        }
      });
    });
    return kernel;
  };
}

// ---- DenseBincount(input, size, weights) with attr binary_output

std::vector<TensorSpec> infer_bincount(const InferContext& c) {
  array::check_index_dtype(c.inputs[0].dtype, "Tidx");
  if (c.inputs[1].dtype != c.inputs[0].dtype) {
    throw InvalidArgumentError(std::string("Inconsistent values for attr 'Tidx' ") + dtype_tf_string(c.inputs[0].dtype) +
                               " vs. " + dtype_tf_string(c.inputs[1].dtype) + " while building NodeDef 'DenseBincount'");
  }
  DType t = c.inputs[2].dtype;
  if (t != DType::Int32 && t != DType::Int64 && t != DType::Float32 && t != DType::Float64) {
    array::bad_attr_type("T", t, "int32, int64, float, double");
  }
  const Shape& in = c.inputs[0].shape;
  const Shape& ss = c.inputs[1].shape;
  if (in.rank_known() && in.rank() > 2) {
    throw InvalidArgumentError("Shape must be at most rank 2 but is rank " + std::to_string(in.rank()));
  }
  if (ss.rank_known() && ss.rank() != 0) {
    throw InvalidArgumentError("Shape must be rank 0 but is rank " + std::to_string(ss.rank()));
  }
  int64_t size = kUnknownDim;
  if (const Tensor* s = c.constant(1)) {
    size = array::int_at(*s, 0);
    if (size < 0) throw InvalidArgumentError("size (" + std::to_string(size) + ") must be non-negative");
  }
  if (!in.rank_known()) return one(t, Shape::unknown_rank());
  return one(t, in.rank() == 2 ? Shape{in.dim(0), size} : Shape{size});
}

template <class T, class I>
void bincount(const Tensor& input, const Tensor& weights, int64_t size, bool binary, Tensor& out) {
  const I* ix = input.data<I>();
  const int64_t n = input.num_elements();
  for (int64_t j = 0; j < n; ++j) {
    if (ix[j] < 0) throw InvalidArgumentError("Input arr must be non-negative!");
  }
  const bool weighted = weights.num_elements() > 0;
  if (weighted && !(weights.shape() == input.shape())) {
    throw InvalidArgumentError("`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case it "
                               "acts as all weights equal to 1.");
  }
  T* o = out.data<T>();
  std::fill_n(o, out.num_elements(), T(0));
  const int64_t cols = input.rank() == 2 ? input.shape().dim(1) : n;
  for (int64_t j = 0; j < n; ++j) {
    const int64_t v = static_cast<int64_t>(ix[j]);
    if (v >= size) continue;  // values past the last bin are skipped (maxlength)
    T& bin = o[(input.rank() == 2 ? (j / cols) * size : 0) + v];
    if (binary) bin = T(1);
    else bin = static_cast<T>(bin + (weighted ? weights.data<T>()[j] : T(1)));
  }
}

KernelFactory bincount_kernel() {
  return [](const KernelSpec& s) {
    const bool binary = s.attrs.get_or<bool>("binary_output", false);
    Kernel kernel;
    dispatch_dtype(s.inputs[2].dtype, [&]<class T>() {
      array::dispatch_index(s.inputs[0].dtype, [&]<class I>() {
        if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> || std::is_same_v<T, float> ||
                      std::is_same_v<T, double>) {
          kernel = [binary](KernelContext& k) {
            const Tensor& input = k.input(0);
            if (input.rank() > 2) {
              throw InvalidArgumentError("Shape must be at most rank 2 but is rank " + std::to_string(input.rank()));
            }
            const int64_t size = array::int_at(k.input(1), 0);
            if (size < 0) throw InvalidArgumentError("size (" + std::to_string(size) + ") must be non-negative");
            Shape os = input.rank() == 2 ? Shape{input.shape().dim(0), size} : Shape{size};
            bincount<T, I>(input, k.input(2), size, binary, k.allocate_output(0, dtype_of<T>(), os));
          };
        }
      });
    });
    return kernel;
  };
}

// ---- gradients (TF's math_grad.py): x the data, ids the segment ids, y the
// output, g the upstream gradient.

/// params' rows at `ids` (GatherV2 on axis 0).
GradTensor gather_rows(GradContext& c, GradTensor params, GradTensor ids) {
  return c.apply1(op::GatherV2, {params, ids, c.constant(Tensor::scalar(int32_t{0}))}, Attrs{{"batch_dims", int64_t{0}}});
}

/// TF's _GatherDropNegatives: params' rows at the ids, zeros where an id is
/// negative (the row an unsorted segment op dropped).
struct DropNegatives {
  GradTensor clamped;  // the ids, negative ones as 0
  GradTensor keep;     // ids >= 0, broadcastable against gathered rows; None when no id is negative
};

DropNegatives drop_negatives(GradContext& c, GradTensor ids, const Shape& rows_shape) {
  GradTensor zero = c.constant(dispatch_dtype(c.dtype(ids), [&]<class I>() -> Tensor {
    if constexpr (std::is_same_v<I, int64_t>) return Tensor::scalar(int64_t{0});
    else return Tensor::scalar(int32_t{0});
  }));
  DropNegatives d{c.apply1(op::Maximum, {ids, zero}), GradTensor{}};
  if (const Tensor* v = c.value(ids)) {
    std::vector<int64_t> values = array::int_values(*v);
    if (std::none_of(values.begin(), values.end(), [](int64_t i) { return i < 0; })) return d;
  }
  const Shape& is = c.spec(ids).shape;
  if (!is.rank_known() || !rows_shape.rank_known()) {
    throw UnimplementedError("The gradient of " + c.op().name + " needs its segment ids' rank known while tracing");
  }
  // ids' shape with 1s for the slice dims, so `keep` broadcasts over them.
  std::vector<int64_t> ones(static_cast<size_t>(rows_shape.rank() - is.rank()), 1);
  GradTensor keep_shape = c.apply(op::ConcatV2, std::vector<GradTensor>{c.shape_of(ids), c.ints(ones),
                                                                       c.constant(Tensor::scalar(int32_t{0}))})[0];
  d.keep = c.reshape(c.apply1(op::GreaterEqual, {ids, zero}), keep_shape);
  return d;
}

/// The rows of `params` at the kept ids, zeros at the dropped ones.
GradTensor gather_kept(GradContext& c, GradTensor params, const DropNegatives& d) {
  GradTensor gathered = gather_rows(c, params, d.clamped);
  return d.keep ? c.select(d.keep, gathered, c.zeros_like(gathered)) : gathered;
}

std::vector<GradTensor> unsorted_sum_grad(GradContext& c) {
  DropNegatives d = drop_negatives(c, c.input(1), c.spec(c.input(0)).shape);
  return grads({gather_kept(c, c.grad(0), d), GradTensor{}, GradTensor{}});
}

/// Max/Min: g shared equally among the elements equal to their segment's result.
std::vector<GradTensor> unsorted_extremum_grad(GradContext& c) {
  GradTensor x = c.input(0), ids = c.input(1);
  DropNegatives d = drop_negatives(c, ids, c.spec(x).shape);
  GradTensor selected = c.apply1(op::Equal, {x, gather_kept(c, c.output(0), d)});
  if (d.keep) selected = c.apply1(op::LogicalAnd, {selected, d.keep});
  GradTensor count = c.apply1(op::UnsortedSegmentSum, {c.cast(selected, c.dtype(x)), ids, c.input(2)});
  GradTensor shared = gather_kept(c, c.div(c.grad(0), count), d);
  return grads({c.select(selected, shared, c.zeros_like(shared)), GradTensor{}, GradTensor{}});
}

/// Prod (TF's _UnsortedSegmentProdGrad): the product of the segment's other
/// elements, zero-safe: a segment with one zero gives that element the
/// product of the rest, one with two or more zeros gives nothing.
std::vector<GradTensor> unsorted_prod_grad(GradContext& c) {
  GradTensor x = c.input(0), ids = c.input(1), n = c.input(2);
  GradTensor is_zero = c.apply1(op::Equal, {x, c.scalar_like(x, 0)});
  GradTensor zeros_per_segment = c.apply1(op::UnsortedSegmentSum, {c.cast(is_zero, DType::Int32), ids, n});
  GradTensor g = c.select(c.apply1(op::Greater, {zeros_per_segment, c.constant(Tensor::scalar(int32_t{1}))}),
                          c.zeros_like(c.grad(0)), c.grad(0));
  GradTensor non_zero_prod = c.apply1(op::UnsortedSegmentProd, {c.select(is_zero, c.ones_like(x), x), ids, n});
  DropNegatives d = drop_negatives(c, ids, c.spec(x).shape);
  GradTensor others = c.select(is_zero, gather_rows(c, non_zero_prod, d.clamped),
                               c.div(gather_rows(c, c.output(0), d.clamped), x));
  return grads({c.mul(gather_kept(c, g, d), others), GradTensor{}, GradTensor{}});
}

std::vector<GradTensor> sorted_sum_grad(GradContext& c) { return grads({gather_rows(c, c.grad(0), c.input(1)), GradTensor{}}); }

/// Mean: g divided by each segment's size, gathered back.
std::vector<GradTensor> sorted_mean_grad(GradContext& c) {
  GradTensor x = c.input(0), ids = c.input(1);
  const Shape& xs = c.spec(x).shape;
  if (!xs.rank_known()) throw UnimplementedError("The gradient of SegmentMean needs its data's rank known while tracing");
  // ones of shape [len(ids), 1, ..., 1], summed per segment: the segment sizes.
  std::vector<int64_t> ones(static_cast<size_t>(xs.rank() - 1), 1);
  GradTensor ones_shape = c.apply(op::ConcatV2, std::vector<GradTensor>{c.shape_of(ids), c.ints(ones),
                                                                       c.constant(Tensor::scalar(int32_t{0}))})[0];
  GradTensor sizes = c.apply1(op::SegmentSum, {c.apply1(op::Fill, {ones_shape, c.scalar_like(c.grad(0), 1)}), ids});
  return grads({gather_rows(c, c.div(c.grad(0), sizes), ids), GradTensor{}});
}

/// Max/Min (TF's _SegmentMinOrMaxGrad).
std::vector<GradTensor> sorted_extremum_grad(GradContext& c) {
  GradTensor x = c.input(0), ids = c.input(1);
  GradTensor selected = c.apply1(op::Equal, {x, gather_rows(c, c.output(0), ids)});
  GradTensor count = c.apply1(op::SegmentSum, {c.cast(selected, c.dtype(x)), ids});
  GradTensor shared = gather_rows(c, c.div(c.grad(0), count), ids);
  return grads({c.select(selected, shared, c.zeros_like(x)), GradTensor{}});
}

}  // namespace

void register_segment_ops(OpRegistry& reg) {
  auto sorted = [&](const char* name, KernelFactory kernel) {
    return reg.op(name).inputs(2).tf_signature("data: T, segment_ids: Tindices -> output: T").infer(infer_sorted).cpu(std::move(kernel)).cost(CostKind::DataMovement).tpu();
  };
  sorted("SegmentSum", sorted_kernel<Reduce::Sum>()).grad(sorted_sum_grad);
  sorted("SegmentMean", sorted_kernel<Reduce::Mean>()).grad(sorted_mean_grad);
  sorted("SegmentMax", sorted_kernel<Reduce::Max>()).grad(sorted_extremum_grad);
  sorted("SegmentMin", sorted_kernel<Reduce::Min>()).grad(sorted_extremum_grad);
  // TF registers no gradient for SegmentProd.
  sorted("SegmentProd", sorted_kernel<Reduce::Prod>()).grad_unimplemented();

  auto unsorted = [&](const char* name, KernelFactory kernel) {
    return reg.op(name).inputs(3)
        .tf_signature("data: T, segment_ids: Tindices, num_segments: Tnumsegments -> output: T")
        .infer(infer_unsorted).cpu(std::move(kernel)).cost(CostKind::DataMovement).tpu();
  };
  unsorted("UnsortedSegmentSum", unsorted_kernel<Reduce::Sum>()).grad(unsorted_sum_grad);
  unsorted("UnsortedSegmentMax", unsorted_kernel<Reduce::Max>()).grad(unsorted_extremum_grad);
  unsorted("UnsortedSegmentMin", unsorted_kernel<Reduce::Min>()).grad(unsorted_extremum_grad);
  unsorted("UnsortedSegmentProd", unsorted_kernel<Reduce::Prod>()).grad(unsorted_prod_grad);

  reg.op("DenseBincount")
      .tf_signature("input: Tidx, size: Tidx, weights: T -> output: T")
      .inputs(3)
      .infer(infer_bincount)
      .cpu(bincount_kernel())
      .cost(CostKind::DataMovement)
      .tpu()
      .grad_unimplemented();
}

}  // namespace ag
