// Sparse ops over tf.SparseTensor's components (indices int64 [N, R], values
// [N], dense_shape int64 [R]), with TF's kernels' orders and texts
// (sparse_to_dense_op.cc, sparse_tensor_dense_matmul_op.cc, sparse_reorder_op.cc,
// sparse_add_op.cc, sparse_tensor_dense_add_op.cc, sparse_reduce_op.cc):
// SparseToDense, SparseTensorDenseMatMul, SparseReorder, SparseAdd,
// SparseTensorDenseAdd, SparseReduceSum.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "runtime/ops/families.h"
#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

constexpr kernels::TypeSet kIndexSet{bit(DType::Int32) | bit(DType::Int64), "int32, int64"};

int64_t index_at(const Tensor& t, int64_t i) {
  return t.dtype() == DType::Int32 ? t.data<int32_t>()[i] : t.data<int64_t>()[i];
}

/// The dims a shape vector holds.
std::vector<int64_t> dims_of(const Tensor& t) {
  std::vector<int64_t> d(static_cast<size_t>(t.num_elements()));
  for (size_t i = 0; i < d.size(); ++i) d[i] = index_at(t, static_cast<int64_t>(i));
  return d;
}

std::string join_dims(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

/// A shape from a shape input while building: its values when constant.
Shape sparse_shape_from_input(const InferContext& c, size_t i) {
  if (const Tensor* v = c.constant(i)) {
    std::vector<int64_t> d = dims_of(*v);
    return Shape{std::span<const int64_t>(d)};
  }
  const Shape& s = c.inputs[i].shape;
  return s.rank_known() && s.rank() == 1 && s.dim(0) >= 0 ? Shape::unknown_dims(static_cast<int>(s.dim(0)))
                                                          : Shape::unknown_rank();
}

/// The sparse component triple's checks (SparseTensor's ValidateSparseTensor words).
void check_components(const Tensor& ix, const Tensor& vals, const Tensor& shape) {
  if (ix.rank() != 2) {
    throw InvalidArgumentError("Input indices should be a matrix but received shape " + ix.shape().debug_string());
  }
  if (vals.rank() != 1) {
    throw InvalidArgumentError("Input values should be a vector but received shape " + vals.shape().debug_string());
  }
  if (shape.rank() != 1) {
    throw InvalidArgumentError("Input shape should be a vector but received shape " + shape.shape().debug_string());
  }
  if (ix.shape().dim(0) != vals.shape().dim(0)) {
    throw InvalidArgumentError("Number of elements in input indices (" + std::to_string(ix.shape().dim(0)) +
                               ") and input values (" + std::to_string(vals.shape().dim(0)) + ") do not match");
  }
  if (ix.shape().dim(1) != shape.shape().dim(0)) {
    throw InvalidArgumentError("Input indices rank (" + std::to_string(ix.shape().dim(1)) +
                               ") does not match input shape rank (" + std::to_string(shape.shape().dim(0)) + ")");
  }
}

/// The index row `n` of an [N, R] indices tensor as text: "indices[n] = [a,b]".
std::string index_text(const Tensor& ix, int64_t n, int64_t r) {
  std::vector<int64_t> row;
  for (int64_t d = 0; d < r; ++d) row.push_back(index_at(ix, n * r + d));
  return "indices[" + std::to_string(n) + "] = [" + join_dims(row) + "]";
}

/// SparseTensor::IndicesValid: in bounds, strictly increasing in row-major order.
void check_indices_valid(const Tensor& ix, int64_t n, int64_t r, const std::vector<int64_t>& shape) {
  for (int64_t i = 0; i < n; ++i) {
    bool valid = true, increasing = true, different = i == 0;
    for (int64_t d = 0; d < r; ++d) {
      int64_t v = index_at(ix, i * r + d);
      if (v < 0 || v >= shape[static_cast<size_t>(d)]) valid = false;
      if (i > 0) {
        int64_t diff = v - index_at(ix, (i - 1) * r + d);
        if (diff > 0) different = true;
        if (!different && diff < 0) increasing = false;
      }
    }
    if (!valid) {
      throw InvalidArgumentError(index_text(ix, i, r) + " is out of bounds: need 0 <= index < [" + join_dims(shape) + "]");
    }
    if (!increasing) {
      throw InvalidArgumentError(index_text(ix, i, r) +
                                 " is out of order. Many sparse ops require sorted indices.\n"
                                 "    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n");
    }
    if (!different) throw InvalidArgumentError(index_text(ix, i, r) + " is repeated");
  }
}

/// The row-major offset of index row `i`, or -1 when out of bounds.
int64_t offset_of(const Tensor& ix, int64_t i, int64_t r, const std::vector<int64_t>& shape) {
  int64_t off = 0;
  for (int64_t d = 0; d < r; ++d) {
    int64_t v = index_at(ix, i * r + d);
    if (v < 0 || v >= shape[static_cast<size_t>(d)]) return -1;
    off = off * shape[static_cast<size_t>(d)] + v;
  }
  return off;
}

/// Lexicographic order of index rows (SparseReorder's sort; stable).
std::vector<int64_t> sorted_order(const Tensor& ix, int64_t n, int64_t r) {
  std::vector<int64_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    for (int64_t d = 0; d < r; ++d) {
      int64_t x = index_at(ix, a * r + d), y = index_at(ix, b * r + d);
      if (x != y) return x < y;
    }
    return false;
  });
  return perm;
}

