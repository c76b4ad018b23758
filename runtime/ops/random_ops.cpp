// Random ops (see families.h) with TensorFlow's Philox4x32-10 stream
// (kernels/philox.h, kernels/random_distributions.h):
//  - seeded (attrs seed, seed2): RandomUniform, RandomStandardNormal,
//    RandomUniformInt, TruncatedNormal, RandomShuffle, Multinomial. Each
//    prepared kernel owns its generator, as TF's GuardedPhiloxRandom: a call
//    reserves blocks (256 per output element) and later calls continue past
//    them, so repeated runs give new numbers while (seed, seed2) fixes the
//    sequence. seed == seed2 == 0 draws a nondeterministic seed.
//  - stateless (a shape-[2] seed input, TF's GenerateKey): StatelessRandom-
//    Uniform/Normal/UniformInt/UniformFullInt, StatelessTruncatedNormal,
//    StatelessMultinomial: the same distributions from a generator the seed
//    alone fixes.
//  - the gamma and Poisson ops, in random_gamma_ops.cpp and
//    random_poisson_ops.cpp, registered from here.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "runtime/ops/families.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/kernels/guarded_philox.h"
#include "runtime/ops/kernels/philox.h"
#include "runtime/ops/kernels/random_distributions.h"
#include "runtime/ops/random_shape.h"
#include "runtime/ops/registry.h"

namespace ag {

void register_random_gamma_ops(OpRegistry& reg);    // random_gamma_ops.cpp
void register_random_poisson_ops(OpRegistry& reg);  // random_poisson_ops.cpp

namespace {

using kernels::Philox4x32;

using kernels::GuardedPhilox;

/// The output shape from a `shape` input: its values when known, else its length.
Shape shape_from_input(const InferContext& c, size_t i) {
  kernels::check_allowed(c.op, c.inputs[i].dtype,
                         {bit(DType::Int32) | bit(DType::Int64), "int32, int64"}, "T");
  const Shape& ss = c.inputs[i].shape;
  if (ss.rank_known() && ss.rank() != 1) {
    throw InvalidArgumentError("shape must be a vector of {int32,int64}, got shape " + ss.debug_string());
  }
  const Tensor* v = c.constant(i);
  if (v == nullptr) {
    return ss.rank_known() && ss.dim(0) >= 0 ? Shape::unknown_dims(static_cast<int>(ss.dim(0))) : Shape::unknown_rank();
  }
  std::vector<int64_t> dims(static_cast<size_t>(v->num_elements()));
  for (size_t k = 0; k < dims.size(); ++k) {
    dims[k] = v->dtype() == DType::Int32 ? v->data<int32_t>()[k] : v->data<int64_t>()[k];
    if (dims[k] < 0) throw InvalidArgumentError("Dimension " + std::to_string(dims[k]) + " must be >= 0");
  }
  if (dims.size() > static_cast<size_t>(kMaxRank)) {
    throw InvalidArgumentError("shape has rank " + std::to_string(dims.size()) + ", more than agc's maximum of " +
                               std::to_string(kMaxRank));
  }
  Shape s{std::span<const int64_t>(dims)};
  (void)s.num_elements();  // throws on int64 overflow
  return s;
}

/// The runtime shape from the shape tensor (the rule above already checked it
/// when the value was known; while tracing it may not have been).
Shape shape_from_tensor(const Tensor& t) {
  std::vector<const Tensor*> consts{&t};
  std::vector<TensorSpec> specs{{t.dtype(), t.shape()}};
  Attrs none;
  InferContext c{"", specs, none, consts};
  return shape_from_input(c, 0);
}

using kernels::normal_fill;
using kernels::truncated_normal_fill;
using kernels::uniform_fill;
using kernels::uniform_int_fill;

constexpr kernels::TypeSet kRandomFloatSet{kFloatTypes, "half, bfloat16, float, double"};

enum class FloatDist { Uniform, Normal, TruncatedNormal };

/// Fills `out` (float, double or bfloat16) from `gen` with distribution `d`.
template <class T>
void fill_float(FloatDist d, Philox4x32 gen, T* out, int64_t n) {
  switch (d) {
    case FloatDist::Uniform: uniform_fill(gen, out, n); return;
    case FloatDist::Normal: normal_fill(gen, out, n); return;
    case FloatDist::TruncatedNormal: truncated_normal_fill(gen, out, n); return;
  }
}

/// RandomUniform / RandomStandardNormal / TruncatedNormal: shape input, attrs dtype, seed, seed2.
template <FloatDist kDist>
OpBuilder register_float_random(OpRegistry& reg, const char* name) {
  return reg.op(name)
      .inputs(1)
      .stateful()
      .infer([](const InferContext& c) {
        DType t = c.attrs.get_or<DType>("dtype", DType::Float32);
        kernels::check_allowed(c.op, t, kRandomFloatSet, "dtype");
        return std::vector<TensorSpec>{{t, shape_from_input(c, 0)}};
      })
      .cpu([](const KernelSpec& s) {
        DType t = s.outputs[0].dtype;
        auto gen = std::make_shared<GuardedPhilox>(s.attrs);
        return Kernel([t, gen](KernelContext& k) {
          Tensor& out = k.allocate_output(0, t, shape_from_tensor(k.input(0)));
          int64_t n = out.num_elements();
          Philox4x32 local = gen->reserve(n);
          if (t == DType::Float32) fill_float(kDist, local, out.data<float>(), n);
          else if (t == DType::Float64) fill_float(kDist, local, out.data<double>(), n);
          else fill_float(kDist, local, out.data<bfloat16>(), n);
        });
      });
}


/// TF's RandomShuffle: Fisher-Yates from the front, swapping i with
/// i + word % (n - i), one single word per step (size - 1 words reserved).
std::vector<int64_t> shuffled_rows(Philox4x32 gen, int64_t size) {
  std::vector<int64_t> perm(static_cast<size_t>(size));
  for (int64_t i = 0; i < size; ++i) perm[static_cast<size_t>(i)] = i;
  kernels::SingleSample single(&gen);
  for (int64_t i = 0; i + 1 < size; ++i) {
    uint32_t span = static_cast<uint32_t>(size - i);
    std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(i + single() % span)]);
  }
  return perm;
}

