// Math ops (see families.h): this file holds the broadcasting binary
// arithmetic (AddV2 ... DivNoNan, the truncating and bitwise ops) and
// registers the rest of the family from unary_math_ops.cpp, compare_ops.cpp,
// cast_ops.cpp, special_math_ops.cpp and segment_ops.cpp.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <type_traits>

#include "runtime/core/tensor_list.h"
#include "runtime/ops/eager.h"
#include "runtime/ops/families.h"
#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/elementwise_ops.h"
#include "runtime/ops/kernels/int_math.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/registry.h"

namespace ag {

// The rest of the math family, one file each.
void register_unary_math_ops(OpRegistry& reg);    // unary_math_ops.cpp
void register_compare_ops(OpRegistry& reg);       // compare_ops.cpp
void register_cast_ops(OpRegistry& reg);          // cast_ops.cpp
void register_special_math_ops(OpRegistry& reg);  // special_math_ops.cpp
void register_segment_ops(OpRegistry& reg);       // segment_ops.cpp

namespace {

using namespace kernels;

/// TF's integer division kernels fail on a zero divisor instead of trapping.
struct NonZeroDivisor {
  static constexpr TypeMask fails_on = kIntTypes;
  template <class T>
  static void check_rhs(const T* b, int64_t n) {
    if constexpr (kInt<T>) {
      bool zero = false;
      for (int64_t i = 0; i < n; ++i) zero |= b[i] == 0;
      if (zero) throw InvalidArgumentError("Integer division by zero");
    }
  }
};

struct AddOp {
  template <class T>
  static T apply(const T& a, const T& b) {
    if constexpr (kInt<T>) {
      return wrap_add(a, b);
    } else {
      return a + b;  // strings concatenate
    }
  }
};
struct SubOp {
  template <class T>
  static T apply(T a, T b) {
    if constexpr (kInt<T>) return wrap_sub(a, b);
    else return a - b;
  }
};
struct MulOp {
  template <class T>
  static T apply(T a, T b) {
    if constexpr (kInt<T>) return wrap_mul(a, b);
    else return a * b;
  }
};
// Integer RealDiv truncates, as TF's does.
struct RealDivOp : NonZeroDivisor {
  template <class T>
  static T apply(T a, T b) {
    if constexpr (kInt<T>) return trunc_div(a, b);
    else return a / b;
  }
};
// TruncateDiv, TruncateMod: the quotient rounded toward zero and its
// remainder, which has the dividend's sign (C's / and %; fmod for floats).
struct TruncateDivOp : NonZeroDivisor {
  template <class T>
  static T apply(T a, T b) { return trunc_div(a, b); }
};
struct TruncateModOp : NonZeroDivisor {
  template <class T>
  static T apply(T a, T b) {
    if constexpr (kInt<T>) return trunc_mod(a, b);
    else return std::fmod(a, b);
  }
};
struct FloorDivOp : NonZeroDivisor {
  template <class T>
  static T apply(T a, T b) {
    if constexpr (kInt<T>) return floor_div(a, b);
    else return std::floor(a / b);
  }
};
// Float floormod as TF's: fmod, then moved to the divisor's sign.
struct FloorModOp : NonZeroDivisor {
  template <class T>
  static T apply(T a, T b) {
    if constexpr (kInt<T>) {
      return floor_mod(a, b);
    } else {
      T r = std::fmod(a, b);
      return (r != 0 && ((b < 0) != (r < 0))) ? r + b : r;
    }
  }
};
struct PowOp {
  static constexpr TypeMask fails_on = kSignedIntTypes;
  template <class T>
  static void check_rhs(const T* b, int64_t n) {
    if constexpr (kInt<T> && std::is_signed_v<T>) {
      bool neg = false;
      for (int64_t i = 0; i < n; ++i) neg |= b[i] < 0;
      if (neg) throw InvalidArgumentError("Integers to negative integer powers are not allowed");
    }
  }
  template <class T>
  static T apply(T a, T b) {
    if constexpr (kInt<T>) return int_pow(a, b);
    else return std::pow(a, b);
  }
};
// TF's Maximum and Minimum propagate NaN from either side.
struct MaximumOp {
  template <class T>
  static T apply(T a, T b) {
    if constexpr (kInt<T>) return a > b ? a : b;
    else return (a > b || a != a) ? a : b;
  }
};
struct MinimumOp {
  template <class T>
  static T apply(T a, T b) {
    if constexpr (kInt<T>) return a < b ? a : b;
    else return (a < b || a != a) ? a : b;
  }
};
struct SquaredDifferenceOp {
  template <class T>
  static T apply(T a, T b) {
    if constexpr (kInt<T>) {
      T d = wrap_sub(a, b);
      return wrap_mul(d, d);
    } else {
      T d = a - b;
      return d * d;
    }
  }
};
struct DivNoNanOp {
  template <class T>
  static T apply(T a, T b) {
    return b == T(0) ? T(0) : a / b;
  }
};

// Atan2(y, x): the angle of (x, y), its quadrant from both signs (std::atan2,
// as TF's kernel).
struct Atan2Op {
  template <class T>
  static T apply(T y, T x) { return std::atan2(y, x); }
};

// Bitwise ops on integers (TF's bitwise_ops.cc): `&`, `|`, `^` on integer tensors.
struct BitwiseAndOp {
  template <class T>
  static T apply(T a, T b) { return static_cast<T>(a & b); }
};
struct BitwiseOrOp {
  template <class T>
  static T apply(T a, T b) { return static_cast<T>(a | b); }
};
struct BitwiseXorOp {
  template <class T>
  static T apply(T a, T b) { return static_cast<T>(a ^ b); }
};

// LeftShift, RightShift (TF's bitwise_ops.h): the shift is clamped to
// [0, bits - 1]; a left shift happens on the unsigned type (bits shifted out
// are lost, never undefined), a right shift keeps a signed value's sign.
template <class T>
T clamped_shift(T s) {
  constexpr T kMax = static_cast<T>(sizeof(T) * 8 - 1);
  if constexpr (std::is_signed_v<T>) {
    if (s < 0) return 0;
  }
  return s > kMax ? kMax : s;
}
struct LeftShiftOp {
  template <class T>
  static T apply(T a, T b) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) << static_cast<U>(clamped_shift(b))));
  }
};
struct RightShiftOp {
  template <class T>
  static T apply(T a, T b) { return static_cast<T>(a >> clamped_shift(b)); }
};

