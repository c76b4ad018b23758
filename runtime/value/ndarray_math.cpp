// NumPy's ufuncs: operand conversion, type resolution (numpy_dtype.h),
// broadcasting, and the element loops (numpy/core/src/umath/loops*.c.src and
// npy_math's divmod semantics).
#include "runtime/value/ndarray_math.h"

#include <cmath>
#include <type_traits>

#include "runtime/ops/kernels/int_math.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/numpy_dtype.h"

namespace ag::ndarray {
namespace {

using kernels::kInt;

/// A ufunc's operand: its elements and how type resolution sees it.
struct Arg {
  Tensor t;
  numpy::Operand op;
};

Arg to_arg(const Value& v) {
  Tensor t = to_array(v);
  numpy::Operand o = v.is_bool() || v.is_int() || v.is_float() ? numpy::python_operand(v) : operand_of(t);
  return {std::move(t), o};
}

// ---- Element functions, one per ufunc; T the loop's element type.

template <class T>
bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(x);
  return false;
}

/// npy_divmod: Python's float divmod (the remainder has the divisor's sign,
/// a zero remainder is +-0 with the divisor's sign, the quotient is rounded to
/// the nearest integer that divmod's identity allows).
template <class T>
void float_divmod(T a, T b, T& floordiv, T& mod) {
  mod = std::fmod(a, b);
  if (b == 0) {
    floordiv = a / b;
    return;
  }
  T div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= T(1);
    }
  } else {
    mod = std::copysign(T(0), b);
  }
  if (div != 0) {
    floordiv = std::floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
  } else {
    floordiv = std::copysign(T(0), a / b);
  }
}

template <class T>
T binary_value(Binary f, T a, T b) {
  using kernels::wrap_add;
  using kernels::wrap_mul;
  using kernels::wrap_sub;
  switch (f) {
    case Binary::Add:
      if constexpr (std::is_same_v<T, bool>) return a || b;
      else if constexpr (kInt<T>) return wrap_add(a, b);
      else return a + b;
    case Binary::Subtract:
      if constexpr (kInt<T>) return wrap_sub(a, b);
      else if constexpr (std::is_floating_point_v<T>) return a - b;
      break;
    case Binary::Multiply:
      if constexpr (std::is_same_v<T, bool>) return a && b;
      else if constexpr (kInt<T>) return wrap_mul(a, b);
      else return a * b;
    case Binary::TrueDivide:
      if constexpr (std::is_floating_point_v<T>) return a / b;
      break;
    case Binary::FloorDivide:
      if constexpr (kInt<T>) {
        return b == 0 ? T(0) : kernels::floor_div(a, b);
      } else if constexpr (std::is_floating_point_v<T>) {
        T q, m;
        float_divmod(a, b, q, m);
        return q;
      }
      break;
    case Binary::Remainder:
      if constexpr (kInt<T>) {
        return b == 0 ? T(0) : kernels::floor_mod(a, b);
      } else if constexpr (std::is_floating_point_v<T>) {
        if (b == 0) return std::fmod(a, b);
        T q, m;
        float_divmod(a, b, q, m);
        return m;
      }
      break;
    case Binary::Power:
      if constexpr (kInt<T>) return kernels::int_pow(a, b);
      else if constexpr (std::is_floating_point_v<T>) return std::pow(a, b);
      break;
    case Binary::Maximum:
      if constexpr (std::is_same_v<T, bool>) return a || b;
      else return (a >= b || is_nan(a)) ? a : b;
    case Binary::Minimum:
      if constexpr (std::is_same_v<T, bool>) return a && b;
      else return (a <= b || is_nan(a)) ? a : b;
    case Binary::Arctan2:
      if constexpr (std::is_floating_point_v<T>) return std::atan2(a, b);
      break;
    case Binary::BitwiseAnd:
      if constexpr (std::is_integral_v<T>) return static_cast<T>(a & b);
      break;
    case Binary::BitwiseOr:
      if constexpr (std::is_integral_v<T>) return static_cast<T>(a | b);
      break;
    case Binary::BitwiseXor:
      if constexpr (std::is_integral_v<T>) return static_cast<T>(a ^ b);
      break;
    default: break;
  }
  throw InternalError(std::string("ufunc ") + ufunc_name(f) + " has no loop for its resolved type");
}

