// Array ops that rearrange one tensor: Reshape, ExpandDims and Squeeze (views:
// no copy), Transpose and ReverseV2 (one strided copy each), and Roll (each
// element moved along some axes, wrapping around).
#include <Eigen/Core>

#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using array::one;

/// Reshape's output shape for `sizes` (one entry may be -1) on an input of
/// `in` (possibly not fully defined: then -1 stays unknown).
Shape reshape_shape(const Shape& in, const std::vector<int64_t>& sizes) {
  int64_t product = 1;
  int unknown = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    int64_t d = sizes[i];
    if (d == -1) {
      if (unknown >= 0) {
        throw InvalidArgumentError("Only one input size may be -1, not both " + std::to_string(unknown) + " and " +
                                   std::to_string(i));
      }
      unknown = static_cast<int>(i);
    } else if (d < 0) {
      throw InvalidArgumentError("Size " + std::to_string(i) + " must be non-negative, not " + std::to_string(d));
    } else if (__builtin_mul_overflow(product, d, &product)) {
      throw InvalidArgumentError("Encountered overflow when multiplying shape dimensions");
    }
  }
  std::vector<int64_t> dims = sizes;
  if (!in.fully_defined()) {
    Shape s{std::span<const int64_t>(dims)};
    return s;
  }
  int64_t n = in.num_elements();
  if (unknown >= 0) {
    if (product == 0) {
      throw InvalidArgumentError(
          "Reshape cannot infer the missing input size for an empty tensor unless all specified input sizes are "
          "non-zero");
    }
    int64_t missing = n / product;
    if (missing * product != n) {
      throw InvalidArgumentError("Input to reshape is a tensor with " + std::to_string(n) +
                                 " values, but the requested shape requires a multiple of " + std::to_string(product));
    }
    dims[static_cast<size_t>(unknown)] = missing;
    product = n;
  }
  if (product != n) {
    throw InvalidArgumentError("Input to reshape is a tensor with " + std::to_string(n) +
                               " values, but the requested shape has " + std::to_string(product));
  }
  return Shape{std::span<const int64_t>(dims)};
}

void check_sizes_vector(const Shape& s) {
  if (s.rank_known() && s.rank() != 1) {
    throw InvalidArgumentError("sizes input must be 1-D, not " + s.debug_string());
  }
}

/// ExpandDims' output shape for `dim` (in [-rank-1, rank]).
Shape expand_shape(const Shape& in, int64_t dim) {
  int64_t r = in.rank();
  if (dim < -r - 1 || dim > r) {
    throw InvalidArgumentError("Tried to expand dim index " + std::to_string(dim) + " for tensor with " +
                               std::to_string(r) + " dimensions.");
  }
  if (dim < 0) dim += r + 1;
  Shape out;
  for (int i = 0; i < r; ++i) {
    if (i == dim) out.push_back(1);
    out.push_back(in.dim(i));
  }
  if (dim == r) out.push_back(1);
  return out;
}

/// Squeeze's output shape; unknown dims are assumed 1 when named in `dims`
/// (an empty `dims` with an unknown dim gives unknown rank, as in TF).
Shape squeeze_shape(const Shape& in, const std::vector<int64_t>& dims) {
  if (!in.rank_known()) return Shape::unknown_rank();
  int r = in.rank();
  bool drop[kMaxRank] = {};
  for (int64_t d : dims) {
    if (d < -r || d >= r) {
      throw InvalidArgumentError("Tried to squeeze dim index " + std::to_string(d) + " for tensor with " +
                                 std::to_string(r) + " dimensions.");
    }
    int64_t c = d < 0 ? d + r : d;
    int64_t size = in.dim(static_cast<int>(c));
    if (size != 1 && size != kUnknownDim) {
      throw InvalidArgumentError("Can not squeeze dim[" + std::to_string(c) + "], expected a dimension of 1, got " +
                                 std::to_string(size));
    }
    drop[c] = true;
  }
  Shape out;
  for (int i = 0; i < r; ++i) {
    if (dims.empty()) {
      if (in.dim(i) == kUnknownDim) return Shape::unknown_rank();
      if (in.dim(i) == 1) continue;
    } else if (drop[i]) {
      continue;
    }
    out.push_back(in.dim(i));
  }
  return out;
}