/// TF's CPU MultinomialFunctor (one shard): per row the unnormalized CDF of
/// exp(logit - max finite logit) in double over the finite logits, and each
/// sample the first class whose CDF exceeds a uniform double times the total.
template <class T, class Out>
void multinomial_fill(Philox4x32 gen, const T* logits, int64_t batch, int64_t classes, int64_t samples, Out* out) {
  kernels::SingleSample single(&gen);
  std::vector<double> cdf(static_cast<size_t>(classes));
  for (int64_t b = 0; b < batch; ++b) {
    const T* row = logits + b * classes;
    double max = std::numeric_limits<double>::lowest();
    for (int64_t j = 0; j < classes; ++j) {
      double v = static_cast<double>(static_cast<float>(row[j]));
      if (std::isfinite(v)) max = std::max(max, v);
    }
    double total = 0;
    for (int64_t j = 0; j < classes; ++j) {
      double v = static_cast<double>(static_cast<float>(row[j]));
      if (std::isfinite(v)) total += std::exp(v - max);
      cdf[static_cast<size_t>(j)] = total;
    }
    for (int64_t j = 0; j < samples; ++j) {
      double to_find = kernels::rand_double(single) * total;
      out[b * samples + j] = static_cast<Out>(std::upper_bound(cdf.begin(), cdf.end(), to_find) - cdf.begin());
    }
  }
}

