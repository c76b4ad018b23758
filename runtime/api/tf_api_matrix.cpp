// The tf.linalg functions on (batches of) matrices: the diagonal and band ops
// (MatrixDiagV3, MatrixDiagPartV3, MatrixSetDiagV3, MatrixBandPart), the
// factorizations (MatrixInverse, MatrixDeterminant, MatrixSolve, Cholesky,
// Qr), and TF's Python compositions over them: tf.eye, tf.linalg.trace,
// tf.linalg.matrix_transpose and tf.norm, under their name scopes.
#include <cmath>
#include <string>
#include <vector>

#include "runtime/api/binding.h"
#include "runtime/api/named_tuple.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/value/convert.h"

namespace ag::tf::impl {
namespace {

using namespace common;

std::string align_arg(const Value& v) { return ag::api::str_arg(v, "align"); }

/// A diagonal op's padding value: the diagonal's dtype (TF turns an int
/// padding into a bool for a bool tensor).
TensorHandle padding_of(const Value& padding, DType dt) {
  if (dt == DType::Bool && padding.is_number()) return to_tensor(Value(padding.as_float() != 0), dt);
  return to_tensor(padding, dt);
}

TensorHandle matrix_diag_part(const TensorHandle& x, const Value& k, const Value& padding, const std::string& align,
                              std::string_view name) {
  return apply(op::MatrixDiagPartV3, {x, index_tensor(k), padding_of(padding, x.dtype())}, name, Attrs{{"align", align}});
}

/// array_ops.matrix_diag (MatrixDiagV3) of `diagonal`.
TensorHandle matrix_diag(const TensorHandle& diagonal, const Value& k, const Value& num_rows, const Value& num_cols,
                         const Value& padding, const std::string& align, std::string_view name) {
  return apply(op::MatrixDiagV3,
               {diagonal, index_tensor(k), index_tensor(num_rows), index_tensor(num_cols), padding_of(padding, diagonal.dtype())},
               name, Attrs{{"align", align}});
}

TensorHandle matrix_set_diag(const TensorHandle& x, const TensorHandle& diagonal, const Value& k, const std::string& align,
                             std::string_view name) {
  return apply(op::MatrixSetDiagV3, {x, diagonal, index_tensor(k)}, name, Attrs{{"align", align}});
}

bool is_positive_infinity(const Value& v) { return v.is_float() && std::isinf(v.as_float()) && v.as_float() > 0; }

/// `ord == target` as Python compares an ord argument ('fro', 1, 2.0, inf).
bool ord_is(const Value& ord, const Value& target) { return truthy(ord == target); }

}  // namespace

Value eye(const TfCall& c) {
  // A batch of matrices with ones on the main diagonal: MatrixDiagV3 of ones
  // when square, else the ones set on the diagonal of zeros.
  NameScope scope(c.node_name());
  const Value& rows = c["num_rows"];
  const Value& cols_v = c["num_columns"];
  const Value& batch = c["batch_shape"];
  DType dtype = c["dtype"].is_none() ? DType::Float32 : require_dtype(c["dtype"]);
  const Value& cols = cols_v.is_none() ? rows : cols_v;
  bool square = cols_v.is_none();
  Value diag_size;
  if (rows.is_tensor() || cols.is_tensor()) {
    diag_size = tf::minimum(rows, cols);
  } else {
    if (!rows.is_int() || !cols.is_int()) {
      throw TypeError("Arguments `num_rows` and `num_columns` must be positive integer values. Received: num_rows=" +
                      str(rows) + ", num_columns=" + str(cols));
    }
    square = rows.as_int() == cols.as_int();
    diag_size = Value(std::min(rows.as_int(), cols.as_int()));
  }
  std::vector<Value> batch_dims = batch.is_none() ? std::vector<Value>{} : batch.items();
  // Shapes as Python lists while every dim is a Python int (a traced result
  // keeps its static shape, as TF's does), else packed into a tensor.
  auto with = [&](std::vector<Value> tail) {
    std::vector<Value> dims = batch_dims;
    dims.insert(dims.end(), tail.begin(), tail.end());
    bool ints = true;
    for (const Value& d : dims) ints = ints && d.is_int();
    return ints ? Value::list(dims) : tf::stack(Value::list(dims));
  };
  Value diag_shape = with({diag_size}), shape = with({rows, cols});
  Value ones = tf::ones(diag_shape, dtype);
  if (square) return Value(matrix_diag(ones.as_tensor(), Value(0), Value(-1), Value(-1), Value(0), "RIGHT_LEFT", "diag"));
  Value zeros = tf::zeros(shape, dtype);
  return Value(matrix_set_diag(zeros.as_tensor(), ones.as_tensor(), Value(0), "RIGHT_LEFT", "set_diag"));
}

Value linalg_diag(const TfCall& c) {
  TensorHandle d = to_tensor(c["diagonal"]);
  return Value(matrix_diag(d, c["k"], c["num_rows"], c["num_cols"], c["padding_value"], align_arg(c["align"]), c.node_name()));
}

Value linalg_diag_part(const TfCall& c) {
  return Value(matrix_diag_part(to_tensor(c["input"]), c["k"], c["padding_value"], align_arg(c["align"]), c.node_name()));
}

Value linalg_set_diag(const TfCall& c) {
  TensorHandle x = to_tensor(c["input"]);
  TensorHandle d = to_tensor(c["diagonal"], x.dtype());
  return Value(matrix_set_diag(x, d, c["k"], align_arg(c["align"]), c.node_name()));
}

Value band_part(const TfCall& c) {
  // num_lower and num_upper as TF converts them: int64, the op's default index type.
  auto count = [](const Value& v) { return v.is_tensor() ? v.as_tensor() : to_tensor(v, DType::Int64); };
  return Value(apply(c.op(), {to_tensor(c["input"]), count(c["num_lower"]), count(c["num_upper"])}, c.node_name()));
}

Value trace(const TfCall& c) {
  NameScope scope(c.node_name());
  TensorHandle x = to_tensor(c["x"]);
  Value diag(matrix_diag_part(x, Value(0), Value(0), "RIGHT_LEFT", "diag_part"));
  return tf::reduce_sum(diag, Value::list({Value(-1)}), false, scope.self());
}

Value matrix_transpose(const TfCall& c) {
  NameScope scope(c.node_name());
  Value a = tensor_arg(c["a"]);
  const Shape& s = a.as_tensor().shape();
  if (!s.rank_known()) throw UnimplementedError("tf.linalg.matrix_transpose needs a tensor of known rank");
  if (s.rank() < 2) {
    throw ValueError("Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = " + str(a) +
                     " with shape: " + s.str());
  }
  std::vector<Value> perm;
  for (int d = 0; d < s.rank() - 2; ++d) perm.emplace_back(d);
  perm.emplace_back(s.rank() - 1);
  perm.emplace_back(s.rank() - 2);
  return tf::transpose(a, Value::list(perm));
}

Value norm(const TfCall& c) {
  const Value& ord = c["ord"];
  Value axis = c["axis"];
  const bool matrix = (axis.is_list() || axis.is_tuple()) && axis.items().size() == 2;
  if (matrix) {
    axis = Value::tuple(axis.items());
    const Value& a0 = axis.items()[0];
    const Value& a1 = axis.items()[1];
    if (!a0.is_int() || !a1.is_int() || a0.as_int() == a1.as_int()) {
      throw ValueError("'axis' must be None, an integer, or a tuple of 2 unique integers, got " + str(axis));
    }
    bool supported = false;
    for (const Value& o : {Value("euclidean"), Value("fro"), Value(1), Value(2), Value(INFINITY)}) supported |= ord_is(ord, o);
    if (!supported) {
      throw ValueError("'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, inf], got " + str(ord));
    }
  } else {
    if (!(axis.is_int() || axis.is_none())) {
      throw ValueError("'axis' must be None, an integer, or a tuple of 2 unique integers, got " + str(axis));
    }
    bool supported = false;
    for (const Value& o : {Value("euclidean"), Value(1), Value(2), Value(INFINITY)}) supported |= ord_is(ord, o);
    const bool positive_real = ord.is_number() && !ord.is_bool() && ord.as_float() > 0;
    if (!positive_real && !supported) throw ValueError("'ord' must be a supported vector norm, got " + str(ord));
    if (!axis.is_none()) axis = Value::tuple({axis});
  }
  NameScope scope(c.node_name());
  Value t = tensor_arg(c["tensor"]);
  Value result;
  auto first = [&] { return axis.is_none() ? Value() : axis.items()[0]; };
  if (ord_is(ord, Value("fro")) || ord_is(ord, Value("euclidean")) || ord_is(ord, Value(2))) {
    if (matrix && ord_is(ord, Value(2))) {
      throw UnimplementedError("tf.norm: the matrix 2-norm (ord=2 over two axes) needs singular values, which agc does "
                               "not compute; use ord='fro', 1 or inf");
    }
    result = tf::sqrt(tf::reduce_sum(t * t, axis.is_none() ? Value() : Value::list(axis.items()), true));
  } else {
    result = tf::abs(t);
    if (ord_is(ord, Value(1))) {
      result = tf::reduce_sum(result, first(), true);
      if (matrix) result = tf::reduce_max(result, axis.items()[1], true);
    } else if (is_positive_infinity(ord)) {
      if (matrix) result = tf::reduce_sum(result, axis.items()[1], true);
      result = tf::reduce_max(result, first(), true);
    } else {
      Value sum = tf::reduce_sum(tf::pow(result, ord), axis.is_none() ? Value() : Value::list(axis.items()), true);
      result = tf::pow(sum, Value(1.0) / ord);
    }
  }
  if (!truthy(c["keepdims"])) result = tf::squeeze(result, axis.is_none() ? Value() : Value::list(axis.items()));
  return result;
}

// The factorizations: the row's op on the input(s) as TF's generated wrappers apply them.
Value matrix_inverse(const TfCall& c) {
  return Value(apply(c.op(), {to_tensor(c["input"])}, c.node_name(), Attrs{{"adjoint", truthy(c["adjoint"])}}));
}

Value matrix_solve(const TfCall& c) {
  TensorHandle m = to_tensor(c["matrix"]);
  return Value(apply(c.op(), {m, to_tensor(c["rhs"], m.dtype())}, c.node_name(), Attrs{{"adjoint", truthy(c["adjoint"])}}));
}

Value qr(const TfCall& c) {
  TensorHandle x = to_tensor(c["input"]);
  std::vector<TensorHandle> out = apply_op(c.op(), std::span<const TensorHandle>(&x, 1),
                                           Attrs{{"full_matrices", truthy(c["full_matrices"])}}, c.node_name());
  return named_tuple("Qr", {"q", "r"}, {Value(out[0]), Value(out[1])});
}

}  // namespace ag::tf::impl
