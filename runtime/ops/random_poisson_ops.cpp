// Poisson samples (the random family, registered from random_ops.cpp) as
// TensorFlow draws them (core/kernels/random_poisson_op.cc PoissonFunctor,
// stateless_random_ops.cc StatelessRandomPoissonOp):
//  - RandomPoissonV2(shape, rate) (attrs seed, seed2, dtype): shape ++
//    rate.shape samples, sample j of rate i at [j, i] (flat j * num_rate + i).
//  - StatelessRandomPoisson(shape, seed, lam): the same draws from the seed's
//    generator; shape is the whole output and ends with lam's shape.
// Output k (k = i * samples_per_rate + j) starts its words 256 blocks * k into
// the call's generator. In double: rate < 10 is Knuth's product of uniforms
// until it falls to exp(-rate); rate >= 10 is Hormann's transformed rejection
// (PTRS) from pairs of uniforms. Neither gives a gradient (TF registers none).
// Deviation: TF loops forever on a NaN or +inf rate; agc gives NaN there
// (InvalidArgumentError for an integer output).
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/core/bfloat16.h"
#include "runtime/ops/families.h"
#include "runtime/ops/kernels/guarded_philox.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/kernels/random_distributions.h"
#include "runtime/ops/random_shape.h"
#include "runtime/ops/registry.h"

