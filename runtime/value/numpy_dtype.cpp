// NumPy 1.24's type promotion (numpy/core/src/multiarray/convert_datatype.c:
// PyArray_PromoteTypes, min_scalar_type_num, the legacy PyArray_ResultType
// with its "small unsigned" rule) over NumPy's integer and float types, and
// the dtype objects and arguments.
#include "runtime/value/numpy_dtype.h"

#include <array>
#include <cmath>

#include "runtime/value/numpy_types.h"

namespace ag::numpy {
namespace {

// NumPy's types that promotion can reach, in NumPy's type-number order
// within each kind.
enum class NpType : uint8_t { Bool, Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64, Float16, Float32, Float64 };

enum class NpKind : uint8_t { Bool, Signed, Unsigned, Float };

NpKind kind_of(NpType t) {
  switch (t) {
    case NpType::Bool: return NpKind::Bool;
    case NpType::Int8:
    case NpType::Int16:
    case NpType::Int32:
    case NpType::Int64: return NpKind::Signed;
    case NpType::UInt8:
    case NpType::UInt16:
    case NpType::UInt32:
    case NpType::UInt64: return NpKind::Unsigned;
    case NpType::Float16:
    case NpType::Float32:
    case NpType::Float64: return NpKind::Float;
  }
  return NpKind::Float;
}

/// Bytes per element.
int size_of(NpType t) {
  switch (t) {
    case NpType::Bool:
    case NpType::Int8:
    case NpType::UInt8: return 1;
    case NpType::Int16:
    case NpType::UInt16:
    case NpType::Float16: return 2;
    case NpType::Int32:
    case NpType::UInt32:
    case NpType::Float32: return 4;
    case NpType::Int64:
    case NpType::UInt64:
    case NpType::Float64: return 8;
  }
  return 8;
}

NpType signed_of_size(int size) {
  switch (size) {
    case 1: return NpType::Int8;
    case 2: return NpType::Int16;
    case 4: return NpType::Int32;
    default: return NpType::Int64;
  }
}

NpType float_of_size(int size) {
  switch (size) {
    case 1:
    case 2: return NpType::Float16;
    case 4: return NpType::Float32;
    default: return NpType::Float64;
  }
}

const char* np_name(NpType t) {
  switch (t) {
    case NpType::Bool: return "bool";
    case NpType::Int8: return "int8";
    case NpType::UInt8: return "uint8";
    case NpType::Int16: return "int16";
    case NpType::UInt16: return "uint16";
    case NpType::Int32: return "int32";
    case NpType::UInt32: return "uint32";
    case NpType::Int64: return "int64";
    case NpType::UInt64: return "uint64";
    case NpType::Float16: return "float16";
    case NpType::Float32: return "float32";
    case NpType::Float64: return "float64";
  }
  return "?";
}

[[noreturn]] void unsupported_numpy_type(const std::string& name) {
  throw NotImplementedError("agc does not support the NumPy dtype " + name +
                            " (its arrays hold bool, int8, uint8, int32, int64, float32, float64 or bytes)");
}

NpType np_type(DType t) {
  switch (t) {
    case DType::Bool: return NpType::Bool;
    case DType::Int8: return NpType::Int8;
    case DType::UInt8: return NpType::UInt8;
    case DType::Int32: return NpType::Int32;
    case DType::Int64: return NpType::Int64;
    case DType::Float32: return NpType::Float32;
    case DType::Float64: return NpType::Float64;
    case DType::String:
    case DType::BFloat16:
    case DType::Variant: break;
  }
  throw TypeError(std::string("NumPy arithmetic on ") + ag::dtype_name(t) + " values is not supported by agc");
}

DType agc_type(NpType t) {
  switch (t) {
    case NpType::Bool: return DType::Bool;
    case NpType::Int8: return DType::Int8;
    case NpType::UInt8: return DType::UInt8;
    case NpType::Int32: return DType::Int32;
    case NpType::Int64: return DType::Int64;
    case NpType::Float32: return DType::Float32;
    case NpType::Float64: return DType::Float64;
    default: unsupported_numpy_type(np_name(t));
  }
}

/// PyArray_PromoteTypes for NumPy's numeric types.
NpType promote(NpType a, NpType b) {
  if (a == b) return a;
  NpKind ka = kind_of(a), kb = kind_of(b);
  if (ka == NpKind::Bool) return b;
  if (kb == NpKind::Bool) return a;
  int sa = size_of(a), sb = size_of(b);
  if (ka == kb) return sa >= sb ? a : b;
  if (ka == NpKind::Float || kb == NpKind::Float) {
    // An integer of n bytes needs a float of 2n bytes to hold it (at least
    // float16; 4- and 8-byte integers need float64).
    int int_size = ka == NpKind::Float ? sb : sa;
    int float_size = ka == NpKind::Float ? sa : sb;
    int need = int_size >= 4 ? 8 : 2 * int_size;
    return float_of_size(std::max(need, float_size));
  }
  // Signed with unsigned: the signed type if it is larger, else a signed type
  // twice the unsigned one's size (float64 past 64 bits).
  int s_size = ka == NpKind::Signed ? sa : sb;
  int u_size = ka == NpKind::Unsigned ? sa : sb;
  if (s_size > u_size) return signed_of_size(s_size);
  if (u_size == 8) return NpType::Float64;
  return signed_of_size(2 * u_size);
}

/// min_scalar_type_num: the smallest type holding a scalar's value, and
/// whether an unsigned result also fits the signed type of its size.
NpType min_scalar_type(const Operand& o, bool& small_unsigned) {
  small_unsigned = false;
  NpType t = np_type(o.dtype);
  switch (kind_of(t)) {
    case NpKind::Bool: return NpType::Bool;
    case NpKind::Signed:
    case NpKind::Unsigned: {
      int64_t v = o.int_value;
      if (v < 0) {
        if (v >= -128) return NpType::Int8;
        if (v >= -32768) return NpType::Int16;
        if (v >= INT32_MIN) return NpType::Int32;
        return NpType::Int64;
      }
      if (v <= 255) {
        small_unsigned = v <= 127;
        return NpType::UInt8;
      }
      if (v <= 65535) {
        small_unsigned = v <= 32767;
        return NpType::UInt16;
      }
      if (v <= 4294967295LL) {
        small_unsigned = v <= 2147483647LL;
        return NpType::UInt32;
      }
      small_unsigned = true;  // an int64 value is at most int64's maximum
      return NpType::UInt64;
    }
    case NpKind::Float: {
      double v = o.float_value;
      if (!std::isfinite(v) || (v > -65000 && v < 65000)) return NpType::Float16;
      if (t == NpType::Float64 && v > -3.4e38 && v < 3.4e38) return NpType::Float32;
      return t;
    }
  }
  return t;
}

/// The legacy promote_types(type1, type2, is_small_unsigned1, is_small_unsigned2):
/// a small unsigned scalar type meets a signed or float type as the signed
/// type of its size.
NpType promote_scalar(NpType a, bool a_small, NpType b, bool b_small) {
  auto signed_twin = [](NpType u) { return signed_of_size(size_of(u)); };
  if (a_small && kind_of(b) != NpKind::Bool && kind_of(b) != NpKind::Unsigned) return promote(signed_twin(a), b);
  if (b_small && kind_of(a) != NpKind::Bool && kind_of(a) != NpKind::Unsigned) return promote(a, signed_twin(b));
  return promote(a, b);
}

int kind_order(NpType t) {
  switch (kind_of(t)) {
    case NpKind::Bool: return 0;
    case NpKind::Signed:
    case NpKind::Unsigned: return 1;
    case NpKind::Float: return 2;
  }
  return 2;
}

}  // namespace

const char* dtype_name(DType t) {
  switch (t) {
    case DType::String: return "object";
    default: return ag::dtype_name(t);
  }
}

char dtype_kind(DType t) {
  switch (t) {
    case DType::Bool: return 'b';
    case DType::Int8:
    case DType::Int32:
    case DType::Int64: return 'i';
    case DType::UInt8: return 'u';
    case DType::Float32:
    case DType::Float64:
    case DType::BFloat16: return 'f';
    case DType::String:
    case DType::Variant: return 'O';
  }
  return 'O';
}

Operand python_operand(const Value& v) {
  if (v.is_bool()) return {DType::Bool, true, v.as_bool() ? 1 : 0, 0};
  if (v.is_int()) return {DType::Int64, true, v.as_int(), 0};
  return {DType::Float64, true, 0, v.as_float()};
}

DType promote_types(DType a, DType b) { return agc_type(promote(np_type(a), np_type(b))); }

bool can_cast_same_kind(DType from, DType to) {
  auto order = [](DType t) {
    switch (kind_of(np_type(t))) {
      case NpKind::Bool: return 0;
      case NpKind::Unsigned: return 1;
      case NpKind::Signed: return 2;
      case NpKind::Float: return 3;
    }
    return 3;
  };
  return order(from) <= order(to);
}

DType result_type(std::span<const Operand> operands) {
  int max_array_kind = -1, max_scalar_kind = -1;
  bool all_scalars = true;
  for (const Operand& o : operands) {
    int k = kind_order(np_type(o.dtype));
    if (o.scalar) {
      max_scalar_kind = std::max(max_scalar_kind, k);
    } else {
      max_array_kind = std::max(max_array_kind, k);
      all_scalars = false;
    }
  }
  bool use_min_scalar = !all_scalars && max_array_kind >= max_scalar_kind;
  NpType ret = NpType::Bool;
  bool ret_small = false;
  bool first = true;
  for (const Operand& o : operands) {
    bool small = false;
    NpType t = use_min_scalar && o.scalar ? min_scalar_type(o, small) : np_type(o.dtype);
    if (first) {
      ret = t;
      ret_small = small;
      first = false;
    } else {
      ret = promote_scalar(t, small, ret, ret_small);
      ret_small = small && ret_small;
    }
  }
  return agc_type(ret);
}

// ---------------------------------------------------------------------------
// Dtype arguments and dtype objects.

namespace {

struct NamedType {
  const char* name;
  DType dtype;
};

// The names and type codes np.dtype() accepts for agc's dtypes.
constexpr NamedType kNames[] = {
    {"float32", DType::Float32}, {"f4", DType::Float32},  {"single", DType::Float32}, {"f", DType::Float32},
    {"float64", DType::Float64}, {"f8", DType::Float64},  {"double", DType::Float64}, {"float", DType::Float64},
    {"d", DType::Float64},       {"int32", DType::Int32}, {"i4", DType::Int32},       {"intc", DType::Int32},
    {"int64", DType::Int64},     {"i8", DType::Int64},    {"int", DType::Int64},      {"int_", DType::Int64},
    {"l", DType::Int64},         {"int8", DType::Int8},   {"i1", DType::Int8},        {"byte", DType::Int8},
    {"uint8", DType::UInt8},     {"u1", DType::UInt8},    {"ubyte", DType::UInt8},    {"B", DType::UInt8},
    {"bool", DType::Bool},       {"bool_", DType::Bool},  {"?", DType::Bool},         {"b1", DType::Bool},
    {"object", DType::String},   {"O", DType::String},
};

// NumPy dtypes agc has no tensors of: named in the error rather than "not understood".
constexpr const char* kUnsupportedNames[] = {"float16", "f2", "half", "int16", "i2", "short", "uint16", "u2",
                                             "uint32", "u4", "uint64", "u8", "uint", "complex64", "complex128",
                                             "complex", "c8", "c16", "longdouble", "float128", "str", "U", "S"};

struct DTypeObjects {
  std::array<Value, kNumDTypes> by_dtype;

