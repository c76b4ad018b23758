// tf.random.gamma / poisson and their stateless forms: TF's Python
// (random_ops.py random_gamma, random_poisson_v2; stateless_random_ops.py
// stateless_random_gamma, stateless_random_poisson) over the gamma and
// Poisson ops, under TF's name scopes:
//   gamma:   alpha, beta (default 1) converted to dtype and broadcast together;
//            maximum(finfo(dtype).tiny, RandomGamma(shape, alpha) / beta)
//   poisson: RandomPoissonV2(shape, lam, dtype), lam converted as the op's
//            input R (float64 preferred: its default)
// The seeded forms take (seed, seed2) from random_seed.get_seed (tf_api_random).
// Deviation: TF broadcasts alpha with the dynamic shape ops (Shape,
// BroadcastArgs); agc uses the static broadcast shape, so a traced graph has a
// Const shape for BroadcastTo and no Shape/BroadcastArgs nodes.
#include <limits>

#include "runtime/api/random_seed.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/ops/kernels/broadcast.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/convert.h"

namespace ag::tf::impl {
namespace {

using common::NameScope;

DType dtype_or(const Value& v, DType d) { return v.is_none() ? d : require_dtype(v); }

/// ops.convert_to_tensor(v, dtype=dtype, name=name): a tensor as it is
/// (ValueError when its dtype differs), a literal a Const named `name`.
TensorHandle named_arg(const Value& v, DType dtype, std::string_view name) {
  if (v.is_tensor() || holds_tensor(v)) return to_tensor(v, dtype);
  return tf::constant(v, dtype, name).as_tensor();
}

/// np.finfo(dtype).tiny, the smallest positive normal value; NumPy's
/// ValueError for a dtype that is not inexact.
double finfo_tiny(DType t) {
  switch (t) {
    case DType::Float32: return std::numeric_limits<float>::min();
    case DType::Float64: return std::numeric_limits<double>::min();
    case DType::BFloat16: return std::numeric_limits<float>::min();  // ml_dtypes' bfloat16 finfo
    default: break;
  }
  throw ValueError("data type <class 'numpy." + dtype_repr(t) + "'> not inexact");
}

/// alpha broadcast with beta (array_ops.broadcast_to over the broadcast of
/// their shapes): "Incompatible shapes: [2] vs. [3]" when they do not.
Value broadcast_alpha(const TensorHandle& alpha, const TensorHandle& beta) {
  const Shape& as = alpha.shape();
  const Shape& bs = beta.shape();
  if (!as.fully_defined() || !bs.fully_defined()) {
    throw UnimplementedError("agc broadcasts a gamma distribution's alpha and beta only when their shapes are known");
  }
  Shape s = kernels::broadcast_or_throw(as, bs);
  std::vector<int64_t> dims(s.dims().begin(), s.dims().end());
  return tf::broadcast_to(Value(alpha), Value(common::int32_vector(dims)));
}

/// What both gamma functions convert first, as TF's random_gamma does:
/// the shape, and alpha broadcast with beta (default 1), as `dtype`.
struct GammaArgs {
  TensorHandle shape;
  TensorHandle beta;
  Value alpha;
};

GammaArgs gamma_args(const TfCall& c, DType dtype) {
  TensorHandle shape = named_arg(c["shape"], DType::Int32, "shape");
  TensorHandle alpha = named_arg(c["alpha"], dtype, "alpha");
  TensorHandle beta = named_arg(c["beta"].is_none() ? Value(1) : c["beta"], dtype, "beta");
  return {shape, beta, broadcast_alpha(alpha, beta)};
}

/// maximum(tiny, rnd / beta), as both gamma functions end.
Value scale_gamma(const Value& rnd, const TensorHandle& beta, DType dtype, double tiny) {
  Value scaled = tf::truediv(rnd, Value(beta));
  return tf::maximum(Value(to_tensor(Value(tiny), dtype)), scaled);
}

}  // namespace

Value random_gamma(const TfCall& c) {
  NameScope scope(c.node_name());
  DType dtype = dtype_or(c["dtype"], DType::Float32);
  GammaArgs g = gamma_args(c, dtype);
  auto [s1, s2] = tf::get_seed(c["seed"]);
  double tiny = finfo_tiny(dtype);  // Python evaluates np.finfo before the op
  std::vector<TensorHandle> in{g.shape, g.alpha.as_tensor()};
  Value rnd(apply_op1(op::RandomGamma, in, Attrs{{"seed", s1}, {"seed2", s2}}, "RandomGamma"));
  return scale_gamma(rnd, g.beta, dtype, tiny);
}

Value random_poisson(const TfCall& c) {
  NameScope scope(c.node_name());
  DType dtype = dtype_or(c["dtype"], DType::Float32);
  TensorHandle shape = named_arg(c["shape"], DType::Int32, "shape");
  auto [s1, s2] = tf::get_seed(c["seed"]);
  TensorHandle lam = c["lam"].is_tensor() ? c["lam"].as_tensor() : to_tensor_hint(c["lam"], DType::Float64);
  std::vector<TensorHandle> in{shape, lam};
  return Value(apply_op1(op::RandomPoissonV2, in, Attrs{{"seed", s1}, {"seed2", s2}, {"dtype", dtype}}, "RandomPoissonV2"));
}

Value stateless_random_gamma(const TfCall& c) {
  NameScope scope(c.node_name());
  DType dtype = dtype_or(c["dtype"], DType::Float32);
  GammaArgs g = gamma_args(c, dtype);
  TensorHandle seed = c["seed"].is_tensor() ? c["seed"].as_tensor() : to_tensor(c["seed"]);
  std::vector<TensorHandle> in{g.shape, seed, g.alpha.as_tensor()};
  Value rnd(apply_op1(op::StatelessRandomGammaV2, in, {}, "StatelessRandomGammaV2"));
  return scale_gamma(rnd, g.beta, dtype, finfo_tiny(dtype));
}

Value stateless_random_poisson(const TfCall& c) {
  NameScope scope(c.node_name());
  DType dtype = dtype_or(c["dtype"], DType::Int32);
  TensorHandle shape = named_arg(c["shape"], DType::Int32, "shape");
  TensorHandle seed = c["seed"].is_tensor() ? c["seed"].as_tensor() : to_tensor(c["seed"]);
  TensorHandle lam = c["lam"].is_tensor() ? c["lam"].as_tensor() : to_tensor(c["lam"]);
  std::vector<TensorHandle> in{shape, seed, lam};
  return Value(apply_op1(op::StatelessRandomPoisson, in, Attrs{{"dtype", dtype}}, "StatelessRandomPoisson"));
}

}  // namespace ag::tf::impl