template <class T>
bool compare_value(Binary f, T a, T b) {
  switch (f) {
    case Binary::Less: return a < b;
    case Binary::LessEqual: return a <= b;
    case Binary::Greater: return a > b;
    case Binary::GreaterEqual: return a >= b;
    case Binary::Equal: return a == b;
    case Binary::NotEqual: return a != b;
    case Binary::LogicalAnd: return a != T(0) && b != T(0);
    case Binary::LogicalOr: return a != T(0) || b != T(0);
    case Binary::LogicalXor: return (a != T(0)) != (b != T(0));
    default: break;
  }
  throw InternalError(std::string("ufunc ") + ufunc_name(f) + " is not a comparison");
}

bool is_comparison(Binary f) {
  switch (f) {
    case Binary::Less:
    case Binary::LessEqual:
    case Binary::Greater:
    case Binary::GreaterEqual:
    case Binary::Equal:
    case Binary::NotEqual:
    case Binary::LogicalAnd:
    case Binary::LogicalOr:
    case Binary::LogicalXor: return true;
    default: return false;
  }
}

// ---- Broadcasting loops.

/// Strides of `s` aligned to the trailing dims of an `out`-ranked result,
/// 0 where it broadcasts.
std::vector<int64_t> broadcast_strides(const Shape& s, const Shape& out) {
  std::vector<int64_t> st(static_cast<size_t>(out.rank()), 0);
  int64_t stride = 1;
  for (int i = s.rank() - 1; i >= 0; --i) {
    int j = out.rank() - s.rank() + i;
    st[static_cast<size_t>(j)] = s.dim(i) == 1 ? 0 : stride;
    stride *= s.dim(i);
  }
  return st;
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  int r = std::max(a.rank(), b.rank());
  Shape out;
  for (int i = 0; i < r; ++i) {
    int64_t da = i < r - a.rank() ? 1 : a.dim(i - (r - a.rank()));
    int64_t db = i < r - b.rank() ? 1 : b.dim(i - (r - b.rank()));
    if (da != db && da != 1 && db != 1) {
      throw ValueError("operands could not be broadcast together with shapes " + a.str() + " " + b.str() + " ");
    }
    out.push_back(da == 1 ? db : da);
  }
  return out;
}

/// out[i] = f(a[..], b[..]) over the broadcast of a and b.
template <class T, class R, class F>
Tensor map2(const Tensor& a, const Tensor& b, F f) {
  Shape shape = broadcast_shapes(a.shape(), b.shape());
  Tensor out(dtype_of<R>(), shape);
  int64_t n = out.num_elements();
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  R* po = out.data<R>();
  if (a.shape() == b.shape()) {
    for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], pb[i]);
    return out;
  }
  std::vector<int64_t> sa = broadcast_strides(a.shape(), shape), sb = broadcast_strides(b.shape(), shape);
  std::vector<int64_t> pos(static_cast<size_t>(shape.rank()), 0);
  int64_t oa = 0, ob = 0;
  for (int64_t i = 0; i < n; ++i) {
    po[i] = f(pa[oa], pb[ob]);
    for (int k = shape.rank() - 1; k >= 0; --k) {
      auto ku = static_cast<size_t>(k);
      oa += sa[ku];
      ob += sb[ku];
      if (++pos[ku] < shape.dim(k)) break;
      oa -= sa[ku] * shape.dim(k);
      ob -= sb[ku] * shape.dim(k);
      pos[ku] = 0;
    }
  }
  return out;
}

template <class T, class R, class F>
Tensor map1(const Tensor& x, F f) {
  Tensor out(dtype_of<R>(), x.shape());
  const T* px = x.data<T>();
  R* po = out.data<R>();
  for (int64_t i = 0; i < x.num_elements(); ++i) po[i] = f(px[i]);
  return out;
}

[[noreturn]] void no_loop(const char* name) {
  throw TypeError(std::string("ufunc '") + name +
                  "' not supported for the input types, and the inputs could not be safely coerced to any supported "
                  "types according to the casting rule ''safe''");
}

