// Array ops that join or cut tensors along an axis (ConcatV2, Pack, Unpack,
// Split, SplitV). Each copies contiguous runs: the part of a row-major tensor
// after the axis is one block. Their gradients are the inverse cuts and
// joins (TF's array_grad.py).
#include <limits>

#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using array::one;

void check_consistent_attr(const InferContext& c, size_t from, size_t to, const char* attr) {
  for (size_t i = from; i < to; ++i) {
    if (c.inputs[i].dtype != c.inputs[from].dtype) {
      throw InvalidArgumentError(std::string("Inconsistent values for attr '") + attr + "' " +
                                 dtype_tf_string(c.inputs[from].dtype) + " vs. " + dtype_tf_string(c.inputs[i].dtype) +
                                 " while building NodeDef '" + std::string(c.op) + "'");
    }
  }
}

int64_t scalar_axis(const Tensor& t) {
  if (t.num_elements() != 1) {
    throw InvalidArgumentError("axis must be a scalar, not shape " + t.shape().debug_string());
  }
  return array::int_at(t, 0);
}

/// ConcatV2's output shape from the input shapes (which may be partial).
Shape concat_shape(std::span<const Shape> in, int64_t axis) {
  const Shape* known = nullptr;
  for (const Shape& s : in) {
    if (s.rank_known()) { known = &s; break; }
  }
  if (!known) return Shape::unknown_rank();
  int64_t r = known->rank();
  if (r == 0) throw InvalidArgumentError("ConcatOp : Can't concatenate scalars (use tf.stack instead)");
  int64_t ax = 0;
  if (!array::canonical_axis(axis, r, ax)) {
    throw InvalidArgumentError("ConcatOp : Expected concatenating dimensions in the range [" + std::to_string(-r) +
                               ", " + std::to_string(r) + "), but got " + std::to_string(axis));
  }
  Shape out = *known;
  int64_t total = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const Shape& s = in[i];
    if (!s.rank_known()) { total = -1; continue; }
    if (s.rank() != r) {
      throw InvalidArgumentError("ConcatOp : Ranks of all input tensors should match: shape[0] = " +
                                 known->debug_string() + " vs. shape[" + std::to_string(i) + "] = " + s.debug_string());
    }
    for (int d = 0; d < r; ++d) {
      if (d == ax) continue;
      int64_t a = out.dim(d), b = s.dim(d);
      if (a >= 0 && b >= 0 && a != b) {
        throw InvalidArgumentError("ConcatOp : Dimension " + std::to_string(d) + " in both shapes must be equal: shape[0] = " +
                                   known->debug_string() + " vs. shape[" + std::to_string(i) + "] = " + s.debug_string());
      }
      if (a < 0) out.set_dim(d, b);
    }
    int64_t n = s.dim(static_cast<int>(ax));
    if (total >= 0 && n >= 0) total += n; else total = -1;
  }
  out.set_dim(static_cast<int>(ax), total);
  return out;
}

/// Concatenates `in` (same dtype, validated shapes) along `ax` into `out`.
template <class T>
void concat_into(std::span<const Tensor* const> in, int ax, Tensor& out) {
  const Shape& os = out.shape();
  int64_t outer = array::dims_product(os, 0, ax);
  int64_t inner = array::dims_product(os, ax + 1, os.rank());
  int64_t row = os.dim(ax) * inner;
  T* dst = out.data<T>();
  int64_t col = 0;
  for (const Tensor* t : in) {
    int64_t n = t->shape().dim(ax) * inner;
    const T* src = t->data<T>();
    if (n > 0) {
      for (int64_t o = 0; o < outer; ++o) std::copy_n(src + o * n, n, dst + o * row + col);
    }
    col += n;
  }
}