/// Multinomial's and StatelessMultinomial's shape rule: logits a matrix,
/// num_samples a scalar; output [batch, num_samples] of output_dtype.
std::vector<TensorSpec> multinomial_infer(const InferContext& c) {
  kernels::check_allowed(c.op, c.inputs[0].dtype, kRandomFloatSet, "T");
  DType out = c.attrs.get_or<DType>("output_dtype", DType::Int64);
  kernels::check_allowed(c.op, out, {bit(DType::Int32) | bit(DType::Int64), "int32, int64"}, "output_dtype");
  const Shape& ls = c.inputs[0].shape;
  if (ls.rank_known() && ls.rank() != 2) throw InvalidArgumentError("logits should be a matrix, got shape " + ls.debug_string());
  const Shape& ns = c.inputs[1].shape;
  if (ns.rank_known() && ns.rank() != 0) throw InvalidArgumentError("num_samples should be a scalar, got shape " + ns.debug_string());
  int64_t samples = -1;
  if (const Tensor* v = c.constant(1)) samples = v->scalar_value<int32_t>();
  int64_t batch = ls.rank_known() ? ls.dim(0) : -1;
  std::vector<int64_t> dims{batch, samples};
  return {{out, Shape{std::span<const int64_t>(dims)}}};
}

/// Multinomial's kernel body from a generator reserve(count) gives.
void multinomial_run(KernelContext& k, DType out_t, const std::function<Philox4x32(int64_t)>& reserve) {
  const Tensor& logits = k.input(0);
  const Tensor& ns = k.input(1);
  if (logits.rank() != 2) throw InvalidArgumentError("logits should be a matrix, got shape " + logits.shape().debug_string());
  if (ns.rank() != 0) throw InvalidArgumentError("num_samples should be a scalar, got shape " + ns.shape().debug_string());
  int64_t samples = ns.scalar_value<int32_t>();
  if (samples < 0) throw InvalidArgumentError("num_samples should be non-negative, got " + std::to_string(samples));
  int64_t batch = logits.shape().dim(0), classes = logits.shape().dim(1);
  if (classes <= 0) throw InvalidArgumentError("num_classes should be positive, got " + std::to_string(classes));
  Tensor& out = k.allocate_output(0, out_t, Shape{batch, samples});
  if (out.num_elements() == 0) return;
  Philox4x32 gen = reserve(batch * ((samples + 3) / 4 * 4 * 2));
  dispatch_dtype(logits.dtype(), [&]<class T>() {
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, bfloat16>) {  // the infer rule's types
      if (out_t == DType::Int32) multinomial_fill(gen, logits.data<T>(), batch, classes, samples, out.data<int32_t>());
      else multinomial_fill(gen, logits.data<T>(), batch, classes, samples, out.data<int64_t>());
    }
  });
}

/// StatelessRandomUniform / StatelessRandomNormal / StatelessTruncatedNormal(shape, seed).
template <FloatDist kDist>
OpBuilder register_stateless_float(OpRegistry& reg, const char* name) {
  return reg.op(name)
      .inputs(2)
      .infer([](const InferContext& c) {
        DType t = c.attrs.get_or<DType>("dtype", DType::Float32);
        kernels::check_allowed(c.op, t, kRandomFloatSet, "dtype");
        check_seed_input(c, 1);
        return std::vector<TensorSpec>{{t, shape_from_input(c, 0)}};
      })
      .cpu([](const KernelSpec& s) {
        DType t = s.outputs[0].dtype;
        return Kernel([t](KernelContext& k) {
          Philox4x32 gen = stateless_generator(k.input(1));
          Tensor& out = k.allocate_output(0, t, shape_from_tensor(k.input(0)));
          int64_t n = out.num_elements();
          if (t == DType::Float32) fill_float(kDist, gen, out.data<float>(), n);
          else if (t == DType::Float64) fill_float(kDist, gen, out.data<double>(), n);
          else fill_float(kDist, gen, out.data<bfloat16>(), n);
        });
      })
      .cost(CostKind::Elementwise)
      .tpu()
      .not_differentiable();
}

}  // namespace

