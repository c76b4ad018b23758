// Reduction ops (TF's math_ops.cc): Sum, Mean, Prod, Max, Min and
// EuclideanNorm over numeric tensors, Any and All over bools, ArgMax/ArgMin, Cumsum. Axes are an input
// (int32 or int64, scalar or vector, negative allowed); the loops live in
// kernels/reduce.h. Cumprod is here for Prod's zero-safe gradient.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/ops/families.h"
#include "runtime/ops/kernels/reduce.h"
#include "runtime/ops/grad_context.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

constexpr const char* kNumericList = "float, double, int32, uint8, int8, int64, bfloat16";

bool numeric_type(DType t) { return is_numeric(t); }
bool bool_type(DType t) { return t == DType::Bool; }

void check_attr_type(const char* attr, DType t, bool ok, const char* allowed) {
  if (!ok) {
    throw InvalidArgumentError(std::string("Value for attr '") + attr + "' of " + dtype_tf_string(t) +
                               " is not in the list of allowed values: " + allowed);
  }
}

void check_index_type(const InferContext& c, const char* attr) {
  DType t = c.inputs[1].dtype;
  check_attr_type(attr, t, t == DType::Int32 || t == DType::Int64, "int32, int64");
}

/// The values of an int32/int64 tensor.
std::vector<int64_t> int_values(const Tensor& t) {
  std::vector<int64_t> v(static_cast<size_t>(t.num_elements()));
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = t.dtype() == DType::Int32 ? t.data<int32_t>()[i] : t.data<int64_t>()[i];
  }
  return v;
}

/// Marks axis `a` in `bitmap` (one flag per dim), checked as TF's
/// ReductionHelper checks it.
void mark_axis(int64_t a, int rank, bool* bitmap) {
  if (a < -rank || a >= rank) {
    throw InvalidArgumentError("Invalid reduction dimension (" + std::to_string(a) + " for input with " +
                               std::to_string(rank) + " dimension(s)");
  }
  int64_t i = a < 0 ? a + rank : a;
  if (bitmap[i]) {
    throw InvalidArgumentError("Invalid reduction arguments: Axes contains duplicate dimension: " + std::to_string(i));
  }
  bitmap[i] = true;
}

/// Which dims the axes tensor (int32/int64) reduces; a fixed array, so the
/// kernels allocate nothing per call.
using Bitmap = std::array<bool, kMaxRank>;
Bitmap reduction_bitmap(const Tensor& axes, int rank) {
  Bitmap bitmap{};
  const int64_t n = axes.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    mark_axis(axes.dtype() == DType::Int32 ? axes.data<int32_t>()[i] : axes.data<int64_t>()[i], rank, bitmap.data());
  }
  return bitmap;
}

Shape reduced_shape(const Shape& in, const Bitmap& bitmap, bool keep_dims) {
  Shape out;
  for (int i = 0; i < in.rank(); ++i) {
    if (!bitmap[static_cast<size_t>(i)]) out.push_back(in.dim(i));
    else if (keep_dims) out.push_back(1);
  }
  return out;
}

/// kernels::ReduceRuns without the heap: the dims collapsed into alternating
/// runs of kept and reduced dims (collapse_runs' rules).
struct SmallRuns {
  int n = 0;
  std::array<int64_t, kMaxRank> sizes{};
  std::array<bool, kMaxRank> reduced{};

  SmallRuns(std::span<const int64_t> dims, const Bitmap& bitmap) {
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] == 1) continue;
      if (n > 0 && reduced[static_cast<size_t>(n - 1)] == bitmap[i]) {
        sizes[static_cast<size_t>(n - 1)] *= dims[i];
      } else {
        sizes[static_cast<size_t>(n)] = dims[i];
        reduced[static_cast<size_t>(n)] = bitmap[i];
        ++n;
      }
    }
  }
  kernels::ReduceRuns to_runs() const {
    kernels::ReduceRuns r;
    r.sizes.assign(sizes.begin(), sizes.begin() + n);
    r.reduced.assign(reduced.begin(), reduced.begin() + n);
    return r;
  }
};

