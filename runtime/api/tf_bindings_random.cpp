// tf.random.* bound to TF's Python signatures (random_ops.py).
#include "runtime/api/tf_bindings_common.h"

namespace ag::tf::api {

Value random_set_seed(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("set_seed", {"seed", std::nullopt});
  tf::set_seed(a[0]);
  return Value();
}

Value random_uniform(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("random_uniform", {"shape", std::nullopt}, {"minval", Value(0)}, {"maxval", Value()}, {"dtype", Value()},
          {"seed", Value()}, {"name", Value()});
  return tf::random_uniform(a[0], a[1], a[2], a[3].is_none() ? DType::Float32 : require_dtype(a[3]), a[4]);
}

Value random_normal(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("random_normal", {"shape", std::nullopt}, {"mean", Value(0.0)}, {"stddev", Value(1.0)}, {"dtype", Value()},
          {"seed", Value()}, {"name", Value()});
  return tf::random_normal(a[0], a[1], a[2], a[3].is_none() ? DType::Float32 : require_dtype(a[3]), a[4]);
}

}  // namespace ag::tf::api
