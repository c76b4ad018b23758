// Elementwise kernel drivers (ggml functor style): an op is a struct with a
// static `apply` on one element (and, for floating unary ops, `array` on an
// Eigen array expression, which Eigen vectorizes); these templates build the
// prepared Kernel with same-shape, scalar and strided-broadcast paths chosen
// once when shapes are known, and compute bfloat16 in float.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "runtime/core/tensor.h"
#include "runtime/ops/kernels/broadcast.h"
#include "runtime/ops/kernels/gemm.h"
#include "runtime/ops/op_def.h"

namespace ag::kernels {

/// Contiguous elementwise loops this long run on 2 threads (each half still
/// far above the cost of handing it to the worker).
inline constexpr int64_t kParallelMinElements = int64_t{1} << 16;

/// body(begin, end) over [0, n): inline when short, else split in two.
template <class Body>
inline void split_run(int64_t n, Body&& body) {
  if (n < kParallelMinElements) {
    body(int64_t{0}, n);
  } else {
    parallel_for(n, 2, [&](int64_t begin, int64_t end) { body(begin, end); });
  }
}

/// The element as the op computes it: bfloat16 widens to float.
template <class T>
inline decltype(auto) widen(const T& x) {
  if constexpr (std::is_same_v<T, bfloat16>) {
    return static_cast<float>(x);
  } else {
    return (x);
  }
}
/// A result back to the output element type (float rounds to bfloat16).
template <class O, class V>
inline O narrow(V&& v) {
  if constexpr (std::is_same_v<O, bfloat16>) {
    return bfloat16(static_cast<float>(v));
  } else {
    return static_cast<O>(std::forward<V>(v));
  }
}

/// Ops whose right operand must be checked first (integer division by zero,
/// negative integer exponents) define `template <class T> static void check_rhs(const T*, int64_t)`.
template <class F, class T>
inline void check_rhs(const Tensor& b) {
  if constexpr (requires(const T* p) { F::template check_rhs<T>(p, int64_t{}); }) {
    F::template check_rhs<T>(b.data<T>(), b.num_elements());
  }
}

/// o[i] = F(a[i*sa], b[i*sb]) for i < n, with sa, sb in {0, 1}.
template <class F, class T, class O>
inline void binary_run(const T* a, int64_t sa, const T* b, int64_t sb, O* o, int64_t n) {
  if (sa != 0 && sb != 0) {
    for (int64_t i = 0; i < n; ++i) o[i] = narrow<O>(F::apply(widen(a[i]), widen(b[i])));
  } else if (sb != 0) {
    const auto& x = widen(*a);
    for (int64_t i = 0; i < n; ++i) o[i] = narrow<O>(F::apply(x, widen(b[i])));
  } else if (sa != 0) {
    const auto& y = widen(*b);
    for (int64_t i = 0; i < n; ++i) o[i] = narrow<O>(F::apply(widen(a[i]), y));
  } else {
    const O v = narrow<O>(F::apply(widen(*a), widen(*b)));
    for (int64_t i = 0; i < n; ++i) o[i] = v;
  }
}

/// binary_run over n elements, on 2 threads when long.
template <class F, class T, class O>
inline void binary_contiguous(const T* a, int64_t sa, const T* b, int64_t sb, O* o, int64_t n) {
  split_run(n, [&](int64_t begin, int64_t end) {
    binary_run<F, T, O>(a + begin * sa, sa, b + begin * sb, sb, o + begin, end - begin);
  });
}

/// Runs F over a and b broadcast to `o` (already allocated, non-empty).
template <class F, class T, class O>
inline void binary_broadcast(const Tensor& a, const Tensor& b, Tensor& o, const BroadcastPlan<2>& plan) {
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  O* po = o.data<O>();
  plan.for_each_run([&](const std::array<int64_t, 2>& off, const std::array<int64_t, 2>& is, int64_t len) {
    binary_run<F, T, O>(pa + off[0], is[0], pb + off[1], is[1], po, len);
    po += len;
  });
}

/// One execution with shapes only known now (the node's were partial).
template <class F, class T, class O>
inline void binary_dynamic(KernelContext& k) {
  const Tensor& a = k.input(0);
  const Tensor& b = k.input(1);
  bool same = a.shape() == b.shape();
  Shape out = same ? a.shape() : broadcast_or_throw(a.shape(), b.shape());
  Tensor& o = k.allocate_output(0, dtype_of<O>(), out);
  int64_t n = o.num_elements();
  if (n == 0) return;
  check_rhs<F, T>(b);
  if (same) {
    binary_contiguous<F, T, O>(a.data<T>(), 1, b.data<T>(), 1, o.data<O>(), n);
  } else if (a.num_elements() == 1) {
    binary_contiguous<F, T, O>(a.data<T>(), 0, b.data<T>(), 1, o.data<O>(), n);
  } else if (b.num_elements() == 1) {
    binary_contiguous<F, T, O>(a.data<T>(), 1, b.data<T>(), 0, o.data<O>(), n);
  } else {
    binary_broadcast<F, T, O>(a, b, o, BroadcastPlan<2>(out, {&a.shape(), &b.shape()}));
  }
}

/// The kernel for one-element operands (scalar loop counters, a loop
/// condition's comparison): the element computed directly, without the
/// general path's split_run. Reads both inputs before allocating the output,
/// which may reuse an input's buffer.
template <class F, class T, class O>
Kernel make_one_element_kernel(const Shape& out) {
  return Kernel([out](KernelContext& k) {
    const Tensor& b = k.input(1);
    check_rhs<F, T>(b);
    O r = narrow<O>(F::apply(widen(*k.input(0).data<T>()), widen(*b.data<T>())));
    *k.allocate_output(0, dtype_of<O>(), out).template data<O>() = std::move(r);
  });
}

/// The prepared kernel of a broadcasting binary op F on T giving O. With
/// fully defined shapes the path (one element, same shape, scalar side,
/// strided plan) is chosen here, once; otherwise each run works it out.
template <class F, class T, class O = T>
Kernel make_binary_kernel(const KernelSpec& s) {
  constexpr DType od = dtype_of<O>();
  const Shape& sa = s.inputs[0].shape;
  const Shape& sb = s.inputs[1].shape;
  const Shape& out = s.outputs[0].shape;
  if (!(sa.fully_defined() && sb.fully_defined() && out.fully_defined())) {
    return Kernel([](KernelContext& k) { binary_dynamic<F, T, O>(k); });
  }
  if (sa.num_elements() == 1 && sb.num_elements() == 1 && out.num_elements() == 1) {
    return make_one_element_kernel<F, T, O>(out);
  }
  int64_t stride_a = sa.num_elements() == 1 ? 0 : 1;
  int64_t stride_b = sb.num_elements() == 1 ? 0 : 1;
  if (sa == sb || stride_a == 0 || stride_b == 0) {
    if (sa == sb) stride_a = stride_b = 1;
    return Kernel([out, stride_a, stride_b](KernelContext& k) {
      const Tensor& a = k.input(0);
      const Tensor& b = k.input(1);
      Tensor& o = k.allocate_output(0, od, out);
      int64_t n = o.num_elements();
      if (n == 0) return;
      check_rhs<F, T>(b);
      binary_contiguous<F, T, O>(a.data<T>(), stride_a, b.data<T>(), stride_b, o.data<O>(), n);
    });
  }
  BroadcastPlan<2> plan(out, {&sa, &sb});
  return Kernel([out, plan](KernelContext& k) {
    const Tensor& a = k.input(0);
    const Tensor& b = k.input(1);
    Tensor& o = k.allocate_output(0, od, out);
    if (o.num_elements() == 0) return;
    check_rhs<F, T>(b);
    binary_broadcast<F, T, O>(a, b, o, plan);
  });
}

/// Ops with an Eigen array form for floating types.
template <class F, class T>
concept HasArrayForm = requires(Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>> x) { F::array(x); };

/// F on one (widened) element of storage type T: F::apply_for<T> where the
/// semantic depends on the storage type (Softplus' epsilon), else F::apply.
template <class F, class T, class W>
inline auto apply_unary(const W& x) {
  if constexpr (requires { F::template apply_for<T>(x); }) return F::template apply_for<T>(x);
  else return F::apply(x);
}

/// y[i] = F(x[i]) for i < n (O: the result type, bool for a predicate).
// Always inlined: the kernel, a fused loop's block step and a scalar step all
// run it, and GCC would otherwise call one shared copy, which cost the small
// tensors of a While loop 10% of their time.
template <class F, class T, class O = T>
[[gnu::always_inline]] inline void unary_run(const T* x, O* y, int64_t n) {
  if constexpr (std::is_same_v<O, T> && (std::is_same_v<T, float> || std::is_same_v<T, double>) && HasArrayForm<F, T>) {
    using Arr = Eigen::Array<T, Eigen::Dynamic, 1>;
    Eigen::Map<Arr>(y, n) = F::array(Eigen::Map<const Arr>(x, n));
  } else if constexpr (std::is_same_v<O, T> && std::is_same_v<T, bfloat16> && HasArrayForm<F, float>) {
    // Widen a block at a time so the float math stays vectorized.
    constexpr int64_t kBlock = 256;
    alignas(64) float in[kBlock], out[kBlock];
    using Arr = Eigen::Array<float, Eigen::Dynamic, 1>;
    for (int64_t start = 0; start < n; start += kBlock) {
      int64_t m = n - start < kBlock ? n - start : kBlock;
      for (int64_t i = 0; i < m; ++i) in[i] = static_cast<float>(x[start + i]);
      Eigen::Map<Arr>(out, m) = F::array(Eigen::Map<const Arr>(in, m));
      for (int64_t i = 0; i < m; ++i) y[start + i] = bfloat16(out[i]);
    }
  } else {
    for (int64_t i = 0; i < n; ++i) y[i] = narrow<O>(apply_unary<F, T>(widen(x[i])));
  }
}

/// The prepared kernel of a unary op F on T giving O (shape as the input's).
template <class F, class T, class O = T>
Kernel make_unary_kernel(const KernelSpec&) {
  return Kernel([](KernelContext& k) {
    const Tensor& x = k.input(0);
    Tensor& y = k.allocate_output(0, dtype_of<O>(), x.shape());
    int64_t n = x.num_elements();
    if constexpr (requires(const T* p) { F::template check_rhs<T>(p, int64_t{}); }) {
      F::template check_rhs<T>(x.data<T>(), n);
    }
    const T* px = x.data<T>();
    O* py = y.data<O>();
    if (n < kParallelMinElements) {
      unary_run<F, T, O>(px, py, n);  // inline: a loop's small tensors pay no lambda call
    } else {
      parallel_for(n, 2, [&](int64_t begin, int64_t end) { unary_run<F, T, O>(px + begin, py + begin, end - begin); });
    }
  });
}

}  // namespace ag::kernels