/// reduce_runs for `runs`; a reduction of everything (one reduced run, as
/// reduce_sum(x) without axes) takes a path that allocates nothing, with the
/// same blocked summation order as reduce_runs, so results are identical.
template <class Op, class T, class Acc>
void reduce_into(const T* in, Acc* out, const SmallRuns& runs) {
  if (runs.n == 1 && runs.reduced[0]) {
    const int64_t len = runs.sizes[0];
    Acc a = Op::init();
    for (int64_t b0 = 0; b0 < len; b0 += 4096) {
      const int64_t b1 = std::min(len, b0 + 4096);
      Acc part[8];
      for (Acc& x : part) x = Op::init();
      int64_t j = b0;
      for (; j + 8 <= b1; j += 8) {
        for (int t = 0; t < 8; ++t) part[t] = Op::apply(part[t], Op::load(in[j + t]));
      }
      for (; j < b1; ++j) part[0] = Op::apply(part[0], Op::load(in[j]));
      a = Op::apply(a, Op::apply(Op::apply(Op::apply(part[0], part[1]), Op::apply(part[2], part[3])),
                                 Op::apply(Op::apply(part[4], part[5]), Op::apply(part[6], part[7]))));
    }
    out[0] = Op::apply(out[0], a);
    return;
  }
  kernels::reduce_runs<Op>(in, out, runs.to_runs());
}

// Sum, Mean, Prod, Max, Min, Any, All: (input: T, axis: Tidx) -> T; attr keep_dims.
InferFn infer_reduction(bool (*type_ok)(DType), const char* allowed) {
  return [type_ok, allowed](const InferContext& c) -> std::vector<TensorSpec> {
    DType t = c.inputs[0].dtype;
    check_attr_type("T", t, type_ok(t), allowed);
    check_index_type(c, "Tidx");
    const Shape& in = c.inputs[0].shape;
    bool keep = c.attrs.get_or<bool>("keep_dims", false);
    const Tensor* axis = c.constant(1);
    if (!in.rank_known()) return {{t, Shape::unknown_rank()}};
    if (axis == nullptr) return {{t, keep ? Shape::unknown_dims(in.rank()) : Shape::unknown_rank()}};
    return {{t, reduced_shape(in, reduction_bitmap(*axis, in.rank()), keep)}};
  };
}

// Accumulators: integers add and multiply as unsigned (TF wraps; signed
// overflow would be undefined), bfloat16 in float, the rest in their own type.
template <class T, bool = std::is_integral_v<T> && !std::is_same_v<T, bool>>
struct WrapAccOf {
  using type = std::conditional_t<std::is_same_v<T, bfloat16>, float, T>;
};
template <class T>
struct WrapAccOf<T, true> {
  using type = std::make_unsigned_t<T>;
};
template <class T>
using WrapAcc = typename WrapAccOf<T>::type;
template <class T>
using CompareAcc = std::conditional_t<std::is_same_v<T, bfloat16>, float, T>;

template <class T, class A>
A load_as(T v) {
  if constexpr (std::is_same_v<T, bfloat16>) return static_cast<float>(v);
  else return static_cast<A>(v);
}

template <class T>
struct SumOp {
  using Acc = WrapAcc<T>;
  static Acc init() { return Acc(0); }
  static Acc apply(Acc a, Acc b) { return static_cast<Acc>(a + b); }
  static Acc load(T v) { return load_as<T, Acc>(v); }
};
/// EuclideanNorm's sum of squares (its square root is taken at the end).
template <class T>
struct SumSquaresOp {
  using Acc = WrapAcc<T>;
  static Acc init() { return Acc(0); }
  static Acc apply(Acc a, Acc b) { return static_cast<Acc>(a + b); }
  static Acc load(T v) {
    Acc x = load_as<T, Acc>(v);
    return static_cast<Acc>(x * x);
  }
};
template <class T>
struct ProdOp {
  using Acc = WrapAcc<T>;
  static Acc init() { return Acc(1); }
  static Acc apply(Acc a, Acc b) { return static_cast<Acc>(a * b); }
  static Acc load(T v) { return load_as<T, Acc>(v); }
};
// Max and Min propagate NaN; the identity of an empty reduction is -inf/+inf
// for floats and the type's lowest/highest value for integers (Eigen's).
template <class T>
struct MaxOp {
  using Acc = CompareAcc<T>;
  static Acc init() {
    if constexpr (std::numeric_limits<Acc>::has_infinity) return -std::numeric_limits<Acc>::infinity();
    else return std::numeric_limits<Acc>::lowest();
  }
  static Acc apply(Acc a, Acc b) { return (b > a || b != b) ? b : a; }
  static Acc load(T v) { return load_as<T, Acc>(v); }
};
template <class T>
struct MinOp {
  using Acc = CompareAcc<T>;
  static Acc init() {
    if constexpr (std::numeric_limits<Acc>::has_infinity) return std::numeric_limits<Acc>::infinity();
    else return std::numeric_limits<Acc>::max();
  }
  static Acc apply(Acc a, Acc b) { return (b < a || b != b) ? b : a; }
  static Acc load(T v) { return load_as<T, Acc>(v); }
};
struct AnyOp {
  using Acc = bool;
  static bool init() { return false; }
  static bool apply(bool a, bool b) { return a || b; }
  static bool load(bool v) { return v; }
};
struct AllOp {
  using Acc = bool;
  static bool init() { return true; }
  static bool apply(bool a, bool b) { return a && b; }
  static bool load(bool v) { return v; }
};