void register_sparse_to_dense(OpRegistry& reg) {
  // SparseToDense(sparse_indices, output_shape, sparse_values, default_value); attr validate_indices.
  reg.op("SparseToDense")
      .tf_signature("sparse_indices: Tindices, output_shape: Tindices, sparse_values: T, default_value: T -> dense: T")
      .inputs(4)
      .infer([](const InferContext& c) {
        kernels::check_allowed(c.op, c.inputs[0].dtype, kIndexSet, "Tindices");
        kernels::check_dtype(c, 3, c.inputs[2].dtype);
        return std::vector<TensorSpec>{{c.inputs[2].dtype, sparse_shape_from_input(c, 1)}};
      })
      .cpu([](const KernelSpec& s) {
        bool validate = s.attrs.get_or<bool>("validate_indices", true);
        return Kernel([validate](KernelContext& k) {
          const Tensor& ix = k.input(0);
          const Tensor& out_shape = k.input(1);
          const Tensor& vals = k.input(2);
          const Tensor& dflt = k.input(3);
          if (ix.rank() > 2) {
            throw InvalidArgumentError("sparse_indices should be a scalar, vector, or matrix, got shape " +
                                       ix.shape().debug_string());
          }
          if (out_shape.rank() > 1) {
            throw InvalidArgumentError("output_shape must be rank 1, got shape " + out_shape.shape().debug_string());
          }
          int64_t n = ix.rank() > 0 ? ix.shape().dim(0) : 1;
          int64_t r = ix.rank() > 1 ? ix.shape().dim(1) : 1;
          if (!(vals.rank() == 0 || (vals.rank() == 1 && vals.shape().dim(0) == n))) {
            throw InvalidArgumentError("sparse_values has incorrect shape " + vals.shape().debug_string() +
                                       ", should be [] or [" + std::to_string(n) + "]");
          }
          if (dflt.rank() != 0) {
            throw InvalidArgumentError("default_value should be a scalar, got shape " + dflt.shape().debug_string());
          }
          std::vector<int64_t> shape = dims_of(out_shape);
          if (static_cast<int64_t>(shape.size()) != r) {
            throw InvalidArgumentError("output_shape has incorrect number of elements: " + std::to_string(shape.size()) +
                                       " should be: " + std::to_string(r));
          }
          Tensor& out = k.allocate_output(0, vals.dtype(), Shape{std::span<const int64_t>(shape)});
          if (validate) check_indices_valid(ix, n, r, shape);
          for (int64_t i = 0; i < out.num_elements(); ++i) copy_elements(out, i, dflt, 0, 1);
          for (int64_t i = 0; i < n; ++i) {
            int64_t off = offset_of(ix, i, r, shape);
            if (off < 0) throw InvalidArgumentError(index_text(ix, i, r) + " is out of bounds: need 0 <= index < [" + join_dims(shape) + "]");
            copy_elements(out, off, vals, vals.rank() == 0 ? 0 : i, 1);
          }
        });
      })
      .cost(CostKind::Elementwise)
      .tpu_unsupported("sparse ops run on the host")
      // TF's _SparseToDenseGrad: the values' gradient gathers the output's;
      // the default value's is what the rest of the output received.
      .grad([](GradContext& c) {
        GradTensor g = c.grad(0);
        GradTensor gv = c.apply1(op::GatherNd, {g, c.input(0)});
        auto total = [&](GradTensor t) { return c.sum(c.reshape(t, c.ints({-1})), c.ints({0})); };
        GradTensor gd = c.sub(total(g), total(gv));
        return grads({GradTensor{}, GradTensor{}, gv, gd});
      });
}


