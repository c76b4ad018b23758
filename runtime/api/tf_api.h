// ag::tf: the `tf.*` functions generated code calls. Each takes Values, so
// Python literals work where TF accepts them (converted as TF's Python layer
// converts them: a literal adopts the dtype of the tensor it meets), and
// returns a Value holding an eager or symbolic tensor. Node name hints are
// the ones TF's Python functions give ("Add" for tf.add, "Sum" for
// tf.reduce_sum, "transpose" for tf.transpose, ...).
#pragma once

#include <optional>

#include "runtime/value/value.h"

namespace ag::tf {

using OptDType = std::optional<DType>;

// ---- Tensors from Python values (tf_api.cpp).
/// tf.constant(value, dtype): nested lists with TF's dtype inference; while
/// tracing a Const node named "Const".
Value constant(const Value& value, OptDType dtype = std::nullopt);
/// tf.Variable(initial_value, dtype, name, shape) (runtime/value/variable_value.h).
Value Variable(const Value& initial_value, OptDType dtype = std::nullopt, const Value& name = Value(),
               const Value& shape = Value());
/// tf.convert_to_tensor(value, dtype, dtype_hint).
Value convert_to_tensor(const Value& value, OptDType dtype = std::nullopt, OptDType dtype_hint = std::nullopt);

// ---- Elementwise math (tf_api.cpp).
Value add(const Value& x, const Value& y);
Value subtract(const Value& x, const Value& y);
Value multiply(const Value& x, const Value& y);
/// tf.divide: Python's `/` on the converted operands.
Value divide(const Value& x, const Value& y);
Value truediv(const Value& x, const Value& y);
Value floordiv(const Value& x, const Value& y);
Value floormod(const Value& x, const Value& y);
Value pow(const Value& x, const Value& y);
Value negative(const Value& x);
Value abs(const Value& x);
Value maximum(const Value& x, const Value& y);
Value minimum(const Value& x, const Value& y);
Value square(const Value& x);
Value sqrt(const Value& x);
Value exp(const Value& x);
Value log(const Value& x);
Value tanh(const Value& x);
Value sigmoid(const Value& x);
Value equal(const Value& x, const Value& y);
Value not_equal(const Value& x, const Value& y);
Value less(const Value& x, const Value& y);
Value less_equal(const Value& x, const Value& y);
Value greater(const Value& x, const Value& y);
Value greater_equal(const Value& x, const Value& y);
Value logical_and(const Value& x, const Value& y);
Value logical_or(const Value& x, const Value& y);
Value logical_not(const Value& x);
/// tf.where(cond, x, y) (SelectV2); tf.where(cond) gives the true coordinates.
Value where(const Value& cond, const Value& x = Value(), const Value& y = Value());
/// tf.cast: x itself when it is a tensor of `dtype` already.
Value cast(const Value& x, DType dtype);
Value sign(const Value& x);
Value rsqrt(const Value& x);
Value log1p(const Value& x);
Value sin(const Value& x);
Value cos(const Value& x);
/// tf.round: half to even; integers as they are.
Value round(const Value& x);
Value floor(const Value& x);
Value ceil(const Value& x);
Value relu(const Value& x);
Value softplus(const Value& x);

// ---- Shapes, arrays, reductions (tf_api_array.cpp).
Value reshape(const Value& x, const Value& shape);
/// perm None: the dims reversed.
Value transpose(const Value& x, const Value& perm = Value());
Value matmul(const Value& a, const Value& b, bool transpose_a = false, bool transpose_b = false);
/// axis None: every axis. axis may be an int or a list of ints.
Value reduce_sum(const Value& x, const Value& axis = Value(), bool keepdims = false);
Value reduce_mean(const Value& x, const Value& axis = Value(), bool keepdims = false);
Value reduce_max(const Value& x, const Value& axis = Value(), bool keepdims = false);
Value reduce_min(const Value& x, const Value& axis = Value(), bool keepdims = false);
Value reduce_prod(const Value& x, const Value& axis = Value(), bool keepdims = false);
Value reduce_any(const Value& x, const Value& axis = Value(), bool keepdims = false);
Value reduce_all(const Value& x, const Value& axis = Value(), bool keepdims = false);
/// axis None is 0, as TF's.
Value argmax(const Value& x, const Value& axis = Value(), DType output_type = DType::Int64);
/// tf.range(limit) or tf.range(start, limit, delta); dtype inferred as TF's
/// (the widest of int32 < int64 < float32 < float64 among the arguments).
Value range(const Value& start, const Value& limit = Value(), const Value& delta = Value(1),
            OptDType dtype = std::nullopt);
Value ones(const Value& shape, DType dtype = DType::Float32);
Value zeros(const Value& shape, DType dtype = DType::Float32);
Value fill(const Value& dims, const Value& value);
Value ones_like(const Value& x);
Value zeros_like(const Value& x);
Value concat(const Value& values, const Value& axis);
Value stack(const Value& values, const Value& axis = Value(0));
/// tf.unstack(value, num, axis): a list of the slices along `axis`.
Value unstack(const Value& value, const Value& num = Value(), int64_t axis = 0);
Value shape(const Value& x, DType out_type = DType::Int32);
Value size(const Value& x, DType out_type = DType::Int32);
Value rank(const Value& x);
Value identity(const Value& x);
/// tf.print(*inputs): tensors formatted as TF's (StringFormat + PrintV2, so it
/// runs on every call of a traced function); Python values inline via str().
void print(const std::vector<Value>& inputs, std::string_view sep = " ", std::string_view end = "\n",
           int64_t summarize = 3, std::string_view output_stream = "stderr");

// ---- Indexing and layout (tf_api_indexing.cpp).
Value expand_dims(const Value& x, const Value& axis);
/// axis None: every dim of size 1; else an int or a list of ints.
Value squeeze(const Value& x, const Value& axis = Value());
/// tf.split(value, num_or_size_splits, axis, num): a list of tensors; an int
/// splits evenly (Split), a list gives the sizes (SplitV, one may be -1).
Value split(const Value& value, const Value& num_or_size_splits, const Value& axis = Value(0),
            const Value& num = Value());
Value tile(const Value& x, const Value& multiples);
/// mode "CONSTANT" only (REFLECT/SYMMETRIC: UnimplementedError); PadV2 when
/// constant_values is not 0.
Value pad(const Value& x, const Value& paddings, const std::string& mode = "CONSTANT",
          const Value& constant_values = Value(0));
/// axis None: batch_dims (0 by default), as TF's.
Value gather(const Value& params, const Value& indices, const Value& axis = Value(), int64_t batch_dims = 0);
Value gather_nd(const Value& params, const Value& indices);
/// on/off values default to 1/0 of `dtype` (float32 unless given or implied by them).
Value one_hot(const Value& indices, const Value& depth, const Value& on_value = Value(), const Value& off_value = Value(),
              int64_t axis = -1, OptDType dtype = std::nullopt);
Value cumsum(const Value& x, const Value& axis = Value(0), bool exclusive = false, bool reverse = false);
Value argmin(const Value& x, const Value& axis = Value(), DType output_type = DType::Int64);

// ---- Neural-network ops (tf_api_nn.cpp).
/// axis None or -1: the last; another axis is moved last and back (as TF's).
Value softmax(const Value& logits, const Value& axis = Value());
Value log_softmax(const Value& logits, const Value& axis = Value());
/// strides/dilations: an int, or 1, 2 or 4 ints, as TF's conv2d takes them;
/// padding "SAME"/"VALID" or explicit [[0,0],[t,b],[l,r],[0,0]] pads.
Value conv2d(const Value& input, const Value& filters, const Value& strides, const Value& padding,
             const std::string& data_format = "NHWC", const Value& dilations = Value());
Value bias_add(const Value& value, const Value& bias, const std::string& data_format = "NHWC");
Value max_pool2d(const Value& input, const Value& ksize, const Value& strides, const std::string& padding,
                 const std::string& data_format = "NHWC");
Value avg_pool2d(const Value& input, const Value& ksize, const Value& strides, const std::string& padding,
                 const std::string& data_format = "NHWC");

// ---- Strings (tf_api_strings.cpp).
Value as_string(const Value& x, int64_t precision = -1, bool scientific = false, bool shortest = false,
                int64_t width = -1, const std::string& fill = "");
Value string_to_number(const Value& x, DType out_type = DType::Float32);
/// unit "BYTE" or "UTF8_CHAR".
Value string_length(const Value& x, const std::string& unit = "BYTE");
/// tf.strings.join(inputs, separator): elementwise, scalars broadcast.
Value string_join(const Value& inputs, const std::string& separator = "");

// ---- Random numbers (tf_api_random.cpp): TF's seed rules over Philox.
/// tf.random.set_seed(seed) (None clears it).
void set_seed(const Value& seed);
/// tf.random.uniform(shape, minval=0, maxval=None (1 for floats), dtype, seed).
Value random_uniform(const Value& shape, const Value& minval = Value(0), const Value& maxval = Value(),
                     DType dtype = DType::Float32, const Value& seed = Value());
/// tf.random.normal(shape, mean=0.0, stddev=1.0, dtype, seed).
Value random_normal(const Value& shape, const Value& mean = Value(0.0), const Value& stddev = Value(1.0),
                    DType dtype = DType::Float32, const Value& seed = Value());

// ---- Linear algebra compositions (tf_api_linalg.cpp).
/// tf.tensordot(a, b, axes): axes an int N (the last N axes of a with the
/// first N of b) or a pair of axis lists (negative allowed), lowered as TF's
/// Python does: Transpose + Reshape + MatMul + Reshape, names under "Tensordot/".
Value tensordot(const Value& a, const Value& b, const Value& axes);
/// tf.einsum(equation, *inputs) for one or two operands: transposes, sums,
/// outer and elementwise products, and contractions over any number of labels
/// (through MatMul/BatchMatMulV2), with an implicit output when there is no
/// "->". Not supported (UnimplementedError naming the equation): ellipses, a
/// label repeated within one operand (traces, diagonals), three or more operands.
Value einsum(const std::string& equation, const std::vector<Value>& inputs);
Value einsum(const std::string& equation, const Value& a);
Value einsum(const std::string& equation, const Value& a, const Value& b);

}  // namespace ag::tf
