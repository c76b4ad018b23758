// ag::tf: the tf.* functions as typed C++ (the C++ API, bench/, samples/app;
// generated code calls their Python-facing bindings, python_api.h). Each
// takes Values, so Python literals work where TF accepts them (converted as
// TF's Python layer converts them: a literal adopts the dtype of the tensor it
// meets), and returns a Value holding an eager or symbolic tensor.
//
// `name` is the node's name while tracing; it defaults to the node-name hint
// of the function's row in tf_functions.def (hint::<function>: "Add" for
// tf.add, "Sum" for tf.reduce_sum, "transpose" for tf.transpose, ...), which
// graph naming makes unique ("Add_1"). Eagerly it is unused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/ops/op_type.h"
#include "runtime/value/value.h"

namespace ag::tf {

using OptDType = std::optional<DType>;

/// Each function's node-name hint, from its row: hint::reduce_sum is "Sum".
namespace hint {
#define AG_TF_UNARY(cpp_name, paths, signature, op, hint_text) inline constexpr std::string_view cpp_name = hint_text;
#define AG_TF_BINARY(cpp_name, paths, signature, op, hint_text) inline constexpr std::string_view cpp_name = hint_text;
#define AG_TF_FN(cpp_name, paths, signature, impl, op, hint_text) inline constexpr std::string_view cpp_name = hint_text;
#include "runtime/api/tf_functions.def"
}  // namespace hint

// ---- The plain op wrappers: one per AG_TF_UNARY / AG_TF_BINARY row
// (tf.tanh(x), tf.subtract(x, y), ...), defined from the table (tf_table.cpp).
#define AG_TF_UNARY(cpp_name, paths, signature, op, hint_text) \
  Value cpp_name(const Value& x, std::string_view name = hint::cpp_name);
#define AG_TF_BINARY(cpp_name, paths, signature, op, hint_text) \
  Value cpp_name(const Value& x, const Value& y, std::string_view name = hint::cpp_name);
#include "runtime/api/tf_functions.def"
/// Op `op` on x converted as TF converts an op's input (a literal by its
/// inferred dtype): what every AG_TF_UNARY row applies.
Value unary_op(OpType op, const Value& x, std::string_view name);
/// Op `op` on x and y converted as op_def_library converts the inputs of an
/// op whose inputs share one type: the first tensor sets the dtype (else the
/// first operand's inferred one) and literals adopt it; while tracing, a
/// mismatch is TF's TypeError. What every AG_TF_BINARY row applies.
Value binary_op(OpType op, const Value& x, const Value& y, std::string_view name);

// ---- Tensors from Python values (tf_api.cpp).
/// tf.constant(value, dtype): nested lists with TF's dtype inference; while
/// tracing a Const node.
Value constant(const Value& value, OptDType dtype = std::nullopt, std::string_view name = hint::constant);
/// tf.Variable(initial_value, dtype, name, shape) (runtime/value/variable_value.h).
Value Variable(const Value& initial_value, OptDType dtype = std::nullopt, const Value& name = Value(),
               const Value& shape = Value(), bool trainable = true);
/// tf.convert_to_tensor(value, dtype, dtype_hint).
Value convert_to_tensor(const Value& value, OptDType dtype = std::nullopt, OptDType dtype_hint = std::nullopt);

// ---- Elementwise math with logic of their own (tf_api.cpp).
/// tf.add: y converted with x's dtype as a hint (math_ops.add); AddV2.
Value add(const Value& x, const Value& y, std::string_view name = hint::add);
/// tf.divide: Python's `/` on the converted operands.
Value divide(const Value& x, const Value& y);
Value truediv(const Value& x, const Value& y);
/// tf.where(cond, x, y) (SelectV2); tf.where(cond) gives the true coordinates
/// (Where). `name` empty: the form's own hint.
Value where(const Value& cond, const Value& x = Value(), const Value& y = Value(), std::string_view name = {});
/// tf.cast: x itself when it is a tensor of `dtype` already.
Value cast(const Value& x, DType dtype, std::string_view name = hint::cast);
/// tf.round: half to even; integers as they are.
Value round(const Value& x, std::string_view name = hint::round);

// ---- Shapes, arrays, reductions (tf_api_array.cpp).
Value reshape(const Value& x, const Value& shape, std::string_view name = hint::reshape);
/// perm None: the dims reversed.
Value transpose(const Value& x, const Value& perm = Value(), std::string_view name = hint::transpose);
Value matmul(const Value& a, const Value& b, bool transpose_a = false, bool transpose_b = false,
             std::string_view name = hint::matmul);
/// axis None: every axis. axis may be an int or a list of ints.
Value reduce_sum(const Value& x, const Value& axis = Value(), bool keepdims = false,
                 std::string_view name = hint::reduce_sum);
Value reduce_mean(const Value& x, const Value& axis = Value(), bool keepdims = false,
                  std::string_view name = hint::reduce_mean);
Value reduce_max(const Value& x, const Value& axis = Value(), bool keepdims = false,
                 std::string_view name = hint::reduce_max);
Value reduce_min(const Value& x, const Value& axis = Value(), bool keepdims = false,
                 std::string_view name = hint::reduce_min);
Value reduce_prod(const Value& x, const Value& axis = Value(), bool keepdims = false,
                  std::string_view name = hint::reduce_prod);
/// The logical reductions: x converted to bool.
Value reduce_any(const Value& x, const Value& axis = Value(), bool keepdims = false,
                 std::string_view name = hint::reduce_any);
Value reduce_all(const Value& x, const Value& axis = Value(), bool keepdims = false,
                 std::string_view name = hint::reduce_all);
/// axis None is 0, as TF's.
Value argmax(const Value& x, const Value& axis = Value(), DType output_type = DType::Int64,
             std::string_view name = hint::argmax);
Value argmin(const Value& x, const Value& axis = Value(), DType output_type = DType::Int64,
             std::string_view name = hint::argmin);
/// tf.range(limit) or tf.range(start, limit, delta); dtype inferred as TF's
/// (the widest of int32 < int64 < float32 < float64 among the arguments).
Value range(const Value& start, const Value& limit = Value(), const Value& delta = Value(1),
            OptDType dtype = std::nullopt, std::string_view name = hint::range);
Value ones(const Value& shape, DType dtype = DType::Float32, std::string_view name = hint::ones);
Value zeros(const Value& shape, DType dtype = DType::Float32, std::string_view name = hint::zeros);
Value fill(const Value& dims, const Value& value, std::string_view name = hint::fill);
Value ones_like(const Value& x, std::string_view name = hint::ones_like);
Value zeros_like(const Value& x, std::string_view name = hint::zeros_like);
Value concat(const Value& values, const Value& axis, std::string_view name = hint::concat);
/// tf.math.add_n(inputs): the sum of a list of tensors of one dtype and shape.
Value add_n(const Value& inputs, std::string_view name = hint::add_n);
Value stack(const Value& values, const Value& axis = Value(0), std::string_view name = hint::stack);
/// tf.unstack(value, num, axis): a list of the slices along `axis`.
Value unstack(const Value& value, const Value& num = Value(), int64_t axis = 0, std::string_view name = hint::unstack);
Value shape(const Value& x, DType out_type = DType::Int32, std::string_view name = hint::shape);
Value size(const Value& x, DType out_type = DType::Int32, std::string_view name = hint::size);
Value rank(const Value& x, std::string_view name = hint::rank);
/// tf.print(*inputs): tensors formatted as TF's (StringFormat + PrintV2, so it
/// runs on every call of a traced function); Python values inline via str().
void print(const std::vector<Value>& inputs, std::string_view sep = " ", std::string_view end = "\n",
           int64_t summarize = 3, std::string_view output_stream = "stderr");

// ---- Indexing and layout (tf_api_indexing.cpp).
Value expand_dims(const Value& x, const Value& axis, std::string_view name = hint::expand_dims);
/// axis None: every dim of size 1; else an int or a list of ints.
Value squeeze(const Value& x, const Value& axis = Value(), std::string_view name = hint::squeeze);
/// tf.split(value, num_or_size_splits, axis, num): a list of tensors; an int
/// splits evenly (Split), a list gives the sizes (SplitV, one may be -1).
Value split(const Value& value, const Value& num_or_size_splits, const Value& axis = Value(0),
            const Value& num = Value(), std::string_view name = hint::split);
Value tile(const Value& x, const Value& multiples, std::string_view name = hint::tile);
/// x broadcast to `shape` (BroadcastTo): NumPy's rule, the result exactly `shape`.
Value broadcast_to(const Value& x, const Value& shape, std::string_view name = hint::broadcast_to);
/// mode "CONSTANT" (Pad, or PadV2 when constant_values is not 0), "REFLECT"
/// or "SYMMETRIC" (MirrorPad), in any case. `name` empty: the op's own.
Value pad(const Value& x, const Value& paddings, const std::string& mode = "CONSTANT",
          const Value& constant_values = Value(0), std::string_view name = hint::pad);
/// axis None: batch_dims (0 by default), as TF's.
Value gather(const Value& params, const Value& indices, const Value& axis = Value(), int64_t batch_dims = 0,
             std::string_view name = hint::gather);
Value gather_nd(const Value& params, const Value& indices, std::string_view name = hint::gather_nd);
/// on/off values default to 1/0 of `dtype` (float32 unless given or implied by them).
Value one_hot(const Value& indices, const Value& depth, const Value& on_value = Value(), const Value& off_value = Value(),
              int64_t axis = -1, OptDType dtype = std::nullopt, std::string_view name = hint::one_hot);
Value cumsum(const Value& x, const Value& axis = Value(0), bool exclusive = false, bool reverse = false,
             std::string_view name = hint::cumsum);
Value cumprod(const Value& x, const Value& axis = Value(0), bool exclusive = false, bool reverse = false,
              std::string_view name = hint::cumprod);

// ---- Neural-network ops (tf_api_nn.cpp).
/// axis None or -1: the last; another axis is moved last and back (as TF's).
Value softmax(const Value& logits, const Value& axis = Value(), std::string_view name = hint::softmax);
Value log_softmax(const Value& logits, const Value& axis = Value(), std::string_view name = hint::log_softmax);
/// strides/dilations: an int, or 1, 2 or 4 ints, as TF's conv2d takes them;
/// padding "SAME"/"VALID" or explicit [[0,0],[t,b],[l,r],[0,0]] pads.
Value conv2d(const Value& input, const Value& filters, const Value& strides, const Value& padding,
             const std::string& data_format = "NHWC", const Value& dilations = Value(),
             std::string_view name = hint::conv2d);
/// tf.nn.depthwise_conv2d: filter [KH, KW, C, M], each input channel by its
/// own M filters, output channel c·M + m; strides, padding, dilations as conv2d's.
Value depthwise_conv2d(const Value& input, const Value& filter, const Value& strides, const Value& padding,
                       const std::string& data_format = "NHWC", const Value& dilations = Value(),
                       std::string_view name = hint::depthwise_conv2d);
Value bias_add(const Value& value, const Value& bias, const std::string& data_format = "NHWC",
               std::string_view name = hint::bias_add);
Value max_pool2d(const Value& input, const Value& ksize, const Value& strides, const std::string& padding,
                 const std::string& data_format = "NHWC", std::string_view name = hint::max_pool2d);
Value avg_pool2d(const Value& input, const Value& ksize, const Value& strides, const std::string& padding,
                 const std::string& data_format = "NHWC", std::string_view name = hint::avg_pool2d);

// ---- Strings (tf_api_strings.cpp).
Value as_string(const Value& x, int64_t precision = -1, bool scientific = false, bool shortest = false,
                int64_t width = -1, const std::string& fill = "", std::string_view name = hint::as_string);
Value string_to_number(const Value& x, DType out_type = DType::Float32, std::string_view name = hint::string_to_number);
/// unit "BYTE" or "UTF8_CHAR".
Value string_length(const Value& x, const std::string& unit = "BYTE", std::string_view name = hint::string_length);
/// tf.strings.join(inputs, separator): elementwise, scalars broadcast.
Value string_join(const Value& inputs, const std::string& separator = "", std::string_view name = hint::string_join);

// ---- Random numbers (tf_api_random.cpp): TF's seed rules over Philox.
/// tf.random.set_seed(seed) (None clears it).
void set_seed(const Value& seed);
/// tf.random.uniform(shape, minval=0, maxval=None (1 for floats), dtype, seed).
Value random_uniform(const Value& shape, const Value& minval = Value(0), const Value& maxval = Value(),
                     DType dtype = DType::Float32, const Value& seed = Value());
/// tf.random.normal(shape, mean=0.0, stddev=1.0, dtype, seed).
Value random_normal(const Value& shape, const Value& mean = Value(0.0), const Value& stddev = Value(1.0),
                    DType dtype = DType::Float32, const Value& seed = Value());
/// tf.random.truncated_normal: normals within 2 stddevs (TruncatedNormal), scaled and shifted.
Value truncated_normal(const Value& shape, const Value& mean = Value(0.0), const Value& stddev = Value(1.0),
                       DType dtype = DType::Float32, const Value& seed = Value());
/// tf.random.categorical(logits, num_samples, dtype=None (int64), seed): Multinomial.
Value categorical(const Value& logits, const Value& num_samples, const Value& dtype = Value(), const Value& seed = Value());
/// tf.random.shuffle(value, seed): the rows of the first axis in a random order.
Value random_shuffle(const Value& value, const Value& seed = Value());
/// tf.random.stateless_categorical(logits, num_samples, seed, dtype=int64).
Value stateless_categorical(const Value& logits, const Value& num_samples, const Value& seed, const Value& dtype = Value());

/// tf.nn.dropout(x, rate, noise_shape, seed): TF 2's nn_ops._dropout (tf_api_dropout.cpp).
Value dropout(const Value& x, const Value& rate, const Value& noise_shape = Value(), const Value& seed = Value());

// ---- Stateless random numbers (tf_api_stateless_random.cpp).
/// tf.random.stateless_uniform: floats in [minval, maxval); ints in [minval,
/// maxval), or every bit pattern when both are None.
Value stateless_random_uniform(const Value& shape, const Value& seed, const Value& minval, const Value& maxval,
                               DType dtype);
/// tf.random.stateless_normal / stateless_truncated_normal.
Value stateless_random_normal(const Value& shape, const Value& seed, const Value& mean, const Value& stddev,
                              DType dtype, bool truncated);
/// tf.random.experimental.stateless_split(seed, num): `num` new seeds, shape [num, 2].
Value stateless_split(const Value& seed, const Value& num);
/// tf.random.experimental.stateless_fold_in(seed, data): a new seed from seed and data.
Value stateless_fold_in(const Value& seed, const Value& data);

// ---- Linear algebra compositions (tf_api_linalg.cpp).
/// tf.tensordot(a, b, axes): axes an int N (the last N axes of a with the
/// first N of b) or a pair of axis lists (negative allowed), lowered as TF's
/// Python does: Transpose + Reshape + MatMul + Reshape, names under "Tensordot/".
Value tensordot(const Value& a, const Value& b, const Value& axes);
/// tf.einsum(equation, *inputs): transposes, sums, outer and elementwise
/// products, and contractions over any number of labels (through
/// MatMul/BatchMatMulV2), with an implicit output when there is no "->"; a
/// label repeated within an operand takes its diagonal (traces), an
/// ellipsis stands for the leading dims (broadcast where one is 1), and three
/// or more operands are contracted left to right.
Value einsum(const std::string& equation, const std::vector<Value>& inputs);
Value einsum(const std::string& equation, const Value& a);
Value einsum(const std::string& equation, const Value& a, const Value& b);

}  // namespace ag::tf
