#include "runtime/value/dtype_value.h"

#include <array>

namespace ag {
namespace {

// One object per tf.* dtype, built once (thread-safe static init) and never
// mutated afterwards: identity is equality.
struct DTypeValues {
  std::array<Value, kNumDTypes> by_dtype;
  Value float16;

  static Value make(const char* name, bool floating, bool integer, bool boolean) {
    Value v = Value::object("DType");
    v.setattr("name", Value(name));
    v.setattr("is_floating", Value(floating));
    v.setattr("is_integer", Value(integer));
    v.setattr("is_bool", Value(boolean));
    return v;
  }

  DTypeValues() {
    for (int i = 0; i < kNumDTypes; ++i) {
      DType t = static_cast<DType>(i);
      by_dtype[static_cast<size_t>(i)] = make(dtype_name(t), is_floating(t), is_integer(t), t == DType::Bool);
    }
    float16 = make("float16", true, false, false);
  }
};

const DTypeValues& values() {
  static const DTypeValues v;
  return v;
}

}  // namespace

Value dtype_value(DType t) {
  auto i = static_cast<size_t>(t);
  if (i >= static_cast<size_t>(kNumDTypes)) throw InvalidArgumentError("no DType value for an internal dtype");
  return values().by_dtype[i];
}

const Value& float16_dtype_value() { return values().float16; }

const char* dtype_value_name(const Value& v) {
  if (!v.is_object() || v.as_object().class_name != "DType") return nullptr;
  const DTypeValues& all = values();
  for (int i = 0; i < kNumDTypes; ++i) {
    if (v.is(all.by_dtype[static_cast<size_t>(i)])) return dtype_name(static_cast<DType>(i));
  }
  if (v.is(all.float16)) return "float16";
  return nullptr;
}

std::optional<DType> dtype_of(const Value& v) {
  if (v.is_object()) {
    const DTypeValues& all = values();
    for (int i = 0; i < kNumDTypes; ++i) {
      if (v.is(all.by_dtype[static_cast<size_t>(i)])) return static_cast<DType>(i);
    }
    return std::nullopt;
  }
  if (v.is_str()) {
    DType t;
    if (dtype_from_name(v.as_str(), t) && t != DType::Variant) return t;
  }
  return std::nullopt;
}

DType require_dtype(const Value& v) {
  if (std::optional<DType> t = dtype_of(v)) return *t;
  if (v.is(values().float16) || (v.is_str() && (v.as_str() == "float16" || v.as_str() == "half"))) {
    throw UnimplementedError("agc does not support the dtype float16");
  }
  throw TypeError("Cannot convert value " + repr(v) + " to a TensorFlow DType.");
}

}  // namespace ag
