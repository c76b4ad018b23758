// Gamma samples (the random family, registered from random_ops.cpp) as
// TensorFlow draws them (core/kernels/random_op.cc RandomGammaOp,
// stateless_random_gamma_op.cc):
//  - RandomGamma(shape, alpha) (attrs seed, seed2): shape ++ alpha.shape
//    samples, sample j of alpha i at [j, i] (flat j * num_alphas + i).
//  - StatelessRandomGammaV2(shape, seed, alpha): the same draws from the
//    seed's generator; shape is the whole output and ends with alpha's shape.
//  - RandomGammaGrad(alpha, sample): d sample / d alpha (Eigen's
//    gamma_sample_der_alpha, implicit reparameterization), both ops' gradient.
// Each output k (in the order alpha-major: k = i * samples_per_alpha + j)
// starts its own words 256 blocks * k into the call's generator, so the
// numbers do not depend on how the work is split. The sampler is Marsaglia
// and Tsang's in double: a normal x, v = (1 + c x)^3, accepted by the squeeze
// or the log test with a uniform u; alpha < 1 draws for alpha + 1 and scales
// by uniform^(1 / alpha); alpha == 1 is the exponential -log1p(-u).
#include <cmath>
#include <memory>
#include <type_traits>
#include <vector>

#include <unsupported/Eigen/SpecialFunctions>

#include "runtime/ops/families.h"
#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/elementwise_ops.h"
#include "runtime/ops/kernels/guarded_philox.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/kernels/random_distributions.h"
#include "runtime/ops/random_shape.h"
#include "runtime/ops/registry.h"

namespace ag {

void register_random_gamma_ops(OpRegistry& reg);

namespace {

using kernels::Philox4x32;

/// RandomGamma's and StatelessRandomGammaV2's T: TF allows half, float,
/// double (agc has no half).
constexpr kernels::TypeSet kGammaSet{bit(DType::Float32) | bit(DType::Float64), "half, float, double"};

/// One gamma(alpha) sample from `gen` (TF's loop body, in double).
double gamma_sample(Philox4x32 gen, double alpha) {
  kernels::UniformDoubleBuffer uniform;
  if (alpha == 1.0) return -std::log1p(-uniform(gen));
  const bool boost = alpha < 1;
  const double d = alpha + (boost ? 2.0 / 3 : -1.0 / 3);
  const double c = 1.0 / 3 / std::sqrt(d);
  kernels::NormalDoubleBuffer normal;
  while (true) {
    const double x = normal(gen);
    double v = 1 + c * x;
    if (v <= 0) continue;
    v = v * v * v;
    const double u = uniform(gen);
    if ((u < 1 - 0.0331 * (x * x) * (x * x)) || (std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v)))) {
      double res = d * v;
      if (boost) res *= std::pow(uniform(gen), 1 / alpha);
      return res;
    }
  }
}

/// samples_per_alpha draws for each of num_alphas alphas into out (sample j
/// of alpha i at j * num_alphas + i).
template <class T>
void gamma_fill(const Philox4x32& base, const T* alpha, int64_t num_alphas, int64_t samples_per_alpha, T* out) {
  for (int64_t i = 0; i < num_alphas; ++i) {
    const double a = static_cast<double>(alpha[i]);
    for (int64_t j = 0; j < samples_per_alpha; ++j) {
      Philox4x32 gen = base;
      gen.skip(kernels::kReservedBlocksPerOutput * static_cast<uint64_t>(i * samples_per_alpha + j));
      out[j * num_alphas + i] = static_cast<T>(gamma_sample(gen, a));
    }
  }
}

void gamma_run(const Philox4x32& gen, const Tensor& alpha, Tensor& out) {
  int64_t num_alphas = alpha.num_elements();
  int64_t per_alpha = out.num_elements() / num_alphas;
  if (alpha.dtype() == DType::Float32) gamma_fill(gen, alpha.data<float>(), num_alphas, per_alpha, out.data<float>());
  else gamma_fill(gen, alpha.data<double>(), num_alphas, per_alpha, out.data<double>());
}

