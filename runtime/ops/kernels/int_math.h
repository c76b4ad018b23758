// Integer arithmetic without undefined behaviour: wrapping add/sub/mul/neg (as
// TF's two's-complement results), and Python-style floor division and modulo
// that are defined for INT_MIN / -1. Division by zero is checked by callers.
#pragma once

#include <cstdint>
#include <type_traits>

namespace ag::kernels {

/// Integer element types (bool is not one: it has its own logical ops).
template <class T>
constexpr bool kInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <class T>
using wrap_t = std::make_unsigned_t<T>;

template <class T>
inline T wrap_add(T a, T b) {
  return static_cast<T>(static_cast<wrap_t<T>>(static_cast<wrap_t<T>>(a) + static_cast<wrap_t<T>>(b)));
}
template <class T>
inline T wrap_sub(T a, T b) {
  return static_cast<T>(static_cast<wrap_t<T>>(static_cast<wrap_t<T>>(a) - static_cast<wrap_t<T>>(b)));
}
template <class T>
inline T wrap_mul(T a, T b) {
  // uint8 * uint8 promotes to int, which cannot overflow; wider types stay unsigned.
  return static_cast<T>(static_cast<wrap_t<T>>(static_cast<wrap_t<T>>(a) * static_cast<wrap_t<T>>(b)));
}
template <class T>
inline T wrap_neg(T a) {
  return static_cast<T>(static_cast<wrap_t<T>>(wrap_t<T>{0} - static_cast<wrap_t<T>>(a)));
}

/// a / b truncating (C++), b != 0; INT_MIN / -1 wraps to INT_MIN.
template <class T>
inline T trunc_div(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return wrap_neg(a);
  }
  return static_cast<T>(a / b);
}

/// a % b truncating (C++'s: the dividend's sign), b != 0; INT_MIN % -1 is 0.
template <class T>
inline T trunc_mod(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;
  }
  return static_cast<T>(a % b);
}

/// Python's a // b, b != 0: rounds toward negative infinity.
template <class T>
inline T floor_div(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return wrap_neg(a);
    T q = static_cast<T>(a / b);
    T r = static_cast<T>(a % b);
    return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(q - 1) : q;
  } else {
    return static_cast<T>(a / b);
  }
}

/// Python's a % b, b != 0: the result has the divisor's sign.
template <class T>
inline T floor_mod(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;
    T r = static_cast<T>(a % b);
    return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(r + b) : r;
  } else {
    return static_cast<T>(a % b);
  }
}

/// a ** b for b >= 0 by squaring, wrapping on overflow.
template <class T>
inline T int_pow(T a, T b) {
  T result = 1;
  T base = a;
  auto e = static_cast<wrap_t<T>>(b);
  while (e != 0) {
    if (e & 1u) result = wrap_mul(result, base);
    e = static_cast<wrap_t<T>>(e >> 1);
    if (e != 0) base = wrap_mul(base, base);
  }
  return result;
}

}  // namespace ag::kernels