/// The dtype a ufunc computes in, from the operands' common type.
DType loop_dtype(Binary f, DType common) {
  bool exact = common == DType::Bool || is_integer(common);
  switch (f) {
    case Binary::TrueDivide:
    case Binary::Arctan2: return exact ? DType::Float64 : common;
    case Binary::Subtract:
      if (common == DType::Bool) {
        throw TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                        "operator, or the logical_xor function instead.");
      }
      return common;
    case Binary::FloorDivide:
    case Binary::Remainder:
    case Binary::Power: return common == DType::Bool ? DType::Int8 : common;
    case Binary::BitwiseAnd:
    case Binary::BitwiseOr:
    case Binary::BitwiseXor:
      if (!exact) no_loop(ufunc_name(f));
      return common;
    default: return common;
  }
}

bool all_zero_d(const Arg& a, const Arg& b) { return a.t.rank() == 0 && b.t.rank() == 0; }

}  // namespace

const char* ufunc_name(Binary f) {
  switch (f) {
    case Binary::Add: return "add";
    case Binary::Subtract: return "subtract";
    case Binary::Multiply: return "multiply";
    case Binary::TrueDivide: return "divide";
    case Binary::FloorDivide: return "floor_divide";
    case Binary::Remainder: return "remainder";
    case Binary::Power: return "power";
    case Binary::Maximum: return "maximum";
    case Binary::Minimum: return "minimum";
    case Binary::Arctan2: return "arctan2";
    case Binary::Less: return "less";
    case Binary::LessEqual: return "less_equal";
    case Binary::Greater: return "greater";
    case Binary::GreaterEqual: return "greater_equal";
    case Binary::Equal: return "equal";
    case Binary::NotEqual: return "not_equal";
    case Binary::BitwiseAnd: return "bitwise_and";
    case Binary::BitwiseOr: return "bitwise_or";
    case Binary::BitwiseXor: return "bitwise_xor";
    case Binary::LogicalAnd: return "logical_and";
    case Binary::LogicalOr: return "logical_or";
    case Binary::LogicalXor: return "logical_xor";
  }
  return "?";
}

const char* ufunc_name(Unary f) {
  switch (f) {
    case Unary::Negative: return "negative";
    case Unary::Positive: return "positive";
    case Unary::Absolute: return "absolute";
    case Unary::Invert: return "invert";
    case Unary::LogicalNot: return "logical_not";
    case Unary::Sign: return "sign";
    case Unary::Square: return "square";
    case Unary::Sqrt: return "sqrt";
    case Unary::Exp: return "exp";
    case Unary::Log: return "log";
    case Unary::Log2: return "log2";
    case Unary::Log10: return "log10";
    case Unary::Log1p: return "log1p";
    case Unary::Expm1: return "expm1";
    case Unary::Sin: return "sin";
    case Unary::Cos: return "cos";
    case Unary::Tan: return "tan";
    case Unary::Arcsin: return "arcsin";
    case Unary::Arccos: return "arccos";
    case Unary::Arctan: return "arctan";
    case Unary::Sinh: return "sinh";
    case Unary::Cosh: return "cosh";
    case Unary::Tanh: return "tanh";
    case Unary::Floor: return "floor";
    case Unary::Ceil: return "ceil";
    case Unary::Trunc: return "trunc";
    case Unary::Rint: return "rint";
    case Unary::IsNan: return "isnan";
    case Unary::IsInf: return "isinf";
    case Unary::IsFinite: return "isfinite";
  }
  return "?";
}

bool ufunc_operand(const Value& v) { return v.is_ndarray() || v.is_bool() || v.is_int() || v.is_float(); }

