// The hand-written parts of the np.* math rows (np_functions.def): ufuncs by
// name, rounding, clip, where, reductions, closeness tests, products.
#include <cmath>

#include "runtime/api/tf_call.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/ndarray_math.h"
#include "runtime/value/ndarray_reduce.h"
#include "runtime/value/numpy_dtype.h"

namespace ag::np::impl {
namespace {

using ndarray::Binary;
using ndarray::Reduction;
using ndarray::Unary;

template <class E>
E by_name(std::string_view name, E last) {
  for (int i = 0; i <= static_cast<int>(last); ++i) {
    if (ndarray::ufunc_name(static_cast<E>(i)) == name) return static_cast<E>(i);
  }
  throw InternalError("np_functions.def names an unknown ufunc: " + std::string(name));
}

Reduction reduction_named(std::string_view name) {
  if (name == "max") return Reduction::Max;
  if (name == "min") return Reduction::Min;
  for (int i = 0; i <= static_cast<int>(Reduction::All); ++i) {
    if (ndarray::reduction_name(static_cast<Reduction>(i)) == name) return static_cast<Reduction>(i);
  }
  throw InternalError("np_functions.def names an unknown reduction: " + std::string(name));
}

bool all_true(const Value& v) {
  if (!v.is_ndarray()) return truthy(v);
  const Tensor& t = ndarray::tensor(v);
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    if (!t.data<bool>()[i]) return false;
  }
  return true;
}

/// NumPy's isclose: |a - b| <= atol + rtol * |b| where both are finite, a == b
/// elsewhere (with equal_nan, NaN matches NaN); b made inexact first.
Value isclose_of(const Value& a_in, const Value& b_in, const Value& rtol, const Value& atol, bool equal_nan) {
  Tensor a = ndarray::to_array(a_in), b = ndarray::to_array(b_in);
  numpy::Operand ops[2] = {{b.dtype(), b.rank() == 0}, {DType::Float64, true, 0, 1.0}};
  Value x = ndarray::result(a), y = ndarray::result(ndarray::cast(b, numpy::result_type(ops)));
  using ndarray::apply;
  Value within = apply(Binary::LessEqual, apply(Unary::Absolute, apply(Binary::Subtract, x, y)),
                       apply(Binary::Add, atol, apply(Binary::Multiply, rtol, apply(Unary::Absolute, y))));
  Value finite = apply(Binary::LogicalAnd, apply(Unary::IsFinite, x), apply(Unary::IsFinite, y));
  Value close = apply(Binary::LogicalOr, apply(Binary::LogicalAnd, finite, within),
                      apply(Binary::LogicalAnd, apply(Unary::LogicalNot, finite), apply(Binary::Equal, x, y)));
  if (equal_nan) close = apply(Binary::LogicalOr, close, apply(Binary::LogicalAnd, apply(Unary::IsNan, x), apply(Unary::IsNan, y)));
  return close;
}

}  // namespace

Value binary_ufunc(const TfCall& c) {
  no_out(c);
  return ndarray::apply(by_name(c.data(), Binary::LogicalXor), c["x1"], c["x2"]);
}

Value unary_ufunc(const TfCall& c) {
  no_out(c);
  return ndarray::apply(by_name(c.data(), Unary::IsFinite), c["x"]);
}

Value round(const TfCall& c) {
  no_out(c);
  return ndarray::around(ndarray::result(ndarray::to_array(c["a"])), c["decimals"].as_int());
}

Value clip(const TfCall& c) {
  no_out(c);
  const Value& lo = c["a_min"];
  const Value& hi = c["a_max"];
  if (lo.is_none() && hi.is_none()) throw ValueError("One of max or min must be given");
  Value r = ndarray::result(ndarray::to_array(c["a"]));
  if (!lo.is_none()) r = ndarray::apply(Binary::Maximum, r, lo);
  if (!hi.is_none()) r = ndarray::apply(Binary::Minimum, r, hi);
  return r;
}