/// A Reshape's output from a partially known shape (unknown dims: -1 or not
/// known while tracing), as TF's shape function infers it: one unknown dim
/// is what the input's elements leave for it, when the input's count is
/// known (or when both have one unknown dim and the known parts match).
Shape complete_reshape(const Shape& in, Shape out) {
  auto known_product = [](const Shape& s, int& unknown_at) {
    int64_t n = 1;
    unknown_at = -1;
    for (int i = 0; i < s.rank(); ++i) {
      if (s.dim(i) != kUnknownDim) {
        n *= s.dim(i);
      } else if (unknown_at >= 0) {
        unknown_at = -2;  // more than one
      } else {
        unknown_at = i;
      }
    }
    return n;
  };
  if (!in.rank_known()) return out;
  int in_unknown = 0, out_unknown = 0;
  int64_t in_n = known_product(in, in_unknown), out_n = known_product(out, out_unknown);
  if (out_unknown < 0 || in_unknown == -2) return out;
  if (in_unknown == -1 && out_n > 0 && in_n % out_n == 0) {
    out.set_dim(out_unknown, in_n / out_n);
  } else if (in_unknown >= 0 && in_n == out_n) {
    out.set_dim(out_unknown, in.dim(in_unknown));
  }
  return out;
}

/// Checks perm against a rank-`r` input; returns it canonical.
std::vector<int64_t> check_perm(const std::vector<int64_t>& perm, int r) {
  if (static_cast<int64_t>(perm.size()) != r) {
    throw InvalidArgumentError("transpose expects a vector of size " + std::to_string(r) +
                               ". But input(1) is a vector of size " + std::to_string(perm.size()));
  }
  bool seen[kMaxRank] = {};
  for (int64_t d : perm) {
    if (d < 0 || d >= r) {
      throw InvalidArgumentError(std::to_string(d) + " is out of range [0 .. " + std::to_string(r) + ")");
    }
    seen[d] = true;
  }
  for (int i = 0; i < r; ++i) {
    if (!seen[i]) {
      throw InvalidArgumentError(std::to_string(i) + " is missing from {" + array::int_list_string(perm) + "}.");
    }
  }
  return perm;
}

/// ReverseV2's axes as a per-dim flag.
std::vector<bool> reverse_axes(const std::vector<int64_t>& axis, int r) {
  std::vector<bool> flip(static_cast<size_t>(r), false);
  for (size_t i = 0; i < axis.size(); ++i) {
    int64_t c = 0;
    if (!array::canonical_axis(axis[i], r, c)) {
      throw InvalidArgumentError("'axis'[" + std::to_string(i) + "] = " + std::to_string(axis[i]) +
                                 " is out of valid range [0, " + std::to_string(r - 1));
    }
    if (flip[static_cast<size_t>(c)]) {
      throw InvalidArgumentError("axis " + std::to_string(c) + " specified more than once.");
    }
    flip[static_cast<size_t>(c)] = true;
  }
  return flip;
}

void check_vector(const Shape& s, const char* what) {
  if (s.rank_known() && s.rank() != 1) {
    throw InvalidArgumentError(std::string(what) + " must be a vector, not " + s.debug_string());
  }
}

