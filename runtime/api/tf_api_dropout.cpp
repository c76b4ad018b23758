// tf.nn.dropout: TF 2's nn_ops._dropout with the stateful uniform sampler.
// x * (1 / (1 - rate)), then zero where a uniform draw (tf.random.uniform
// with the call's seed, over noise_shape) is below rate: SelectV2(draw >=
// rate, scaled, 0). Its gradient is that of Mul and SelectV2: dy * scale
// where kept, 0 where dropped.
#include <cmath>
#include <cstdio>
#include <optional>

#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/api/random_seed.h"
#include "runtime/value/convert.h"

namespace ag::tf {
namespace {

using namespace common;

/// Python's %g / str of a float as f-strings print it.
std::string dropout_number_text(const Value& v) { return ag::repr(v); }

/// _get_noise_shape: x's shape when None; else noise_shape with each None
/// dim taken from x's static shape.
Value noise_shape_of(const TensorHandle& x, const Value& noise_shape) {
  const Shape& xs = x.shape();
  if (noise_shape.is_none()) {
    if (xs.fully_defined()) {
      std::vector<Value> dims;
      for (int64_t d : xs.dims()) dims.push_back(Value(d));
      return Value::list(std::move(dims));
    }
    return shape(Value(x));
  }
  if (noise_shape.is_tensor()) return noise_shape;
  std::vector<Value> dims;
  size_t i = 0;
  for (const Value& d : iterate(noise_shape)) {
    if (d.is_none() && xs.rank_known() && static_cast<int>(i) < xs.rank() && xs.dim(static_cast<int>(i)) >= 0) {
      dims.push_back(Value(xs.dim(static_cast<int>(i))));
    } else {
      dims.push_back(d);
    }
    ++i;
  }
  return Value::list(std::move(dims));
}

}  // namespace

Value dropout(const Value& x_in, const Value& rate, const Value& noise_shape, const Value& seed) {
  NameScope scope("dropout");
  bool rate_number = rate.is_number() && !rate.is_tensor();
  if (rate_number && (rate.as_float() < 0 || rate.as_float() >= 1)) {
    throw ValueError("`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=" +
                     dropout_number_text(rate));
  }
  TensorHandle x = x_in.is_tensor() ? x_in.as_tensor() : to_tensor(x_in);
  DType t = x.dtype();
  if (!is_floating(t)) {
    throw ValueError("`x.dtype` must be a floating point tensor as `x` will be scaled. Received: x_dtype=<dtype: '" +
                     dtype_repr(t) + "'>");
  }
  if (rate_number && rate.as_float() == 0) {
    get_seed(seed);  // TF's dummy_rng_step: the op-seed counter moves on as if it drew
    return Value(x);
  }
  std::optional<TensorHandle> ret, rate_t;
  if (rate_number) {
    rate_t = to_tensor(rate, t);
    double scale = 1.0 / (1.0 - rate.as_float());
    ret = apply(op::Mul, {x, to_tensor(Value(scale), t)}, "Mul");
  } else if (rate.is_tensor()) {
    TensorHandle r = rate.as_tensor();
    if (r.shape().rank_known() && r.shape().rank() != 0) {
      throw ValueError("Shape " + r.shape().str() + " must have rank 0");
    }
    if (r.dtype() != t) r = apply(op::Cast, {r}, "rate", Attrs{{"DstT", t}});
    TensorHandle one = to_tensor(Value(1), t);
    ret = apply(op::RealDiv, {x, apply(op::Sub, {one, r}, "Sub")}, "RealDiv");
    rate_t = r;
  } else {
    throw ValueError("`rate` must be a scalar or scalar tensor. Received: rate=" + ag::repr(rate));
  }
  Value draw = random_uniform(noise_shape_of(x, noise_shape), Value(0), Value(), t, seed);
  TensorHandle keep = apply(op::GreaterEqual, {draw.as_tensor(), *rate_t}, "GreaterEqual");
  TensorHandle zero = to_tensor(Value(0), t);
  return Value(apply(op::SelectV2, {keep, *ret, zero}, "SelectV2"));
}

namespace impl {

Value dropout(const TfCall& c) { return tf::dropout(c["x"], c["rate"], c["noise_shape"], c["seed"]); }

}  // namespace impl
}  // namespace ag::tf