void register_sparse_matmul(OpRegistry& reg) {
  // SparseTensorDenseMatMul(a_indices, a_values, a_shape, b); attrs adjoint_a, adjoint_b.
  // out[m, :] += a_value * b[k, :] over the nonzeros in order (TF's CPU functor).
  reg.op("SparseTensorDenseMatMul")
      .tf_signature("a_indices: Tindices, a_values: T, a_shape: int64, b: T -> product: T")
      .inputs(4)
      .infer([](const InferContext& c) {
        kernels::check_allowed(c.op, c.inputs[0].dtype, kIndexSet, "Tindices");
        kernels::check_dtype(c, 3, c.inputs[1].dtype);
        bool adj_a = c.attrs.get_or<bool>("adjoint_a", false), adj_b = c.attrs.get_or<bool>("adjoint_b", false);
        const Shape& bs = c.inputs[3].shape;
        if (bs.rank_known() && bs.rank() != 2) {
          throw InvalidArgumentError("Shape must be rank 2 but is rank " + std::to_string(bs.rank()));
        }
        int64_t rows = -1;
        if (const Tensor* v = c.constant(2)) {
          if (v->num_elements() == 2) rows = index_at(*v, adj_a ? 1 : 0);
        }
        int64_t cols = bs.rank_known() ? bs.dim(adj_b ? 0 : 1) : -1;
        return std::vector<TensorSpec>{{c.inputs[1].dtype, Shape{rows, cols}}};
      })
      .cpu([](const KernelSpec& s) {
        bool adj_a = s.attrs.get_or<bool>("adjoint_a", false), adj_b = s.attrs.get_or<bool>("adjoint_b", false);
        return Kernel([adj_a, adj_b](KernelContext& k) {
          const Tensor& ix = k.input(0);
          const Tensor& vals = k.input(1);
          const Tensor& shp = k.input(2);
          const Tensor& b = k.input(3);
          if (shp.num_elements() != 2) {
            throw InvalidArgumentError("Tensor 'a_shape' is not a vector of length 2: " + shp.shape().debug_string());
          }
          if (b.rank() != 2) throw InvalidArgumentError("Tensor 'b' is not a matrix");
          if (ix.rank() != 2 || ix.shape().dim(1) != 2) {
            throw InvalidArgumentError("Tensor 'a_indices' is not a matrix of 2 columns");
          }
          int64_t nnz = ix.shape().dim(0);
          if (vals.rank() != 1 || vals.shape().dim(0) != nnz) {
            throw InvalidArgumentError("Number of rows of a_indices does not match number of entries in a_values");
          }
          int64_t outer_left = index_at(shp, adj_a ? 1 : 0), inner_left = index_at(shp, adj_a ? 0 : 1);
          int64_t inner_right = b.shape().dim(adj_b ? 1 : 0), outer_right = b.shape().dim(adj_b ? 0 : 1);
          if (inner_left != inner_right) {
            throw InvalidArgumentError("Cannot multiply A and B because inner dimension does not match: " +
                                       std::to_string(inner_left) + " vs. " + std::to_string(inner_right) +
                                       ".  Did you forget a transpose?  Dimensions of A: [" +
                                       std::to_string(index_at(shp, 0)) + ", " + std::to_string(index_at(shp, 1)) +
                                       ").  Dimensions of B: " + b.shape().debug_string());
          }
          Tensor& out = k.allocate_output(0, vals.dtype(), Shape{outer_left, outer_right});
          int64_t bcols = b.shape().dim(1);
          dispatch_dtype(vals.dtype(), [&]<class T>() {
            if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
              T* o = out.data<T>();
              std::fill(o, o + out.num_elements(), T(0));
              const T* bv = b.data<T>();
              for (int64_t i = 0; i < nnz; ++i) {
                int64_t m = index_at(ix, i * 2 + (adj_a ? 1 : 0));
                int64_t kk = index_at(ix, i * 2 + (adj_a ? 0 : 1));
                if (kk < 0 || kk >= inner_left) {
                  throw InvalidArgumentError("k (" + std::to_string(kk) + ") from index[" + std::to_string(i) + "," +
                                             (adj_a ? "0" : "1") + "] out of bounds (>=" + std::to_string(inner_left) + ")");
                }
                if (m < 0 || m >= outer_left) {
                  throw InvalidArgumentError("m (" + std::to_string(m) + ") from index[" + std::to_string(i) + "," +
                                             (adj_a ? "1" : "0") + "] out of bounds (>=" + std::to_string(outer_left) + ")");
                }
                T a = vals.data<T>()[i];
                for (int64_t n = 0; n < outer_right; ++n) {
                  T bval = adj_b ? bv[n * bcols + kk] : bv[kk * bcols + n];
                  o[m * outer_right + n] = static_cast<T>(o[m * outer_right + n] + a * bval);
                }
              }
            } else {
              throw InvalidArgumentError("SparseTensorDenseMatMul does not support " + std::string(dtype_tf_string(vals.dtype())));
            }
          });
        });
      })
      .cost(CostKind::Elementwise)
      .tpu_unsupported("sparse ops run on the host")
      .not_differentiable();
}