/// What a reduction does to each combined value: nothing, divide it by the
/// count of elements combined (Mean), take its square root (EuclideanNorm).
enum class Finish { None, Mean, Sqrt };

/// sqrt(v) in T; an integer's is truncated (Eigen's numext::sqrt), and a sum
/// of squares that wrapped negative gives the type's lowest value, not UB.
template <class T, class V>
T sqrt_as(V v) {
  double r = std::sqrt(static_cast<double>(v));
  if constexpr (std::is_integral_v<T>) {
    return std::isnan(r) ? std::numeric_limits<T>::lowest() : static_cast<T>(r);
  } else {
    return static_cast<T>(std::sqrt(v));
  }
}

/// Reduces `in` into `out` (already shaped), then finishes each result.
template <class Op, class T>
void reduce_typed(const Tensor& in, Tensor& out, const SmallRuns& runs, Finish finish, int64_t count) {
  using Acc = typename Op::Acc;
  int64_t n = out.num_elements();
  T* o = out.data<T>();
  if constexpr (std::is_same_v<Acc, T> || (std::is_integral_v<T> && sizeof(Acc) == sizeof(T))) {
    Acc* acc = reinterpret_cast<Acc*>(o);  // same size: signed and unsigned views of one integer
    std::fill(acc, acc + n, Op::init());
    if (in.num_elements() > 0) reduce_into<Op>(in.data<T>(), acc, runs);
    if (finish == Finish::Sqrt) {
      for (int64_t i = 0; i < n; ++i) o[i] = sqrt_as<T>(o[i]);
    } else if (finish == Finish::Mean) {
      if constexpr (std::is_integral_v<T>) {
        if (count > 0) {
          for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(static_cast<int64_t>(o[i]) / count);
        }
      } else {
        for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(o[i] / static_cast<T>(count));
      }
    }
  } else {
    std::vector<Acc> acc(static_cast<size_t>(n), Op::init());
    if (in.num_elements() > 0) reduce_into<Op>(in.data<T>(), acc.data(), runs);
    for (int64_t i = 0; i < n; ++i) {
      Acc v = acc[static_cast<size_t>(i)];
      if (finish == Finish::Mean) v = static_cast<Acc>(v / static_cast<Acc>(count));
      if (finish == Finish::Sqrt) v = std::sqrt(v);
      o[i] = T(v);
    }
  }
}

enum class Red { Sum, Mean, Prod, Max, Min, Any, All, EuclideanNorm };

template <class T>
void run_reduction(Red r, const Tensor& in, Tensor& out, const SmallRuns& runs, int64_t count) {
  if constexpr (std::is_same_v<T, bool>) {
    if (r == Red::Any) reduce_typed<AnyOp, bool>(in, out, runs, Finish::None, 0);
    else reduce_typed<AllOp, bool>(in, out, runs, Finish::None, 0);
  } else if constexpr (std::is_same_v<T, std::string>) {
    throw InternalError("reduction kernel for string");
  } else {
    switch (r) {
      case Red::Sum: reduce_typed<SumOp<T>, T>(in, out, runs, Finish::None, 0); break;
      case Red::Mean: reduce_typed<SumOp<T>, T>(in, out, runs, Finish::Mean, count); break;
      case Red::Prod: reduce_typed<ProdOp<T>, T>(in, out, runs, Finish::None, 0); break;
      case Red::Max: reduce_typed<MaxOp<T>, T>(in, out, runs, Finish::None, 0); break;
      case Red::EuclideanNorm: reduce_typed<SumSquaresOp<T>, T>(in, out, runs, Finish::Sqrt, 0); break;
      default: reduce_typed<MinOp<T>, T>(in, out, runs, Finish::None, 0); break;
    }
  }
}

/// How a reduction of `in` over `axes` lays out: worked out per run, or once
/// when the axes are a graph constant and the input's shape is known.
struct ReductionLayout {
  Shape out_shape;
  int64_t count = 1;  // input elements combined into each output element
  SmallRuns runs;
  /// Nothing is combined (empty axes, or only size-1 dims): the output is the input reshaped.
  bool passthrough = false;

  ReductionLayout(const Shape& in, const Tensor& axes, bool keep_dims)
      : ReductionLayout(in, reduction_bitmap(axes, in.rank()), keep_dims) {}

