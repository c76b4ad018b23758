// Elementwise ops from one functor (ggml style): `F::apply` on one element
// (with `F::array` on an Eigen array where Eigen vectorizes it, and
// `F::check_rhs` + `F::fails_on` where some values make it fail). From F come
// the op's CPU kernel (elementwise.h: broadcasting, prepared paths), its
// ElementwiseDef (a fused loop's block step, a scalar program's instruction,
// the failure check), its shape rule and its traits, so adding an
// elementwise op is one functor plus one register_* line in its family.
#pragma once

#include <bit>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/ops/elementwise_def.h"
#include "runtime/ops/kernels/elementwise.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/registry.h"

namespace ag::kernels {

/// Register `r` as a T (one of the ScalarReg dtypes).
template <class T>
inline T& reg_as(ScalarReg& r) {
  if constexpr (std::is_same_v<T, int32_t>) return r.i32;
  else if constexpr (std::is_same_v<T, int64_t>) return r.i64;
  else if constexpr (std::is_same_v<T, float>) return r.f32;
  else if constexpr (std::is_same_v<T, double>) return r.f64;
  else return r.b;
}

template <class T>
constexpr bool kRegisterType = std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> ||
                               std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, bool>;

/// The dtypes on which F may fail for some values (F::fails_on, default none).
template <class F>
constexpr TypeMask fails_on() {
  if constexpr (requires { F::fails_on; }) return F::fails_on;
  else return 0;
}

/// F's check of the values of the input that decides its failures, for T.
template <class F, class T>
void check_values(const void* values, int64_t n) {
  if constexpr (requires(const T* p) { F::template check_rhs<T>(p, int64_t{}); }) {
    F::template check_rhs<T>(static_cast<const T*>(values), n);
  }
}

// ---- the three arities: block step, scalar step

template <class F, class T, class O>
void unary_block(const void* const* in, void* out, int64_t n) {
  check_values<F, T>(in[0], n);
  unary_run<F, T, O>(static_cast<const T*>(in[0]), static_cast<O*>(out), n);
}
template <class F, class T, class O>
const ScalarIns* unary_step(ScalarReg* r, const ScalarIns* pc) {
  // The kernel's own path (Eigen's for floats), for the same rounding: on a
  // packet-sized buffer, which Eigen's vector code may read.
  alignas(64) T x[64 / sizeof(T)] = {reg_as<T>(r[pc->a])};
  alignas(64) O y[64 / sizeof(T)];
  check_values<F, T>(x, 1);
  unary_run<F, T, O>(x, y, 1);
  reg_as<O>(r[pc->dst]) = y[0];
  return pc[1].step(r, pc + 1);
}

template <class F, class T, class O>
void binary_block(const void* const* in, void* out, int64_t n) {
  check_values<F, T>(in[1], n);
  binary_run<F, T, O>(static_cast<const T*>(in[0]), 1, static_cast<const T*>(in[1]), 1, static_cast<O*>(out), n);
}
template <class F, class T, class O>
const ScalarIns* binary_step(ScalarReg* r, const ScalarIns* pc) {
  const T a = reg_as<T>(r[pc->a]);
  const T b = reg_as<T>(r[pc->b]);
  check_values<F, T>(&b, 1);
  reg_as<O>(r[pc->dst]) = narrow<O>(F::apply(widen(a), widen(b)));
  return pc[1].step(r, pc + 1);
}

/// Select-like ops: F::apply(bool c, T a, T b).
template <class F, class T>
void select_block(const void* const* in, void* out, int64_t n) {
  const bool* c = static_cast<const bool*>(in[0]);
  const T* a = static_cast<const T*>(in[1]);
  const T* b = static_cast<const T*>(in[2]);
  T* o = static_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = F::apply(c[i], a[i], b[i]);
}
template <class F, class T>
const ScalarIns* select_step(ScalarReg* r, const ScalarIns* pc) {
  reg_as<T>(r[pc->dst]) = F::apply(r[pc->a].b, reg_as<T>(r[pc->b]), reg_as<T>(r[pc->c]));
  return pc[1].step(r, pc + 1);
}

/// The ElementwiseDef of functor F of `Arity` on the dtypes in Mask (result
/// bool when BoolResult), built once.
template <class F, int Arity, TypeMask Mask, bool BoolResult = false>
const ElementwiseDef* elementwise_def_of() {
  static const ElementwiseDef def = [] {
    ElementwiseDef d;
    d.arity = Arity;
    d.dtypes = Mask;
    d.bool_result = BoolResult;
    for (int i = 0; i < kNumDTypes; ++i) {
      const auto t = static_cast<DType>(i);
      if ((Mask & bit(t)) == 0) continue;
      dispatch_dtype(t, [&]<class T>() {
        if constexpr (in_mask<T>(Mask)) {
          using O = std::conditional_t<BoolResult, bool, T>;
          const size_t k = static_cast<size_t>(i);
          if constexpr (Arity == 1) {
            d.block[k] = &unary_block<F, T, O>;
            if constexpr (kRegisterType<T>) d.scalar[k] = &unary_step<F, T, O>;
          } else if constexpr (Arity == 2) {
            d.block[k] = &binary_block<F, T, O>;
            if constexpr (kRegisterType<T>) d.scalar[k] = &binary_step<F, T, O>;
          } else {
            d.block[k] = &select_block<F, T>;
            if constexpr (kRegisterType<T>) d.scalar[k] = &select_step<F, T>;
          }
          if ((fails_on<F>() & bit(t)) != 0) d.check[k] = &check_values<F, T>;
        }
      });
    }
    return d;
  }();
  return &def;
}

// ---- registration: shape rule, kernel, ElementwiseDef and traits in one call

/// The dtype check of an elementwise op's inputs [0, n): an op of one fixed
/// dtype (TF's logical ops: bool, no type attr) reports the input that
/// differs; one with a type attr, the attr's allowed list.
template <TypeMask Mask>
void check_elementwise_inputs(const InferContext& c, size_t n, const TypeSet& set) {
  if constexpr (std::has_single_bit(Mask)) {
    for (size_t i = 0; i < n; ++i) check_dtype(c, i, static_cast<DType>(std::countr_zero(Mask)));
  } else {
    if (n > 1) check_same_dtype(c, 0, n - 1);
    check_allowed(c.op, c.inputs[0].dtype, set);
  }
}

/// Unary op `name` (x: T -> y: T, or bool when BoolResult: a predicate) on
/// the dtypes of `set`. Returns the builder: the family chains the op's
/// gradient decision (and any other trait).
template <class F, TypeMask Mask, bool BoolResult = false>
OpBuilder register_unary(OpRegistry& reg, const char* name, const char* tf_list) {
  TypeSet set{Mask, tf_list};
  return reg.op(name)
      .inputs(1)
      .tf_signature(BoolResult ? "x: T -> y: bool" : "x: T -> y: T")
      .infer([set](const InferContext& c) {
        check_elementwise_inputs<Mask>(c, 1, set);
        return std::vector<TensorSpec>{{BoolResult ? DType::Bool : c.inputs[0].dtype, c.inputs[0].shape}};
      })
      .cpu([](const KernelSpec& s) {
        return dispatch_kernel<Mask>(s.op, s.inputs[0].dtype, [&]<class T>() {
          return make_unary_kernel<F, T, std::conditional_t<BoolResult, bool, T>>(s);
        });
      })
      .elementwise(elementwise_def_of<F, 1, Mask, BoolResult>())
      .speculatable(fails_on<F>(), 0)
      .cost(CostKind::Elementwise)
      .tpu();
}

/// The broadcast of binary inputs, TF's error otherwise (broadcast_error).
inline Shape broadcast_inputs(const InferContext& c) {
  Shape out;
  if (!broadcast_static(c.inputs[0].shape, c.inputs[1].shape, out)) {
    throw InvalidArgumentError(broadcast_error(c.inputs[0].shape, c.inputs[1].shape, c.tracing));
  }
  return out;
}

/// Binary op `name` (x: T, y: T -> z: T, or bool when BoolResult;
/// broadcasting) on the dtypes of Mask; `tf_list` is TF's allowed list for
/// the error text.
template <class F, TypeMask Mask, bool BoolResult = false>
OpBuilder register_binary(OpRegistry& reg, const char* name, const char* tf_list) {
  TypeSet set{Mask, tf_list};
  return reg.op(name)
      .inputs(2)
      .tf_signature(BoolResult ? "x: T, y: T -> z: bool" : "x: T, y: T -> z: T")
      .infer([set](const InferContext& c) {
        check_elementwise_inputs<Mask>(c, 2, set);
        return std::vector<TensorSpec>{{BoolResult ? DType::Bool : c.inputs[0].dtype, broadcast_inputs(c)}};
      })
      .cpu([](const KernelSpec& s) {
        return dispatch_kernel<Mask>(s.op, s.inputs[0].dtype, [&]<class T>() {
          return make_binary_kernel<F, T, std::conditional_t<BoolResult, bool, T>>(s);
        });
      })
      .elementwise(elementwise_def_of<F, 2, Mask, BoolResult>())
      .speculatable(fails_on<F>(), 1)
      .cost(CostKind::Elementwise)
      .tpu();
}

}  // namespace ag::kernels
