// Random ops (see families.h): RandomUniform, RandomStandardNormal and
// RandomUniformInt, with TensorFlow's Philox4x32-10 stream (kernels/philox.h).
// Each prepared kernel owns its generator, as TF's GuardedPhiloxRandom: a
// call reserves 256 blocks per output element and later calls continue past
// them, so repeated runs give new numbers while (seed, seed2) fixes the
// sequence. seed == seed2 == 0 draws a nondeterministic seed.
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "runtime/ops/families.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/kernels/philox.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using kernels::Philox4x32;

/// GuardedPhiloxRandom: one generator per kernel, handed out in reserved spans.
class GuardedPhilox {
 public:
  explicit GuardedPhilox(const Attrs& a) {
    uint64_t seed = static_cast<uint64_t>(a.get_or<int64_t>("seed", 0));
    uint64_t seed2 = static_cast<uint64_t>(a.get_or<int64_t>("seed2", 0));
    if (seed == 0 && seed2 == 0) {
      std::random_device rd;
      seed = (uint64_t{rd()} << 32) | rd();
      seed2 = (uint64_t{rd()} << 32) | rd();
    }
    gen_ = Philox4x32(seed, seed2);
  }
  /// TF's ReserveRandomOutputs(count, 256): the generator as it is now; the
  /// shared one skips past what this call may use.
  Philox4x32 reserve(int64_t outputs) {
    std::lock_guard<std::mutex> lock(mu_);
    Philox4x32 local = gen_;
    gen_.skip(static_cast<uint64_t>(outputs) * 256u);
    return local;
  }

 private:
  std::mutex mu_;
  Philox4x32 gen_;
};

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

/// Fills n outputs, `per` per generator block, from fn(block, out, count).
template <class T, class Fn>
void fill_blocks(Philox4x32 gen, T* out, int64_t n, int per, Fn fn) {
  int64_t i = 0;
  for (; i + per <= n; i += per) fn(gen.next(), out + i, per);
  if (i < n) fn(gen.next(), out + i, static_cast<int>(n - i));
}

// UniformDistribution<PhiloxRandom, T> and NormalDistribution<PhiloxRandom, T>.
template <class T>
void uniform_fill(Philox4x32 gen, T* out, int64_t n) {
  if constexpr (std::is_same_v<T, float>) {
    fill_blocks(gen, out, n, 4, [](const Philox4x32::Block& b, T* o, int m) {
      for (int j = 0; j < m; ++j) o[j] = kernels::uint32_to_float(b[static_cast<size_t>(j)]);
    });
  } else if constexpr (std::is_same_v<T, double>) {
    fill_blocks(gen, out, n, 2, [](const Philox4x32::Block& b, T* o, int m) {
      for (int j = 0; j < m; ++j) o[j] = kernels::uint64_to_double(b[2 * static_cast<size_t>(j)], b[2 * static_cast<size_t>(j) + 1]);
    });
  } else {
    fill_blocks(gen, out, n, 4, [](const Philox4x32::Block& b, T* o, int m) {
      for (int j = 0; j < m; ++j) o[j] = kernels::uint16_to_bfloat16(static_cast<uint16_t>(b[static_cast<size_t>(j)]));
    });
  }
}

template <class T>
void normal_fill(Philox4x32 gen, T* out, int64_t n) {
  if constexpr (std::is_same_v<T, double>) {
    fill_blocks(gen, out, n, 2, [](const Philox4x32::Block& b, T* o, int m) {
      double d[2];
      kernels::box_muller_double(b[0], b[1], b[2], b[3], &d[0], &d[1]);
      for (int j = 0; j < m; ++j) o[j] = d[j];
    });
  } else {
    fill_blocks(gen, out, n, 4, [](const Philox4x32::Block& b, T* o, int m) {
      float f[4];
      kernels::box_muller_float(b[0], b[1], &f[0], &f[1]);
      kernels::box_muller_float(b[2], b[3], &f[2], &f[3]);
      for (int j = 0; j < m; ++j) o[j] = static_cast<T>(f[j]);
    });
  }
}

/// UniformDistribution<PhiloxRandom, int32/int64>(lo, hi): lo + bits % (hi - lo).
template <class T>
void uniform_int_fill(Philox4x32 gen, T* out, int64_t n, T lo, T hi) {
  using U = std::make_unsigned_t<T>;
  U range = static_cast<U>(static_cast<U>(hi) - static_cast<U>(lo));
  if constexpr (std::is_same_v<T, int32_t>) {
    fill_blocks(gen, out, n, 4, [lo, range](const Philox4x32::Block& b, T* o, int m) {
      for (int j = 0; j < m; ++j) o[j] = static_cast<T>(static_cast<U>(lo) + b[static_cast<size_t>(j)] % range);
    });
  } else {
    fill_blocks(gen, out, n, 2, [lo, range](const Philox4x32::Block& b, T* o, int m) {
      for (int j = 0; j < m; ++j) {
        uint64_t bits = b[2 * static_cast<size_t>(j)] | (uint64_t{b[2 * static_cast<size_t>(j) + 1]} << 32);
        o[j] = static_cast<T>(static_cast<U>(lo) + bits % range);
      }
    });
  }
}

constexpr kernels::TypeSet kRandomFloatSet{kFloatTypes, "half, bfloat16, float, double"};

/// RandomUniform / RandomStandardNormal: shape input, attrs dtype, seed, seed2.
template <bool kNormal>
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
          if (t == DType::Float32) {
            kNormal ? normal_fill(local, out.data<float>(), n) : uniform_fill(local, out.data<float>(), n);
          } else if (t == DType::Float64) {
            kNormal ? normal_fill(local, out.data<double>(), n) : uniform_fill(local, out.data<double>(), n);
          } else {
            kNormal ? normal_fill(local, out.data<bfloat16>(), n) : uniform_fill(local, out.data<bfloat16>(), n);
          }
        });
      });
}

}  // namespace

void register_random_ops(OpRegistry& reg) {
  // TF's random ops have no gradient (NotDifferentiable in random_grad.py).
  register_float_random<false>(reg, "RandomUniform").cost(CostKind::Elementwise).tpu().not_differentiable();
  register_float_random<true>(reg, "RandomStandardNormal").cost(CostKind::Elementwise).tpu().not_differentiable();

  // RandomUniformInt(shape, minval: Tout, maxval: Tout) -> Tout; attrs seed, seed2.
  reg.op("RandomUniformInt")
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
}

}  // namespace ag
