// Array ops that order or search values (TF's topk_op.cc, unique_op.cc,
// searchsorted_op.cc): TopKV2 (the k largest of each last-axis row, ties to
// the lower index, which tf.sort and tf.argsort are built on), Unique (the
// distinct values in order of first appearance, and where each element
// went), LowerBound and UpperBound (per row, where each value would be
// inserted into a sorted row: before or after its equals).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using array::one;

/// a goes before b in a descending order: larger first, NaN before every
/// number (so the order stays a strict weak one), ties by position.
template <class T>
bool descending(T a, T b) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, bfloat16>) {
    const float fa = static_cast<float>(a), fb = static_cast<float>(b);
    if (std::isnan(fa) || std::isnan(fb)) return std::isnan(fa) && !std::isnan(fb);
    return fa > fb;
  } else {
    return a > b;
  }
}

/// a < b, bfloat16 compared as float.
template <class T>
bool less_than(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, bfloat16>) return static_cast<float>(a) < static_cast<float>(b);
  else return a < b;
}

// ---- TopKV2(input, k) -> values, indices; attrs sorted, index_type.

int64_t top_k_count(const Tensor& k) {
  if (k.rank() != 0) throw InvalidArgumentError("k must be scalar, got shape " + k.shape().debug_string());
  int64_t v = array::int_at(k, 0);
  if (v < 0) throw InvalidArgumentError("Need k >= 0, got " + std::to_string(v));
  return v;
}

void check_columns(const Shape& in, int64_t k) {
  const int64_t cols = in.dim(in.rank() - 1);
  if (cols >= 0 && cols < k) {
    throw InvalidArgumentError("input must have at least k columns. Had " + std::to_string(cols) + ", needed " +
                               std::to_string(k));
  }
}

std::vector<TensorSpec> infer_top_k(const InferContext& c) {
  DType t = c.inputs[0].dtype;
  if (!is_numeric(t)) array::bad_attr_type("T", t, "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, "
                                                   "half, uint32, uint64");
  array::check_index_dtype(c.inputs[1].dtype, "Tk");
  DType it = c.attrs.get_or<DType>("index_type", DType::Int32);
  if (it != DType::Int32 && it != DType::Int64) array::bad_attr_type("index_type", it, "int16, int32, int64");
  const Shape& in = c.inputs[0].shape;
  const Shape& ks = c.inputs[1].shape;
  if (ks.rank_known() && ks.rank() != 0) throw InvalidArgumentError("Shape must be rank 0 but is rank " + std::to_string(ks.rank()));
  if (in.rank_known() && in.rank() < 1) throw InvalidArgumentError("Shape must be at least rank 1 but is rank 0");
  int64_t k = kUnknownDim;
  if (const Tensor* kt = c.constant(1)) {
    k = top_k_count(*kt);
    if (in.rank_known()) check_columns(in, k);
  }
  if (!in.rank_known()) return {{t, Shape::unknown_rank()}, {it, Shape::unknown_rank()}};
  Shape out;
  for (int d = 0; d < in.rank() - 1; ++d) out.push_back(in.dim(d));
  out.push_back(k);
  return {{t, out}, {it, out}};
}

template <class T, class I>
void top_k_rows(const Tensor& in, int64_t k, Tensor& values, Tensor& indices) {
  const int64_t cols = in.shape().dim(in.rank() - 1);
  const int64_t rows = cols > 0 ? in.num_elements() / cols : values.num_elements() / std::max<int64_t>(k, 1);
  const T* src = in.data<T>();
  T* vo = values.data<T>();
  I* io = indices.data<I>();
  std::vector<int64_t> order(static_cast<size_t>(cols));
  for (int64_t r = 0; r < rows && k > 0; ++r) {
    const T* row = src + r * cols;
    std::iota(order.begin(), order.end(), 0);
    auto before = [row](int64_t a, int64_t b) {
      return descending(row[a], row[b]) || (!descending(row[b], row[a]) && a < b);
    };
    std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
    for (int64_t j = 0; j < k; ++j) {
      vo[r * k + j] = row[order[static_cast<size_t>(j)]];
      io[r * k + j] = static_cast<I>(order[static_cast<size_t>(j)]);
    }
  }
}