/// Both ops' gradient (TF's _RandomGammaGrad, _StatelessRandomGammaV2Grad):
/// for alpha (input `alpha_index`), the sum over the sample dimensions of
/// g * RandomGammaGrad(alpha, sample); None for the other inputs.
std::vector<GradTensor> gamma_grad(GradContext& c, int alpha_index) {
  GradTensor alpha = c.input(alpha_index);
  GradTensor sample = c.output(0);
  const Shape& as = c.spec(alpha).shape;
  const Shape& ss = c.spec(sample).shape;
  if (!as.rank_known() || !ss.rank_known()) {
    throw UnimplementedError("agc differentiates a gamma sample only when its rank and alpha's are known");
  }
  // RandomGammaGrad broadcasts alpha against the sample as TF's leading unit
  // dimensions (add_leading_unit_dimensions) do.
  GradTensor partial = c.apply1(op::RandomGammaGrad, {alpha, sample});
  std::vector<int64_t> axes;
  for (int i = 0; i < ss.rank() - as.rank(); ++i) axes.push_back(i);
  std::vector<GradTensor> out(static_cast<size_t>(c.num_inputs()));
  out[static_cast<size_t>(alpha_index)] = c.sum(c.mul(c.grad(0), partial), c.ints(axes));
  return out;
}

/// RandomGammaGrad's element: Eigen's derivative of a gamma sample in alpha.
struct GammaSampleDerAlphaOp {
  template <class T>
  static T apply(T alpha, T sample) { return Eigen::numext::gamma_sample_der_alpha(alpha, sample); }
};

}  // namespace

void register_random_gamma_ops(OpRegistry& reg) {
  // RandomGamma(shape: S, alpha: T) -> T; attrs seed, seed2.
  reg.op("RandomGamma")
      .tf_signature("shape: S, alpha: T -> output: T")
      .inputs(2)
      .stateful()
      .infer([](const InferContext& c) {
        DType t = c.inputs[1].dtype;
        kernels::check_allowed(c.op, t, kGammaSet, "T");
        return std::vector<TensorSpec>{{t, random_concat_shape(random_output_shape(c, 0), c.inputs[1].shape)}};
      })
      .cpu([](const KernelSpec& s) {
        auto gen = std::make_shared<kernels::GuardedPhilox>(s.attrs);
        return Kernel([gen](KernelContext& k) {
          const Tensor& alpha = k.input(1);
          Tensor& out = k.allocate_output(0, alpha.dtype(), random_concat_shape(random_output_shape(k.input(0)), alpha.shape()));
          if (out.num_elements() == 0) return;
          gamma_run(gen->reserve(out.num_elements()), alpha, out);
        });
      })
      .grad([](GradContext& c) { return gamma_grad(c, 1); })
      .cost(CostKind::Elementwise)
      .tpu_unsupported("RandomGamma has no TPU kernel in TensorFlow");

  // StatelessRandomGammaV2(shape, seed, alpha: dtype) -> dtype.
  reg.op("StatelessRandomGammaV2")
      .tf_signature("shape: T, seed: Tseed, alpha: dtype -> output: dtype")
      .inputs(3)
      .infer([](const InferContext& c) {
        DType t = c.inputs[2].dtype;
        kernels::check_allowed(c.op, t, kGammaSet, "dtype");
        check_seed_input(c, 1);
        // TF's StatelessShape: the shape input alone (the kernel checks alpha's).
        return std::vector<TensorSpec>{{t, random_output_shape(c, 0)}};
      })
      .cpu([](const KernelSpec&) {
        return Kernel([](KernelContext& k) {
          Philox4x32 gen = stateless_generator(k.input(1));
          const Tensor& alpha = k.input(2);
          Tensor& out = k.allocate_output(0, alpha.dtype(), random_output_shape(k.input(0)));
          if (out.num_elements() == 0) return;  // StatelessRandomOpBase fills nothing then
          check_shape_ends_with(out.shape(), alpha.shape());
          if (alpha.num_elements() <= 0) {
            throw InvalidArgumentError("Input alpha should have non-zero element count, got: " +
                                       std::to_string(alpha.num_elements()));
          }
          gamma_run(gen, alpha, out);
        });
      })
      .grad([](GradContext& c) { return gamma_grad(c, 2); })
      .cost(CostKind::Elementwise)
      .tpu_unsupported("StatelessRandomGammaV2 runs on the host here");

  // RandomGammaGrad(alpha: T, sample: T) -> T, broadcasting; T float or double.
  // TF registers no gradient for it.
  kernels::register_binary<GammaSampleDerAlphaOp, bit(DType::Float32) | bit(DType::Float64)>(reg, "RandomGammaGrad",
                                                                                             "float, double")
      .grad_unimplemented();
}

}  // namespace ag
