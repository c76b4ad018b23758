// The hand-written parts of the tf.random.* rows of tf_functions.def.
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/value/dtype_value.h"

namespace ag::tf::impl {
namespace {

DType float_or(const Value& dtype) { return dtype.is_none() ? DType::Float32 : require_dtype(dtype); }

}  // namespace

Value set_seed(const TfCall& c) {
  tf::set_seed(c["seed"]);
  return Value();
}

Value random_uniform(const TfCall& c) {
  return tf::random_uniform(c["shape"], c["minval"], c["maxval"], float_or(c["dtype"]), c["seed"]);
}

Value random_normal(const TfCall& c) {
  return tf::random_normal(c["shape"], c["mean"], c["stddev"], float_or(c["dtype"]), c["seed"]);
}

Value truncated_normal(const TfCall& c) {
  return tf::truncated_normal(c["shape"], c["mean"], c["stddev"], float_or(c["dtype"]), c["seed"]);
}

Value categorical(const TfCall& c) { return tf::categorical(c["logits"], c["num_samples"], c["dtype"], c["seed"]); }

Value random_shuffle(const TfCall& c) { return tf::random_shuffle(c["value"], c["seed"]); }

}  // namespace ag::tf::impl