Kernel top_k_kernel(const KernelSpec& s) {
  Kernel kernel;
  const DType it = s.outputs[1].dtype;
  dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
    array::dispatch_index(it, [&]<class I>() {
      if constexpr (array::kAddable<T>) {
        kernel = [it](KernelContext& k) {
          const Tensor& in = k.input(0);
          if (in.rank() < 1) throw InvalidArgumentError("input must be at least 1-D, got shape " + in.shape().debug_string());
          const int64_t count = top_k_count(k.input(1));
          check_columns(in.shape(), count);
          Shape out;
          for (int d = 0; d < in.rank() - 1; ++d) out.push_back(in.shape().dim(d));
          out.push_back(count);
          Tensor& values = k.allocate_output(0, in.dtype(), out);
          Tensor& indices = k.allocate_output(1, it, out);
          top_k_rows<T, I>(in, count, values, indices);
        };
      }
    });
  });
  return kernel;
}

/// TopKV2 (TF's _TopKGrad): the values' gradient scattered back to the
/// positions they came from, zeros elsewhere: each row's indices offset by
/// the row's start in the flattened input.
std::vector<GradTensor> top_k_grad(GradContext& c) {
  GradTensor x = c.input(0);
  const Shape& xs = c.spec(x).shape;
  if (!xs.rank_known()) throw UnimplementedError("The gradient of TopKV2 needs its input's rank known while tracing");
  const int r = xs.rank();
  GradTensor indices = c.cast(c.output(1), DType::Int32);
  GradTensor zero = c.constant(Tensor::scalar(int32_t{0}));
  GradTensor in_shape = c.shape_of(x);
  GradTensor last = c.reshape(c.apply1(op::Slice, {in_shape, c.ints({r - 1}), c.ints({1})}), c.ints({}));
  GradTensor k = c.apply1(op::Slice, {c.shape_of(indices), c.ints({r - 1}), c.ints({1})});
  GradTensor rows_by_k = c.reshape(indices, c.apply(op::ConcatV2, std::vector<GradTensor>{c.ints({-1}), k, zero})[0]);
  GradTensor rows = c.reshape(c.apply1(op::Slice, {c.shape_of(rows_by_k), c.ints({0}), c.ints({1})}), c.ints({}));
  GradTensor starts = c.apply1(op::Range, {zero, c.mul(rows, last), last}, Attrs{{"Tidx", DType::Int32}});
  GradTensor flat = c.reshape(c.add(rows_by_k, c.reshape(starts, c.ints({-1, 1}))), c.ints({-1, 1}));
  GradTensor total = c.apply1(op::Prod, {in_shape, c.ints({0})}, Attrs{{"keep_dims", true}, {"Tidx", DType::Int32}});
  GradTensor scattered = c.apply1(op::ScatterNd, {flat, c.reshape(c.grad(0), c.ints({-1})), total});
  return grads({c.reshape(scattered, in_shape), GradTensor{}});
}

// ---- Unique(x) -> y, idx; attr out_idx.

std::vector<TensorSpec> infer_unique(const InferContext& c) {
  const Shape& in = c.inputs[0].shape;
  if (in.rank_known() && in.rank() != 1) throw InvalidArgumentError("unique expects a 1D vector.");
  DType it = c.attrs.get_or<DType>("out_idx", DType::Int32);
  if (it != DType::Int32 && it != DType::Int64) array::bad_attr_type("out_idx", it, "int32, int64");
  return {{c.inputs[0].dtype, Shape{kUnknownDim}}, {it, in.rank_known() ? in : Shape{kUnknownDim}}};
}

/// A key for unique values: the element's bytes, so NaNs with one bit pattern
/// are one value (TF hashes them alike) and strings compare by content.
template <class T>
auto unique_key(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    return v;
  } else if constexpr (std::is_same_v<T, bfloat16>) {
    return static_cast<float>(v);
  } else {
    return v;
  }
}

Kernel unique_kernel(const KernelSpec& s) {
  Kernel kernel;
  const DType it = s.outputs[1].dtype;
  dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
    array::dispatch_index(it, [&]<class I>() {
      kernel = [it](KernelContext& k) {
        const Tensor& in = k.input(0);
        if (in.rank() != 1) throw InvalidArgumentError("unique expects a 1D vector.");
        const int64_t n = in.num_elements();
        const T* x = in.data<T>();
        using Key = decltype(unique_key(x[0]));
        std::unordered_map<Key, int64_t> first;
        std::vector<int64_t> order;
        Tensor& idx = k.allocate_output(1, it, in.shape());
        I* io = idx.data<I>();
        for (int64_t i = 0; i < n; ++i) {
          auto [pos, added] = first.emplace(unique_key(x[i]), static_cast<int64_t>(order.size()));
          if (added) order.push_back(i);
          io[i] = static_cast<I>(pos->second);
        }
        Tensor& y = k.allocate_output(0, in.dtype(), Shape{static_cast<int64_t>(order.size())});
        T* yo = y.data<T>();
        for (size_t j = 0; j < order.size(); ++j) yo[j] = x[order[j]];
      };
    });
  });
  return kernel;
}

