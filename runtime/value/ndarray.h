// NumPy's host values: what Tensor.numpy() returns and what `import numpy as
// np` computes with. An ndarray holds an agc Tensor (dtype, shape, contiguous
// row-major elements) and behaves as NumPy 1.24's: it prints as NumPy prints
// (`[5. 6.]`, `array([1., 2.], dtype=float32)`), indexes, compares and
// converts as NumPy does, and computes with NumPy's dtypes and promotion
// (float64 for Python floats, int64 for ints). A NumPy scalar (np.float32(2.0),
// an element a[0], a reduction's result) is the same value with `scalar` set.
//
// NumPy values never become graph nodes: their operations run now, on the
// host (inside a tf.function, while tracing), through the ops' CPU kernels
// or, where NumPy's arithmetic differs from TF's, loops of their own. A
// tensor meeting an ndarray in an operator makes a TF op (TF's Tensor
// overloads win over NumPy's, as its __array_priority__ makes them).
//
// Files: ndarray.cpp (construction, conversion, text), ndarray_index.cpp
// (indexing), ndarray_math.cpp (arithmetic, comparison, math functions),
// ndarray_reduce.cpp (sum, mean, max, ...), ndarray_shape.cpp (reshape,
// transpose, concatenate, ...), ndarray_methods.cpp (attributes and methods).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/value/numpy_dtype.h"
#include "runtime/value/value.h"

namespace ag {

struct NDArrayObj {
  /// The elements. A write (item assignment) first makes the storage this
  /// object's alone, so the tensor .numpy() read never changes.
  Tensor data;
  /// A NumPy scalar: rank 0, immutable, printed as a number (`2.0`), where a
  /// 0-d array prints as `array(2.)`.
  bool scalar = false;
};

namespace ndarray {

/// A new ndarray holding `t` (its storage may be shared: writes copy first).
Value array(Tensor t);
/// A NumPy scalar of the one element of rank-0 `t`.
Value scalar(Tensor t);
/// What NumPy returns for an operation's result `t`, and what Tensor.numpy()
/// returns: a scalar when rank 0 (a string scalar is Python's bytes), else an array.
Value result(Tensor t);

bool is_scalar(const Value& v);
/// Whether `v` is a NumPy value or a list, tuple or dict holding one.
bool contains_ndarray(const Value& v);
/// The elements of an ndarray value.
const Tensor& tensor(const Value& v);

/// np.asarray(v, dtype): an ndarray's tensor (cast to `dtype` when given), an
/// eager tensor's or a variable's value, or a Python number, bool or bytes
/// value and nested lists and tuples of them (and of arrays and tensors),
/// with NumPy's dtype discovery (ints int64, floats float64). ValueError for
/// ragged nesting, NotImplementedError for a symbolic tensor and for Python
/// strs (NumPy's unicode arrays).
Tensor to_array(const Value& v, std::optional<DType> dtype = std::nullopt);
/// Element i of `t` as a Python value: bool, int, float, or bytes (a String scalar).
Value item(const Tensor& t, int64_t i);
/// ndarray.tolist(): nested lists of Python values (a rank-0 array its item).
Value tolist(const Tensor& t);
/// `t` cast to `dtype` (C's conversions, as NumPy's unsafe casting).
Tensor cast(const Tensor& t, DType dtype);
/// How NumPy's type resolution sees the array `t`: its dtype, and for a 0-d
/// one (a NumPy scalar too) its value (numpy::python_operand for Python numbers).
numpy::Operand operand_of(const Tensor& t);

/// "numpy.ndarray", "numpy.float32", "numpy.bool_", "bytes".
std::string type_name(const Value& v);
/// str() and repr() as NumPy 1.24 prints them: `[1. 2.]` / `array([1., 2.])`;
/// scalars `2.0` both ways; a 0-d array's repr `array(2.)`.
std::string str(const Value& v);
std::string repr(const Value& v);
/// bool(v): a one-element array's element, else NumPy's ValueError ("The
/// truth value of an array with more than one element is ambiguous. ...").
bool truthy(const Value& v);
/// hash() of a scalar (equal to the Python number's); arrays are unhashable.
size_t hash(const Value& v);
/// `a == b` as a C++ bool for containers and dict keys: scalars compare as
/// numbers; arrays equal when the same object.
bool equal(const Value& a, const Value& b);
/// len(v): the first dim. TypeError for scalars and 0-d arrays.
int64_t len(const Value& v);
/// Iterating: the rows along the first dim (scalars when rank 1).
std::vector<Value> iterate(const Value& v);
/// A one-element value as Python's int() and float() convert it (TypeError
/// "only size-1 arrays can be converted to Python scalars" otherwise).
Value python_number(const Value& v);

/// Attributes and methods: shape, dtype, ndim, size, T, tolist, item, astype,
/// reshape, sum, mean, ... (ndarray_methods.cpp). AttributeError otherwise.
Value getattr(const Value& v, std::string_view name);

/// a[i], a[i, j], a[1:3], a[..., None], a[mask], a[[0, 2]] (NumPy's basic and
/// advanced indexing; slices are copies, not views).
Value getitem(const Value& v, const std::vector<IndexPart>& parts);
/// a[...] = x: x broadcast to the indexed elements and cast to a's dtype.
void setitem(const Value& v, const std::vector<IndexPart>& parts, const Value& x);

}  // namespace ndarray
}  // namespace ag
