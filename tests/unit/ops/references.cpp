#include "tests/unit/ops/references.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>

#include "tests/unit/ops/sweep.h"

namespace ag::test {
namespace {

const std::vector<DType> kAll = {DType::Float32, DType::Float64, DType::BFloat16, DType::Int8,
                                 DType::UInt8,   DType::Int32,   DType::Int64};
const std::vector<DType> kFloats = {DType::Float32, DType::Float64, DType::BFloat16};
const std::vector<DType> kInts = {DType::Int8, DType::UInt8, DType::Int32, DType::Int64};
const std::vector<DType> kFloatsSignedInts = {DType::Float32, DType::Float64, DType::BFloat16,
                                              DType::Int8,    DType::Int32,   DType::Int64};

using F1 = double (*)(double);

Reference unary(const char* op, std::vector<DType> dtypes, std::function<double(double)> f,
                std::function<I128(I128)> i = nullptr, double lo = -5, double hi = 5) {
  Reference r{op, 1, std::move(dtypes), nullptr, nullptr};
  if (f) r.fref = [f](double x, double) { return f(x); };
  if (i) r.iref = [i](I128 x, I128) { return i(x); };
  r.lo = lo;
  r.hi = hi;
  return r;
}

Reference binary(const char* op, std::vector<DType> dtypes, std::function<double(double, double)> f,
                 std::function<I128(I128, I128)> i, bool out_bool = false, double lo = -5, double hi = 5,
                 bool nonzero_rhs = false, double rhs_lo = -5) {
  return Reference{op, 2, std::move(dtypes), std::move(f), std::move(i), out_bool, lo, hi, nonzero_rhs, rhs_lo};
}

/// Shift amounts clamped to [0, bits - 1] (TF's bitwise_ops.h).
I128 shift_amount(I128 s) {
  const I128 bits = static_cast<I128>(dtype_size(reference_dtype()) * 8);
  return s < 0 ? I128(0) : s > bits - 1 ? bits - 1 : s;
}

std::vector<Reference> make_table() {
  std::vector<Reference> t;
  // Arithmetic. Overflowing integers wrap (two's complement), never UB.
  t.push_back(binary("AddV2", kAll, [](double x, double y) { return x + y; }, [](I128 x, I128 y) { return x + y; }));
  t.push_back(binary("Sub", kAll, [](double x, double y) { return x - y; }, [](I128 x, I128 y) { return x - y; }));
  t.push_back(binary("Mul", kAll, [](double x, double y) { return x * y; }, [](I128 x, I128 y) { return x * y; }));
  t.push_back(binary("Mul", {DType::Int8, DType::Int32, DType::Int64}, nullptr, [](I128 x, I128 y) { return x * y; },
                     false, -3e9, 3e9, false, -3e9));
  t.push_back(binary("AddV2", {DType::Int32, DType::UInt8}, nullptr, [](I128 x, I128 y) { return x + y; }, false, -3e9,
                     3e9, false, -3e9));
  t.push_back(binary("RealDiv", kAll, [](double x, double y) { return x / y; }, [](I128 x, I128 y) { return x / y; },
                     false, -100, 100, true));
  t.push_back(binary("FloorDiv", kAll, [](double x, double y) { return std::floor(as_prec(x / y)); }, py_floordiv,
                     false, -100, 100, true));
  t.push_back(binary(
      "FloorMod", kAll,
      [](double x, double y) {
        double r = std::fmod(x, y);
        return (r != 0 && ((y < 0) != (r < 0))) ? r + y : r;
      },
      py_mod, false, -100, 100, true));
  t.push_back(binary("TruncateDiv", kInts, nullptr, [](I128 x, I128 y) { return x / y; }, false, -100, 100, true));
  t.push_back(binary("TruncateMod", kInts, nullptr, [](I128 x, I128 y) { return x % y; }, false, -100, 100, true));
  t.push_back(binary("TruncateMod", {DType::Float32, DType::Float64}, [](double x, double y) { return std::fmod(x, y); },
                     nullptr, false, -100, 100, true));
  t.push_back(binary("Pow", kFloats, [](double x, double y) { return std::pow(x, y); }, nullptr, false, 0.1, 3, false,
                     -3));
  t.push_back(binary(
      "Pow", {DType::Int8, DType::Int32, DType::Int64}, nullptr,
      [](I128 x, I128 y) {
        I128 r = 1;
        for (I128 i = 0; i < y; ++i) r = static_cast<I128>(static_cast<int64_t>(static_cast<uint64_t>(r * x)));
        return r;
      },
      false, -50, 50, false, 0));
  t.push_back(binary("Maximum", kAll, [](double x, double y) { return std::isnan(x) || x > y ? x : y; },
                     [](I128 x, I128 y) { return x > y ? x : y; }));
  t.push_back(binary("Minimum", kAll, [](double x, double y) { return std::isnan(x) || x < y ? x : y; },
                     [](I128 x, I128 y) { return x < y ? x : y; }));
  t.push_back(binary("SquaredDifference", {DType::Float32, DType::Float64, DType::BFloat16, DType::Int32, DType::Int64},
                     [](double x, double y) { return (x - y) * (x - y); },
                     [](I128 x, I128 y) { return (x - y) * (x - y); }));
  t.push_back(binary("DivNoNan", kFloats, [](double x, double y) { return y == 0 ? 0 : x / y; }, nullptr));
  // Comparisons and logic.
  t.push_back(binary("Equal", kAll, [](double x, double y) { return double(x == y); },
                     [](I128 x, I128 y) { return I128(x == y); }, true, -2, 2, false, -2));
  t.push_back(binary("NotEqual", kAll, [](double x, double y) { return double(x != y); },
                     [](I128 x, I128 y) { return I128(x != y); }, true, -2, 2, false, -2));
  t.push_back(binary("Less", kAll, [](double x, double y) { return double(x < y); },
                     [](I128 x, I128 y) { return I128(x < y); }, true));
  t.push_back(binary("LessEqual", kAll, [](double x, double y) { return double(x <= y); },
                     [](I128 x, I128 y) { return I128(x <= y); }, true, -2, 2, false, -2));
  t.push_back(binary("Greater", kAll, [](double x, double y) { return double(x > y); },
                     [](I128 x, I128 y) { return I128(x > y); }, true));
  t.push_back(binary("GreaterEqual", kAll, [](double x, double y) { return double(x >= y); },
                     [](I128 x, I128 y) { return I128(x >= y); }, true, -2, 2, false, -2));
  t.push_back(binary("Equal", {DType::Bool}, nullptr, [](I128 x, I128 y) { return I128(x == y); }, true));
  t.push_back(binary("LogicalAnd", {DType::Bool}, nullptr, [](I128 x, I128 y) { return I128(x && y); }, true));
  t.push_back(binary("LogicalOr", {DType::Bool}, nullptr, [](I128 x, I128 y) { return I128(x || y); }, true));
  // Unary.
  t.push_back(unary("Neg", kFloatsSignedInts, [](double x) { return -x; }, [](I128 x) { return -x; }));
  t.push_back(unary("Neg", {DType::Int8, DType::Int32, DType::Int64}, nullptr, [](I128 x) { return -x; }, -9e18, 9e18));
  t.push_back(unary("Abs", kFloatsSignedInts, [](double x) { return std::fabs(x); },
                    [](I128 x) { return x < 0 ? -x : x; }, -9e18, 9e18));
  t.push_back(unary("Sign", kFloatsSignedInts, [](double x) { return double((x > 0) - (x < 0)); },
                    [](I128 x) { return I128((x > 0) - (x < 0)); }));
  t.push_back(unary("Square", kFloatsSignedInts, [](double x) { return x * x; }, [](I128 x) { return x * x; }, -1e10,
                    1e10));
  t.push_back(unary("Round", kFloatsSignedInts, [](double x) { return std::nearbyint(x); }, [](I128 x) { return x; }));
  t.push_back(unary("Reciprocal", kFloats, [](double x) { return 1 / x; }));
  t.push_back(unary("Sqrt", kFloats, [](double x) { return std::sqrt(x); }, nullptr, 0, 10));
  t.push_back(unary("Rsqrt", kFloats, [](double x) { return 1 / std::sqrt(x); }, nullptr, 0.01, 10));
  t.push_back(unary("Exp", kFloats, F1(std::exp)));
  t.push_back(unary("Log", kFloats, F1(std::log), nullptr, 0.01, 10));
  t.push_back(unary("Log1p", kFloats, F1(std::log1p), nullptr, -0.9, 10));
  t.push_back(unary("Tanh", kFloats, F1(std::tanh)));
  t.push_back(unary("Sigmoid", kFloats, [](double x) { return 1 / (1 + std::exp(-x)); }));
  t.push_back(unary("Sin", kFloats, F1(std::sin)));
  t.push_back(unary("Cos", kFloats, F1(std::cos)));
  t.push_back(unary("Floor", kFloats, F1(std::floor)));
  t.push_back(unary("Ceil", kFloats, F1(std::ceil)));
  t.push_back(unary("LogicalNot", {DType::Bool}, nullptr, [](I128 x) { return I128(!x); }));
  // Bitwise: two's complement; bits shifted out of the type are lost (the
  // result wraps to it).
  t.push_back(binary("BitwiseAnd", kInts, nullptr, [](I128 a, I128 b) { return a & b; }, false, -100, 100, false, -100));
  t.push_back(binary("BitwiseOr", kInts, nullptr, [](I128 a, I128 b) { return a | b; }, false, -100, 100, false, -100));
  t.push_back(binary("BitwiseXor", kInts, nullptr, [](I128 a, I128 b) { return a ^ b; }, false, -100, 100, false, -100));
  t.push_back(unary("Invert", kInts, nullptr, [](I128 x) { return ~x; }, -100, 100));
  t.push_back(binary("LeftShift", kInts, nullptr, [](I128 a, I128 b) { return a * (I128(1) << shift_amount(b)); }, false,
                     -100, 100, false, -10));
  t.push_back(binary("RightShift", kInts, nullptr, [](I128 a, I128 b) { return a >> shift_amount(b); }, false, -100,
                     100, false, -10));
  // Special functions.
  t.push_back(unary("Erf", kFloats, F1(std::erf), nullptr, -4, 4));
  t.push_back(unary("Erfc", kFloats, F1(std::erfc), nullptr, -4, 4));
  t.push_back(unary("Erfinv", kFloats, erfinv_ref, nullptr, -0.99, 0.99));
  t.push_back(unary("Lgamma", kFloats, F1(std::lgamma), nullptr, 0.1, 20));
  t.push_back(unary("Lgamma", kFloats, F1(std::lgamma), nullptr, -4.9, -0.1));
  t.push_back(unary("Digamma", kFloats, digamma_ref, nullptr, 0.1, 20));
  t.push_back(unary("BesselI0", kFloats, [](double x) { return bessel_i_ref(0, x); }, nullptr, -10, 10));
  t.push_back(unary("BesselI1", kFloats, [](double x) { return bessel_i_ref(1, x); }, nullptr, -10, 10));
  t.push_back(unary("BesselI0e", kFloats, [](double x) { return std::exp(-std::fabs(x)) * bessel_i_ref(0, x); }, nullptr,
                    -20, 20));
  t.push_back(unary("BesselI1e", kFloats, [](double x) { return std::exp(-std::fabs(x)) * bessel_i_ref(1, x); }, nullptr,
                    -20, 20));
  // Xlogy, Xlog1py and Xdivy are 0 where x is 0, whatever y is.
  t.push_back(binary("Xlogy", {DType::Float32, DType::Float64},
                     [](double x, double y) { return x == 0 ? 0 : x * std::log(y); }, nullptr, false, -5, 5, false, 0.1));
  t.push_back(binary("Xlog1py", {DType::Float32, DType::Float64},
                     [](double x, double y) { return x == 0 ? 0 : x * std::log1p(y); }, nullptr, false, -5, 5, false,
                     -0.9));
  t.push_back(binary("Xdivy", {DType::Float32, DType::Float64}, [](double x, double y) { return x == 0 ? 0 : x / y; },
                     nullptr, false, -5, 5, true));
  t.push_back(unary("Expm1", kFloats, F1(std::expm1)));
  t.push_back(unary("Asinh", kFloats, F1(std::asinh), nullptr, -1e3, 1e3));
  t.push_back(binary("Atan2", kFloats, [](double y, double x) { return std::atan2(y, x); }, nullptr));
  return t;
}

/// Whether operand `v` of element `i` lies in the row's domain.
bool in_domain(const Reference& r, const Tensor& t, int64_t i, bool rhs) {
  const double v = sweep::element(t, i);
  if (std::isnan(v) || v < (rhs ? r.rhs_lo : r.lo) || v > r.hi) return false;
  return !(rhs && r.nonzero_rhs && v == 0);
}

}  // namespace

bool Reference::takes(DType t) const { return std::find(dtypes.begin(), dtypes.end(), t) != dtypes.end(); }

const std::vector<Reference>& elementwise_references() {
  static const std::vector<Reference> table = make_table();
  return table;
}

std::vector<const Reference*> references_for(std::string_view op) {
  std::vector<const Reference*> out;
  for (const Reference& r : elementwise_references()) {
    if (op == r.op) out.push_back(&r);
  }
  return out;
}

DType& reference_dtype() {
  static DType dtype = DType::Float64;
  return dtype;
}

double as_prec(double v) { return reference_dtype() == DType::Float64 ? v : static_cast<double>(static_cast<float>(v)); }

double tolerance(DType t) { return t == DType::BFloat16 ? 1e-2 : t == DType::Float32 ? 1e-5 : 1e-12; }

int64_t source_index(const Shape& out, const Shape& in, int64_t i) {
  int64_t idx = 0, stride = 1;
  for (int d = out.rank() - 1, e = in.rank() - 1; d >= 0; --d, --e) {
    int64_t coord = i % out.dim(d);
    i /= out.dim(d);
    if (e >= 0) {
      if (in.dim(e) != 1) idx += coord * stride;
      stride *= in.dim(e);
    }
  }
  return idx;
}

Shape naive_broadcast(const Shape& a, const Shape& b) {
  int r = std::max(a.rank(), b.rank());
  Shape out;
  for (int i = 0; i < r; ++i) {
    int ia = i - (r - a.rank()), ib = i - (r - b.rank());
    int64_t da = ia < 0 ? 1 : a.dim(ia), db = ib < 0 ? 1 : b.dim(ib);
    out.push_back(da == 1 ? db : da);
  }
  return out;
}

I128 int_value(const Tensor& t, int64_t i) {
  return dispatch_dtype(t.dtype(), [&]<class T>() -> I128 {
    if constexpr (std::is_integral_v<T>) return static_cast<I128>(t.data<T>()[i]);
    else return 0;
  });
}

void store(Tensor& t, int64_t i, double f, I128 v, bool integer) {
  dispatch_dtype(t.dtype(), [&]<class T>() {
    T* d = t.data<T>();
    if constexpr (std::is_same_v<T, bool>) {
      d[i] = integer ? v != 0 : f != 0;
    } else if constexpr (std::is_same_v<T, bfloat16>) {
      d[i] = bfloat16(static_cast<float>(f));
    } else if constexpr (std::is_integral_v<T>) {
      d[i] = static_cast<T>(static_cast<uint64_t>(v));
    } else if constexpr (std::is_floating_point_v<T>) {
      d[i] = static_cast<T>(f);
    }
  });
}

namespace {

/// Stores into want[i] the reference's value on a[ia] (and b[ib]).
void reference_at(const Reference& r, const Tensor& a, int64_t ia, const Tensor& b, int64_t ib, Tensor& want,
                  int64_t i) {
  reference_dtype() = a.dtype();
  if (!is_floating(a.dtype())) {
    store(want, i, 0, r.iref(int_value(a, ia), r.arity == 2 ? int_value(b, ib) : 0), true);
  } else {
    store(want, i, r.fref(sweep::element(a, ia), r.arity == 2 ? sweep::element(b, ib) : 0), 0, false);
  }
}

}  // namespace

Tensor reference_result(const Reference& r, const std::vector<Tensor>& inputs) {
  const Tensor& a = inputs[0];
  const Tensor& b = inputs[r.arity == 2 ? 1 : 0];
  const Shape out = r.arity == 2 ? naive_broadcast(a.shape(), b.shape()) : a.shape();
  Tensor want(r.out_bool ? DType::Bool : a.dtype(), out);
  for (int64_t i = 0; i < want.num_elements(); ++i) {
    const int64_t ia = source_index(out, a.shape(), i);
    reference_at(r, a, ia, b, r.arity == 2 ? source_index(out, b.shape(), i) : ia, want, i);
  }
  return want;
}

bool matches_references(std::string_view op, const std::vector<Tensor>& inputs, const Tensor& got, std::string& why) {
  if (inputs.empty() || inputs.size() > 2 || (inputs.size() == 2 && inputs[1].dtype() != inputs[0].dtype())) return true;
  const DType dtype = inputs[0].dtype();
  std::vector<const Reference*> rows;
  for (const Reference* r : references_for(op)) {
    const bool has_ref = is_floating(dtype) ? static_cast<bool>(r->fref) : static_cast<bool>(r->iref);
    if (r->takes(dtype) && static_cast<size_t>(r->arity) == inputs.size() && has_ref) rows.push_back(r);
  }
  if (rows.empty()) return true;
  const Tensor& a = inputs[0];
  const Tensor& b = inputs.back();
  const Shape out = inputs.size() == 2 ? naive_broadcast(a.shape(), b.shape()) : a.shape();
  const DType out_dtype = rows[0]->out_bool ? DType::Bool : dtype;
  if (got.dtype() != out_dtype || got.shape() != out) {
    why = std::string("got ") + dtype_name(got.dtype()) + got.shape().str() + ", want " + dtype_name(out_dtype) +
          out.str();
    return false;
  }
  // Element by element, each by the first row whose domain holds its
  // operands (a reference off its domain may not even finish: digamma's
  // recurrence at -1e30).
  Tensor want(out_dtype, Shape{});
  const double tol = tolerance(dtype);
  for (int64_t i = 0; i < got.num_elements(); ++i) {
    const int64_t ia = source_index(out, a.shape(), i);
    const int64_t ib = inputs.size() == 2 ? source_index(out, b.shape(), i) : ia;
    for (const Reference* r : rows) {
      if (!in_domain(*r, a, ia, false) || (inputs.size() == 2 && !in_domain(*r, b, ib, true))) continue;
      reference_at(*r, a, ia, b, ib, want, 0);
      const double g = sweep::element(got, i), w = sweep::element(want, 0);
      const bool exact = !is_floating(out_dtype);
      const bool ok =
          exact ? g == w : (std::isnan(g) && std::isnan(w)) || g == w || std::fabs(g - w) <= tol + tol * std::fabs(w);
      if (!ok) {
        why = "element " + std::to_string(i) + " (" + dtype_name(dtype) + "): got " + std::to_string(g) + ", want " +
              std::to_string(w);
        return false;
      }
      break;
    }
  }
  return true;
}

I128 py_floordiv(I128 a, I128 b) {
  I128 q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

I128 py_mod(I128 a, I128 b) { return a - py_floordiv(a, b) * b; }

double digamma_ref(double x) {
  double r = 0;
  for (; x < 20; x += 1) r -= 1 / x;
  double f = 1 / (x * x);
  return r + std::log(x) - 0.5 / x - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

double trigamma_ref(double x) {
  double r = 0;
  for (; x < 20; x += 1) r += 1 / (x * x);
  double f = 1 / (x * x);
  return r + 1 / x + f / 2 + f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f / 30)));
}

double erfinv_ref(double y) {
  double x = 0;
  for (int i = 0; i < 100; ++i) x -= (std::erf(x) - y) / (2 / std::sqrt(M_PI) * std::exp(-x * x));
  return x;
}

double bessel_i_ref(int n, double x) {
  double term = std::pow(x / 2, n), sum = 0;
  for (int k = 1; k <= n; ++k) term /= k;
  for (int k = 0; k < 200; ++k) {
    sum += term;
    term *= (x / 2) * (x / 2) / ((k + 1.0) * (k + 1.0 + n));
  }
  return sum;
}

}  // namespace ag::test