// ---- gradients (GRADIENTS.md 3.2, TF's array_grad.py)
/// Reshape, ExpandDims, Squeeze: g reshaped back to x's shape; the shape or
/// axis input gets None.
std::vector<GradTensor> reshape_grad(GradContext& c) {
  std::vector<GradTensor> out(c.num_inputs());
  out[0] = c.reshape(c.grad(0), c.shape_of(c.input(0)));
  return out;
}
/// g transposed by the inverse permutation.
std::vector<GradTensor> transpose_grad(GradContext& c) {
  const Tensor* perm = c.value(c.input(1));
  if (perm == nullptr) throw UnimplementedError("The gradient of Transpose needs its permutation known while tracing");
  std::vector<int64_t> p = array::int_values(*perm);
  Tensor inverse(DType::Int32, Shape{static_cast<int64_t>(p.size())});
  for (size_t i = 0; i < p.size(); ++i) inverse.data<int32_t>()[p[i] < 0 ? p[i] + static_cast<int64_t>(p.size()) : p[i]] = static_cast<int32_t>(i);
  return grads({c.apply1(op::Transpose, {c.grad(0), c.constant(inverse)}), GradTensor{}});
}
/// g reversed along the same axes.
std::vector<GradTensor> reverse_grad(GradContext& c) {
  return grads({c.apply1(op::ReverseV2, {c.grad(0), c.input(1)}), GradTensor{}});
}

// ---- Roll(input, shift, axis): element i of an axis moves to (i + shift) mod
// the axis' size; shifts of one axis named twice add up (TF's RollOp).

void check_roll_inputs(const Shape& in, const Shape& shift, const Shape& axis) {
  if (in.rank_known() && in.rank() < 1) throw InvalidArgumentError("input must be 1-D or higher");
  if (shift.rank_known() && shift.rank() > 1) {
    throw InvalidArgumentError("shift must be a scalar or a 1-D vector. Found: " + shift.debug_string());
  }
  if (axis.rank_known() && axis.rank() > 1) {
    throw InvalidArgumentError("axis must be a scalar or a 1-D vector. Found: " + axis.debug_string());
  }
  if (shift.fully_defined() && axis.fully_defined() && !(shift == axis)) {
    throw InvalidArgumentError("shift and axis must have the same size");
  }
}

/// Each dim's total shift, in [0, dim).
std::vector<int64_t> roll_shifts(const Shape& in, const Tensor& shift, const Tensor& axis) {
  check_roll_inputs(in, shift.shape(), axis.shape());
  std::vector<int64_t> shifts = array::int_values(shift), axes = array::int_values(axis);
  std::vector<int64_t> total(static_cast<size_t>(in.rank()), 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t a = axes[i] < 0 ? axes[i] + in.rank() : axes[i];
    if (a < 0 || a >= in.rank()) throw InvalidArgumentError("axis " + std::to_string(axes[i]) + " is out of range");
    const int64_t d = in.dim(static_cast<int>(a));
    if (d > 0) total[static_cast<size_t>(a)] = ((total[static_cast<size_t>(a)] + shifts[i]) % d + d) % d;
  }
  return total;
}

/// Roll's gradient: g rolled back by -shift.
std::vector<GradTensor> roll_grad(GradContext& c) {
  return grads({c.apply1(op::Roll, {c.grad(0), c.neg(c.input(1)), c.input(2)}), GradTensor{}, GradTensor{}});
}

}  // namespace

