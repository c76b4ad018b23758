// NumPy's types as Python values: np.ndarray, the scalar types (np.float32,
// np.int64, np.bool_, ...) and the abstract ones isinstance() tests against
// (np.generic, np.number, np.integer, np.floating, ...), in NumPy's hierarchy.
// They are classes of the object model (repr "<class 'numpy.float32'>");
// calling a scalar type converts its argument.
#pragma once

#include "runtime/core/dtype.h"
#include "runtime/value/value.h"

namespace ag::numpy {

/// np.ndarray (calling it is not supported: np.array makes arrays).
const Value& ndarray_type();
/// The scalar type of `t` (np.float32 for Float32, np.bool_ for Bool; Python's
/// bytes for String, whose scalars TF's .numpy() returns as bytes). Calling it
/// converts: np.float32(2.0) is a scalar, np.float32([1, 2]) an array.
const Value& scalar_type(DType t);
/// "generic", "number", "integer", "signedinteger", "unsignedinteger",
/// "inexact", "floating": the abstract scalar classes.
const Value& abstract_type(const char* name);
/// type(v) of a NumPy value: np.ndarray, or the scalar's type.
const Value& type_of(const Value& ndarray_value);

}  // namespace ag::numpy
