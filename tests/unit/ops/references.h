// The op sweep's references for elementwise ops (math_ops_test.cpp sweeps
// them; ops_fuzz compares what it runs against them): per op and dtype set,
// the result of one element in double (floats) or __int128 (integers and
// bools, wrapped to the type when stored), and the operand domain the
// reference is exact on. One table, so a reference checked by the sweep is
// the one the fuzzer trusts.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/tensor.h"

namespace ag::test {

using I128 = __int128;

struct Reference {
  const char* op;
  int arity;  // 1 or 2 (a unary reference ignores y)
  std::vector<DType> dtypes;
  std::function<double(double x, double y)> fref;  // floating dtypes
  std::function<I128(I128 x, I128 y)> iref;        // integer and bool dtypes
  bool out_bool = false;
  // The operands the reference is exact on: x in [lo, hi], y in [rhs_lo, hi]
  // (and never 0 when nonzero_rhs: the divisions).
  double lo = -5, hi = 5;
  bool nonzero_rhs = false;
  double rhs_lo = -5;

  bool takes(DType t) const;
};

/// Every row, in the order the sweep runs them; an op may have several
/// (dtype sets with their own domains).
const std::vector<Reference>& elementwise_references();
/// The rows of `op` (none when the sweep has no reference for it).
std::vector<const Reference*> references_for(std::string_view op);

/// The dtype a reference is computing for: float32 and bfloat16 references
/// round intermediate results to float where the kernel does (as_prec).
DType& reference_dtype();
double as_prec(double v);
/// The tolerance of a float result (relative and absolute alike).
double tolerance(DType t);

/// The flat index into `in` of output element `i` of `out` (NumPy broadcasting).
int64_t source_index(const Shape& out, const Shape& in, int64_t i);
Shape naive_broadcast(const Shape& a, const Shape& b);
/// Element i of an integer or bool tensor (0 for others).
I128 int_value(const Tensor& t, int64_t i);
/// Stores a reference result: floats rounded to the type, integers wrapped.
void store(Tensor& t, int64_t i, double f, I128 v, bool integer);

/// The reference's result on `inputs` (one, or two broadcasting).
Tensor reference_result(const Reference& r, const std::vector<Tensor>& inputs);
/// Whether `got`, the result of `op` on `inputs`, has the reference's dtype
/// and shape and, in every element whose operands lie in a row's domain,
/// that row's value (within tolerance() for floats, exactly otherwise);
/// true when no row of `op` takes these inputs. `why` says what differs.
bool matches_references(std::string_view op, const std::vector<Tensor>& inputs, const Tensor& got, std::string& why);

// Scalar references the sweep's own checks use too.
/// Python's // and % on integers (the quotient rounds toward -inf).
I128 py_floordiv(I128 a, I128 b);
I128 py_mod(I128 a, I128 b);
/// digamma(x) for x > 0: the recurrence up past 20, then the asymptotic series.
double digamma_ref(double x);
/// trigamma(x) = polygamma(1, x) for x > 0, the same way.
double trigamma_ref(double x);
/// erfinv(y) by Newton's method on erf.
double erfinv_ref(double y);
/// I0(x) and I1(x) by their power series (x/2)^(2k+n) / (k! (k+n)!).
double bessel_i_ref(int n, double x);

}  // namespace ag::test