Value apply(Binary f, const Value& a_in, const Value& b_in) {
  Arg a = to_arg(a_in), b = to_arg(b_in);
  if (a.t.dtype() == DType::String || b.t.dtype() == DType::String) {
    if (f == Binary::Equal || f == Binary::NotEqual) {
      if (a.t.dtype() == b.t.dtype()) {
        Tensor r = map2<std::string, bool>(a.t, b.t, [f](const std::string& x, const std::string& y) {
          return (x == y) == (f == Binary::Equal);
        });
        return all_zero_d(a, b) ? scalar(std::move(r)) : array(std::move(r));
      }
    }
    no_loop(ufunc_name(f));
  }
  numpy::Operand ops[2] = {a.op, b.op};
  DType common = numpy::result_type(ops);
  Tensor out;
  if (is_comparison(f)) {
    Tensor x = cast(a.t, common), y = cast(b.t, common);
    out = dispatch_dtype(common, [&]<class T>() -> Tensor {
      if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bfloat16>) {
        no_loop(ufunc_name(f));
      } else {
        return map2<T, bool>(x, y, [f](T p, T q) { return compare_value(f, p, q); });
      }
    });
  } else {
    DType loop = loop_dtype(f, common);
    if (f == Binary::Power && is_integer(loop)) {
      // NumPy checks the exponents before computing.
      Tensor e = cast(b.t, DType::Int64);
      for (int64_t i = 0; i < e.num_elements(); ++i) {
        if (e.data<int64_t>()[i] < 0) throw ValueError("Integers to negative integer powers are not allowed.");
      }
    }
    Tensor x = cast(a.t, loop), y = cast(b.t, loop);
    out = dispatch_dtype(loop, [&]<class T>() -> Tensor {
      if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bfloat16>) {
        no_loop(ufunc_name(f));
      } else {
        return map2<T, T>(x, y, [f](T p, T q) { return binary_value(f, p, q); });
      }
    });
  }
  return all_zero_d(a, b) ? scalar(std::move(out)) : array(std::move(out));
}

namespace {

/// The float type a math function of `t` computes in (NumPy's loops are
/// float16/32/64: small integers would need float16, which agc lacks).
DType float_loop(Unary f, DType t) {
  switch (t) {
    case DType::Float32:
    case DType::Float64: return t;
    case DType::Int32:
    case DType::Int64: return DType::Float64;
    case DType::Bool:
    case DType::Int8:
    case DType::UInt8:
      throw NotImplementedError(std::string("np.") + ufunc_name(f) + " of " + numpy::dtype_name(t) +
                                " values computes in float16, which agc does not support; convert with "
                                ".astype(np.float32) first");
    default: no_loop(ufunc_name(f));
  }
}

template <class T>
T math_value(Unary f, T x) {
  switch (f) {
    case Unary::Sqrt: return std::sqrt(x);
    case Unary::Exp: return std::exp(x);
    case Unary::Log: return std::log(x);
    case Unary::Log2: return std::log2(x);
    case Unary::Log10: return std::log10(x);
    case Unary::Log1p: return std::log1p(x);
    case Unary::Expm1: return std::expm1(x);
    case Unary::Sin: return std::sin(x);
    case Unary::Cos: return std::cos(x);
    case Unary::Tan: return std::tan(x);
    case Unary::Arcsin: return std::asin(x);
    case Unary::Arccos: return std::acos(x);
    case Unary::Arctan: return std::atan(x);
    case Unary::Sinh: return std::sinh(x);
    case Unary::Cosh: return std::cosh(x);
    case Unary::Tanh: return std::tanh(x);
    case Unary::Floor: return std::floor(x);
    case Unary::Ceil: return std::ceil(x);
    case Unary::Trunc: return std::trunc(x);
    case Unary::Rint: return std::nearbyint(x);
    default: break;
  }
  throw InternalError(std::string("ufunc ") + ufunc_name(f) + " is not a float function");
}

Tensor exact_unary(Unary f, const Tensor& x) {
  DType t = x.dtype();
  return dispatch_dtype(t, [&]<class T>() -> Tensor {
    if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bfloat16>) {
      no_loop(ufunc_name(f));
    } else {
      switch (f) {
        case Unary::Negative:
          if constexpr (std::is_same_v<T, bool>) {
            throw TypeError("The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or "
                            "the logical_not function instead.");
          } else if constexpr (kInt<T>) {
            return map1<T, T>(x, [](T v) { return kernels::wrap_neg(v); });
          } else {
            return map1<T, T>(x, [](T v) { return -v; });
          }
        case Unary::Positive: return x.clone();
        case Unary::Absolute:
          if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) {
            return x.clone();
          } else if constexpr (kInt<T>) {
            return map1<T, T>(x, [](T v) { return v < 0 ? kernels::wrap_neg(v) : v; });
          } else {
            return map1<T, T>(x, [](T v) { return std::fabs(v); });
          }
        case Unary::Invert:
          if constexpr (std::is_same_v<T, bool>) {
            return map1<T, T>(x, [](T v) { return !v; });
          } else if constexpr (kInt<T>) {
            return map1<T, T>(x, [](T v) { return static_cast<T>(~v); });
          } else {
            no_loop("invert");
          }
        case Unary::LogicalNot: return map1<T, bool>(x, [](T v) { return v == T(0); });
        case Unary::Sign:
          if constexpr (std::is_same_v<T, bool>) {
            no_loop("sign");
          } else {
            return map1<T, T>(x, [](T v) -> T {
              if (is_nan(v)) return v;
              return v > T(0) ? T(1) : (v < T(0) ? T(-1) : T(0));
            });
          }
        case Unary::Square:
          if constexpr (std::is_same_v<T, bool>) {
            return map1<T, int8_t>(x, [](T v) { return static_cast<int8_t>(v); });
          } else if constexpr (kInt<T>) {
            return map1<T, T>(x, [](T v) { return kernels::wrap_mul(v, v); });
          } else {
            return map1<T, T>(x, [](T v) { return v * v; });
          }
        case Unary::IsNan: return map1<T, bool>(x, [](T v) { return is_nan(v); });
        case Unary::IsInf:
          return map1<T, bool>(x, [](T v) {
            if constexpr (std::is_floating_point_v<T>) return std::isinf(v);
            return false;
          });
        case Unary::IsFinite:
          return map1<T, bool>(x, [](T v) {
            if constexpr (std::is_floating_point_v<T>) return std::isfinite(v);
            return true;
          });
        default: break;
      }
      throw InternalError("not an exact unary ufunc");
    }
  });
}

}  // namespace

