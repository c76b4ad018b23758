// Array ops that write by index tuples (TF's scatter_nd_op.cc): ScatterNd
// (updates summed into zeros of a shape: GatherNd's gradient) and the
// TensorScatter ops (a copy of a tensor with the slices at the indices
// replaced, added to or subtracted from: tf.tensor_scatter_nd_update/add/sub).
// Every index tuple is checked before any element is written: a bad one is
// TF's InvalidArgumentError, never an out-of-bounds write.
#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using array::one;

/// updates must be the indices' outer dims followed by the slices of `out`
/// that an index tuple of length k (the indices' last dim) addresses.
void check_scatter_shapes(const Shape& idx, const Shape& upd, const Shape& out) {
  if (!idx.rank_known() || !upd.rank_known() || !out.rank_known()) return;
  if (idx.rank() < 1) throw InvalidArgumentError("Indices shape must have rank at least one. Found:" + idx.debug_string());
  int64_t k = idx.dim(idx.rank() - 1);
  if (k < 0) return;
  if (k > out.rank()) {
    throw InvalidArgumentError("Dimensions [" + std::to_string(k) + "," + std::to_string(out.rank()) +
                               ") of input[shape=" + out.debug_string() + "] = [] must match dimensions [" +
                               std::to_string(idx.rank() - 1) + "," + std::to_string(upd.rank()) +
                               ") of updates[shape=" + upd.debug_string() + "]");
  }
  Shape want;
  for (int d = 0; d < idx.rank() - 1; ++d) want.push_back(idx.dim(d));
  for (int d = static_cast<int>(k); d < out.rank(); ++d) want.push_back(out.dim(d));
  if (!want.is_compatible_with(upd)) {
    throw InvalidArgumentError("The shape of updates " + upd.debug_string() + " must be the indices' outer dims plus "
                               "the slices of the output: " + want.debug_string());
  }
}

/// How an update meets the slice it is written to.
enum class Write { Add, Assign, Sub };

/// Writes the slices of `updates` at the index tuples of `indices` into
/// `out` (already holding the values they meet), after checking every tuple.
template <class T, class I>
void scatter_into(const Tensor& indices, const Tensor& updates, Tensor& out, Write how) {
  const Shape& os = out.shape();
  const Shape& is = indices.shape();
  int k = static_cast<int>(is.dim(is.rank() - 1));
  int64_t n = array::dims_product(is, 0, is.rank() - 1);
  int64_t slice = array::dims_product(os, k, os.rank());
  std::vector<int64_t> st = array::strides_of(os);
  const I* ix = indices.data<I>();
  Shape batch;
  for (int d = 0; d < is.rank() - 1; ++d) batch.push_back(is.dim(d));
  std::vector<int64_t> offsets(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) {
    int64_t off = 0;
    for (int d = 0; d < k; ++d) {
      int64_t v = ix[j * k + d];
      if (v < 0 || v >= os.dim(d)) {
        std::vector<int64_t> bad(ix + j * k, ix + j * k + k);
        throw InvalidArgumentError("indices" + array::slice_debug_string(batch, j) + " = [" +
                                   array::int_list_string(bad, ", ") + "] does not index into shape " + os.debug_string());
      }
      off += v * st[static_cast<size_t>(d)];
    }
    offsets[static_cast<size_t>(j)] = off;
  }
  T* dst = out.data<T>();
  const T* src = updates.data<T>();
  for (int64_t j = 0; j < n; ++j) {
    T* o = dst + offsets[static_cast<size_t>(j)];
    const T* u = src + j * slice;
    for (int64_t q = 0; q < slice; ++q) {
      if (how == Write::Assign) {
        o[q] = u[q];
      } else if constexpr (array::kAddable<T>) {
        o[q] = how == Write::Add ? array::add_elems(o[q], u[q]) : array::sub_elems(o[q], u[q]);
      }
    }
  }
}

// ---- ScatterNd(indices, updates, shape): zeros of `shape`, updates summed in.

std::vector<TensorSpec> infer_scatter_nd(const InferContext& c) {
  array::check_index_dtype(c.inputs[0].dtype, "Tindices");
  if (c.inputs[2].dtype != c.inputs[0].dtype) {
    throw InvalidArgumentError(std::string("Inconsistent values for attr 'Tindices' ") + dtype_tf_string(c.inputs[0].dtype) +
                               " vs. " + dtype_tf_string(c.inputs[2].dtype) + " while building NodeDef 'ScatterNd'");
  }
  const Shape& ss = c.inputs[2].shape;
  if (ss.rank_known() && ss.rank() != 1) throw InvalidArgumentError("Shape must be rank 1 but is rank " + std::to_string(ss.rank()));
  DType t = c.inputs[1].dtype;
  if (const Tensor* shape = c.constant(2)) {
    Shape out = array::checked_shape(array::int_values(*shape));
    check_scatter_shapes(c.inputs[0].shape, c.inputs[1].shape, out);
    return one(t, out);
  }
  if (ss.rank_known() && ss.dim(0) >= 0) return one(t, Shape::unknown_dims(static_cast<int>(ss.dim(0))));
  return one(t, Shape::unknown_rank());
}

