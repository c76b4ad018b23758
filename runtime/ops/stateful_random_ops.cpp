// tf.random.Generator's ops (TF's stateful_random_ops.cc), Philox only: the
// generator's state is an int64[3] variable named by attr "var" (counter low
// and high words, then the key). A call reads the state, moves the stored
// counter on by 256 blocks per output element (UpdateMemWithPhiloxRandom),
// and draws from the state it read, with the distributions the seeded ops
// use (kernels/random_distributions.h). The new state is a new tensor, so an
// earlier read of `g.state` keeps its value.
#include <string>
#include <vector>

#include "runtime/core/variable.h"
#include "runtime/ops/families.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/kernels/random_distributions.h"
#include "runtime/ops/random_shape.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using kernels::Philox4x32;

constexpr kernels::TypeSet kFloatSet{kFloatTypes, "half, bfloat16, float, double"};
constexpr kernels::TypeSet kIntSet{bit(DType::Int32) | bit(DType::Int64), "int32, int64"};

/// The state's generator, after storing the state `outputs` draws later.
Philox4x32 read_and_skip(int64_t var_id, int64_t outputs) {
  std::shared_ptr<Variable> var = Variable::lookup(var_id);
  Philox4x32 gen;
  var->update([&](Tensor& value) {
    if (value.dtype() != DType::Int64) {
      throw InvalidArgumentError(std::string("dtype of RNG state variable must be int64, not ") +
                                 dtype_tf_string(value.dtype()));
    }
    if (value.rank() != 1) {
      throw InvalidArgumentError("RNG state must have one and only one dimension, not " +
                                 std::to_string(value.rank()));
    }
    if (value.num_elements() < 3) {
      throw InvalidArgumentError("The size of the state must be at least 3; got " +
                                 std::to_string(value.num_elements()));
    }
    const int64_t* st = value.data<int64_t>();
    auto lo = [](int64_t v) { return static_cast<uint32_t>(static_cast<uint64_t>(v)); };
    auto hi = [](int64_t v) { return static_cast<uint32_t>(static_cast<uint64_t>(v) >> 32); };
    gen = Philox4x32({lo(st[0]), hi(st[0]), lo(st[1]), hi(st[1])}, {lo(st[2]), hi(st[2])});
    Philox4x32 next = gen;
    next.skip(static_cast<uint64_t>(outputs) * 256u);
    Tensor updated(DType::Int64, value.shape());
    int64_t* out = updated.data<int64_t>();
    for (int64_t i = 0; i < value.num_elements(); ++i) out[i] = st[i];
    auto join = [](uint32_t a, uint32_t b) { return static_cast<int64_t>(uint64_t{a} | (uint64_t{b} << 32)); };
    out[0] = join(next.counter()[0], next.counter()[1]);
    out[1] = join(next.counter()[2], next.counter()[3]);
    out[2] = join(next.key()[0], next.key()[1]);
    value = updated;
  });
  return gen;
}

enum class Dist { Uniform, Normal, TruncatedNormal, FullInt };

/// TF's RNG_ALG_PHILOX and RNG_ALG_AUTO_SELECT (Philox on CPU): the
/// algorithms of input `algorithm` agc draws with.
constexpr int64_t kPhilox = 1, kAutoSelect = 3;

/// Checks input `algorithm` (int64 scalar) names Philox, as TF's kernel does.
void check_algorithm(const Tensor& alg) {
  if (alg.dtype() != DType::Int64 || alg.rank() != 0) {
    throw InvalidArgumentError("algorithm must be an int64 scalar, got " + std::string(dtype_tf_string(alg.dtype())) +
                               " of shape " + alg.shape().debug_string());
  }
  int64_t a = alg.scalar_value<int64_t>();
  if (a != kPhilox && a != kAutoSelect) throw InvalidArgumentError("Unsupported algorithm id: " + std::to_string(a));
}