Value apply(Unary f, const Value& x_in) {
  Arg x = to_arg(x_in);
  Tensor out;
  switch (f) {
    case Unary::Negative:
    case Unary::Positive:
    case Unary::Absolute:
    case Unary::Invert:
    case Unary::LogicalNot:
    case Unary::Sign:
    case Unary::Square:
    case Unary::IsNan:
    case Unary::IsInf:
    case Unary::IsFinite: out = exact_unary(f, x.t); break;
    default: {
      DType loop = float_loop(f, x.t.dtype());
      Tensor in = cast(x.t, loop);
      out = dispatch_dtype(loop, [&]<class T>() -> Tensor {
        if constexpr (std::is_floating_point_v<T>) {
          return map1<T, T>(in, [f](T v) { return math_value(f, v); });
        } else {
          no_loop(ufunc_name(f));
        }
      });
    }
  }
  return x.t.rank() == 0 ? scalar(std::move(out)) : array(std::move(out));
}

Value where(const Value& condition, const Value& x_in, const Value& y_in) {
  Tensor c = cast(to_array(condition), DType::Bool);
  Arg x = to_arg(x_in), y = to_arg(y_in);
  if (x.t.dtype() == DType::String || y.t.dtype() == DType::String) no_loop("where");
  numpy::Operand ops[2] = {x.op, y.op};
  DType dt = numpy::result_type(ops);
  Tensor xs = cast(x.t, dt), ys = cast(y.t, dt);
  Shape shape = broadcast_shapes(broadcast_shapes(c.shape(), xs.shape()), ys.shape());
  Tensor out(dt, shape);
  std::vector<int64_t> sc = broadcast_strides(c.shape(), shape), sx = broadcast_strides(xs.shape(), shape),
                       sy = broadcast_strides(ys.shape(), shape);
  dispatch_dtype(dt, [&]<class T>() {
    const bool* pc = c.data<bool>();
    const T* px = xs.data<T>();
    const T* py = ys.data<T>();
    T* po = out.data<T>();
    std::vector<int64_t> pos(static_cast<size_t>(shape.rank()), 0);
    for (int64_t i = 0; i < out.num_elements(); ++i) {
      int64_t oc = 0, ox = 0, oy = 0;
      for (size_t k = 0; k < pos.size(); ++k) {
        oc += pos[k] * sc[k];
        ox += pos[k] * sx[k];
        oy += pos[k] * sy[k];
      }
      po[i] = pc[oc] ? px[ox] : py[oy];
      for (int k = shape.rank() - 1; k >= 0; --k) {
        if (++pos[static_cast<size_t>(k)] < shape.dim(k)) break;
        pos[static_cast<size_t>(k)] = 0;
      }
    }
  });
  return array(std::move(out));
}

