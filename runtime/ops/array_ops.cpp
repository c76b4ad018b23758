// Array ops: constants, identity, shape queries (Shape, Size, Rank) and the
// makers of new tensors (Fill, ZerosLike, OnesLike, Range). The shape
// manipulations live in shape_ops.cpp, concat_ops.cpp, pad_ops.cpp,
// gather_ops.cpp, scatter_ops.cpp, sort_ops.cpp and slice_ops.cpp;
// register_array_ops() registers them all.
#include <charconv>
#include <cmath>
#include <limits>

#include "runtime/core/tensor_list.h"
#include "runtime/ops/families.h"
#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/kernels/broadcast.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using array::one;

DType out_type(const Attrs& a) { return a.get_or<DType>("out_type", DType::Int32); }

void check_out_type(DType t) {
  if (t != DType::Int32 && t != DType::Int64) array::bad_attr_type("out_type", t, "int32, int64");
}

/// Writes `v` into element i of an int32/int64 output; `what` words the
/// overflow error for int32.
void put_int(Tensor& t, int64_t i, int64_t v, const std::string& what) {
  if (t.dtype() == DType::Int64) {
    t.data<int64_t>()[i] = v;
    return;
  }
  if (v > std::numeric_limits<int32_t>::max()) throw InvalidArgumentError(what);
  t.data<int32_t>()[i] = static_cast<int32_t>(v);
}

/// Fill's output shape from its dims input (a vector of int32/int64).
Shape fill_shape(const Tensor& dims) {
  if (dims.rank() != 1) {
    throw InvalidArgumentError("dims must represent a vector, got shape " + dims.shape().debug_string());
  }
  return array::checked_shape(array::int_values(dims));
}

template <class T>
void fill_with(Tensor& out, const T& v) {
  T* d = out.data<T>();
  std::fill_n(d, out.num_elements(), v);
}

/// A value as TF's StrCat prints it: shortest round-trip for floats ("0.5", "5").
template <class T>
std::string num_str(T v) {
  if constexpr (std::is_integral_v<T>) {
    return std::to_string(v);
  } else {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
  }
}

/// Range's element count, with TF's checks and words.
template <class T>
int64_t range_size(T start, T limit, T delta) {
  if (delta == T(0)) throw InvalidArgumentError("Requires delta != 0: " + num_str(delta));
  if (delta > T(0) && start > limit) {
    throw InvalidArgumentError("Requires start <= limit when delta > 0: " + num_str(start) + "/" + num_str(limit));
  }
  if (delta < T(0) && start < limit) {
    throw InvalidArgumentError("Requires start >= limit when delta < 0: " + num_str(start) + "/" + num_str(limit));
  }
  const std::string too_big = "Requires ((limit - start) / delta) <= " + std::to_string(std::numeric_limits<int64_t>::max());
  if constexpr (std::is_integral_v<T>) {
    // |limit - start| and |delta| as unsigned: no signed overflow for any int64.
    uint64_t span = start <= limit ? static_cast<uint64_t>(limit) - static_cast<uint64_t>(start)
                                   : static_cast<uint64_t>(start) - static_cast<uint64_t>(limit);
    uint64_t step = delta > 0 ? static_cast<uint64_t>(delta) : 0 - static_cast<uint64_t>(delta);
    uint64_t n = span / step + (span % step != 0 ? 1 : 0);
    if (n > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) throw InvalidArgumentError(too_big);
    return static_cast<int64_t>(n);
  } else {
    double n = std::ceil(std::fabs((static_cast<double>(limit) - static_cast<double>(start)) / static_cast<double>(delta)));
    if (!(n <= 9.2e18)) throw InvalidArgumentError(too_big);
    return static_cast<int64_t>(n);
  }
}

/// Dispatches Range's dtypes (TF: bfloat16, float, double, int8, int32, int64).
template <class F>
void dispatch_range(DType t, F&& f) {
  switch (t) {
    case DType::Float32: f.template operator()<float, float>(); return;
    case DType::Float64: f.template operator()<double, double>(); return;
    case DType::BFloat16: f.template operator()<bfloat16, float>(); return;
    case DType::Int8: f.template operator()<int8_t, int64_t>(); return;
    case DType::Int32: f.template operator()<int32_t, int64_t>(); return;
    case DType::Int64: f.template operator()<int64_t, int64_t>(); return;
    default: array::bad_attr_type("Tidx", t, "bfloat16, float, double, int8, int32, int64");
  }
}