 private:
  ReductionLayout(const Shape& in, const Bitmap& bitmap, bool keep_dims)
      : out_shape(reduced_shape(in, bitmap, keep_dims)), runs(in.dims(), bitmap) {
    for (int i = 0; i < in.rank(); ++i) {
      if (bitmap[static_cast<size_t>(i)]) count *= in.dim(i);
    }
    passthrough = count == 1 && in.num_elements() > 0;
  }
};

template <class T>
void run_layout(Red r, DType t, const ReductionLayout& l, KernelContext& k) {
  // One element's norm is its absolute value, not itself.
  if (l.passthrough && r != Red::EuclideanNorm) {
    k.set_output(0, k.input(0).reshaped(l.out_shape));
    return;
  }
  run_reduction<T>(r, k.input(0), k.allocate_output(0, t, l.out_shape), l.runs, l.count);
}

KernelFactory reduction_kernel(Red r) {
  return [r](const KernelSpec& s) -> Kernel {
    bool keep = s.attrs.get_or<bool>("keep_dims", false);
    DType t = s.inputs[0].dtype;
    return dispatch_dtype(t, [&]<class T>() -> Kernel {
      // Constant axes and a known input shape: the layout is worked out once,
      // here (the shape rule has checked the axes).
      const Shape& in_shape = s.inputs[0].shape;
      if (const Tensor* axes = s.constant(1); axes != nullptr && in_shape.fully_defined()) {
        return [r, t, layout = ReductionLayout(in_shape, *axes, keep)](KernelContext& k) {
          run_layout<T>(r, t, layout, k);
        };
      }
      return [r, keep, t](KernelContext& k) {
        run_layout<T>(r, t, ReductionLayout(k.input(0).shape(), k.input(1), keep), k);
      };
    });
  };
}

// ArgMax, ArgMin: (input: T, dimension: Tidx) -> output_type (int64 default).
std::vector<TensorSpec> infer_arg(const InferContext& c) {
  DType t = c.inputs[0].dtype;
  check_attr_type("T", t, is_numeric(t) || t == DType::Bool, "float, double, int32, uint8, int8, int64, bfloat16, bool");
  check_index_type(c, "Tidx");
  DType ot = c.attrs.get_or<DType>("output_type", DType::Int64);
  check_attr_type("output_type", ot, ot == DType::Int32 || ot == DType::Int64, "int32, int64");
  const Shape& in = c.inputs[0].shape;
  const Shape& ds = c.inputs[1].shape;
  if (ds.rank_known() && ds.rank() != 0) {
    throw InvalidArgumentError("dim must be a scalar, but received tensor of shape: " + ds.debug_string());
  }
  const Tensor* dim = c.constant(1);
  if (!in.rank_known()) return {{ot, Shape::unknown_rank()}};
  if (dim == nullptr) return {{ot, in.rank() == 0 ? Shape::unknown_rank() : Shape::unknown_dims(in.rank() - 1)}};
  int64_t d = int_values(*dim)[0];
  int rank = in.rank();
  if (d < -rank || d >= rank) {
    throw InvalidArgumentError("Expected dimension in the range [" + std::to_string(-rank) + ", " +
                               std::to_string(rank) + "), but got " + std::to_string(d));
  }
  int axis = static_cast<int>(d < 0 ? d + rank : d);
  if (in.dim(axis) == 0) {
    throw InvalidArgumentError("Reduction axis " + std::to_string(d) + " is empty in shape " + in.debug_string());
  }
  Shape out;
  for (int i = 0; i < rank; ++i) {
    if (i != axis) out.push_back(in.dim(i));
  }
  return {{ot, out}};
}

// Index of the first largest (smallest) element along the axis; NaNs are
// skipped and an axis of only NaNs gives 0, as Eigen's tuple reducer does.
template <class T, class I>
void arg_reduce(const T* in, I* out, int64_t outer, int64_t len, int64_t inner, bool is_max) {
  using V = CompareAcc<T>;
  std::unique_ptr<V[]> best(new V[static_cast<size_t>(inner)]);
  for (int64_t o = 0; o < outer; ++o) {
    I* idx = out + o * inner;
    const V start = is_max ? std::numeric_limits<V>::lowest() : std::numeric_limits<V>::max();
    std::fill(best.get(), best.get() + inner, start);
    std::fill(idx, idx + inner, I(0));
    for (int64_t l = 0; l < len; ++l) {
      const T* p = in + (o * len + l) * inner;
      for (int64_t i = 0; i < inner; ++i) {
        V v = load_as<T, V>(p[i]);
        V& b = best[static_cast<size_t>(i)];
        if (is_max ? v > b : v < b) {
          b = v;
          idx[i] = static_cast<I>(l);
        }
      }
    }
  }
}