void register_sparse_reorder(OpRegistry& reg) {
  // SparseReorder(input_indices, input_values, input_shape) -> (output_indices, output_values).
  reg.op("SparseReorder")
      .tf_signature("input_indices: int64, input_values: T, input_shape: int64 -> output_indices: int64, output_values: T")
      .inputs(3)
      .outputs(2)
      .infer([](const InferContext& c) { return std::vector<TensorSpec>{c.inputs[0], c.inputs[1]}; })
      .cpu([](const KernelSpec&) {
        return Kernel([](KernelContext& k) {
          const Tensor& ix = k.input(0);
          const Tensor& vals = k.input(1);
          check_components(ix, vals, k.input(2));
          int64_t n = ix.shape().dim(0), r = ix.shape().dim(1);
          std::vector<int64_t> perm = sorted_order(ix, n, r);
          Tensor& oi = k.allocate_output(0, ix.dtype(), ix.shape());
          Tensor& ov = k.allocate_output(1, vals.dtype(), vals.shape());
          for (int64_t i = 0; i < n; ++i) {
            copy_elements(oi, i * r, ix, perm[static_cast<size_t>(i)] * r, r);
            copy_elements(ov, i, vals, perm[static_cast<size_t>(i)], 1);
          }
        });
      })
      .cost(CostKind::Elementwise)
      .tpu_unsupported("sparse ops run on the host")
      .not_differentiable();
}