// TF's op-def lists (BINARY_MORE and friends).
constexpr const char* kBinaryMore =
    "bfloat16, half, float, double, uint8, int8, uint16, int16, int32, int64, uint32, uint64, complex64, complex128";
constexpr TypeMask kArith = kRealTypes;


// ---- gradients (GRADIENTS.md 3.2, TF's math_grad.py): x, y the inputs, z
// the output, g the upstream gradient; each reduced to its input's shape by
// the broadcasting rule (GradContext::unbroadcast).
std::vector<GradTensor> add_grad(GradContext& c) {
  GradTensor g = c.grad(0);
  return grads({c.unbroadcast(g, c.input(0)), c.unbroadcast(g, c.input(1))});
}
std::vector<GradTensor> sub_grad(GradContext& c) {
  GradTensor g = c.grad(0);
  return grads({c.unbroadcast(g, c.input(0)), c.unbroadcast(c.neg(g), c.input(1))});
}
std::vector<GradTensor> mul_grad(GradContext& c) {
  GradTensor g = c.grad(0), x = c.input(0), y = c.input(1);
  return grads({c.needed(0) ? c.unbroadcast(c.mul(g, y), x) : GradTensor{},
                c.needed(1) ? c.unbroadcast(c.mul(x, g), y) : GradTensor{}});
}
/// g/y, and g·(-x/y)/y; DivNoNan the same with its own division.
std::vector<GradTensor> div_grad(GradContext& c, OpType Div) {
  GradTensor g = c.grad(0), x = c.input(0), y = c.input(1);
  auto div = [&](GradTensor a, GradTensor b) { return c.apply1(Div, {a, b}); };
  return grads({c.needed(0) ? c.unbroadcast(div(g, y), x) : GradTensor{},
                c.needed(1) ? c.unbroadcast(c.mul(g, div(div(c.neg(x), y), y)), y) : GradTensor{}});
}
/// g, and -g·floor_div(x, y).
std::vector<GradTensor> floor_mod_grad(GradContext& c) {
  GradTensor g = c.grad(0), x = c.input(0), y = c.input(1);
  return grads({c.unbroadcast(g, x), c.unbroadcast(c.mul(c.neg(g), c.apply1(op::FloorDiv, {x, y})), y)});
}
/// g·y·x^(y-1), and g·z·log(x) where x > 0 (else 0).
std::vector<GradTensor> pow_grad(GradContext& c) {
  GradTensor g = c.grad(0), x = c.input(0), y = c.input(1), z = c.output(0);
  GradTensor gx, gy;
  if (c.needed(0)) {
    GradTensor p = c.apply1(op::Pow, {x, c.sub(y, c.scalar_like(y, 1))});
    gx = c.unbroadcast(c.mul(g, c.mul(y, p)), x);
  }
  if (c.needed(1)) {
    GradTensor zero = c.scalar_like(x, 0);
    GradTensor positive = c.apply1(op::Greater, {x, zero});
    GradTensor log_x = c.select(positive, c.apply1(op::Log, {c.select(positive, x, c.ones_like(x))}), c.zeros_like(x));
    gy = c.unbroadcast(c.mul(g, c.mul(z, log_x)), y);
  }
  return grads({gx, gy});
}
/// The gradient goes to x where x wins (ties included), else to y.
std::vector<GradTensor> min_max_grad(GradContext& c, OpType Wins) {
  GradTensor g = c.grad(0), x = c.input(0), y = c.input(1);
  GradTensor x_wins = c.apply1(Wins, {x, y});
  GradTensor zeros = c.zeros_like(g);
  return grads({c.unbroadcast(c.select(x_wins, g, zeros), x), c.unbroadcast(c.select(x_wins, zeros, g), y)});
}
/// ±2g(x - y).
std::vector<GradTensor> squared_difference_grad(GradContext& c) {
  GradTensor g = c.grad(0), x = c.input(0), y = c.input(1);
  GradTensor d = c.mul(c.mul(c.scalar_like(g, 2), g), c.sub(x, y));
  return grads({c.unbroadcast(d, x), c.unbroadcast(c.neg(d), y)});
}
/// atan2(y, x): g·x/(x² + y²) for y, -g·y/(x² + y²) for x.
std::vector<GradTensor> atan2_grad(GradContext& c) {
  GradTensor g = c.grad(0), y = c.input(0), x = c.input(1);
  GradTensor r = c.div(g, c.add(c.mul(x, x), c.mul(y, y)));
  return grads({c.unbroadcast(c.mul(r, x), y), c.unbroadcast(c.neg(c.mul(r, y)), x)});
}

