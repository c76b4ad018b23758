// Element types of tensors, with TensorFlow's names: `float32` as tf.dtypes
// prints it, `float` as TF's kernels word it in errors ("expected to be a float
// tensor but is a int32 tensor").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/core/bfloat16.h"

namespace ag {

enum class DType : uint8_t { Float32, Float64, Int32, Int64, Bool, String, BFloat16, Int8, UInt8, Variant };

/// The data dtypes (Float32 .. UInt8), the ones ops compute with. Variant is
/// TF's DT_VARIANT: a scalar holding a TensorList (a TensorArray's flow). It is
/// internal: no op but the list ops and the pass-through ones accepts it, and
/// dispatch_dtype() refuses it.
inline constexpr int kNumDTypes = 9;

/// A set of dtypes (bit i for DType i): what an op accepts, what it may fail on.
using TypeMask = uint32_t;
constexpr TypeMask bit(DType t) { return TypeMask{1} << static_cast<unsigned>(t); }
constexpr TypeMask kFloatTypes = bit(DType::Float32) | bit(DType::Float64) | bit(DType::BFloat16);
constexpr TypeMask kSignedIntTypes = bit(DType::Int8) | bit(DType::Int32) | bit(DType::Int64);
constexpr TypeMask kIntTypes = kSignedIntTypes | bit(DType::UInt8);
constexpr TypeMask kRealTypes = kFloatTypes | kIntTypes;
constexpr TypeMask kAllTypes = (TypeMask{1} << kNumDTypes) - 1;

/// "float32", "int64", "bool", "string", "bfloat16", ... (tf.dtypes names).
const char* dtype_name(DType t);
/// TF's DataTypeString: "float", "double", "int32", "string", ... (error texts).
const char* dtype_tf_string(DType t);
/// The dtype called `name` ("float32", "float", "double", "int32", ...); false if none.
bool dtype_from_name(std::string_view name, DType& out);

/// Bytes per element; for String the size of one std::string slot.
size_t dtype_size(DType t);
bool is_floating(DType t);  // float32, float64, bfloat16
bool is_integer(DType t);   // int8, uint8, int32, int64
bool is_signed(DType t);
/// Floating or integer (bool and string are not).
bool is_numeric(DType t);
/// String and Variant: elements are C++ objects, constructed and destroyed
/// with their buffer (never stored inline, never memset).
inline bool has_object_elements(DType t) { return t == DType::String || t == DType::Variant; }

/// The error dispatch_dtype() raises for Variant.
[[noreturn]] void throw_variant_dispatch();

/// The C++ element type of each dtype, and back.
template <DType D> struct dtype_traits;
template <> struct dtype_traits<DType::Float32> { using type = float; };
template <> struct dtype_traits<DType::Float64> { using type = double; };
template <> struct dtype_traits<DType::Int32> { using type = int32_t; };
template <> struct dtype_traits<DType::Int64> { using type = int64_t; };
template <> struct dtype_traits<DType::Bool> { using type = bool; };
template <> struct dtype_traits<DType::String> { using type = std::string; };
template <> struct dtype_traits<DType::BFloat16> { using type = bfloat16; };
template <> struct dtype_traits<DType::Int8> { using type = int8_t; };
template <> struct dtype_traits<DType::UInt8> { using type = uint8_t; };
template <DType D> using dtype_t = typename dtype_traits<D>::type;

template <class T> constexpr DType dtype_of();
template <> constexpr DType dtype_of<float>() { return DType::Float32; }
template <> constexpr DType dtype_of<double>() { return DType::Float64; }
template <> constexpr DType dtype_of<int32_t>() { return DType::Int32; }
template <> constexpr DType dtype_of<int64_t>() { return DType::Int64; }
template <> constexpr DType dtype_of<bool>() { return DType::Bool; }
template <> constexpr DType dtype_of<std::string>() { return DType::String; }
template <> constexpr DType dtype_of<bfloat16>() { return DType::BFloat16; }
template <> constexpr DType dtype_of<int8_t>() { return DType::Int8; }
template <> constexpr DType dtype_of<uint8_t>() { return DType::UInt8; }

/// Calls `f.template operator()<T>()` with T the element type of `t`:
///   dispatch_dtype(t, [&]<class T>() { ... });
template <class F>
decltype(auto) dispatch_dtype(DType t, F&& f) {
  switch (t) {
    case DType::Float32: return f.template operator()<float>();
    case DType::Float64: return f.template operator()<double>();
    case DType::Int32: return f.template operator()<int32_t>();
    case DType::Int64: return f.template operator()<int64_t>();
    case DType::Bool: return f.template operator()<bool>();
    case DType::String: return f.template operator()<std::string>();
    case DType::BFloat16: return f.template operator()<bfloat16>();
    case DType::Int8: return f.template operator()<int8_t>();
    case DType::UInt8: return f.template operator()<uint8_t>();
    case DType::Variant: throw_variant_dispatch();
  }
  return f.template operator()<float>();  // unreachable: the switch is exhaustive
}

}  // namespace ag