// ---- LowerBound, UpperBound(sorted_inputs [B, N], values [B, M]) -> [B, M]; attr out_type.

std::vector<TensorSpec> infer_bound(const InferContext& c) {
  if (c.inputs[1].dtype != c.inputs[0].dtype) {
    throw InvalidArgumentError(std::string("Inconsistent values for attr 'T' ") + dtype_tf_string(c.inputs[0].dtype) +
                               " vs. " + dtype_tf_string(c.inputs[1].dtype) + " while building NodeDef '" +
                               std::string(c.op) + "'");
  }
  DType ot = c.attrs.get_or<DType>("out_type", DType::Int32);
  if (ot != DType::Int32 && ot != DType::Int64) array::bad_attr_type("out_type", ot, "int32, int64");
  const Shape& sorted = c.inputs[0].shape;
  const Shape& values = c.inputs[1].shape;
  if (sorted.rank_known() && sorted.rank() < 2) throw InvalidArgumentError("sorted input argument must be a matrix");
  if (sorted.rank_known() && values.rank_known() && values.rank() >= 1 && sorted.dim(0) >= 0 && values.dim(0) >= 0 &&
      sorted.dim(0) != values.dim(0)) {
    throw InvalidArgumentError("Leading dim_size of both tensors must match.");
  }
  return one(ot, values);
}

KernelFactory bound_kernel(bool upper) {
  return [upper](const KernelSpec& s) {
    Kernel kernel;
    const DType ot = s.outputs[0].dtype;
    dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
      array::dispatch_index(ot, [&]<class I>() {
        kernel = [upper, ot](KernelContext& k) {
          const Tensor& sorted = k.input(0);
          const Tensor& values = k.input(1);
          if (sorted.rank() < 2) throw InvalidArgumentError("sorted input argument must be a matrix");
          if (values.rank() < 1 || sorted.shape().dim(0) != values.shape().dim(0)) {
            throw InvalidArgumentError("Leading dim_size of both tensors must match.");
          }
          Tensor& out = k.allocate_output(0, ot, values.shape());
          const int64_t batch = sorted.shape().dim(0);
          const int64_t n = batch > 0 ? sorted.num_elements() / batch : 0;
          const int64_t m = batch > 0 ? values.num_elements() / batch : 0;
          const T* sp = sorted.data<T>();
          const T* vp = values.data<T>();
          I* o = out.data<I>();
          for (int64_t b = 0; b < batch; ++b) {
            const T* row = sp + b * n;
            for (int64_t j = 0; j < m; ++j) {
              const T& v = vp[b * m + j];
              const T* at = upper ? std::upper_bound(row, row + n, v, less_than<T>)
                                  : std::lower_bound(row, row + n, v, less_than<T>);
              o[b * m + j] = static_cast<I>(at - row);
            }
          }
        };
      });
    });
    return kernel;
  };
}

}  // namespace

void register_sort_ops(OpRegistry& reg) {
  reg.op("TopKV2").tf_signature("input: T, k: Tk -> values: T, indices: index_type").inputs(2).outputs(2).infer(infer_top_k).cpu(top_k_kernel).cost(CostKind::Elementwise).tpu()
      .grad(top_k_grad);
  // TF registers no gradient for Unique.
  reg.op("Unique").tf_signature("x: T -> y: T, idx: out_idx").inputs(1).outputs(2).infer(infer_unique).cpu(unique_kernel).cost(CostKind::Elementwise)
      .tpu_unsupported("its output's size depends on the values").grad_unimplemented();
  reg.op("LowerBound").tf_signature("sorted_inputs: T, values: T -> output: out_type").inputs(2).infer(infer_bound).cpu(bound_kernel(false)).cost(CostKind::Elementwise).tpu()
      .not_differentiable();
  reg.op("UpperBound").tf_signature("sorted_inputs: T, values: T -> output: out_type").inputs(2).infer(infer_bound).cpu(bound_kernel(true)).cost(CostKind::Elementwise).tpu()
      .not_differentiable();
}

}  // namespace ag