namespace ag {

void register_random_poisson_ops(OpRegistry& reg);

namespace {

using kernels::Philox4x32;

/// The rate and output types TF allows: half, float, double, int32, int64 (agc has no half).
constexpr TypeMask kPoissonMask = bit(DType::Float32) | bit(DType::Float64) | bit(DType::Int32) | bit(DType::Int64);
constexpr kernels::TypeSet kPoissonSet{kPoissonMask, "half, float, double, int32, int64"};

/// One Poisson(rate) sample from `gen` in double; `highest` is the output
/// type's largest value (a larger count is drawn again).
double poisson_sample(Philox4x32 gen, double rate, double highest) {
  kernels::UniformDoubleBuffer uniform;
  if (rate < 10) {
    // Knuth: the number of uniforms whose running product stays above exp(-rate).
    const double exp_neg_rate = std::exp(-rate);
    double prod = 1;
    double x = 0;
    while (true) {
      prod = prod * uniform(gen);
      if (prod <= exp_neg_rate && x <= highest) return x;
      x += 1;
    }
  }
  // Hormann's transformed rejection with the dominating G(u) = (2a / (0.5 - |u|) + b) u + rate + 0.43.
  const double log_rate = std::log(rate);
  const double b = 0.931 + 2.53 * std::sqrt(rate);
  const double a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
  while (true) {
    double u = uniform(gen);
    u -= 0.5;
    const double v = uniform(gen);
    const double u_shifted = 0.5 - std::abs(u);
    const double k = std::floor((2 * a / u_shifted + b) * u + rate + 0.43);
    if (k > highest) continue;
    if (u_shifted >= 0.07 && v <= 0.9277 - 3.6224 / (b - 2)) return k;
    if (k < 0 || (u_shifted < 0.013 && v > u_shifted)) continue;
    const double s = std::log(v * inv_alpha / (a / (u_shifted * u_shifted) + b));
    const double t = -rate + k * log_rate - std::lgamma(k + 1);
    if (s <= t) return k;
  }
}

template <class U>
double highest_of() {
  return static_cast<double>(std::numeric_limits<U>::max());
}

/// A rate as %g writes it ("1e+300", "nan"), for the errors below.
std::string rate_text(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", r);
  return buf;
}

template <class R, class U>
void poisson_fill(const Philox4x32& base, const R* rate, int64_t num_rate, int64_t samples_per_rate, U* out) {
  const double highest = highest_of<U>();
  for (int64_t i = 0; i < num_rate; ++i) {
    const double r = static_cast<double>(rate[i]);
    if (std::isnan(r) || r == std::numeric_limits<double>::infinity()) {
      if constexpr (std::is_integral_v<U>) {
        throw InvalidArgumentError("agc cannot draw an integer Poisson sample for rate " + rate_text(r) +
                                   " (TensorFlow does not return)");
      } else {
        for (int64_t j = 0; j < samples_per_rate; ++j) out[j * num_rate + i] = static_cast<U>(NAN);
        continue;
      }
    }
    // Past the output type's largest value nearly every draw would be drawn
    // again (found by ops_fuzz: rate 1e300 looped forever): a float sample
    // is +inf, as TF's cast makes it; an integer one has no value.
    if (r > highest) {
      if constexpr (std::is_integral_v<U>) {
        throw InvalidArgumentError("agc cannot draw an integer Poisson sample for rate " + rate_text(r) +
                                   ": its samples exceed " + dtype_name(dtype_of<U>()) + "'s largest value");
      } else {
        for (int64_t j = 0; j < samples_per_rate; ++j) out[j * num_rate + i] = std::numeric_limits<U>::infinity();
        continue;
      }
    }
    for (int64_t j = 0; j < samples_per_rate; ++j) {
      Philox4x32 gen = base;
      gen.skip(kernels::kReservedBlocksPerOutput * static_cast<uint64_t>(i * samples_per_rate + j));
      out[j * num_rate + i] = static_cast<U>(poisson_sample(gen, r, highest));
    }
  }
}

/// Fills `out` from `rate` (any of the allowed types, each way).
void poisson_run(const Philox4x32& gen, const Tensor& rate, Tensor& out) {
  int64_t num_rate = rate.num_elements();
  if (num_rate == 0 || out.num_elements() == 0) return;
  int64_t per_rate = out.num_elements() / num_rate;
  dispatch_dtype(rate.dtype(), [&]<class R>() {
    if constexpr (std::is_same_v<R, float> || std::is_same_v<R, double> || std::is_same_v<R, int32_t> ||
                  std::is_same_v<R, int64_t>) {
      dispatch_dtype(out.dtype(), [&]<class U>() {
        if constexpr (std::is_same_v<U, float> || std::is_same_v<U, double> || std::is_same_v<U, int32_t> ||
                      std::is_same_v<U, int64_t>) {
          poisson_fill(gen, rate.data<R>(), num_rate, per_rate, out.data<U>());
        }
      });
    }
  });
}

}  // namespace

void register_random_poisson_ops(OpRegistry& reg) {
  // RandomPoissonV2(shape: S, rate: R) -> dtype; attrs seed, seed2, dtype (default int64).
  reg.op("RandomPoissonV2")
      .tf_signature("shape: S, rate: R -> output: dtype")
      .inputs(2)
      .stateful()
      .infer([](const InferContext& c) {
        kernels::check_allowed(c.op, c.inputs[1].dtype, kPoissonSet, "R");
        DType t = c.attrs.get_or<DType>("dtype", DType::Int64);
        kernels::check_allowed(c.op, t, kPoissonSet, "dtype");
        return std::vector<TensorSpec>{{t, random_concat_shape(random_output_shape(c, 0), c.inputs[1].shape)}};
      })
      .cpu([](const KernelSpec& s) {
        auto gen = std::make_shared<kernels::GuardedPhilox>(s.attrs);
        DType t = s.outputs[0].dtype;
        return Kernel([gen, t](KernelContext& k) {
          const Tensor& rate = k.input(1);
          Tensor& out = k.allocate_output(0, t, random_concat_shape(random_output_shape(k.input(0)), rate.shape()));
          if (out.num_elements() == 0) return;
          poisson_run(gen->reserve(out.num_elements()), rate, out);
        });
      })
      .not_differentiable()
      .cost(CostKind::Elementwise)
      .tpu_unsupported("RandomPoissonV2 has no TPU kernel in TensorFlow");

  // StatelessRandomPoisson(shape, seed, lam: Rtype) -> dtype.
  reg.op("StatelessRandomPoisson")
      .tf_signature("shape: T, seed: Tseed, lam: Rtype -> output: dtype")
      .inputs(3)
      .infer([](const InferContext& c) {
        kernels::check_allowed(c.op, c.inputs[2].dtype, kPoissonSet, "Rtype");
        DType t = c.attrs.get_or<DType>("dtype", DType::Int32);
        kernels::check_allowed(c.op, t, kPoissonSet, "dtype");
        check_seed_input(c, 1);
        // TF's StatelessShape: the shape input alone (the kernel checks lam's).
        return std::vector<TensorSpec>{{t, random_output_shape(c, 0)}};
      })
      .cpu([](const KernelSpec& s) {
        DType t = s.outputs[0].dtype;
        return Kernel([t](KernelContext& k) {
          Philox4x32 gen = stateless_generator(k.input(1));
          const Tensor& lam = k.input(2);
          Tensor& out = k.allocate_output(0, t, random_output_shape(k.input(0)));
          if (out.num_elements() == 0) return;  // StatelessRandomOpBase fills nothing then
          check_shape_ends_with(out.shape(), lam.shape());
          poisson_run(gen, lam, out);
        });
      })
      .not_differentiable()
      .cost(CostKind::Elementwise)
      .tpu_unsupported("StatelessRandomPoisson runs on the host here");
}

}  // namespace ag