// ---- AddN: the sum of N tensors of one type and shape, what gradients that
// reach one tensor by several paths are summed with. On TensorLists (a
// list's gradient), the lists' elementwise sums.

constexpr TypeSet kAddNSet{kArith | bit(DType::Variant),
                           "float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
                           "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64, variant"};

std::vector<TensorSpec> infer_add_n(const InferContext& c) {
  const TensorSpec& first = c.inputs[0];
  check_allowed(c.op, first.dtype, kAddNSet);
  Shape shape = first.shape;
  for (size_t i = 1; i < c.inputs.size(); ++i) {
    const TensorSpec& s = c.inputs[i];
    if (s.dtype != first.dtype) {
      // TF names the enum: DT_FLOAT for float32.
      auto enum_name = [](DType t) {
        std::string n = dtype_tf_string(t);
        for (char& ch : n) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        return "DT_" + n;
      };
      throw InvalidArgumentError("Inconsistent values for attr 'T' " + enum_name(first.dtype) + " vs. " +
                                 enum_name(s.dtype) + " while building NodeDef 'AddN'");
    }
    if (!shape.is_compatible_with(s.shape)) {
      throw InvalidArgumentError("Shapes must be equal rank, or dimensions must be equal, but are " + shape.str() +
                                 " and " + s.shape.str() + " for '{{node AddN}}'");
    }
    if (!shape.rank_known() || (s.shape.rank_known() && s.shape.fully_defined())) shape = s.shape;
  }
  return {{first.dtype, shape}};
}

