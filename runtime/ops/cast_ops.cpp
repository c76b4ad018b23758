// Cast (part of the math family, registered from math_ops.cpp): C++
// static_cast rules as TF's CPU kernel, with what x86 does where C++ leaves
// it undefined: a float outside the integer's range (or NaN) becomes the
// 32-bit (or 64-bit) integer minimum before narrowing. Bool is x != 0;
// bfloat16 rounds to nearest even. Strings cast only to string.
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "runtime/ops/kernels/elementwise.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/grad_context.h"
#include "runtime/ops/registry.h"

namespace ag {

void register_cast_ops(OpRegistry& reg);

namespace {

using namespace kernels;

/// Float to integer, truncating toward zero (cvttss2si semantics out of range).
template <class D, class S>
D float_to_int(S x) {
  if constexpr (sizeof(D) == 8) {
    if (x >= static_cast<S>(-9223372036854775808.0) && x < static_cast<S>(9223372036854775808.0)) {
      return static_cast<D>(static_cast<int64_t>(x));
    }
    return static_cast<D>(std::numeric_limits<int64_t>::min());
  } else {
    int32_t i = std::numeric_limits<int32_t>::min();
    if (x >= static_cast<S>(-2147483648.0) && x < static_cast<S>(2147483648.0)) i = static_cast<int32_t>(x);
    return static_cast<D>(i);
  }
}

template <class S, class D>
D cast_value(const S& x) {
  if constexpr (std::is_same_v<S, bfloat16>) {
    return cast_value<float, D>(static_cast<float>(x));
  } else if constexpr (std::is_same_v<D, bool>) {
    return x != S(0);
  } else if constexpr (std::is_same_v<D, bfloat16>) {
    return bfloat16(static_cast<float>(x));
  } else if constexpr (std::is_integral_v<D> && std::is_floating_point_v<S>) {
    return float_to_int<D>(x);
  } else {
    return static_cast<D>(x);
  }
}

template <class S, class D>
Kernel make_cast_kernel() {
  return Kernel([](KernelContext& k) {
    const Tensor& x = k.input(0);
    Tensor& y = k.allocate_output(0, dtype_of<D>(), x.shape());
    const S* px = x.data<S>();
    D* py = y.data<D>();
    int64_t n = x.num_elements();
    split_run(n, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) py[i] = cast_value<S, D>(px[i]);
    });
  });
}

/// cast(g, SrcT) when both types carry gradients, else None.
std::vector<GradTensor> cast_grad(GradContext& c) {
  DType src = c.dtype(c.input(0));
  bool floats = [](DType t) { return t == DType::Float32 || t == DType::Float64 || t == DType::BFloat16; }(src) &&
                (c.dtype(c.output(0)) == DType::Float32 || c.dtype(c.output(0)) == DType::Float64 ||
                 c.dtype(c.output(0)) == DType::BFloat16);
  return grads({floats ? c.cast(c.grad(0), src) : GradTensor{}});
}

}  // namespace

void register_cast_ops(OpRegistry& reg) {
  // Cast(x: SrcT) -> DstT; attr DstT (SrcT, if given, is the input's dtype).
  reg.op("Cast")
      .tf_signature("x: SrcT -> y: DstT")
      .inputs(1)
      .infer([](const InferContext& c) {
        DType src = c.inputs[0].dtype;
        DType dst = c.attrs.get<DType>("DstT");
        if (src != dst && (src == DType::String || dst == DType::String)) {
          throw UnimplementedError(std::string("Cast ") + dtype_tf_string(src) + " to " + dtype_tf_string(dst) +
                                   " is not supported");
        }
        return std::vector<TensorSpec>{{dst, c.inputs[0].shape}};
      })
      .cpu([](const KernelSpec& s) {
        DType src = s.inputs[0].dtype;
        DType dst = s.outputs[0].dtype;
        if (src == dst) return Kernel([](KernelContext& k) { k.set_output(0, k.input(0)); });
        constexpr TypeMask kNumbers = kAllTypes & ~bit(DType::String);
        return dispatch_kernel<kNumbers>(s.op, src, [&]<class S>() {
          return dispatch_kernel<kNumbers>(s.op, dst, [&]<class D>() { return make_cast_kernel<S, D>(); });
        });
      })
      .speculatable(bit(DType::String) | bit(DType::Variant))
      .semantic(OpSemantic::Cast)
      .cost(CostKind::Elementwise).tpu()
      .grad(cast_grad);
}

}  // namespace ag