/// Pack's output shape: every input of shape `s`, a new axis at `axis`.
Shape pack_shape(std::span<const Shape> in, int64_t axis) {
  Shape s = Shape::unknown_rank();
  for (size_t i = 0; i < in.size(); ++i) {
    if (!in[i].rank_known()) continue;
    if (!s.rank_known()) { s = in[i]; continue; }
    if (!s.is_compatible_with(in[i])) {
      throw InvalidArgumentError("Shapes of all inputs must match: values[0].shape = " + in[0].debug_string() +
                                 " != values[" + std::to_string(i) + "].shape = " + in[i].debug_string());
    }
    for (int d = 0; d < s.rank(); ++d) {
      if (s.dim(d) < 0) s.set_dim(d, in[i].dim(d));
    }
  }
  if (!s.rank_known()) return s;
  int64_t r = s.rank() + 1, ax = 0;
  if (!array::canonical_axis(axis, r, ax)) {
    throw InvalidArgumentError("axis = " + std::to_string(axis) + " not in [" + std::to_string(-r) + ", " +
                               std::to_string(r) + ")");
  }
  Shape out;
  for (int d = 0; d < s.rank(); ++d) {
    if (d == ax) out.push_back(static_cast<int64_t>(in.size()));
    out.push_back(s.dim(d));
  }
  if (ax == s.rank()) out.push_back(static_cast<int64_t>(in.size()));
  return out;
}

/// Cuts `in` along `ax` into pieces of `sizes`, each shaped like `in` with
/// that dim replaced; `drop_axis` removes the axis (Unpack).
template <class T>
void split_into(const Tensor& in, int ax, const std::vector<int64_t>& sizes, bool drop_axis, KernelContext& k) {
  const Shape& is = in.shape();
  int64_t outer = array::dims_product(is, 0, ax);
  int64_t inner = array::dims_product(is, ax + 1, is.rank());
  int64_t row = is.dim(ax) * inner;
  const T* src = in.data<T>();
  int64_t col = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    Shape os;
    for (int d = 0; d < is.rank(); ++d) {
      if (d != ax) os.push_back(is.dim(d));
      else if (!drop_axis) os.push_back(sizes[i]);
    }
    Tensor& out = k.allocate_output(i, dtype_of<T>(), os);
    int64_t n = sizes[i] * inner;
    T* dst = out.data<T>();
    if (n > 0) {
      for (int64_t o = 0; o < outer; ++o) std::copy_n(src + o * row + col, n, dst + o * n);
    }
    col += n;
  }
}

/// Split's axis, canonical for rank `r`.
int64_t split_axis(int64_t axis, int64_t r) {
  int64_t ax = 0;
  if (!array::canonical_axis(axis, r, ax)) {
    throw InvalidArgumentError("-input rank(-" + std::to_string(r) + ") <= split_dim < input rank (" +
                               std::to_string(r) + "), but got " + std::to_string(axis));
  }
  return ax;
}

/// Split's even pieces of `size` (may be unknown) into `num` parts.
int64_t split_piece(int64_t size, int64_t num, int64_t ax) {
  if (size < 0) return kUnknownDim;
  if (num <= 0 || size % num != 0) {
    throw InvalidArgumentError("Number of ways to split should evenly divide the split dimension, but got split_dim " +
                               std::to_string(ax) + " (size = " + std::to_string(size) + ") and num_split " +
                               std::to_string(num));
  }
  return size / num;
}

/// SplitV's sizes with the one -1 resolved against `size` (the axis dim, known).
std::vector<int64_t> splitv_sizes(std::vector<int64_t> sizes, int64_t size) {
  int unknown = -1;
  int64_t sum = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      if (unknown >= 0) throw InvalidArgumentError("There can only be one -1 in the input.");
      unknown = static_cast<int>(i);
    } else if (sizes[i] < 0) {
      throw InvalidArgumentError("Split size at index " + std::to_string(i) + " must be >= 0. Got: " +
                                 std::to_string(sizes[i]));
    } else if (__builtin_add_overflow(sum, sizes[i], &sum)) {
      sum = std::numeric_limits<int64_t>::max();
    }
  }
  if ((unknown < 0 && sum != size) || (unknown >= 0 && sum > size)) {
    throw InvalidArgumentError(
        "Determined shape must either match input shape along split_dim exactly if fully specified, or be less than "
        "the size of the input along split_dim if not fully specified.  Got: " +
        std::to_string(sum));
  }
  if (unknown >= 0) sizes[static_cast<size_t>(unknown)] = size - sum;
  return sizes;
}

