// tf.random.stateless_*: TF's stateless_random_ops.py over the stateless
// Philox ops. A seed is a shape-[2] int32/int64 tensor; the op derives its
// Philox key and counter from it (GenerateKey), so equal seeds give equal
// numbers everywhere. TF 2 calls the V2 ops through StatelessRandomGetKeyCounter;
// the numbers are those of the V1 ops agc runs (one derivation, one stream).
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/convert.h"

namespace ag::tf {
namespace {

TensorHandle stateless_tensor_arg(const Value& v) { return v.is_tensor() ? v.as_tensor() : to_tensor(v); }

TensorHandle stateless_shape_arg(const Value& shape) { return shape.is_tensor() ? shape.as_tensor() : to_tensor(shape, DType::Int32); }

/// TF's dtype check of stateless_random_uniform (uint32/uint64 and half are
/// not tensor dtypes here).
void check_uniform_dtype(DType t) {
  if (t != DType::Float32 && t != DType::Float64 && t != DType::BFloat16 && t != DType::Int32 && t != DType::Int64) {
    throw ValueError("Argument `dtype` got invalid value <dtype: '" + dtype_repr(t) + "'>" +
                     ". Accepted dtypes are (tf.float16, tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64, "
                     "tf.uint32, tf.uint64).");
  }
}

std::string stateless_arg_text(const Value& v) { return ag::str(v); }

/// rnd * scale + shift in `dtype` (TF's math_ops.add(rnd * stddev, mean)).
Value stateless_scale_shift(const Value& rnd, const Value& scale, const Value& shift, DType dtype) {
  return add(multiply(rnd, Value(to_tensor(scale, dtype))), Value(to_tensor(shift, dtype)));
}

Value stateless_float(OpType op, const char* hint, const Value& shape, const Value& seed, DType dtype) {
  std::vector<TensorHandle> in{stateless_shape_arg(shape), stateless_tensor_arg(seed)};
  return Value(apply_op1(op, in, Attrs{{"dtype", dtype}}, hint));
}

}  // namespace

Value stateless_random_uniform(const Value& shape, const Value& seed, const Value& minval, const Value& maxval,
                               DType dtype) {
  check_uniform_dtype(dtype);
  if (is_integer(dtype)) {
    if (minval.is_none() != maxval.is_none()) {
      throw ValueError("For integer `dtype` argument <dtype: '" + dtype_repr(dtype) + "'>" +
                       ", argument `minval` and `maxval` must be both None or not None. Got `minval`=" +
                       stateless_arg_text(minval) + " and `maxval`=" + stateless_arg_text(maxval) + ".");
    }
    if (minval.is_none()) {
      std::vector<TensorHandle> in{stateless_shape_arg(shape), stateless_tensor_arg(seed)};
      return Value(apply_op1(op::StatelessRandomUniformFullInt, in, Attrs{{"dtype", dtype}},
                             "StatelessRandomUniformFullInt"));
    }
    std::vector<TensorHandle> in{stateless_shape_arg(shape), stateless_tensor_arg(seed), to_tensor(minval, dtype), to_tensor(maxval, dtype)};
    return Value(apply_op1(op::StatelessRandomUniformInt, in, {}, "StatelessRandomUniformInt"));
  }
  Value lo = minval.is_none() ? Value(0) : minval;
  Value hi = maxval.is_none() ? Value(1) : maxval;
  Value rnd = stateless_float(op::StatelessRandomUniform, "StatelessRandomUniform", shape, seed, dtype);
  // rnd * (maxval - minval) + minval
  return add(multiply(rnd, subtract(Value(to_tensor(hi, dtype)), Value(to_tensor(lo, dtype)))),
             Value(to_tensor(lo, dtype)));
}

Value stateless_random_normal(const Value& shape, const Value& seed, const Value& mean, const Value& stddev,
                              DType dtype, bool truncated) {
  if (!is_floating(dtype)) {
    throw TypeError("Invalid dtype " + dtype_repr(dtype) + " for a stateless normal; expected a floating point type");
  }
  Value rnd = truncated ? stateless_float(op::StatelessTruncatedNormal, "StatelessTruncatedNormal", shape, seed, dtype)
                        : stateless_float(op::StatelessRandomNormal, "StatelessRandomNormal", shape, seed, dtype);
  return stateless_scale_shift(rnd, stddev, mean, dtype);
}

Value stateless_split(const Value& seed, const Value& num) {
  TensorHandle s = stateless_tensor_arg(seed);
  Value shape = Value::list({num, Value(2)});
  return stateless_random_uniform(shape, Value(s), Value(), Value(), s.dtype());
}

Value stateless_fold_in(const Value& seed, const Value& data) {
  TensorHandle d = stateless_tensor_arg(data);
  Value s1 = stateless_random_uniform(Value::list(), seed, Value(), Value(), d.dtype());
  return stack(Value::list({s1, Value(d)}));
}

namespace impl {
namespace {

DType stateless_dtype_or(const Value& v, DType d) { return v.is_none() ? d : require_dtype(v); }

/// alg: only Philox (TF's "auto_select" picks it on CPU; "philox" or 1 names it).
void check_stateless_alg(const Value& alg) {
  if (alg.is_none()) return;
  if (alg.is_str() && (alg.as_str() == "auto_select" || alg.as_str() == "philox")) return;
  if (alg.is_int() && (alg.as_int() == 1 || alg.as_int() == 3)) return;
  throw UnimplementedError("agc's stateless random ops implement the Philox algorithm only, not " + ag::repr(alg));
}

}  // namespace

Value stateless_random_uniform(const TfCall& c) {
  check_stateless_alg(c["alg"]);
  return tf::stateless_random_uniform(c["shape"], c["seed"], c["minval"], c["maxval"], stateless_dtype_or(c["dtype"], DType::Float32));
}

Value stateless_random_normal(const TfCall& c) {
  check_stateless_alg(c["alg"]);
  return tf::stateless_random_normal(c["shape"], c["seed"], c["mean"], c["stddev"], stateless_dtype_or(c["dtype"], DType::Float32),
                                     false);
}

Value stateless_truncated_normal(const TfCall& c) {
  check_stateless_alg(c["alg"]);
  return tf::stateless_random_normal(c["shape"], c["seed"], c["mean"], c["stddev"], stateless_dtype_or(c["dtype"], DType::Float32),
                                     true);
}

Value stateless_categorical(const TfCall& c) {
  return tf::stateless_categorical(c["logits"], c["num_samples"], c["seed"], c["dtype"]);
}

Value stateless_split(const TfCall& c) {
  check_stateless_alg(c["alg"]);
  return tf::stateless_split(c["seed"], c["num"]);
}

Value stateless_fold_in(const TfCall& c) {
  check_stateless_alg(c["alg"]);
  return tf::stateless_fold_in(c["seed"], c["data"]);
}

}  // namespace impl
}  // namespace ag::tf