/// a + b for two lists: element i of the sum is the sum of the set ones.
Tensor add_lists(const Tensor& a, const Tensor& b) {
  const TensorList& x = list_of(a);
  const TensorList& y = list_of(b);
  if (x.size != y.size) {
    throw InvalidArgumentError("Trying to add two lists of tensors with different lengths. One is " +
                               std::to_string(x.size) + " and the other is " + std::to_string(y.size));
  }
  std::vector<Tensor> items;
  bool all_set = true;
  for (int64_t i = 0; i < x.size; ++i) {
    Tensor u = x.get(i), v = y.get(i);
    if (u.defined() && v.defined()) {
      Tensor pair[] = {u, v};
      items.push_back(run_op1(op::AddN, pair));
    } else {
      items.push_back(u.defined() ? u : v);
    }
    all_set = all_set && items.back().defined();
  }
  DType dtype = x.element_dtype != DType::Variant ? x.element_dtype : y.element_dtype;
  if (all_set) return list_tensor(TensorList::from_items(dtype, x.element_shape, std::move(items)));
  TensorListPtr sum = TensorList::reserve(dtype, x.element_shape, x.size);
  for (int64_t i = 0; i < x.size; ++i) {
    if (items[static_cast<size_t>(i)].defined()) sum = sum->set(i, items[static_cast<size_t>(i)]);
  }
  return list_tensor(std::move(sum));
}

Kernel add_n_kernel(const KernelSpec& s) {
  if (s.inputs[0].dtype == DType::Variant) {
    return Kernel([](KernelContext& k) {
      Tensor sum = k.input(0);
      for (size_t i = 1; i < k.inputs.size(); ++i) sum = add_lists(sum, k.input(i));
      k.set_output(0, std::move(sum));
    });
  }
  return dispatch_kernel<kArith>("AddN", s.inputs[0].dtype, [&]<class T>() {
    return Kernel([](KernelContext& k) {
      const Tensor& first = k.input(0);
      for (size_t i = 1; i < k.inputs.size(); ++i) {
        if (!(k.input(i).shape() == first.shape())) {
          throw InvalidArgumentError("Inputs to operation AddN of type AddN must have the same size and shape.  "
                                     "Input 0: " + first.shape().debug_string() + " != input " + std::to_string(i) +
                                     ": " + k.input(i).shape().debug_string());
        }
      }
      Tensor& out = k.allocate_output(0, first.dtype(), first.shape());
      T* o = out.data<T>();
      const int64_t n = first.num_elements();
      std::copy(first.data<T>(), first.data<T>() + n, o);
      for (size_t i = 1; i < k.inputs.size(); ++i) {
        const T* x = k.input(i).data<T>();
        for (int64_t j = 0; j < n; ++j) {
          if constexpr (std::is_same_v<T, bfloat16>) {
            o[j] = bfloat16(static_cast<float>(o[j]) + static_cast<float>(x[j]));
          } else {
            o[j] = AddOp::apply(o[j], x[j]);  // integers wrap, as Add's do
          }
        }
      }
    });
  });
}

}  // namespace