// ---- gradients (GRADIENTS.md 3.2, TF's array_grad.py)

/// A value known while building, as int64s; UnimplementedError naming the
/// op and `what` when it is not (the gradient's structure depends on it).
std::vector<int64_t> known_ints(GradContext& c, GradTensor t, const char* what) {
  const Tensor* v = c.value(t);
  if (v == nullptr) {
    throw UnimplementedError("The gradient of " + c.op().name + " needs its " + what + " known while tracing");
  }
  return array::int_values(*v);
}

/// x's size along `axis` as an int32 [1] vector: a constant when static.
GradTensor dim_vector(GradContext& c, GradTensor x, int64_t axis) {
  const Shape& s = c.spec(x).shape;
  if (s.rank_known() && s.dim(static_cast<int>(axis)) >= 0) return c.ints({s.dim(static_cast<int>(axis))});
  return c.apply1(op::GatherV2, {c.shape_of(x), c.ints({axis}), c.constant(Tensor::scalar(int32_t{0}))},
                  Attrs{{"batch_dims", int64_t{0}}});
}

/// The canonical axis of a rank-`rank` tensor from an axis input known while building.
int64_t grad_axis(GradContext& c, GradTensor axis_input, int64_t rank) {
  int64_t axis = known_ints(c, axis_input, "axis")[0];
  return axis < 0 ? axis + rank : axis;
}

int known_rank(GradContext& c, GradTensor t) {
  const Shape& s = c.spec(t).shape;
  if (!s.rank_known()) throw UnimplementedError("The gradient of " + c.op().name + " needs its input's rank known while tracing");
  return s.rank();
}

/// ConcatV2: g cut back into the inputs' sizes along the axis (TF slices at
/// ConcatOffset; one SplitV is the same cut). The axis gets None.
std::vector<GradTensor> concat_grad(GradContext& c) {
  const int n = c.num_inputs() - 1;
  std::vector<GradTensor> out(static_cast<size_t>(n + 1));
  const int64_t ax = grad_axis(c, c.input(n), known_rank(c, c.input(0)));
  std::vector<GradTensor> sizes;
  for (int i = 0; i < n; ++i) sizes.push_back(dim_vector(c, c.input(i), ax));
  GradTensor size_splits = sizes[0];
  if (n > 1) {
    sizes.push_back(c.constant(Tensor::scalar(int32_t{0})));
    size_splits = c.apply(op::ConcatV2, sizes)[0];
  }
  GradTensor g = c.grad(0);
  std::vector<GradTensor> pieces = c.apply(op::SplitV, std::vector<GradTensor>{g, size_splits, c.input(n)},
                                           Attrs{{"num_split", static_cast<int64_t>(n)}});
  for (int i = 0; i < n; ++i) out[static_cast<size_t>(i)] = pieces[static_cast<size_t>(i)];
  return out;
}

/// Pack: g unstacked along the same axis.
std::vector<GradTensor> pack_grad(GradContext& c) {
  const int64_t n = c.num_inputs();
  return c.apply(op::Unpack, std::vector<GradTensor>{c.grad(0)},
                 Attrs{{"axis", c.attrs().get_or<int64_t>("axis", 0)}, {"num", n}});
}

/// Unpack: the outputs' gradients (zeros where none flows) stacked back.
std::vector<GradTensor> unpack_grad(GradContext& c) {
  std::vector<GradTensor> gs;
  for (int i = 0; i < c.num_outputs(); ++i) gs.push_back(c.grad(i));
  return {c.apply(op::Pack, gs, Attrs{{"axis", c.attrs().get_or<int64_t>("axis", 0)}, {"N", static_cast<int64_t>(gs.size())}})[0]};
}

/// The outputs' gradients concatenated along `axis` (a tensor input).
GradTensor concat_outputs(GradContext& c, GradTensor axis) {
  std::vector<GradTensor> gs;
  for (int i = 0; i < c.num_outputs(); ++i) gs.push_back(c.grad(i));
  gs.push_back(axis);
  return c.apply(op::ConcatV2, gs)[0];
}

/// Split(axis, value): None for the axis, the pieces' gradients concatenated.
std::vector<GradTensor> split_grad(GradContext& c) { return grads({GradTensor{}, concat_outputs(c, c.input(0))}); }

