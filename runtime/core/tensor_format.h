// How tensors print, character for character as TensorFlow 2 with NumPy 1.x
// shows them: str()/repr() of eager tensors (NumPy's array printing rules),
// symbolic tensors while tracing, and tf.print's C++ summary (SummarizeValue).
#pragma once

#include <string>
#include <string_view>

#include "runtime/core/tensor.h"

namespace ag {

/// The element part as NumPy's str() prints it: `[4 1]`, `[[1. 2.]\n [3. 4.]]`,
/// `3.0` for a scalar, `b'aa'` for a string scalar. Floats use the shortest
/// round-trip digits (at most 8 after the point), padded to a common width;
/// scientific notation when a nonzero |x| < 1e-4, >= 1e8, or max/min > 1e3;
/// more than 1000 elements are summarized with `...` (3 per edge); lines wrap at 75.
std::string numpy_str(const Tensor& t);
/// NumPy's repr() of the elements: `array([[2., 2.],\n       [2., 2.]], dtype=float32)`;
/// a scalar prints as NumPy's scalar repr (`1.0`, `3`, `True`, `b'aa'`), as
/// the value of a rank-0 tensor's .numpy() does.
std::string numpy_repr(const Tensor& t);
/// NumPy's repr() of an ndarray: numpy_repr, but a 0-d array is an array too
/// (`array(2.)`, `array(3, dtype=int32)`).
std::string numpy_array_repr(const Tensor& t);

/// str(eager tensor): `tf.Tensor([4 1], shape=(2,), dtype=int32)`; a multi-line
/// value starts on its own line (`tf.Tensor(\n[[1 2]\n [3 4]], shape=...)`).
std::string tensor_str(const Tensor& t);
/// repr(eager tensor): `<tf.Tensor: shape=(), dtype=int32, numpy=3>`, with the
/// array on its own line when it spans several.
std::string tensor_repr(const Tensor& t);

/// str() of a symbolic (graph) tensor: `Tensor("a:0", shape=(), dtype=int32)`.
std::string symbolic_tensor_str(std::string_view name, int index, DType dtype, const Shape& shape);

/// TF's Tensor::SummarizeValue(summarize, print_v2=true), what tf.print and
/// tf.strings.format show: `[0.224704742 0.895507693 0.0302000046]`,
/// `[[1 2]\n [3 4]]`, at most `summarize` items per edge of every axis with
/// `...` between (summarize < 0: all), scalars bare, bools as 1/0, strings quoted.
/// Floats print with %.6g, or %.9g when that does not round-trip (%.15g/%.17g
/// for doubles).
std::string tf_print_format(const Tensor& t, int summarize);

/// absl::CEscape (`utf8_safe`: Utf8SafeCEscape, which keeps bytes >= 0x80):
/// \n \r \t \" \' \\ and other control bytes as octal "\001".
std::string tf_c_escape(std::string_view s, bool utf8_safe);

/// TF's Tensor::SummarizeValue(max_entries) without print_v2, as Assert and
/// shape-function errors show a value: elements separated by spaces (bools
/// 1/0, strings escaped but unquoted), each innermost row of a matrix in
/// brackets ("[1 2][3 4]"), "..." after the first `max_entries`.
std::string tf_summarize_value(const Tensor& t, int64_t max_entries);

/// One number as TF's StrCat prints it (the %.6g / %.9g rule above).
std::string tf_float_string(float v);
std::string tf_double_string(double v);

/// Python's repr() of a bytes object: `b'aa'`, `b"it's"`, `b'\x00\n'`.
std::string python_bytes_repr(std::string_view s);

}  // namespace ag