void register_sparse_add(OpRegistry& reg) {
  // SparseAdd(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh)
  //   -> (sum_indices, sum_values, sum_shape): a merge of two ordered index lists;
  //   a sum whose magnitude is below thresh is dropped.
  reg.op("SparseAdd")
      .tf_signature("a_indices: int64, a_values: T, a_shape: int64, b_indices: int64, b_values: T, b_shape: int64, thresh: Treal -> sum_indices: int64, sum_values: T, sum_shape: int64")
      .inputs(7)
      .outputs(3)
      .infer([](const InferContext& c) {
        kernels::check_dtype(c, 4, c.inputs[1].dtype);
        const Shape& is = c.inputs[0].shape;
        int64_t r = is.rank_known() && is.rank() == 2 ? is.dim(1) : -1;
        return std::vector<TensorSpec>{{DType::Int64, Shape{-1, r}}, {c.inputs[1].dtype, Shape{-1}}, c.inputs[2]};
      })
      .cpu([](const KernelSpec&) {
        return Kernel([](KernelContext& k) {
          const Tensor &ai = k.input(0), &av = k.input(1), &as = k.input(2);
          const Tensor &bi = k.input(3), &bv = k.input(4), &bs = k.input(5);
          check_components(ai, av, as);
          check_components(bi, bv, bs);
          if (dims_of(as) != dims_of(bs)) {
            throw InvalidArgumentError("Operands do not have the same ranks; got shapes: " + as.shape().debug_string() +
                                       " and " + bs.shape().debug_string());
          }
          int64_t r = ai.shape().dim(1), na = ai.shape().dim(0), nb = bi.shape().dim(0);
          std::vector<std::pair<bool, int64_t>> from;  // (from a, row)
          std::vector<int64_t> summed;                 // rows of b added to the a entry, or -1
          dispatch_dtype(av.dtype(), [&]<class T>() {
            if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
              double thresh = static_cast<double>(k.input(6).data<T>()[0]);
              auto cmp = [&](int64_t i, int64_t j) {
                for (int64_t d = 0; d < r; ++d) {
                  int64_t x = index_at(ai, i * r + d), y = index_at(bi, j * r + d);
                  if (x != y) return x < y ? -1 : 1;
                }
                return 0;
              };
              std::vector<T> values;
              int64_t i = 0, j = 0;
              while (i < na && j < nb) {
                int c = cmp(i, j);
                if (c < 0) { from.push_back({true, i}); values.push_back(av.data<T>()[i]); ++i; }
                else if (c > 0) { from.push_back({false, j}); values.push_back(bv.data<T>()[j]); ++j; }
                else {
                  T s = static_cast<T>(av.data<T>()[i] + bv.data<T>()[j]);
                  if (thresh <= std::abs(static_cast<double>(s))) { from.push_back({true, i}); values.push_back(s); }
                  ++i; ++j;
                }
              }
              for (; i < na; ++i) { from.push_back({true, i}); values.push_back(av.data<T>()[i]); }
              for (; j < nb; ++j) { from.push_back({false, j}); values.push_back(bv.data<T>()[j]); }
              int64_t n = static_cast<int64_t>(from.size());
              Tensor& oi = k.allocate_output(0, DType::Int64, Shape{n, r});
              Tensor& ov = k.allocate_output(1, av.dtype(), Shape{n});
              for (int64_t e = 0; e < n; ++e) {
                const Tensor& src = from[static_cast<size_t>(e)].first ? ai : bi;
                for (int64_t d = 0; d < r; ++d) oi.data<int64_t>()[e * r + d] = index_at(src, from[static_cast<size_t>(e)].second * r + d);
                ov.data<T>()[e] = values[static_cast<size_t>(e)];
              }
            } else {
              throw InvalidArgumentError("SparseAdd does not support " + std::string(dtype_tf_string(av.dtype())));
            }
          });
          k.set_output(2, as);
        });
      })
      .cost(CostKind::Elementwise)
      .tpu_unsupported("sparse ops run on the host")
      .not_differentiable();

  // SparseTensorDenseAdd(a_indices, a_values, a_shape, b) -> b with a's values added.
  reg.op("SparseTensorDenseAdd")
      .tf_signature("a_indices: Tindices, a_values: T, a_shape: Tindices, b: T -> output: T")
      .inputs(4)
      .infer([](const InferContext& c) {
        kernels::check_dtype(c, 3, c.inputs[1].dtype);
        return std::vector<TensorSpec>{c.inputs[3]};
      })
      .cpu([](const KernelSpec&) {
        return Kernel([](KernelContext& k) {
          const Tensor &ix = k.input(0), &vals = k.input(1), &shp = k.input(2), &b = k.input(3);
          check_components(ix, vals, shp);
          std::vector<int64_t> shape = dims_of(shp);
          if (!(Shape{std::span<const int64_t>(shape)} == b.shape())) {
            throw InvalidArgumentError("Dimension mismatch between the sparse tensor's shape [" + join_dims(shape) +
                                       "] and the dense tensor's shape " + b.shape().debug_string());
          }
          int64_t n = ix.shape().dim(0), r = ix.shape().dim(1);
          Tensor& out = k.allocate_output(0, b.dtype(), b.shape());
          copy_elements(out, 0, b, 0, b.num_elements());
          dispatch_dtype(b.dtype(), [&]<class T>() {
            if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
              for (int64_t i = 0; i < n; ++i) {
                int64_t off = offset_of(ix, i, r, shape);
                if (off < 0) {
                  throw InvalidArgumentError("Provided indices are out-of-bounds w.r.t. dense side with broadcasted "
                                             "shape");
                }
                out.data<T>()[off] = static_cast<T>(out.data<T>()[off] + vals.data<T>()[i]);
              }
            }
          });
        });
      })
      .cost(CostKind::Elementwise)
      .tpu_unsupported("sparse ops run on the host")
      .not_differentiable();
}