Kernel scatter_nd_kernel(const KernelSpec& s) {
  Kernel kernel;
  dispatch_dtype(s.inputs[1].dtype, [&]<class T>() {
    array::dispatch_index(s.inputs[0].dtype, [&]<class I>() {
      if constexpr (array::kAddable<T>) {
        kernel = [](KernelContext& k) {
          const Tensor& shape = k.input(2);
          if (shape.rank() != 1) throw InvalidArgumentError("Shape must be rank 1 but is rank " + std::to_string(shape.rank()));
          Shape os = array::checked_shape(array::int_values(shape));
          check_scatter_shapes(k.input(0).shape(), k.input(1).shape(), os);
          Tensor& out = k.allocate_output(0, dtype_of<T>(), os);
          std::fill_n(out.data<T>(), out.num_elements(), T(0));
          scatter_into<T, I>(k.input(0), k.input(1), out, Write::Add);
        };
      }
    });
  });
  return kernel;
}

// ---- TensorScatter{Update,Add,Sub}(tensor, indices, updates): a copy of tensor, the slices written.

std::vector<TensorSpec> infer_tensor_scatter(const InferContext& c) {
  array::check_index_dtype(c.inputs[1].dtype, "Tindices");
  if (c.inputs[2].dtype != c.inputs[0].dtype) {
    throw InvalidArgumentError(std::string("Inconsistent values for attr 'T' ") + dtype_tf_string(c.inputs[0].dtype) +
                               " vs. " + dtype_tf_string(c.inputs[2].dtype) + " while building NodeDef '" +
                               std::string(c.op) + "'");
  }
  if (c.op != "TensorScatterUpdate" && !is_numeric(c.inputs[0].dtype)) {
    array::bad_attr_type("T", c.inputs[0].dtype, "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, "
                                                 "uint32, uint64");
  }
  check_scatter_shapes(c.inputs[1].shape, c.inputs[2].shape, c.inputs[0].shape);
  return {c.inputs[0]};
}

KernelFactory tensor_scatter_kernel(Write how) {
  return [how](const KernelSpec& s) {
    Kernel kernel;
    dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
      array::dispatch_index(s.inputs[1].dtype, [&]<class I>() {
        kernel = [how](KernelContext& k) {
          const Tensor& tensor = k.input(0);
          check_scatter_shapes(k.input(1).shape(), k.input(2).shape(), tensor.shape());
          Tensor& out = k.allocate_output(0, dtype_of<T>(), tensor.shape());
          std::copy_n(tensor.data<T>(), tensor.num_elements(), out.data<T>());
          scatter_into<T, I>(k.input(1), k.input(2), out, how);
        };
      });
    });
    return kernel;
  };
}

// ---- gradients (TF's array_grad.py)

/// ScatterNd: None for indices and shape, g gathered at the indices for updates.
std::vector<GradTensor> scatter_nd_grad(GradContext& c) {
  return grads({GradTensor{}, c.apply1(op::GatherNd, {c.grad(0), c.input(0)}), GradTensor{}});
}

/// TensorScatterUpdate: g where the tensor was kept (zeros at the written
/// slices), and g gathered at the indices for the updates.
std::vector<GradTensor> tensor_scatter_update_grad(GradContext& c) {
  GradTensor g = c.grad(0), indices = c.input(1);
  GradTensor kept = c.apply1(op::TensorScatterUpdate, {g, indices, c.zeros_like(c.input(2))});
  return grads({kept, GradTensor{}, c.apply1(op::GatherNd, {g, indices})});
}

/// TensorScatterAdd (sign 1), TensorScatterSub (-1): g for the tensor, ±g
/// gathered at the indices for the updates.
GradFn tensor_scatter_add_grad(double sign) {
  return [sign](GradContext& c) {
    GradTensor g = c.grad(0);
    GradTensor gathered = c.apply1(op::GatherNd, {g, c.input(1)});
    return grads({g, GradTensor{}, sign > 0 ? gathered : c.neg(gathered)});
  };
}

}  // namespace

void register_scatter_ops(OpRegistry& reg) {
  reg.op("ScatterNd").tf_signature("indices: Tindices, updates: T, shape: Tindices -> output: T").inputs(3).infer(infer_scatter_nd).cpu(scatter_nd_kernel).cost(CostKind::DataMovement).tpu()
      .grad(scatter_nd_grad);
  auto tensor_scatter = [&](const char* name, Write how) {
    return reg.op(name).inputs(3).tf_signature("tensor: T, indices: Tindices, updates: T -> output: T").infer(infer_tensor_scatter).cpu(tensor_scatter_kernel(how)).cost(CostKind::DataMovement)
        .tpu();
  };
  tensor_scatter("TensorScatterUpdate", Write::Assign).grad(tensor_scatter_update_grad);
  tensor_scatter("TensorScatterAdd", Write::Add).grad(tensor_scatter_add_grad(1));
  tensor_scatter("TensorScatterSub", Write::Sub).grad(tensor_scatter_add_grad(-1));
}

}  // namespace ag
