// NumPy's universal functions on ndarrays: the operators (`a + b`, `a < b`,
// `-a`, ...) and np.add, np.maximum, np.sqrt, ... with NumPy 1.24's type
// resolution (numpy_dtype.h) and broadcasting, computed on the host by
// element loops that follow NumPy's own: Python's floor division and modulo,
// 0 for an integer division by zero, wrapping integer overflow, NaN-
// propagating maximum, and the C library's float functions.
#pragma once

#include "runtime/value/value.h"

namespace ag::ndarray {

enum class Binary {
  Add, Subtract, Multiply, TrueDivide, FloorDivide, Remainder, Power,
  Maximum, Minimum, Arctan2,
  Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual,
  BitwiseAnd, BitwiseOr, BitwiseXor, LogicalAnd, LogicalOr, LogicalXor,
};

enum class Unary {
  Negative, Positive, Absolute, Invert, LogicalNot, Sign, Square,
  Sqrt, Exp, Log, Log2, Log10, Log1p, Expm1,
  Sin, Cos, Tan, Arcsin, Arccos, Arctan, Sinh, Cosh, Tanh,
  Floor, Ceil, Trunc, Rint,
  IsNan, IsInf, IsFinite,
};

/// The ufunc's NumPy name ("add", "sqrt"), as its errors name it.
const char* ufunc_name(Binary f);
const char* ufunc_name(Unary f);

/// f(a, b): either operand an ndarray, a NumPy scalar, a Python number or
/// bool, or a list/tuple (converted as np.asarray). The result is NumPy's:
/// an array, or a scalar when every operand is 0-d.
Value apply(Binary f, const Value& a, const Value& b);
/// f(x).
Value apply(Unary f, const Value& x);

/// np.around(a, decimals): NumPy's scaling by 10**decimals around a
/// round-half-to-even (rint), so 0.125 rounds to 0.12.
Value around(const Value& a, int64_t decimals);

/// np.where(condition, x, y): broadcast, in the dtype NumPy resolves for x and y.
Value where(const Value& condition, const Value& x, const Value& y);
/// np.matmul(a, b), `a @ b`: products summed in order in the operands'
/// promoted dtype (NumPy calls BLAS for floats, whose summation order may
/// differ in the last bits). Vectors act as rows or columns, as NumPy's.
Value matmul(const Value& a, const Value& b);

/// Whether `v` can be an operand of a ufunc (an ndarray or a Python number or bool).
bool ufunc_operand(const Value& v);

}  // namespace ag::ndarray