/// Range's size from its three scalar inputs.
int64_t range_size_of(const Tensor& s, const Tensor& l, const Tensor& d) {
  int64_t n = 0;
  dispatch_range(s.dtype(), [&]<class T, class C>() {
    n = range_size<C>(static_cast<C>(array::scalar_of<T>(s, "start")), static_cast<C>(array::scalar_of<T>(l, "limit")),
                      static_cast<C>(array::scalar_of<T>(d, "delta")));
  });
  return n;
}

/// Fill: None for dims, the sum of g for the value (TF's _FillGrad).
std::vector<GradTensor> fill_grad(GradContext& c) {
  GradTensor g = c.grad(0);
  const Shape& gs = c.spec(g).shape;
  GradTensor axes;
  if (gs.rank_known()) {
    std::vector<int64_t> all;
    for (int i = 0; i < gs.rank(); ++i) all.push_back(i);
    axes = c.ints(all);
  } else {
    axes = c.apply1(op::Range, {c.constant(Tensor::scalar(int32_t{0})), c.apply1(op::Rank, {g}),
                                c.constant(Tensor::scalar(int32_t{1}))}, Attrs{{"Tidx", DType::Int32}});
  }
  return grads({GradTensor{}, c.sum(g, axes)});
}

void register_basic_ops(OpRegistry& reg) {
  // Shape: the input's dims as a vector of out_type.
  reg.op("Shape")
      .tf_signature("input: T -> output: out_type")
      .inputs(1)
      .shape_value([](const ShapeValueQuery& q) -> std::optional<Shape> {
        const Shape& s = q.node.inputs[0].shape;
        if (!s.rank_known()) return std::nullopt;
        return s;
      })
      .infer([](const InferContext& c) {
        DType t = out_type(c.attrs);
        check_out_type(t);
        const Shape& s = c.inputs[0].shape;
        return one(t, Shape{s.rank_known() ? s.rank() : kUnknownDim});
      })
      .cpu([](const KernelSpec& s) {
        DType t = s.outputs[0].dtype;
        return Kernel([t](KernelContext& k) {
          const Shape& in = k.input(0).shape();
          Tensor& out = k.allocate_output(0, t, Shape{in.rank()});
          for (int i = 0; i < in.rank(); ++i) {
            put_int(out, i, in.dim(i),
                    "Shape output type is 32-bit  but dim " + std::to_string(i) + " is " + std::to_string(in.dim(i)));
          }
        });
      })
      .cost(CostKind::Free)
      .tpu()
      .not_differentiable();

  reg.op("Size")
      .tf_signature("input: T -> output: out_type")
      .inputs(1)
      .infer([](const InferContext& c) {
        DType t = out_type(c.attrs);
        check_out_type(t);
        return one(t, Shape{});
      })
      .cpu([](const KernelSpec& s) {
        DType t = s.outputs[0].dtype;
        return Kernel([t](KernelContext& k) {
          Tensor& out = k.allocate_output(0, t, Shape{});
          put_int(out, 0, k.input(0).num_elements(),
                  "Number of elements was larger than representable by 32-bit output type");
        });
      })
      .cost(CostKind::Free)
      .tpu()
      .not_differentiable();

  // BroadcastGradientArgs(s0, s1) -> (r0, r1): the axes along which each of
  // two shapes was broadcast to their common shape, for reducing gradients
  // (the dynamic side of the broadcasting rule; GradContext::unbroadcast).
  reg.op("BroadcastGradientArgs")
      .tf_signature("s0: T, s1: T -> r0: T, r1: T")
      .inputs(2)
      .outputs(2)
      .infer([](const InferContext& c) {
        for (int i = 0; i < 2; ++i) array::check_index_dtype(c.inputs[i].dtype, "T");
        TensorSpec r{c.inputs[0].dtype, Shape{kUnknownDim}};
        return std::vector<TensorSpec>{r, r};
      })
      .cpu([](const KernelSpec& s) {
        DType t = s.inputs[0].dtype;
        return Kernel([t](KernelContext& k) {
          std::vector<int64_t> a = array::int_values(k.input(0)), b = array::int_values(k.input(1));
          const size_t rank = std::max(a.size(), b.size());
          a.insert(a.begin(), rank - a.size(), 1);
          b.insert(b.begin(), rank - b.size(), 1);
          std::vector<int64_t> ra, rb;
          for (size_t i = 0; i < rank; ++i) {
            if (a[i] != b[i] && a[i] != 1 && b[i] != 1) {
              throw InvalidArgumentError(kernels::incompatible_shapes(Shape(array::int_values(k.input(0))),
                                                                      Shape(array::int_values(k.input(1)))));
            }
            if (a[i] == 1 && b[i] != 1) ra.push_back(static_cast<int64_t>(i));
            if (b[i] == 1 && a[i] != 1) rb.push_back(static_cast<int64_t>(i));
            if (a[i] == 1 && b[i] == 1) {
              ra.push_back(static_cast<int64_t>(i));
              rb.push_back(static_cast<int64_t>(i));
            }
          }
          for (int o = 0; o < 2; ++o) {
            const std::vector<int64_t>& r = o == 0 ? ra : rb;
            Tensor& out = k.allocate_output(o, t, Shape{static_cast<int64_t>(r.size())});
            for (size_t i = 0; i < r.size(); ++i) put_int(out, static_cast<int64_t>(i), r[i], "");
          }
        });
      })
      .cost(CostKind::Free)
      .tpu()
      .not_differentiable();

  reg.op("Rank")
      .tf_signature("input: T -> output: int32")
      .inputs(1)
      .infer([](const InferContext&) { return one(DType::Int32, Shape{}); })
      .cpu([](const KernelSpec&) {
        return Kernel([](KernelContext& k) {
          k.allocate_output(0, DType::Int32, Shape{}).data<int32_t>()[0] = k.input(0).rank();
        });
      })
      .cost(CostKind::Free)
      .tpu()
      .not_differentiable();

  // Fill(dims, value): a tensor of shape `dims` holding `value` everywhere.
  reg.op("Fill")
      .tf_signature("dims: index_type, value: T -> output: T")
      .inputs(2)
      .infer([](const InferContext& c) {
        array::check_index_dtype(c.inputs[0].dtype, "index_type");
        const Shape& ds = c.inputs[0].shape;
        const Shape& vs = c.inputs[1].shape;
        if (ds.rank_known() && ds.rank() != 1) {
          throw InvalidArgumentError("dims must represent a vector, got shape " + ds.debug_string());
        }
        if (vs.rank_known() && vs.rank() != 0) {
          throw InvalidArgumentError("value must represent a scalar, got shape " + vs.debug_string());
        }
        DType t = c.inputs[1].dtype;
        std::optional<Shape> shape = array::shape_input(c, 0);
        if (const Tensor* dims = c.constant(0)) return one(t, fill_shape(*dims));
        if (shape) return one(t, *shape);
        if (ds.rank_known() && ds.dim(0) >= 0) return one(t, Shape::unknown_dims(static_cast<int>(ds.dim(0))));
        return one(t, Shape::unknown_rank());
      })
      .cpu([](const KernelSpec& s) {
        return dispatch_dtype(s.inputs[1].dtype, [&]<class T>() {
          return Kernel([](KernelContext& k) {
            Tensor& out = k.allocate_output(0, dtype_of<T>(), fill_shape(k.input(0)));
            const Tensor& v = k.input(1);
            if (v.rank() != 0) {
              throw InvalidArgumentError("value must represent a scalar, got shape " + v.shape().debug_string());
            }
            fill_with<T>(out, v.scalar_value<T>());
          });
        });
      })
      .cost(CostKind::Elementwise).tpu({0})
      .grad(fill_grad);

  reg.op("ZerosLike")
      .tf_signature("x: T -> y: T")
      .inputs(1)
      .infer([](const InferContext& c) { return std::vector<TensorSpec>{c.inputs[0]}; })
      .cpu([](const KernelSpec& s) {
        if (s.inputs[0].dtype == DType::Variant) {
          // A TensorList's zeros (a gradient no one sent): as long, every element unset (read as zeros).
          return Kernel([](KernelContext& k) {
            const TensorList& l = list_of(k.input(0));
            k.set_output(0, list_tensor(TensorList::reserve(l.element_dtype, l.element_shape, l.size)));
          });
        }
        return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
          return Kernel([](KernelContext& k) {
            Tensor& out = k.allocate_output(0, dtype_of<T>(), k.input(0).shape());
            if constexpr (std::is_same_v<T, bfloat16>) {
              fill_with<T>(out, bfloat16(0.0f));
            } else {
              fill_with<T>(out, T{});
            }
          });
        });
      })
      .speculatable()
      .cost(CostKind::Elementwise).tpu()
      .not_differentiable();

  reg.op("OnesLike")
      .tf_signature("x: T -> y: T")
      .inputs(1)
      .infer([](const InferContext& c) {
        if (c.inputs[0].dtype == DType::String) {
          array::bad_attr_type("T", DType::String, "bfloat16, float, double, int8, uint8, int32, int64, bool");
        }
        return std::vector<TensorSpec>{c.inputs[0]};
      })
      .cpu([](const KernelSpec& s) {
        return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
          return Kernel([](KernelContext& k) {
            Tensor& out = k.allocate_output(0, dtype_of<T>(), k.input(0).shape());
            if constexpr (std::is_same_v<T, std::string>) {
              // Unreachable: the shape rule rejects strings.
            } else if constexpr (std::is_same_v<T, bfloat16>) {
              fill_with<T>(out, bfloat16(1.0f));
            } else {
              fill_with<T>(out, static_cast<T>(1));
            }
          });
        });
      })
      .speculatable()
      .cost(CostKind::Elementwise).tpu()
      .not_differentiable();

  // Range(start, limit, delta): [start, start + delta, ...) up to limit.
  reg.op("Range")
      .tf_signature("start: Tidx, limit: Tidx, delta: Tidx -> output: Tidx")
      .inputs(3)
      .infer([](const InferContext& c) {
        DType t = c.inputs[0].dtype;
        static const char* const kNames[] = {"start", "limit", "delta"};
        for (size_t i = 0; i < 3; ++i) {
          if (c.inputs[i].dtype != t) {
            throw InvalidArgumentError(std::string("Inconsistent values for attr 'Tidx' ") + dtype_tf_string(t) +
                                       " vs. " + dtype_tf_string(c.inputs[i].dtype) + " while building NodeDef 'Range'");
          }
          const Shape& s = c.inputs[i].shape;
          if (s.rank_known() && s.rank() != 0) {
            throw InvalidArgumentError(std::string(kNames[i]) + " must be a scalar, not shape " + s.debug_string());
          }
        }
        dispatch_range(t, []<class T, class C>() {});
        if (c.constant(0) && c.constant(1) && c.constant(2)) {
          return one(t, Shape{range_size_of(*c.constant(0), *c.constant(1), *c.constant(2))});
        }
        return one(t, Shape{kUnknownDim});
      })
      .cpu([](const KernelSpec& s) {
        Kernel kernel;
        dispatch_range(s.inputs[0].dtype, [&]<class T, class C>() {
          kernel = [](KernelContext& k) {
            int64_t n = range_size_of(k.input(0), k.input(1), k.input(2));
            C start = static_cast<C>(k.input(0).scalar_value<T>());
            C delta = static_cast<C>(k.input(2).scalar_value<T>());
            T* out = k.allocate_output(0, dtype_of<T>(), Shape{n}).template data<T>();
            // start + i * delta stays within [start, limit) for the n elements counted.
            for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(start + static_cast<C>(i) * delta);
          };
        });
        return kernel;
      })
      .cost(CostKind::Elementwise).tpu({0, 1, 2})
      .not_differentiable();
}

}  // namespace