/// TF's GenerateKey (stateless_random_ops.cc): the seed pair (int32 values
/// sign-extended) as a counter under a fixed key, one Philox block mixed, gives
/// the key (words 0-1) and the counter's high words (2-3).
kernels::Philox4x32 stateless_generator(const Tensor& seed) {
  if (seed.rank() != 1 || seed.shape().dim(0) != 2) {
    throw InvalidArgumentError("seed must have shape [2], not " + seed.shape().debug_string());
  }
  uint64_t s0, s1;
  if (seed.dtype() == DType::Int32) {
    s0 = static_cast<uint64_t>(static_cast<int64_t>(seed.data<int32_t>()[0]));
    s1 = static_cast<uint64_t>(static_cast<int64_t>(seed.data<int32_t>()[1]));
  } else {
    s0 = static_cast<uint64_t>(seed.data<int64_t>()[0]);
    s1 = static_cast<uint64_t>(seed.data<int64_t>()[1]);
  }
  kernels::Philox4x32 mixer({static_cast<uint32_t>(s0), static_cast<uint32_t>(s0 >> 32), static_cast<uint32_t>(s1),
                    static_cast<uint32_t>(s1 >> 32)},
                   {0x3ec8f720u, 0x02461e29u});
  kernels::Philox4x32::Block mix = mixer.next();
  return kernels::Philox4x32({0, 0, mix[2], mix[3]}, {mix[0], mix[1]});
}

/// The seed input's rule: int32 or int64 (its shape [2] is the kernel's check).
void check_seed_input(const InferContext& c, size_t i) {
  kernels::check_allowed(c.op, c.inputs[i].dtype, {bit(DType::Int32) | bit(DType::Int64), "int32, int64"}, "Tseed");
}

Shape random_concat_shape(const Shape& head, const Shape& tail) {
  if (!head.rank_known() || !tail.rank_known()) return Shape::unknown_rank();
  std::vector<int64_t> dims(head.dims().begin(), head.dims().end());
  dims.insert(dims.end(), tail.dims().begin(), tail.dims().end());
  if (dims.size() > static_cast<size_t>(kMaxRank)) {
    throw InvalidArgumentError("shape has rank " + std::to_string(dims.size()) + ", more than agc's maximum of " +
                               std::to_string(kMaxRank));
  }
  return Shape{std::span<const int64_t>(dims)};
}

void check_shape_ends_with(const Shape& out, const Shape& param) {
  bool ok = param.rank() <= out.rank();
  for (int i = 0; ok && i < param.rank(); ++i) ok = out.dim(out.rank() - param.rank() + i) == param.dim(i);
  if (!ok) throw InvalidArgumentError("Shape passed in must end with broadcasted shape.");
}

Shape random_output_shape(const InferContext& c, size_t i) { return shape_from_input(c, i); }
Shape random_output_shape(const Tensor& t) { return shape_from_tensor(t); }