/// StatefulUniform / StatefulStandardNormalV2 / StatefulTruncatedNormal /
/// StatefulUniformFullInt(algorithm, shape) -> dtype; attrs var (TF's
/// resource input), dtype.
template <Dist kDist>
void register_stateful(OpRegistry& reg, const char* name) {
  reg.op(name)
      .tf_signature("resource: resource, algorithm: int64, shape: shape_dtype -> output: dtype")
      .inputs(2)
      .stateful()
      .infer([](const InferContext& c) {
        DType t = c.attrs.get_or<DType>("dtype", kDist == Dist::FullInt ? DType::Int64 : DType::Float32);
        kernels::check_allowed(c.op, t, kDist == Dist::FullInt ? kIntSet : kFloatSet, "dtype");
        return std::vector<TensorSpec>{{t, random_output_shape(c, 1)}};
      })
      .cpu([](const KernelSpec& s) {
        DType t = s.outputs[0].dtype;
        int64_t var_id = s.attrs.get<int64_t>("var");
        return Kernel([var_id, t](KernelContext& k) {
          check_algorithm(k.input(0));
          Tensor& out = k.allocate_output(0, t, random_output_shape(k.input(1)));
          int64_t n = out.num_elements();
          Philox4x32 gen = read_and_skip(var_id, n);
          dispatch_dtype(t, [&]<class T>() {
            if constexpr (kDist == Dist::FullInt) {
              if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
                kernels::full_int_fill(gen, out.data<T>(), n);
              }
            } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                                 std::is_same_v<T, bfloat16>) {
              if constexpr (kDist == Dist::Uniform) kernels::uniform_fill(gen, out.data<T>(), n);
              else if constexpr (kDist == Dist::Normal) kernels::normal_fill(gen, out.data<T>(), n);
              else kernels::truncated_normal_fill(gen, out.data<T>(), n);
            }
          });
        });
      })
      .cost(CostKind::Elementwise)
      .tpu_unsupported("a Generator's state is a host variable")
      .not_differentiable();
}

}  // namespace

void register_stateful_random_ops(OpRegistry& reg) {
  register_stateful<Dist::Uniform>(reg, "StatefulUniform");
  register_stateful<Dist::Normal>(reg, "StatefulStandardNormalV2");
  register_stateful<Dist::TruncatedNormal>(reg, "StatefulTruncatedNormal");
  register_stateful<Dist::FullInt>(reg, "StatefulUniformFullInt");

  // StatefulUniformInt(algorithm, shape, minval: dtype, maxval: dtype) -> dtype; attr var.
  reg.op("StatefulUniformInt")
      .tf_signature("resource: resource, algorithm: int64, shape: shape_dtype, minval: dtype, maxval: dtype -> output: dtype")
      .inputs(4)
      .stateful()
      .infer([](const InferContext& c) {
        DType t = c.inputs[2].dtype;
        kernels::check_allowed(c.op, t, kIntSet, "dtype");
        kernels::check_dtype(c, 3, t);
        return std::vector<TensorSpec>{{t, random_output_shape(c, 1)}};
      })
      .cpu([](const KernelSpec& s) {
        DType t = s.outputs[0].dtype;
        int64_t var_id = s.attrs.get<int64_t>("var");
        return Kernel([var_id, t](KernelContext& k) {
          check_algorithm(k.input(0));
          const Tensor& lo_t = k.input(2);
          const Tensor& hi_t = k.input(3);
          if (lo_t.rank() != 0) throw InvalidArgumentError("minval must be 0-D, got shape " + lo_t.shape().debug_string());
          if (hi_t.rank() != 0) throw InvalidArgumentError("maxval must be 0-D, got shape " + hi_t.shape().debug_string());
          Tensor& out = k.allocate_output(0, t, random_output_shape(k.input(1)));
          int64_t n = out.num_elements();
          dispatch_dtype(t, [&]<class T>() {
            if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
              T lo = lo_t.scalar_value<T>(), hi = hi_t.scalar_value<T>();
              if (!(lo < hi)) {
                throw InvalidArgumentError("Need minval < maxval, got " + std::to_string(lo) + " >= " + std::to_string(hi));
              }
              kernels::uniform_int_fill(read_and_skip(var_id, n), out.data<T>(), n, lo, hi);
            }
          });
        });
      })
      .cost(CostKind::Elementwise)
      .tpu_unsupported("a Generator's state is a host variable")
      .not_differentiable();
}

}  // namespace ag