  DTypeObjects() {
    for (int i = 0; i < kNumDTypes; ++i) {
      DType t = static_cast<DType>(i);
      Value v = Value::object("numpy.dtype");
      v.setattr("name", Value(numpy::dtype_name(t)));
      v.setattr("kind", Value(std::string(1, dtype_kind(t))));
      v.setattr("itemsize", Value(static_cast<int64_t>(t == DType::String ? 8 : dtype_size(t))));
      by_dtype[static_cast<size_t>(i)] = v;
    }
  }
};

const DTypeObjects& dtype_objects() {
  static const DTypeObjects objects;
  return objects;
}

}  // namespace

Value dtype_object(DType t) { return dtype_objects().by_dtype.at(static_cast<size_t>(t)); }

std::optional<DType> dtype_of_object(const Value& v) {
  if (!v.is_object() || v.as_object().class_name != "numpy.dtype") return std::nullopt;
  const DTypeObjects& all = dtype_objects();
  for (int i = 0; i < kNumDTypes; ++i) {
    if (v.is(all.by_dtype[static_cast<size_t>(i)])) return static_cast<DType>(i);
  }
  return std::nullopt;
}

std::optional<DType> dtype_argument(const Value& v) {
  if (v.is_none()) return std::nullopt;
  if (std::optional<DType> t = dtype_of_object(v)) return t;
  if (v.is_str()) {
    const std::string& s = v.as_str();
    for (const NamedType& n : kNames) {
      if (s == n.name) return n.dtype;
    }
    for (const char* n : kUnsupportedNames) {
      if (s == n) unsupported_numpy_type(s);
    }
    throw TypeError("data type '" + s + "' not understood");
  }
  for (int i = 0; i < kNumDTypes; ++i) {
    DType t = static_cast<DType>(i);
    if (t != DType::Variant && t != DType::BFloat16 && v.is(scalar_type(t))) return t;
  }
  // Python's own types: float is float64, int is int64 (NumPy's long), bool is bool.
  if (v.is_callable() && !v.as_callable().user) {
    const std::string& n = v.as_callable().name;
    if (n == "float") return DType::Float64;
    if (n == "int") return DType::Int64;
    if (n == "bool") return DType::Bool;
  }
  throw TypeError("Cannot interpret '" + repr(v) + "' as a data type");
}

bool dtype_equals(DType t, const Value& other) {
  try {
    std::optional<DType> o = dtype_argument(other);
    return o ? *o == t : t == DType::Float64;  // np.dtype(None) is float64
  } catch (const TypeError&) {
    return false;
  } catch (const NotImplementedError&) {
    return false;
  }
}

}  // namespace ag::numpy
