// Which dtypes an op accepts, and TF's wording when it gets another: an op
// states its set once (as TF's op def lists it); the shape rule checks it and
// the kernel factory instantiates only those element types.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/core/dtype.h"
#include "runtime/core/error.h"
#include "runtime/ops/op_def.h"

namespace ag::kernels {

template <class T>
constexpr bool in_mask(TypeMask m) {
  return (m & bit(dtype_of<T>())) != 0;
}

/// An op's accepted dtypes: `mask` among ours, `tf_list` as TF's op def prints
/// the allowed values (it names types agc lacks, such as half).
struct TypeSet {
  TypeMask mask;
  const char* tf_list;
};

// TF's op-def type lists for the math ops.
inline constexpr TypeSet kUnaryFloatSet{kFloatTypes, "bfloat16, half, float, double, complex64, complex128"};
inline constexpr TypeSet kUnarySet{kFloatTypes | kSignedIntTypes,
                                   "bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128"};
inline constexpr TypeSet kAbsSet{kFloatTypes | kSignedIntTypes, "bfloat16, half, float, double, int8, int16, int32, int64"};
inline constexpr TypeSet kFloorSet{kFloatTypes, "bfloat16, half, float, double"};
inline constexpr TypeSet kRealNumberSet{
    kRealTypes, "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64"};

/// "cannot compute AddV2 as input #1(zero-based) was expected to be a float
/// tensor but is a int32 tensor" (TF's eager input check).
inline std::string input_dtype_mismatch(std::string_view op, size_t index, DType expected, DType got) {
  return "cannot compute " + std::string(op) + " as input #" + std::to_string(index) + "(zero-based) was expected to be a " +
         dtype_tf_string(expected) + " tensor but is a " + dtype_tf_string(got) + " tensor";
}

/// Throws the mismatch error unless inputs [first, last] share input first's dtype.
inline void check_same_dtype(const InferContext& c, size_t first, size_t last) {
  for (size_t i = first + 1; i <= last; ++i) {
    if (c.inputs[i].dtype != c.inputs[first].dtype) {
      throw InvalidArgumentError(input_dtype_mismatch(c.op, i, c.inputs[first].dtype, c.inputs[i].dtype));
    }
  }
}

/// Throws the mismatch error unless input i has dtype `want`.
inline void check_dtype(const InferContext& c, size_t i, DType want) {
  if (c.inputs[i].dtype != want) throw InvalidArgumentError(input_dtype_mismatch(c.op, i, want, c.inputs[i].dtype));
}

/// TF's op-def attr check: "Value for attr 'T' of int32 is not in the list of
/// allowed values: bfloat16, half, float, double, complex64, complex128
/// \n\t; NodeDef: {{node Sqrt}}".
inline void check_allowed(std::string_view op, DType t, const TypeSet& set, std::string_view attr = "T") {
  if ((set.mask & bit(t)) != 0) return;
  throw InvalidArgumentError("Value for attr '" + std::string(attr) + "' of " + dtype_tf_string(t) +
                             " is not in the list of allowed values: " + set.tf_list + "\n\t; NodeDef: {{node " +
                             std::string(op) + "}}");
}

/// Calls f.template operator()<T>() for T the element type of `t` when `t` is in
/// `Mask` (only those are instantiated); InternalError otherwise (the shape
/// rule has already rejected it).
template <TypeMask Mask, class F>
Kernel dispatch_kernel(std::string_view op, DType t, F&& f) {
  return dispatch_dtype(t, [&]<class T>() -> Kernel {
    if constexpr (in_mask<T>(Mask)) {
      return f.template operator()<T>();
    } else {
      throw InternalError("no " + std::string(dtype_name(t)) + " kernel for " + std::string(op));
    }
  });
}

}  // namespace ag::kernels