void register_math_ops(OpRegistry& reg) {
  reg.op("AddN")
      .tf_signature("inputs: N * T -> sum: T")
      .inputs(1, -1)
      .infer(infer_add_n)
      .cpu(add_n_kernel)
      .cost(CostKind::Elementwise)
      .tpu()
      .grad([](GradContext& c) { return std::vector<GradTensor>(static_cast<size_t>(c.num_inputs()), c.grad(0)); });
  // TF's AddV2 op def lists no string (tf.add picks the old Add for strings);
  // agc's AddV2 concatenates strings too, so one op serves both.
  register_binary<AddOp, kArith | bit(DType::String)>(
      reg, "AddV2",
      "bfloat16, half, float, double, uint8, uint16, uint32, uint64, int8, int16, int32, int64, complex64, complex128")
      .semantic(OpSemantic::Add)
      .commutative()
      .grad(add_grad);
  register_binary<SubOp, kArith>(reg, "Sub", kBinaryMore).semantic(OpSemantic::Sub).grad(sub_grad);
  register_binary<MulOp, kArith>(reg, "Mul", kBinaryMore).semantic(OpSemantic::Mul).commutative().grad(mul_grad);
  register_binary<RealDivOp, kArith>(reg, "RealDiv", kBinaryMore).grad([](GradContext& c) { return div_grad(c, op::RealDiv); });
  register_binary<FloorDivOp, kArith>(reg, "FloorDiv", kBinaryMore).not_differentiable();
  // TF's CPU kernels: TruncateDiv on integers only, TruncateMod also fmod on floats.
  register_binary<TruncateDivOp, kIntTypes>(reg, "TruncateDiv", "uint8, uint16, uint32, uint64, int8, int16, int32, int64")
      .not_differentiable();
  register_binary<TruncateModOp, kIntTypes | kFloatTypes>(reg, "TruncateMod", "int32, int64, bfloat16, half, float, double")
      .grad_unimplemented();
  register_binary<FloorModOp, kArith>(reg, "FloorMod",
                                      "int8, int16, int32, int64, uint8, uint16, uint32, uint64, bfloat16, half, float, double")
      .grad(floor_mod_grad);
  register_binary<PowOp, kFloatTypes | kSignedIntTypes>(
      reg, "Pow", "bfloat16, float, half, double, int8, int16, int32, int64, complex64, complex128")
      .grad(pow_grad);
  constexpr const char* kMinMax = "bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, int64, uint64";
  register_binary<MaximumOp, kArith>(reg, "Maximum", kMinMax).commutative().grad([](GradContext& c) { return min_max_grad(c, op::GreaterEqual); });
  register_binary<MinimumOp, kArith>(reg, "Minimum", kMinMax).commutative().grad([](GradContext& c) { return min_max_grad(c, op::LessEqual); });
  register_binary<SquaredDifferenceOp, kFloatTypes | bit(DType::Int32) | bit(DType::Int64)>(
      reg, "SquaredDifference", "bfloat16, half, float, double, int32, int64, complex64, complex128")
      .commutative()
      .grad(squared_difference_grad);
  register_binary<DivNoNanOp, kFloatTypes>(reg, "DivNoNan", "half, float, bfloat16, double, complex64, complex128")
      .grad([](GradContext& c) { return div_grad(c, op::DivNoNan); });
  register_binary<Atan2Op, kFloatTypes>(reg, "Atan2", "bfloat16, half, float, double").grad(atan2_grad);
  // Integer-only: no gradient (TF registers none for them).
  constexpr const char* kBitwise = "int8, int16, int32, int64, uint8, uint16, uint32, uint64";
  register_binary<BitwiseAndOp, kIntTypes>(reg, "BitwiseAnd", kBitwise).commutative().not_differentiable();
  register_binary<BitwiseOrOp, kIntTypes>(reg, "BitwiseOr", kBitwise).commutative().not_differentiable();
  register_binary<BitwiseXorOp, kIntTypes>(reg, "BitwiseXor", kBitwise).commutative().not_differentiable();
  register_binary<LeftShiftOp, kIntTypes>(reg, "LeftShift", kBitwise).not_differentiable();
  register_binary<RightShiftOp, kIntTypes>(reg, "RightShift", kBitwise).not_differentiable();

  register_unary_math_ops(reg);
  register_compare_ops(reg);
  register_cast_ops(reg);
  register_special_math_ops(reg);
  register_segment_ops(reg);
}

}  // namespace ag