void register_random_ops(OpRegistry& reg) {
  // TF's random ops have no gradient (NotDifferentiable in random_grad.py).
  register_float_random<FloatDist::Uniform>(reg, "RandomUniform").tf_signature("shape: T -> output: dtype").cost(CostKind::Elementwise).tpu().not_differentiable();
  register_float_random<FloatDist::Normal>(reg, "RandomStandardNormal")
      .tf_signature("shape: T -> output: dtype")
      .cost(CostKind::Elementwise).tpu().not_differentiable();
  register_float_random<FloatDist::TruncatedNormal>(reg, "TruncatedNormal")
      .tf_signature("shape: T -> output: dtype")
      .cost(CostKind::Elementwise).tpu().not_differentiable();

  // RandomUniformInt(shape, minval: Tout, maxval: Tout) -> Tout; attrs seed, seed2.
  reg.op("RandomUniformInt")
      .tf_signature("shape: T, minval: Tout, maxval: Tout -> output: Tout")
      .inputs(3)
      .stateful()
      .infer([](const InferContext& c) {
        DType t = c.inputs[1].dtype;
        kernels::check_allowed(c.op, t, {bit(DType::Int32) | bit(DType::Int64), "int32, int64"},
                               "Tout");
        kernels::check_dtype(c, 2, t);
        const char* names[] = {"minval", "maxval"};
        for (size_t i = 1; i <= 2; ++i) {
          const Shape& s = c.inputs[i].shape;
          if (s.rank_known() && s.rank() != 0) {
            throw InvalidArgumentError(std::string(names[i - 1]) + " must be 0-D, got shape " + s.debug_string());
          }
        }
        return std::vector<TensorSpec>{{t, shape_from_input(c, 0)}};
      })
      .cpu([](const KernelSpec& s) {
        DType t = s.outputs[0].dtype;
        auto gen = std::make_shared<GuardedPhilox>(s.attrs);
        return Kernel([t, gen](KernelContext& k) {
          const Tensor& lo_t = k.input(1);
          const Tensor& hi_t = k.input(2);
          if (lo_t.rank() != 0) throw InvalidArgumentError("minval must be 0-D, got shape " + lo_t.shape().debug_string());
          if (hi_t.rank() != 0) throw InvalidArgumentError("maxval must be 0-D, got shape " + hi_t.shape().debug_string());
          Tensor& out = k.allocate_output(0, t, shape_from_tensor(k.input(0)));
          int64_t n = out.num_elements();
          if (n == 0) return;  // TF checks minval < maxval only when something is drawn
          auto run = [&]<class T>() {
            T lo = lo_t.scalar_value<T>(), hi = hi_t.scalar_value<T>();
            if (!(lo < hi)) {
              throw InvalidArgumentError("Need minval < maxval, got " + std::to_string(lo) + " >= " + std::to_string(hi));
            }
            uniform_int_fill(gen->reserve(n), out.data<T>(), n, lo, hi);
          };
          if (t == DType::Int32) run.operator()<int32_t>();
          else run.operator()<int64_t>();
        });
      })
      .cost(CostKind::Elementwise).tpu()
      .not_differentiable();

  register_stateless_float<FloatDist::Uniform>(reg, "StatelessRandomUniform").tf_signature("shape: T, seed: Tseed -> output: dtype");
  register_stateless_float<FloatDist::Normal>(reg, "StatelessRandomNormal").tf_signature("shape: T, seed: Tseed -> output: dtype");
  register_stateless_float<FloatDist::TruncatedNormal>(reg, "StatelessTruncatedNormal").tf_signature("shape: T, seed: Tseed -> output: dtype");

  // StatelessRandomUniformInt(shape, seed, minval: dtype, maxval: dtype) -> dtype.
  reg.op("StatelessRandomUniformInt")
      .tf_signature("shape: T, seed: Tseed, minval: dtype, maxval: dtype -> output: dtype")
      .inputs(4)
      .infer([](const InferContext& c) {
        DType t = c.inputs[2].dtype;
        kernels::check_allowed(c.op, t, {bit(DType::Int32) | bit(DType::Int64), "int32, int64"}, "dtype");
        kernels::check_dtype(c, 3, t);
        check_seed_input(c, 1);
        return std::vector<TensorSpec>{{t, shape_from_input(c, 0)}};
      })
      .cpu([](const KernelSpec& s) {
        DType t = s.outputs[0].dtype;
        return Kernel([t](KernelContext& k) {
          const Tensor& lo_t = k.input(2);
          const Tensor& hi_t = k.input(3);
          if (lo_t.rank() != 0) throw InvalidArgumentError("minval must be 0-D, got shape " + lo_t.shape().debug_string());
          if (hi_t.rank() != 0) throw InvalidArgumentError("maxval must be 0-D, got shape " + hi_t.shape().debug_string());
          Philox4x32 gen = stateless_generator(k.input(1));
          Tensor& out = k.allocate_output(0, t, shape_from_tensor(k.input(0)));
          int64_t n = out.num_elements();
          if (n == 0) return;
          dispatch_dtype(t, [&]<class T>() {
            if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
              T lo = lo_t.scalar_value<T>(), hi = hi_t.scalar_value<T>();
              if (!(lo < hi)) {
                throw InvalidArgumentError("Need minval < maxval, got " + std::to_string(lo) + " >= " + std::to_string(hi));
              }
              uniform_int_fill(gen, out.data<T>(), n, lo, hi);
            }
          });
        });
      })
      .cost(CostKind::Elementwise).tpu()
      .not_differentiable();

  // StatelessRandomUniformFullInt(shape, seed) -> dtype: every bit pattern.
  reg.op("StatelessRandomUniformFullInt")
      .tf_signature("shape: T, seed: Tseed -> output: dtype")
      .inputs(2)
      .infer([](const InferContext& c) {
        DType t = c.attrs.get_or<DType>("dtype", DType::Int64);
        kernels::check_allowed(c.op, t, {bit(DType::Int32) | bit(DType::Int64), "int32, int64"}, "dtype");
        check_seed_input(c, 1);
        return std::vector<TensorSpec>{{t, shape_from_input(c, 0)}};
      })
      .cpu([](const KernelSpec& s) {
        DType t = s.outputs[0].dtype;
        return Kernel([t](KernelContext& k) {
          Philox4x32 gen = stateless_generator(k.input(1));
          Tensor& out = k.allocate_output(0, t, shape_from_tensor(k.input(0)));
          if (t == DType::Int32) kernels::full_int_fill(gen, out.data<int32_t>(), out.num_elements());
          else kernels::full_int_fill(gen, out.data<int64_t>(), out.num_elements());
        });
      })
      .cost(CostKind::Elementwise).tpu()
      .not_differentiable();

  // StatelessMultinomial(logits, num_samples, seed) -> output_dtype.
  reg.op("StatelessMultinomial")
      .tf_signature("logits: T, num_samples: int32, seed: Tseed -> output: output_dtype")
      .inputs(3)
      .infer([](const InferContext& c) {
        check_seed_input(c, 2);
        return multinomial_infer(c);
      })
      .cpu([](const KernelSpec& s) {
        DType out_t = s.outputs[0].dtype;
        return Kernel([out_t](KernelContext& k) {
          Philox4x32 gen = stateless_generator(k.input(2));
          multinomial_run(k, out_t, [&](int64_t) { return gen; });
        });
      })
      .cost(CostKind::Elementwise).tpu_unsupported("StatelessMultinomial has no TPU kernel here")
      .not_differentiable();

  // RandomShuffle(value: T) -> T; attrs seed, seed2. Rows of the first axis.
  reg.op("RandomShuffle")
      .tf_signature("value: T -> output: T")
      .inputs(1)
      .stateful()
      .infer([](const InferContext& c) { return std::vector<TensorSpec>{c.inputs[0]}; })
      .cpu([](const KernelSpec& s) {
        auto gen = std::make_shared<GuardedPhilox>(s.attrs);
        return Kernel([gen](KernelContext& k) {
          const Tensor& in = k.input(0);
          if (in.num_elements() <= 1 || in.rank() == 0 || in.shape().dim(0) <= 1) {
            k.set_output(0, in);
            return;
          }
          int64_t size = in.shape().dim(0);
          // ReserveSamples32(size - 1): whole blocks of 4 words.
          std::vector<int64_t> perm = shuffled_rows(gen->reserve_blocks(static_cast<uint64_t>(size - 1 + 3) / 4), size);
          Tensor& out = k.allocate_output(0, in.dtype(), in.shape());
          int64_t row = in.num_elements() / size;
          for (int64_t i = 0; i < size; ++i) copy_elements(out, i * row, in, perm[static_cast<size_t>(i)] * row, row);
        });
      })
      .cost(CostKind::Elementwise).tpu_unsupported("RandomShuffle runs on the host")
      .not_differentiable();

  // Multinomial(logits: T, num_samples: int32) -> output_dtype; attrs seed, seed2.
  reg.op("Multinomial")
      .tf_signature("logits: T, num_samples: int32 -> output: output_dtype")
      .inputs(2)
      .stateful()
      .infer(multinomial_infer)
      .cpu([](const KernelSpec& s) {
        auto gen = std::make_shared<GuardedPhilox>(s.attrs);
        DType out_t = s.outputs[0].dtype;
        return Kernel([gen, out_t](KernelContext& k) {
          multinomial_run(k, out_t, [&](int64_t n) { return gen->reserve(n); });
        });
      })
      .cost(CostKind::Elementwise).tpu_unsupported("Multinomial has no TPU kernel in TensorFlow")
      .not_differentiable();

  register_random_gamma_ops(reg);
  register_random_poisson_ops(reg);
}

}  // namespace ag
