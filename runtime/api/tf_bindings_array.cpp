// tf.* shapes, arrays and reductions bound to TF's Python signatures
// (array_ops.py, math_ops.py).
#include "runtime/api/tf_bindings_common.h"

namespace ag::tf::api {
namespace {

using ag::api::int_arg;
using ag::api::opt_dtype;

DType dtype_or(const Value& v, DType fallback) { return v.is_none() ? fallback : require_dtype(v); }

}  // namespace

Value reshape(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("reshape", {"tensor", std::nullopt}, {"shape", std::nullopt}, {"name", Value()});
  return tf::reshape(a[0], a[1]);
}

Value transpose(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("transpose", {"a", std::nullopt}, {"perm", Value()}, {"conjugate", Value(false)}, {"name", Value("transpose")});
  return tf::transpose(a[0], a[1]);
}

Value expand_dims(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("expand_dims", {"input", std::nullopt}, {"axis", std::nullopt}, {"name", Value()});
  return tf::expand_dims(a[0], a[1]);
}

Value squeeze(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("squeeze", {"input", std::nullopt}, {"axis", Value()}, {"name", Value()});
  return tf::squeeze(a[0], a[1]);
}

Value concat(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("concat", {"values", std::nullopt}, {"axis", std::nullopt}, {"name", Value("concat")});
  return tf::concat(a[0], a[1]);
}

Value stack(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("stack", {"values", std::nullopt}, {"axis", Value(0)}, {"name", Value("stack")});
  return tf::stack(a[0], Value(int_arg(a[1], "axis")));
}

Value unstack(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("unstack", {"value", std::nullopt}, {"num", Value()}, {"axis", Value(0)}, {"name", Value("unstack")});
  return tf::unstack(a[0], a[1], int_arg(a[2], "axis"));
}

Value split(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("split", {"value", std::nullopt}, {"num_or_size_splits", std::nullopt}, {"axis", Value(0)}, {"num", Value()}, {"name", Value("split")});
  return tf::split(a[0], a[1], a[2], a[3]);
}

Value tile(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("tile", {"input", std::nullopt}, {"multiples", std::nullopt}, {"name", Value()});
  return tf::tile(a[0], a[1]);
}

Value pad(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("pad", {"tensor", std::nullopt}, {"paddings", std::nullopt}, {"mode", Value("CONSTANT")}, {"constant_values", Value(0)},
          {"name", Value()});
  return tf::pad(a[0], a[1], ag::api::str_arg(a[2], "mode"), a[3]);
}

Value gather(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("gather", {"params", std::nullopt}, {"indices", std::nullopt}, {"validate_indices", Value()}, {"axis", Value()},
          {"batch_dims", Value(0)}, {"name", Value()});
  return tf::gather(a[0], a[1], a[3], int_arg(a[4], "batch_dims"));
}

Value gather_nd(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("gather_nd", {"params", std::nullopt}, {"indices", std::nullopt}, {"batch_dims", Value(0)}, {"name", Value()});
  if (int_arg(a[2], "batch_dims") != 0) throw UnimplementedError("tf.gather_nd with batch_dims is not supported");
  return tf::gather_nd(a[0], a[1]);
}

Value one_hot(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("one_hot", {"indices", std::nullopt}, {"depth", std::nullopt}, {"on_value", Value()}, {"off_value", Value()}, {"axis", Value()},
          {"dtype", Value()}, {"name", Value()});
  return tf::one_hot(a[0], a[1], a[2], a[3], a[4].is_none() ? -1 : int_arg(a[4], "axis"), opt_dtype(a[5]));
}

Value shape(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("shape", {"input", std::nullopt}, {"out_type", Value()}, {"name", Value()});
  return tf::shape(a[0], dtype_or(a[1], DType::Int32));
}

Value size(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("size", {"input", std::nullopt}, {"out_type", Value()}, {"name", Value()});
  return tf::size(a[0], dtype_or(a[1], DType::Int32));
}

Value rank(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("rank", {"input", std::nullopt}, {"name", Value()});
  return tf::rank(a[0]);
}

Value range(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("range", {"start", std::nullopt}, {"limit", Value()}, {"delta", Value(1)}, {"dtype", Value()}, {"name", Value("range")});
  return tf::range(a[0], a[1], a[2], opt_dtype(a[3]));
}

Value ones(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("ones", {"shape", std::nullopt}, {"dtype", Value()}, {"name", Value()});
  return tf::ones(a[0], dtype_or(a[1], DType::Float32));
}

Value zeros(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("zeros", {"shape", std::nullopt}, {"dtype", Value()}, {"name", Value()});
  return tf::zeros(a[0], dtype_or(a[1], DType::Float32));
}

Value fill(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("fill", {"dims", std::nullopt}, {"value", std::nullopt}, {"name", Value()});
  return tf::fill(a[0], a[1]);
}

Value ones_like(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("ones_like", {"input", std::nullopt}, {"dtype", Value()}, {"name", Value()});
  Value r = tf::ones_like(a[0]);
  return a[1].is_none() ? r : tf::cast(r, require_dtype(a[1]));
}

Value zeros_like(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("zeros_like", {"input", std::nullopt}, {"dtype", Value()}, {"name", Value()});
  Value r = tf::zeros_like(a[0]);
  return a[1].is_none() ? r : tf::cast(r, require_dtype(a[1]));
}

#define AG_TF_REDUCE(cpp_name)                                                                            \
  Value cpp_name(std::vector<Value> args, Kwargs kwargs) {                                               \
    AG_BIND(#cpp_name, {"input_tensor", std::nullopt}, {"axis", Value()}, {"keepdims", Value(false)}, {"name", Value()}); \
    return tf::cpp_name(a[0], a[1], truthy(a[2]));                                                        \
  }
AG_TF_REDUCE(reduce_sum)
AG_TF_REDUCE(reduce_mean)
AG_TF_REDUCE(reduce_max)
AG_TF_REDUCE(reduce_min)
AG_TF_REDUCE(reduce_prod)
AG_TF_REDUCE(reduce_any)
AG_TF_REDUCE(reduce_all)
#undef AG_TF_REDUCE

Value argmax(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("argmax", {"input", std::nullopt}, {"axis", Value()}, {"output_type", Value()}, {"name", Value()});
  return tf::argmax(a[0], a[1], dtype_or(a[2], DType::Int64));
}

Value argmin(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("argmin", {"input", std::nullopt}, {"axis", Value()}, {"output_type", Value()}, {"name", Value()});
  return tf::argmin(a[0], a[1], dtype_or(a[2], DType::Int64));
}

Value cumsum(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("cumsum", {"x", std::nullopt}, {"axis", Value(0)}, {"exclusive", Value(false)}, {"reverse", Value(false)},
          {"name", Value()});
  return tf::cumsum(a[0], a[1], truthy(a[2]), truthy(a[3]));
}

}  // namespace ag::tf::api