void register_sparse_reduce_sum(OpRegistry& reg) {
  // SparseReduceSum(input_indices, input_values, input_shape, reduction_axes); attr keep_dims.
  // Entries ordered by (kept dims, reduced dims) and summed per kept index in that order.
  reg.op("SparseReduceSum")
      .tf_signature("input_indices: int64, input_values: T, input_shape: int64, reduction_axes: int32 -> output: T")
      .inputs(4)
      .infer([](const InferContext& c) {
        return std::vector<TensorSpec>{{c.inputs[1].dtype, Shape::unknown_rank()}};
      })
      .cpu([](const KernelSpec& s) {
        bool keep = s.attrs.get_or<bool>("keep_dims", false);
        return Kernel([keep](KernelContext& k) {
          const Tensor &ix = k.input(0), &vals = k.input(1), &shp = k.input(2), &ax = k.input(3);
          check_components(ix, vals, shp);
          std::vector<int64_t> shape = dims_of(shp);
          int64_t r = static_cast<int64_t>(shape.size()), n = ix.shape().dim(0);
          std::vector<bool> reduced(static_cast<size_t>(r), false);
          for (int64_t i = 0; i < ax.num_elements(); ++i) {
            int64_t a = index_at(ax, i);
            if (a < -r || a >= r) {
              throw InvalidArgumentError("Invalid reduction dimension " + std::to_string(a) + ", for input with " +
                                         std::to_string(r) + " dimensions.");
            }
            reduced[static_cast<size_t>(a < 0 ? a + r : a)] = true;
          }
          std::vector<int64_t> out_dims, kept;
          for (int64_t d = 0; d < r; ++d) {
            if (!reduced[static_cast<size_t>(d)]) {
              out_dims.push_back(shape[static_cast<size_t>(d)]);
              kept.push_back(d);
            } else if (keep) {
              out_dims.push_back(1);
            }
          }
          Tensor& out = k.allocate_output(0, vals.dtype(), Shape{std::span<const int64_t>(out_dims)});
          std::vector<int64_t> perm(static_cast<size_t>(n));
          std::iota(perm.begin(), perm.end(), 0);
          std::vector<int64_t> order = kept;
          for (int64_t d = 0; d < r; ++d) if (reduced[static_cast<size_t>(d)]) order.push_back(d);
          std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
            for (int64_t d : order) {
              int64_t x = index_at(ix, a * r + d), y = index_at(ix, b * r + d);
              if (x != y) return x < y;
            }
            return false;
          });
          dispatch_dtype(vals.dtype(), [&]<class T>() {
            if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
              T* o = out.data<T>();
              std::fill(o, o + out.num_elements(), T(0));
              for (int64_t e : perm) {
                int64_t off = 0;
                for (int64_t d : kept) off = off * shape[static_cast<size_t>(d)] + index_at(ix, e * r + d);
                o[off] = static_cast<T>(o[off] + vals.data<T>()[e]);
              }
            } else {
              throw InvalidArgumentError("SparseReduceSum does not support " + std::string(dtype_tf_string(vals.dtype())));
            }
          });
        });
      })
      .cost(CostKind::Elementwise)
      .tpu_unsupported("sparse ops run on the host")
      .not_differentiable();
}

}  // namespace

void register_sparse_ops(OpRegistry& reg) {
  register_sparse_to_dense(reg);
  register_sparse_matmul(reg);
  register_sparse_reorder(reg);
  register_sparse_add(reg);
  register_sparse_reduce_sum(reg);
}

}  // namespace ag