/// SplitV(value, size_splits, axis).
std::vector<GradTensor> splitv_grad(GradContext& c) {
  return grads({concat_outputs(c, c.input(2)), GradTensor{}, GradTensor{}});
}

}  // namespace

void register_concat_ops(OpRegistry& reg) {
  // ConcatV2(values..., axis).
  reg.op("ConcatV2")
      .tf_signature("values: N * T, axis: Tidx -> output: T")
      .inputs(2, -1)
      // Vectors read as shapes, joined: [?, ?] from a Shape and [2] gives [?, ?, 2].
      .shape_value([](const ShapeValueQuery& q) -> std::optional<Shape> {
        Shape out;
        for (size_t j = 0; j + 1 < q.node.inputs.size(); ++j) {
          std::optional<Shape> part = q.shape(j);
          if (!part || !part->rank_known()) return std::nullopt;
          for (int64_t d : part->dims()) out.push_back(d);
        }
        return out;
      })
      .infer([](const InferContext& c) {
        size_t n = c.inputs.size() - 1;
        check_consistent_attr(c, 0, n, "T");
        array::check_index_dtype(c.inputs[n].dtype, "Tidx");
        const Shape& as = c.inputs[n].shape;
        if (as.rank_known() && as.rank() != 0) {
          throw InvalidArgumentError("axis must be a scalar, not shape " + as.debug_string());
        }
        std::vector<Shape> shapes;
        for (size_t i = 0; i < n; ++i) shapes.push_back(c.inputs[i].shape);
        DType t = c.inputs[0].dtype;
        if (const Tensor* axis = c.constant(n)) return one(t, concat_shape(shapes, scalar_axis(*axis)));
        for (const Shape& s : shapes) {
          if (s.rank_known()) {
            if (s.rank() == 0) throw InvalidArgumentError("ConcatOp : Can't concatenate scalars (use tf.stack instead)");
            return one(t, Shape::unknown_dims(s.rank()));
          }
        }
        return one(t, Shape::unknown_rank());
      })
      .cpu([](const KernelSpec& s) {
        return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
          return Kernel([](KernelContext& k) {
            size_t n = k.inputs.size() - 1;
            std::vector<Shape> shapes;
            for (size_t i = 0; i < n; ++i) shapes.push_back(k.input(i).shape());
            int64_t axis = scalar_axis(k.input(n));
            Shape os = concat_shape(shapes, axis);
            int64_t ax = 0;
            array::canonical_axis(axis, os.rank(), ax);
            Tensor& out = k.allocate_output(0, dtype_of<T>(), os);
            concat_into<T>(k.inputs.subspan(0, n), static_cast<int>(ax), out);
          });
        });
      })
      .cost(CostKind::DataMovement).tpu({-1})
      .grad(concat_grad);

  // Pack(values...) with attr axis: stacks along a new axis.
  reg.op("Pack")
      .tf_signature("values: N * T -> output: T")
      .inputs(1, -1)
      // A vector of scalars read as a shape: the known ones are dims.
      .shape_value([](const ShapeValueQuery& q) -> std::optional<Shape> {
        if (q.node.attrs.get_or<int64_t>("axis", 0) != 0) return std::nullopt;
        Shape out;
        for (size_t j = 0; j < q.node.inputs.size(); ++j) {
          const TensorSpec& in = q.node.inputs[j];
          bool index = in.dtype == DType::Int32 || in.dtype == DType::Int64;
          if (!index || !in.shape.rank_known() || in.shape.rank() != 0) return std::nullopt;
          std::optional<Tensor> v = q.value(j);
          int64_t d = v ? array::int_values(*v)[0] : kUnknownDim;
          out.push_back(d < 0 ? kUnknownDim : d);
        }
        return out;
      })
      .infer([](const InferContext& c) {
        check_consistent_attr(c, 0, c.inputs.size(), "T");
        std::vector<Shape> shapes;
        for (const TensorSpec& s : c.inputs) shapes.push_back(s.shape);
        return one(c.inputs[0].dtype, pack_shape(shapes, c.attrs.get_or<int64_t>("axis", 0)));
      })
      .cpu([](const KernelSpec& s) {
        int64_t axis = s.attrs.get_or<int64_t>("axis", 0);
        return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
          return Kernel([axis](KernelContext& k) {
            std::vector<Shape> shapes;
            for (const Tensor* t : k.inputs) shapes.push_back(t->shape());
            Shape os = pack_shape(shapes, axis);
            int64_t ax = 0;
            array::canonical_axis(axis, os.rank(), ax);
            Tensor& out = k.allocate_output(0, dtype_of<T>(), os);
            // Each input is one slice of width 1 along the new axis.
            std::vector<Tensor> views;
            std::vector<const Tensor*> ptrs;
            views.reserve(k.inputs.size());
            for (const Tensor* t : k.inputs) views.push_back(t->reshaped(os.with_dim(static_cast<int>(ax), 1)));
            for (const Tensor& v : views) ptrs.push_back(&v);
            concat_into<T>(ptrs, static_cast<int>(ax), out);
          });
        });
      })
      .cost(CostKind::DataMovement).tpu()
      .grad(pack_grad);

  // Unpack(value) with attrs axis and num: one output per slice along axis.
  reg.op("Unpack")
      .tf_signature("value: T -> output: num * T")
      .inputs(1)
      .outputs(-1)
      .infer([](const InferContext& c) {
        const Shape& in = c.inputs[0].shape;
        int64_t axis = c.attrs.get_or<int64_t>("axis", 0);
        int64_t num = c.attrs.get_or<int64_t>("num", -1);
        if (!in.rank_known()) {
          if (num < 0) throw ValueError("Cannot infer argument `num` from shape <unknown>");
          return std::vector<TensorSpec>(static_cast<size_t>(num), {c.inputs[0].dtype, Shape::unknown_rank()});
        }
        int64_t r = in.rank(), ax = 0;
        if (!array::canonical_axis(axis, r, ax)) {
          throw InvalidArgumentError("axis = " + std::to_string(axis) + " not in [" + std::to_string(-r) + ", " +
                                     std::to_string(r) + ")");
        }
        int64_t d = in.dim(static_cast<int>(ax));
        if (num < 0) {
          if (d < 0) throw ValueError("Cannot infer argument `num` from shape " + in.str());
          num = d;
        } else if (d >= 0 && d != num) {
          throw InvalidArgumentError("Dimension must be " + std::to_string(num) + " but is " + std::to_string(d));
        }
        Shape os;
        for (int i = 0; i < r; ++i) {
          if (i != ax) os.push_back(in.dim(i));
        }
        return std::vector<TensorSpec>(static_cast<size_t>(num), {c.inputs[0].dtype, os});
      })
      .cpu([](const KernelSpec& s) {
        int64_t axis = s.attrs.get_or<int64_t>("axis", 0);
        size_t num = s.outputs.size();
        return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
          return Kernel([axis, num](KernelContext& k) {
            const Tensor& in = k.input(0);
            int64_t ax = 0;
            if (!array::canonical_axis(axis, in.rank(), ax)) {
              throw InvalidArgumentError("axis = " + std::to_string(axis) + " not in [" + std::to_string(-in.rank()) +
                                         ", " + std::to_string(in.rank()) + ")");
            }
            if (in.shape().dim(static_cast<int>(ax)) != static_cast<int64_t>(num)) {
              throw InvalidArgumentError("Input shape axis " + std::to_string(ax) + " must equal " +
                                         std::to_string(num) + ", got shape " + in.shape().debug_string());
            }
            split_into<T>(in, static_cast<int>(ax), std::vector<int64_t>(num, 1), true, k);
          });
        });
      })
      .cost(CostKind::DataMovement).tpu()
      .grad(unpack_grad);

  // Split(axis, value) with attr num_split: equal pieces.
  reg.op("Split")
      .tf_signature("split_dim: int32, value: T -> output: num_split * T")
      .inputs(2)
      .outputs(-1)
      .infer([](const InferContext& c) {
        array::check_index_dtype(c.inputs[0].dtype, "Tidx");
        int64_t num = c.attrs.get<int64_t>("num_split");
        if (num < 1) throw InvalidArgumentError("Value for attr 'num_split' of " + std::to_string(num) + " must be at least minimum 1");
        const Shape& in = c.inputs[1].shape;
        DType t = c.inputs[1].dtype;
        const Tensor* axis = c.constant(0);
        if (!in.rank_known()) return std::vector<TensorSpec>(static_cast<size_t>(num), {t, Shape::unknown_rank()});
        if (!axis) return std::vector<TensorSpec>(static_cast<size_t>(num), {t, Shape::unknown_dims(in.rank())});
        int64_t ax = split_axis(scalar_axis(*axis), in.rank());
        Shape os = in.with_dim(static_cast<int>(ax), split_piece(in.dim(static_cast<int>(ax)), num, ax));
        return std::vector<TensorSpec>(static_cast<size_t>(num), {t, os});
      })
      .cpu([](const KernelSpec& s) {
        size_t num = s.outputs.size();
        return dispatch_dtype(s.inputs[1].dtype, [&]<class T>() {
          return Kernel([num](KernelContext& k) {
            const Tensor& in = k.input(1);
            int64_t ax = split_axis(scalar_axis(k.input(0)), in.rank());
            int64_t piece = split_piece(in.shape().dim(static_cast<int>(ax)), static_cast<int64_t>(num), ax);
            split_into<T>(in, static_cast<int>(ax), std::vector<int64_t>(num, piece), false, k);
          });
        });
      })
      .cost(CostKind::DataMovement).tpu({0})
      .grad(split_grad);

  // SplitV(value, size_splits, axis): pieces of the given sizes (one may be -1).
  reg.op("SplitV")
      .tf_signature("value: T, size_splits: Tlen, split_dim: int32 -> output: num_split * T")
      .inputs(3)
      .outputs(-1)
      .infer([](const InferContext& c) {
        array::check_index_dtype(c.inputs[1].dtype, "Tlen");
        array::check_index_dtype(c.inputs[2].dtype, "Tidx");
        const Shape& ss = c.inputs[1].shape;
        int64_t num = c.attrs.get_or<int64_t>("num_split", -1);
        if (const Tensor* sz = c.constant(1)) num = sz->num_elements();
        else if (num < 0 && ss.rank_known() && ss.rank() == 1) num = ss.dim(0);
        if (num < 0) throw ValueError("Cannot infer argument `num` from shape " + ss.str());
        const Shape& in = c.inputs[0].shape;
        DType t = c.inputs[0].dtype;
        const Tensor* axis = c.constant(2);
        if (!in.rank_known()) return std::vector<TensorSpec>(static_cast<size_t>(num), {t, Shape::unknown_rank()});
        if (!axis) return std::vector<TensorSpec>(static_cast<size_t>(num), {t, Shape::unknown_dims(in.rank())});
        int ax = static_cast<int>(split_axis(scalar_axis(*axis), in.rank()));
        std::vector<TensorSpec> out(static_cast<size_t>(num), {t, in.with_dim(ax, kUnknownDim)});
        const Tensor* sz = c.constant(1);
        if (sz && in.dim(ax) >= 0) {
          std::vector<int64_t> sizes = splitv_sizes(array::int_values(*sz), in.dim(ax));
          for (size_t i = 0; i < out.size(); ++i) out[i].shape.set_dim(ax, sizes[i]);
        }
        return out;
      })
      .cpu([](const KernelSpec& s) {
        return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
          return Kernel([](KernelContext& k) {
            const Tensor& in = k.input(0);
            int ax = static_cast<int>(split_axis(scalar_axis(k.input(2)), in.rank()));
            std::vector<int64_t> sizes = splitv_sizes(array::int_values(k.input(1)), in.shape().dim(ax));
            if (sizes.size() != k.outputs.size()) {
              throw InvalidArgumentError("SplitV expects " + std::to_string(k.outputs.size()) + " size_splits, got " +
                                         std::to_string(sizes.size()));
            }
            split_into<T>(in, ax, sizes, false, k);
          });
        });
      })
      .cost(CostKind::DataMovement).tpu({1, 2})
      .grad(splitv_grad);
}

}  // namespace ag
