// The arguments of Python's standard-module functions (py_modules.def) as
// CPython converts them: real numbers (math.sqrt(x), random.uniform(a, b))
// and integers (math.factorial(n), random.randrange(start)).
#pragma once

#include <cstdint>
#include <string>

#include "runtime/api/python_api.h"
#include "runtime/core/error.h"
#include "runtime/value/ndarray.h"

namespace ag::pymod {

/// A real-number argument as CPython's math functions take it: an int, bool
/// or float, or anything float() converts (an eager tensor or NumPy scalar
/// of one element); a symbolic tensor has no value yet (TF's SymbolicTensor
/// defines no __float__).
inline double real_arg(const Value& x) {
  if (x.is_number()) return x.as_float();
  if (x.is_tensor() && x.as_tensor().symbolic()) throw TypeError("must be real number, not SymbolicTensor");
  if (x.is_tensor() || x.is_variable() || x.is_ndarray()) return py::float_({x}, {}).as_float();
  throw TypeError("must be real number, not " + x.type_name());
}

/// An integer argument (math.factorial, gcd, comb, perm): ints and bools;
/// an integer eager tensor through its __index__.
inline int64_t index_arg(const Value& x) {
  if (x.is_bool() || x.is_int()) return x.as_int();
  if (x.is_tensor() && !x.as_tensor().symbolic() && is_integer(x.as_tensor().dtype())) {
    return py::int_({x}, {}).as_int();
  }
  if (x.is_ndarray() && ndarray::is_scalar(x) && is_integer(ndarray::tensor(x).dtype())) return py::int_({x}, {}).as_int();
  throw TypeError("'" + x.type_name() + "' object cannot be interpreted as an integer");
}

}  // namespace ag::pymod