KernelFactory arg_kernel(bool is_max) {
  return [is_max](const KernelSpec& s) -> Kernel {
    DType ot = s.outputs[0].dtype;
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() -> Kernel {
      return [is_max, ot](KernelContext& k) {
        const Tensor& in = k.input(0);
        // Re-check here: the axis may only be known now.
        std::vector<const Tensor*> cs{nullptr, &k.input(1)};
        TensorSpec specs[2] = {{in.dtype(), in.shape()}, {k.input(1).dtype(), k.input(1).shape()}};
        Attrs attrs{{"output_type", ot}};
        InferContext ic{is_max ? "ArgMax" : "ArgMin", specs, attrs, cs};
        Shape out_shape = infer_arg(ic)[0].shape;
        int64_t d = int_values(k.input(1))[0];
        int axis = static_cast<int>(d < 0 ? d + in.rank() : d);
        int64_t outer = 1, inner = 1, len = in.shape().dim(axis);
        for (int i = 0; i < axis; ++i) outer *= in.shape().dim(i);
        for (int i = axis + 1; i < in.rank(); ++i) inner *= in.shape().dim(i);
        Tensor& out = k.allocate_output(0, ot, out_shape);
        if constexpr (std::is_same_v<T, std::string>) {
          throw InternalError("ArgMax kernel for string");
        } else if (ot == DType::Int32) {
          arg_reduce<T, int32_t>(in.data<T>(), out.data<int32_t>(), outer, len, inner, is_max);
        } else {
          arg_reduce<T, int64_t>(in.data<T>(), out.data<int64_t>(), outer, len, inner, is_max);
        }
      };
    });
  };
}

// Cumsum, Cumprod: (x: T, axis: Tidx) -> T; attrs exclusive, reverse.
int cumsum_axis(const Shape& in, const Shape& axis_shape, const Tensor* axis) {
  if (axis_shape.rank_known() && axis_shape.rank() != 0) {
    throw InvalidArgumentError("ScanOp: axis must be a scalar, not " + axis_shape.debug_string());
  }
  if (axis == nullptr || !in.rank_known()) return -1;
  int64_t a = int_values(*axis)[0];
  int rank = in.rank();
  if (a < 0) a += rank;
  if (a < 0 || a >= rank) {
    throw InvalidArgumentError("ScanOp: Expected scan axis in the range [" + std::to_string(-rank) + ", " +
                               std::to_string(rank) + "), but got " + std::to_string(a));
  }
  return static_cast<int>(a);
}

std::vector<TensorSpec> infer_cumsum(const InferContext& c) {
  DType t = c.inputs[0].dtype;
  check_attr_type("T", t, is_numeric(t), kNumericList);
  check_index_type(c, "Tidx");
  cumsum_axis(c.inputs[0].shape, c.inputs[1].shape, c.constant(1));
  return {c.inputs[0]};
}

template <class T>
void cumsum(const T* in, T* out, int64_t outer, int64_t len, int64_t inner, bool exclusive, bool reverse,
            bool product) {
  using Acc = WrapAcc<T>;
  std::vector<Acc> acc(static_cast<size_t>(inner));
  for (int64_t o = 0; o < outer; ++o) {
    std::fill(acc.begin(), acc.end(), Acc(product ? 1 : 0));
    for (int64_t step = 0; step < len; ++step) {
      int64_t l = reverse ? len - 1 - step : step;
      const T* p = in + (o * len + l) * inner;
      T* q = out + (o * len + l) * inner;
      for (int64_t i = 0; i < inner; ++i) {
        Acc& a = acc[static_cast<size_t>(i)];
        Acc v = load_as<T, Acc>(p[i]);
        if (exclusive) q[i] = static_cast<T>(a);
        a = product ? static_cast<Acc>(a * v) : static_cast<Acc>(a + v);
        if (!exclusive) q[i] = static_cast<T>(a);
      }
    }
  }
}

KernelFactory cumsum_kernel(bool product) {
  return [product](const KernelSpec& s) -> Kernel {
    bool exclusive = s.attrs.get_or<bool>("exclusive", false);
    bool reverse = s.attrs.get_or<bool>("reverse", false);
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() -> Kernel {
      if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool>) {
        throw InternalError("Cumsum/Cumprod kernel for a non-numeric dtype");
      } else {
        return [exclusive, reverse, product](KernelContext& k) {
          const Tensor& in = k.input(0);
          int axis = cumsum_axis(in.shape(), k.input(1).shape(), &k.input(1));
          Tensor& out = k.allocate_output(0, in.dtype(), in.shape());
          if (in.num_elements() == 0) return;
          int64_t outer = 1, inner = 1, len = in.shape().dim(axis);
          for (int i = 0; i < axis; ++i) outer *= in.shape().dim(i);
          for (int i = axis + 1; i < in.rank(); ++i) inner *= in.shape().dim(i);
          cumsum<T>(in.data<T>(), out.data<T>(), outer, len, inner, exclusive, reverse, product);
        };
      }
    });
  };
}