Value matmul(const Value& a_in, const Value& b_in) {
  Arg a = to_arg(a_in), b = to_arg(b_in);
  const char* sig = "(n?,k),(k,m?)->(n?,m?)";
  for (int k = 0; k < 2; ++k) {
    const Tensor& t = k == 0 ? a.t : b.t;
    if (t.rank() == 0) {
      throw ValueError("matmul: Input operand " + std::to_string(k) + " does not have enough dimensions (has 0, "
                       "gufunc core with signature " + sig + " requires 1)");
    }
  }
  if (a.t.dtype() == DType::String || b.t.dtype() == DType::String) no_loop("matmul");
  DType dt = numpy::promote_types(a.t.dtype(), b.t.dtype());
  // Vectors become a row (left) or a column (right), dropped from the result.
  bool a_vec = a.t.rank() == 1, b_vec = b.t.rank() == 1;
  Tensor x = cast(a.t, dt), y = cast(b.t, dt);
  if (a_vec) x = x.reshaped(Shape{1, x.shape().dim(0)});
  if (b_vec) y = y.reshaped(Shape{y.shape().dim(0), 1});
  int64_t n = x.shape().dim(x.rank() - 2), k = x.shape().dim(x.rank() - 1);
  int64_t k2 = y.shape().dim(y.rank() - 2), m = y.shape().dim(y.rank() - 1);
  if (k != k2) {
    throw ValueError("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature " +
                     std::string(sig) + " (size " + std::to_string(k2) + " is different from " + std::to_string(k) + ")");
  }
  Shape xb, yb;
  for (int i = 0; i < x.rank() - 2; ++i) xb.push_back(x.shape().dim(i));
  for (int i = 0; i < y.rank() - 2; ++i) yb.push_back(y.shape().dim(i));
  Shape batch = broadcast_shapes(xb, yb);
  std::vector<int64_t> bx = broadcast_strides(xb, batch), by = broadcast_strides(yb, batch);
  Shape out_shape = batch;
  if (!a_vec) out_shape.push_back(n);
  if (!b_vec) out_shape.push_back(m);
  Tensor out(dt, out_shape);
  int64_t batches = batch.num_elements();
  dispatch_dtype(dt, [&]<class T>() {
    if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bfloat16>) {
      no_loop("matmul");
    } else {
      const T* px = x.data<T>();
      const T* py = y.data<T>();
      T* po = out.data<T>();
      std::vector<int64_t> pos(static_cast<size_t>(batch.rank()), 0);
      for (int64_t bi = 0; bi < batches; ++bi) {
        int64_t ox = 0, oy = 0;
        for (size_t d = 0; d < pos.size(); ++d) {
          ox += pos[d] * bx[d];
          oy += pos[d] * by[d];
        }
        const T* xm = px + ox * n * k;
        const T* ym = py + oy * k * m;
        T* om = po + bi * n * m;
        for (int64_t i = 0; i < n; ++i) {
          for (int64_t j = 0; j < m; ++j) {
            T acc = T(0);
            for (int64_t p = 0; p < k; ++p) {
              if constexpr (std::is_same_v<T, bool>) {
                acc = acc || (xm[i * k + p] && ym[p * m + j]);
              } else if constexpr (kInt<T>) {
                acc = kernels::wrap_add(acc, kernels::wrap_mul(xm[i * k + p], ym[p * m + j]));
              } else {
                acc += xm[i * k + p] * ym[p * m + j];
              }
            }
            om[i * m + j] = acc;
          }
        }
        for (int d = batch.rank() - 1; d >= 0; --d) {
          if (++pos[static_cast<size_t>(d)] < batch.dim(d)) break;
          pos[static_cast<size_t>(d)] = 0;
        }
      }
    }
  });
  return out.rank() == 0 ? scalar(std::move(out)) : array(std::move(out));
}

Value around(const Value& self, int64_t decimals) {
  if (decimals == 0) return apply(Unary::Rint, self);
  // np.around: scale, round half to even, scale back (NumPy's own steps).
  double scale = std::pow(10.0, static_cast<double>(std::llabs(decimals)));
  DType t = tensor(self).dtype();
  if (is_integer(t) && decimals >= 0) return self;
  Value s = is_floating(t) ? result(cast(Tensor::scalar<double>(scale), t)) : Value(scale);
  if (decimals > 0) return apply(Binary::TrueDivide, apply(Unary::Rint, apply(Binary::Multiply, self, s)), s);
  return apply(Binary::Multiply, apply(Unary::Rint, apply(Binary::TrueDivide, self, s)), s);
}


}  // namespace ag::ndarray