void register_shape_ops(OpRegistry& reg) {
  reg.op("Reshape")
      .tf_signature("tensor: T, shape: Tshape -> output: T")
      .inputs(2)
      .infer([](const InferContext& c) {
        array::check_index_dtype(c.inputs[1].dtype, "Tshape");
        const Shape& ss = c.inputs[1].shape;
        check_sizes_vector(ss);
        DType t = c.inputs[0].dtype;
        std::optional<Shape> partial = array::shape_input(c, 1);
        if (const Tensor* sizes = c.constant(1)) return one(t, reshape_shape(c.inputs[0].shape, array::int_values(*sizes)));
        if (partial && partial->rank_known()) return one(t, complete_reshape(c.inputs[0].shape, *partial));
        if (ss.rank_known() && ss.dim(0) >= 0) return one(t, Shape::unknown_dims(static_cast<int>(ss.dim(0))));
        return one(t, Shape::unknown_rank());
      })
      .cpu([](const KernelSpec&) {
        return Kernel([](KernelContext& k) {
          check_sizes_vector(k.input(1).shape());
          k.set_output(0, k.input(0).reshaped(reshape_shape(k.input(0).shape(), array::int_values(k.input(1)))));
        });
      })
      .cost(CostKind::Free).tpu({1})
      .grad(reshape_grad);

  reg.op("ExpandDims")
      .tf_signature("input: T, dim: Tdim -> output: T")
      .inputs(2)
      .infer([](const InferContext& c) {
        array::check_index_dtype(c.inputs[1].dtype, "Tdim");
        const Shape& in = c.inputs[0].shape;
        const Tensor* dim = c.constant(1);
        if (dim && dim->num_elements() != 1) {
          throw InvalidArgumentError("'dim' must be a tensor with a single value");
        }
        if (!in.rank_known() || !dim) return one(c.inputs[0].dtype, Shape::unknown_rank());
        return one(c.inputs[0].dtype, expand_shape(in, array::int_at(*dim, 0)));
      })
      .cpu([](const KernelSpec&) {
        return Kernel([](KernelContext& k) {
          const Tensor& dim = k.input(1);
          if (dim.num_elements() != 1) throw InvalidArgumentError("'dim' must be a tensor with a single value");
          k.set_output(0, k.input(0).reshaped(expand_shape(k.input(0).shape(), array::int_at(dim, 0))));
        });
      })
      .cost(CostKind::Free).tpu({1})
      .grad(reshape_grad);

  reg.op("Squeeze")
      .tf_signature("input: T -> output: T")
      .inputs(1)
      .infer([](const InferContext& c) {
        auto dims = c.attrs.get_or<std::vector<int64_t>>("squeeze_dims", {});
        return one(c.inputs[0].dtype, squeeze_shape(c.inputs[0].shape, dims));
      })
      .cpu([](const KernelSpec& s) {
        auto dims = s.attrs.get_or<std::vector<int64_t>>("squeeze_dims", {});
        return Kernel([dims](KernelContext& k) {
          k.set_output(0, k.input(0).reshaped(squeeze_shape(k.input(0).shape(), dims)));
        });
      })
      .cost(CostKind::Free).tpu()
      .grad(reshape_grad);

  reg.op("Transpose")
      .tf_signature("x: T, perm: Tperm -> y: T")
      .inputs(2)
      .infer([](const InferContext& c) {
        array::check_index_dtype(c.inputs[1].dtype, "Tperm");
        check_vector(c.inputs[1].shape, "perm");
        const Shape& in = c.inputs[0].shape;
        DType t = c.inputs[0].dtype;
        const Tensor* perm = c.constant(1);
        int rank = in.rank_known() ? in.rank()
                   : (c.inputs[1].shape.rank_known() && c.inputs[1].shape.dim(0) >= 0)
                       ? static_cast<int>(c.inputs[1].shape.dim(0))
                       : -1;
        if (rank < 0) return one(t, Shape::unknown_rank());
        if (!perm || !in.rank_known()) return one(t, Shape::unknown_dims(rank));
        std::vector<int64_t> p = check_perm(array::int_values(*perm), rank);
        Shape out;
        for (int64_t d : p) out.push_back(in.dim(static_cast<int>(d)));
        return one(t, out);
      })
      .cpu([](const KernelSpec& s) {
        return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
          return Kernel([](KernelContext& k) {
            const Tensor& in = k.input(0);
            int r = in.rank();
            std::vector<int64_t> p = check_perm(array::int_values(k.input(1)), r);
            std::vector<int64_t> in_st = array::strides_of(in.shape());
            Shape out_shape;
            std::vector<int64_t> src_st(static_cast<size_t>(r));
            for (int i = 0; i < r; ++i) {
              out_shape.push_back(in.shape().dim(static_cast<int>(p[i])));
              src_st[i] = in_st[static_cast<size_t>(p[i])];
            }
            Tensor& out = k.allocate_output(0, dtype_of<T>(), out_shape);
            std::vector<int64_t> dst_st = array::strides_of(out_shape);
            if (r == 2 && !std::is_same_v<T, std::string> && !std::is_same_v<T, bool> && p[0] == 1) {
              // The common matrix transpose: Eigen's blocked copy.
              using M = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
              Eigen::Map<const M> a(in.data<T>(), in.shape().dim(0), in.shape().dim(1));
              Eigen::Map<M> b(out.data<T>(), out_shape.dim(0), out_shape.dim(1));
              b = a.transpose();
              return;
            }
            array::copy_nd<T>(out_shape, in.data<T>(), 0, src_st.data(), out.data<T>(), 0, dst_st.data());
          });
        });
      })
      .cost(CostKind::DataMovement).tpu({1})
      .grad(transpose_grad);

  reg.op("ReverseV2")
      .tf_signature("tensor: T, axis: Tidx -> output: T")
      .inputs(2)
      .infer([](const InferContext& c) {
        array::check_index_dtype(c.inputs[1].dtype, "Tidx");
        const Shape& as = c.inputs[1].shape;
        if (as.rank_known() && as.rank() != 1) {
          throw InvalidArgumentError("'dims' must be 1-dimension, not " + std::to_string(as.rank()));
        }
        const Shape& in = c.inputs[0].shape;
        if (in.rank_known() && c.constant(1)) (void)reverse_axes(array::int_values(*c.constant(1)), in.rank());
        return std::vector<TensorSpec>{c.inputs[0]};
      })
      .cpu([](const KernelSpec& s) {
        return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
          return Kernel([](KernelContext& k) {
            const Tensor& in = k.input(0);
            int r = in.rank();
            std::vector<bool> flip = reverse_axes(array::int_values(k.input(1)), r);
            std::vector<int64_t> src_st = array::strides_of(in.shape());
            std::vector<int64_t> dst_st = src_st;
            int64_t off = 0;
            for (int i = 0; i < r; ++i) {
              if (!flip[static_cast<size_t>(i)] || in.shape().dim(i) == 0) continue;
              off += (in.shape().dim(i) - 1) * src_st[static_cast<size_t>(i)];
              src_st[static_cast<size_t>(i)] = -src_st[static_cast<size_t>(i)];
            }
            Tensor& out = k.allocate_output(0, dtype_of<T>(), in.shape());
            array::copy_nd<T>(in.shape(), in.data<T>(), off, src_st.data(), out.data<T>(), 0, dst_st.data());
          });
        });
      })
      .cost(CostKind::DataMovement).tpu()
      .grad(reverse_grad);

  reg.op("Roll")
      .tf_signature("input: T, shift: Tshift, axis: Taxis -> output: T")
      .inputs(3)
      .infer([](const InferContext& c) {
        array::check_index_dtype(c.inputs[1].dtype, "Tshift");
        array::check_index_dtype(c.inputs[2].dtype, "Taxis");
        check_roll_inputs(c.inputs[0].shape, c.inputs[1].shape, c.inputs[2].shape);
        return std::vector<TensorSpec>{c.inputs[0]};
      })
      .cpu([](const KernelSpec& s) {
        return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
          return Kernel([](KernelContext& k) {
            const Tensor& in = k.input(0);
            const Shape& shape = in.shape();
            std::vector<int64_t> shift = roll_shifts(shape, k.input(1), k.input(2));
            Tensor& out = k.allocate_output(0, dtype_of<T>(), shape);
            const int64_t n = in.num_elements();
            if (n == 0) return;
            const int r = shape.rank();
            std::vector<int64_t> st = array::strides_of(shape);
            const T* src = in.data<T>();
            T* dst = out.data<T>();
            int64_t idx[kMaxRank] = {};
            for (int64_t o = 0; o < n; ++o) {
              int64_t from = 0;
              for (int d = 0; d < r; ++d) {
                int64_t i = idx[d] - shift[static_cast<size_t>(d)];
                from += (i < 0 ? i + shape.dim(d) : i) * st[static_cast<size_t>(d)];
              }
              dst[o] = src[from];
              for (int d = r - 1; d >= 0; --d) {
                if (++idx[d] < shape.dim(d)) break;
                idx[d] = 0;
              }
            }
          });
        });
      })
      .cost(CostKind::DataMovement).tpu()
      .grad(roll_grad);
}

}  // namespace ag
