// NumPy's dtypes as agc holds them: the names NumPy prints, its type
// promotion (np.promote_types, and NumPy 1.24's value-based casting of Python
// numbers and 0-d operands in arithmetic: `int8_array + 1` stays int8,
// `float32_array + 1.0` stays float32, `np.float32(2) + 1.0` is float64), and
// the dtype arguments NumPy functions accept (np.float32, 'float32', 'f4',
// float, int, bool, a dtype object).
//
// NumPy arrays hold agc tensors, so only NumPy types with an agc DType can
// hold data: bool, int8, uint8, int32, int64, float32, float64 and bytes
// (TF's strings, NumPy's object arrays of bytes). Promotion reasons over all
// of NumPy's integer and float types, and a result without an agc DType
// (int8 with uint8 is int16) is a NotImplementedError naming it.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "runtime/core/dtype.h"
#include "runtime/value/value.h"

namespace ag::numpy {

/// NumPy's name of an agc dtype: "float32", "int64", "bool", "object" (strings
/// are object arrays of bytes), "bfloat16" (ml_dtypes' type, which TF's
/// .numpy() returns).
const char* dtype_name(DType t);

/// NumPy's dtype kind character: 'b', 'i', 'u', 'f', 'O'.
char dtype_kind(DType t);

/// One operand of a NumPy operation as its type resolution sees it: the
/// dtype, whether it is a scalar (a Python number, a NumPy scalar or a 0-d
/// array, whose value may decide a smaller type) and then that value.
struct Operand {
  DType dtype;
  bool scalar = false;
  int64_t int_value = 0;    // bool and integer scalars
  double float_value = 0;   // float scalars
};

/// The Operand of a Python number (int is int64, float float64, bool bool).
Operand python_operand(const Value& v);

/// np.promote_types(a, b).
DType promote_types(DType a, DType b);

/// np.can_cast(from, to, 'same_kind'): a cast to the same or a later kind of
/// bool < unsigned < signed < float, any size (float64 to float32 is fine,
/// float to int or int to uint is not): what in-place arithmetic allows.
bool can_cast_same_kind(DType from, DType to);

/// np.result_type over operands, with NumPy 1.24's value-based rule: when
/// some operand is an array (rank > 0) and no scalar is of a higher kind
/// (bool < integer < float) than every array, each scalar counts as the
/// smallest type holding its value (np.min_scalar_type).
DType result_type(std::span<const Operand> operands);

/// The dtype a NumPy dtype argument names: np.float32 (or any NumPy scalar
/// type), a dtype object, a name or type code ('float32', 'f4', 'float',
/// 'int', 'double', 'bool', ...), or Python's float, int and bool. None is
/// nullopt (the default). TypeError "data type 'x' not understood" for
/// anything else; NotImplementedError for NumPy dtypes agc cannot hold
/// (float16, int16, complex128, ...).
std::optional<DType> dtype_argument(const Value& v);

/// The dtype object `arr.dtype` returns: str() 'float32', repr()
/// "dtype('float32')", `.name`, `.kind`, `.itemsize`; it compares equal to
/// the scalar type and the name (`a.dtype == np.float32`, `== 'float32'`).
/// Interned: one per dtype.
Value dtype_object(DType t);
/// The dtype of a dtype object, or nullopt.
std::optional<DType> dtype_of_object(const Value& v);
/// `dtype == other` as NumPy compares a dtype object: equal to the dtype
/// objects, scalar types and names of the same dtype (`a.dtype == np.float32`,
/// `a.dtype == 'float32'`), unequal to anything else.
bool dtype_equals(DType t, const Value& other);

}  // namespace ag::numpy