// ---- gradients (GRADIENTS.md 3.2, TF's math_grad.py)
/// kept_shape computed at run time (TF's math_ops.reduced_shape), for an input
/// of unknown rank or axes known only then: tf.shape(x) with 1 at each axis
/// (negative axes counted from the end).
GradTensor dynamic_kept_shape(GradContext& c) {
  auto i32 = [&](int32_t v) { return c.constant(Tensor::scalar(v)); };
  GradTensor shape = c.shape_of(c.input(0));
  GradTensor rank = c.apply1(op::Size, {shape}, Attrs{{"out_type", DType::Int32}});
  GradTensor axes = c.reshape(c.cast(c.input(1), DType::Int32), c.ints({-1}));
  axes = c.apply1(op::FloorMod, {c.add(axes, rank), rank});
  GradTensor dims = c.apply1(op::Range, {i32(0), rank, i32(1)}, Attrs{{"Tidx", DType::Int32}});
  GradTensor hit = c.apply1(op::Equal, {c.apply1(op::ExpandDims, {dims, i32(1)}), c.apply1(op::ExpandDims, {axes, i32(0)})});
  GradTensor reduced = c.apply1(op::Any, {hit, i32(1)}, Attrs{{"keep_dims", false}, {"Tidx", DType::Int32}});
  return c.select(reduced, c.ones_like(shape), shape);
}

/// The reduced input's shape with its reduced axes set to 1, as a tensor:
/// what g (reduced without keep_dims) is reshaped to before it broadcasts
/// back. Static when the axes' values and the input's rank are known while
/// building, computed at run time otherwise.
GradTensor kept_shape(GradContext& c) {
  const Shape& in = c.spec(c.input(0)).shape;
  const Tensor* axes = c.value(c.input(1));
  if (axes == nullptr || !in.rank_known()) return dynamic_kept_shape(c);
  std::vector<bool> reduced(in.rank(), false);
  for (int64_t i = 0; i < axes->num_elements(); ++i) {
    int64_t a = axes->dtype() == DType::Int64 ? axes->data<int64_t>()[i] : axes->data<int32_t>()[i];
    reduced[a < 0 ? a + in.rank() : a] = true;
  }
  if (in.fully_defined()) {
    Tensor s(DType::Int32, Shape{in.rank()});
    for (int i = 0; i < in.rank(); ++i) s.data<int32_t>()[i] = reduced[i] ? 1 : static_cast<int32_t>(in.dim(i));
    return c.constant(s);
  }
  Tensor mask(DType::Bool, Shape{in.rank()});
  for (int i = 0; i < in.rank(); ++i) mask.data<bool>()[i] = reduced[i];
  Tensor ones(DType::Int32, Shape{in.rank()});
  for (int i = 0; i < in.rank(); ++i) ones.data<int32_t>()[i] = 1;
  return c.select(c.constant(mask), c.constant(ones), c.shape_of(c.input(0)));
}

/// g reshaped to the kept dims (unless keep_dims kept them), broadcast to x.
GradTensor spread(GradContext& c, GradTensor g) {
  GradTensor kept = c.attrs().get_or<bool>("keep_dims", false) ? g : c.reshape(g, kept_shape(c));
  return c.mul(kept, c.ones_like(c.input(0)));
}

std::vector<GradTensor> sum_grad(GradContext& c) { return grads({spread(c, c.grad(0)), GradTensor{}}); }

/// Sum's gradient ÷ (input size / output size).
std::vector<GradTensor> mean_grad(GradContext& c) {
  GradTensor x = c.input(0), y = c.output(0);
  GradTensor count;
  const Shape &xs = c.spec(x).shape, &ys = c.spec(y).shape;
  if (xs.fully_defined() && ys.fully_defined()) {
    int64_t ny = ys.num_elements();
    count = c.scalar_like(x, ny == 0 ? 1.0 : static_cast<double>(xs.num_elements()) / static_cast<double>(ny));
  } else {
    Attrs size_attrs{{"out_type", DType::Int32}};
    GradTensor nx = c.cast(c.apply1(op::Size, {x}, size_attrs), c.dtype(x));
    GradTensor ny = c.cast(c.apply1(op::Maximum, {c.apply1(op::Size, {y}, size_attrs), c.constant(Tensor::scalar(int32_t{1}))}),
                           c.dtype(x));
    count = c.div(nx, ny);
  }
  return grads({c.div(spread(c, c.grad(0)), count), GradTensor{}});
}