Value where(const TfCall& c) {
  const Value& x = c["x"];
  const Value& y = c["y"];
  if (x.is_none() != y.is_none()) throw ValueError("either both or neither of x and y should be given");
  if (!x.is_none()) return ndarray::where(c["condition"], x, y);
  // np.where(condition): the indices of the true elements, one array per dim.
  Tensor cond = ndarray::cast(ndarray::to_array(c["condition"]), DType::Bool);
  if (cond.rank() == 0) cond = cond.reshaped(Shape{1});
  std::vector<std::vector<int64_t>> idx(static_cast<size_t>(cond.rank()));
  for (int64_t flat = 0; flat < cond.num_elements(); ++flat) {
    if (!cond.data<bool>()[flat]) continue;
    int64_t rest = flat;
    for (int k = cond.rank() - 1; k >= 0; --k) {
      idx[static_cast<size_t>(k)].push_back(rest % cond.shape().dim(k));
      rest /= cond.shape().dim(k);
    }
  }
  std::vector<Value> out;
  for (const auto& v : idx) {
    out.push_back(ndarray::array(Tensor::from_vector<int64_t>(Shape{static_cast<int64_t>(v.size())}, v)));
  }
  return Value::tuple(std::move(out));
}

Value reduction(const TfCall& c) {
  no_out(c);
  Reduction r = reduction_named(c.data());
  ndarray::ReduceOptions o;
  o.axis = c["axis"];
  o.keepdims = truthy(c["keepdims"]);
  if (r == Reduction::Sum || r == Reduction::Prod || r == Reduction::Mean || r == Reduction::Var ||
      r == Reduction::Std) {
    o.dtype = numpy::dtype_argument(c["dtype"]);
  }
  if (r == Reduction::Var || r == Reduction::Std) o.ddof = c["ddof"].as_int();
  return ndarray::reduce(r, c["a"], o);
}

Value cumulative(const TfCall& c) {
  no_out(c);
  return ndarray::cumulative(c.data() == "cumprod", c["a"], c["axis"], numpy::dtype_argument(c["dtype"]));
}

Value isclose(const TfCall& c) { return isclose_of(c["a"], c["b"], c["rtol"], c["atol"], truthy(c["equal_nan"])); }

Value allclose(const TfCall& c) {
  // bool(np.all(isclose(...))): a Python bool.
  return Value(all_true(isclose_of(c["a"], c["b"], c["rtol"], c["atol"], truthy(c["equal_nan"]))));
}

Value array_equal(const TfCall& c) {
  Tensor a = ndarray::to_array(c["a1"]), b = ndarray::to_array(c["a2"]);
  if (a.shape() != b.shape()) return Value(false);
  Value x = ndarray::result(a), y = ndarray::result(b);
  Value eq = ndarray::apply(Binary::Equal, x, y);
  if (truthy(c["equal_nan"])) {
    eq = ndarray::apply(Binary::LogicalOr, eq,
                        ndarray::apply(Binary::LogicalAnd, ndarray::apply(Unary::IsNan, x), ndarray::apply(Unary::IsNan, y)));
  }
  return Value(all_true(eq));
}

Value matmul(const TfCall& c) {
  no_out(c);
  return ndarray::matmul(c["x1"], c["x2"]);
}

Value dot(const TfCall& c) {
  no_out(c);
  Tensor a = ndarray::to_array(c["a"]), b = ndarray::to_array(c["b"]);
  if (a.rank() == 0 || b.rank() == 0) return ndarray::apply(Binary::Multiply, c["a"], c["b"]);
  if (a.rank() > 2 || b.rank() > 2) {
    throw NotImplementedError("np.dot of arrays of rank above 2 is not supported by agc; use np.matmul");
  }
  return ndarray::matmul(ndarray::result(a), ndarray::result(b));
}

}  // namespace ag::np::impl