void register_array_ops(OpRegistry& reg) {
  // Const: its value is the attribute "value".
  reg.op("Const")
      .tf_signature("-> output: dtype")
      .inputs(0)
      .infer([](const InferContext& c) {
        const Tensor& v = c.attrs.get<Tensor>("value");
        return std::vector<TensorSpec>{{v.dtype(), v.shape()}};
      })
      .cpu([](const KernelSpec& s) {
        Tensor value = s.attrs.get<Tensor>("value");
        return Kernel([value](KernelContext& k) { k.set_output(0, value); });
      })
      .role(OpRole::Constant)
      .speculatable()
      .cost(CostKind::Free).tpu()
      .not_differentiable();

  // Identity, and StopGradient: the identity through which no gradient
  // flows (tf.stop_gradient); after differentiation it is an identity like any.
  auto identity = [&](const char* name) {
    return reg.op(name)
        .inputs(1)
        .tf_signature("input: T -> output: T")
        .infer([](const InferContext& c) { return std::vector<TensorSpec>{c.inputs[0]}; })
        .cpu([](const KernelSpec&) { return Kernel([](KernelContext& k) { k.set_output(0, k.input(0)); }); })
        .role(OpRole::Identity)
        .speculatable()
        .cost(CostKind::Free)
        .tpu();
  };
  identity("Identity").grad([](GradContext& c) { return grads({c.grad(0)}); });
  identity("StopGradient").not_differentiable();

  register_basic_ops(reg);
  register_shape_ops(reg);
  register_concat_ops(reg);
  register_pad_ops(reg);
  register_gather_ops(reg);
  register_scatter_ops(reg);
  register_sort_ops(reg);
  register_slice_ops(reg);
}

}  // namespace ag