/// Max/Min: g shared equally among the elements equal to the result.
std::vector<GradTensor> extremum_grad(GradContext& c) {
  GradTensor x = c.input(0);
  bool keep = c.attrs().get_or<bool>("keep_dims", false);
  GradTensor y = keep ? c.output(0) : c.reshape(c.output(0), kept_shape(c));
  GradTensor g = keep ? c.grad(0) : c.reshape(c.grad(0), kept_shape(c));
  GradTensor hits = c.cast(c.apply1(op::Equal, {y, x}), c.dtype(x));
  GradTensor count = c.apply1(op::Sum, {hits, c.input(1)}, Attrs{{"keep_dims", true}, {"Tidx", c.dtype(c.input(1))}});
  return grads({c.mul(c.div(hits, count), g), GradTensor{}});
}


/// EuclideanNorm (TF's _EuclideanNormGrad): x / (y / g), y and g with the
/// reduced dims kept.
std::vector<GradTensor> euclidean_norm_grad(GradContext& c) {
  bool keep = c.attrs().get_or<bool>("keep_dims", false);
  GradTensor y = keep ? c.output(0) : c.reshape(c.output(0), kept_shape(c));
  GradTensor g = keep ? c.grad(0) : c.reshape(c.grad(0), kept_shape(c));
  return grads({c.div(c.input(0), c.div(y, g)), GradTensor{}});
}

/// Cumsum: the cumsum of g the other way (reverse flipped, exclusive kept).
std::vector<GradTensor> cumsum_grad(GradContext& c) {
  Attrs a = c.attrs();
  a.set("reverse", !c.attrs().get_or<bool>("reverse", false));
  a.set("exclusive", c.attrs().get_or<bool>("exclusive", false));
  return grads({c.apply1(op::Cumsum, {c.grad(0), c.input(1)}, a), GradTensor{}});
}

/// Cumprod (TF's _CumprodGrad): cumsum(cumprod(x) · g) the other way, ÷ x
/// (div_no_nan: 0 where x is 0).
std::vector<GradTensor> cumprod_grad(GradContext& c) {
  GradTensor x = c.input(0), axis = c.input(1);
  Attrs back = c.attrs();
  back.set("reverse", !c.attrs().get_or<bool>("reverse", false));
  back.set("exclusive", c.attrs().get_or<bool>("exclusive", false));
  GradTensor out = c.apply1(op::Cumsum, {c.mul(c.output(0), c.grad(0)), axis}, back);
  return grads({c.apply1(op::DivNoNan, {out, x}), GradTensor{}});
}

/// Prod (TF's _ProdGrad), zero-safe: the reduced axes are moved to the front
/// and flattened to one, and each element's gradient is the product of the
/// others along it, an exclusive cumprod from each side multiplied: no
/// division, so zeros in x are fine.
std::vector<GradTensor> prod_grad(GradContext& c) {
  GradTensor x = c.input(0);
  const Shape& xs = c.spec(x).shape;
  const Tensor* axes = c.value(c.input(1));
  if (axes == nullptr || !xs.rank_known()) {
    throw UnimplementedError("The gradient of Prod needs its axes and its input's rank known while tracing");
  }
  const int r = xs.rank();
  std::vector<bool> is_reduced(static_cast<size_t>(r), false);
  for (int64_t a : int_values(*axes)) is_reduced[static_cast<size_t>(a < 0 ? a + r : a)] = true;
  std::vector<int64_t> perm, reduced, other;
  for (int i = 0; i < r; ++i) (is_reduced[static_cast<size_t>(i)] ? reduced : other).push_back(i);
  perm = reduced;
  perm.insert(perm.end(), other.begin(), other.end());
  std::vector<int64_t> inverse(static_cast<size_t>(r));
  for (int i = 0; i < r; ++i) inverse[static_cast<size_t>(perm[static_cast<size_t>(i)])] = i;
  GradTensor permuted = c.apply1(op::Transpose, {x, c.ints(perm)});
  // [product of the reduced dims, the rest]
  GradTensor matrix_shape;
  if (xs.fully_defined()) {
    int64_t n = 1, m = 1;
    for (int64_t a : reduced) n *= xs.dim(static_cast<int>(a));
    for (int64_t a : other) m *= xs.dim(static_cast<int>(a));
    matrix_shape = c.ints({n, m});
  } else {
    GradTensor dims = c.apply1(op::GatherV2, {c.shape_of(x), c.ints(reduced), c.constant(Tensor::scalar(int32_t{0}))},
                               Attrs{{"batch_dims", int64_t{0}}});
    GradTensor n = c.apply1(op::Prod, {dims, c.ints({0})}, Attrs{{"keep_dims", true}, {"Tidx", DType::Int32}});
    matrix_shape = c.apply(op::ConcatV2, std::vector<GradTensor>{n, c.ints({-1}), c.constant(Tensor::scalar(int32_t{0}))})[0];
  }
  GradTensor matrix = c.reshape(permuted, matrix_shape);
  GradTensor zero = c.constant(Tensor::scalar(int32_t{0}));
  Attrs left_attrs{{"exclusive", true}, {"reverse", false}}, right_attrs{{"exclusive", true}, {"reverse", true}};
  GradTensor left = c.apply1(op::Cumprod, {matrix, zero}, left_attrs);
  GradTensor right = c.apply1(op::Cumprod, {matrix, zero}, right_attrs);
  GradTensor others = c.reshape(c.mul(left, right), c.shape_of(permuted));
  others = c.apply1(op::Transpose, {others, c.ints(inverse)});
  return grads({c.mul(spread(c, c.grad(0)), others), GradTensor{}});
}

}  // namespace

void register_reduction_ops(OpRegistry& reg) {
  reg.op("Sum").inputs(2).tf_signature("input: T, reduction_indices: Tidx -> output: T").infer(infer_reduction(numeric_type, kNumericList)).cpu(reduction_kernel(Red::Sum))
      .cost(CostKind::Elementwise)
      .tpu({1})
      .grad(sum_grad);
  reg.op("Mean").inputs(2).tf_signature("input: T, reduction_indices: Tidx -> output: T").infer(infer_reduction(numeric_type, kNumericList)).cpu(reduction_kernel(Red::Mean))
      .cost(CostKind::Elementwise)
      .tpu({1})
      .grad(mean_grad);
  reg.op("Prod").inputs(2).tf_signature("input: T, reduction_indices: Tidx -> output: T").infer(infer_reduction(numeric_type, kNumericList)).cpu(reduction_kernel(Red::Prod))
      .cost(CostKind::Elementwise)
      .tpu({1})
      .grad(prod_grad);
  reg.op("Max").inputs(2).tf_signature("input: T, reduction_indices: Tidx -> output: T").infer(infer_reduction(numeric_type, kNumericList)).cpu(reduction_kernel(Red::Max))
      .cost(CostKind::Elementwise)
      .tpu({1})
      .grad(extremum_grad);
  reg.op("Min").inputs(2).tf_signature("input: T, reduction_indices: Tidx -> output: T").infer(infer_reduction(numeric_type, kNumericList)).cpu(reduction_kernel(Red::Min))
      .cost(CostKind::Elementwise)
      .tpu({1})
      .grad(extremum_grad);
  reg.op("EuclideanNorm").inputs(2).tf_signature("input: T, reduction_indices: Tidx -> output: T").infer(infer_reduction(numeric_type, kNumericList))
      .cpu(reduction_kernel(Red::EuclideanNorm))
      .cost(CostKind::Elementwise)
      .tpu({1})
      .grad(euclidean_norm_grad);
  reg.op("Any").inputs(2).tf_signature("input: bool, reduction_indices: Tidx -> output: bool").infer(infer_reduction(bool_type, "bool")).cpu(reduction_kernel(Red::Any))
      .cost(CostKind::Elementwise)
      .tpu({1})
      .not_differentiable();
  reg.op("All").inputs(2).tf_signature("input: bool, reduction_indices: Tidx -> output: bool").infer(infer_reduction(bool_type, "bool")).cpu(reduction_kernel(Red::All))
      .cost(CostKind::Elementwise)
      .tpu({1})
      .not_differentiable();
  reg.op("ArgMax").inputs(2).tf_signature("input: T, dimension: Tidx -> output: output_type").infer(infer_arg).cpu(arg_kernel(true))
      .cost(CostKind::Elementwise)
      .tpu({1})
      .not_differentiable();
  reg.op("ArgMin").inputs(2).tf_signature("input: T, dimension: Tidx -> output: output_type").infer(infer_arg).cpu(arg_kernel(false))
      .cost(CostKind::Elementwise)
      .tpu({1})
      .not_differentiable();
  reg.op("Cumsum").tf_signature("x: T, axis: Tidx -> out: T").inputs(2).infer(infer_cumsum).cpu(cumsum_kernel(false))
      .cost(CostKind::Elementwise)
      .tpu({1})
      .grad(cumsum_grad);
  reg.op("Cumprod").tf_signature("x: T, axis: Tidx -> out: T").inputs(2).infer(infer_cumsum).cpu(cumsum_kernel(true))
      .cost(CostKind::Elementwise)
      .tpu()
      .grad(cumprod_grad);
}

}  // namespace ag
