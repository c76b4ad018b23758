// bfloat16: the top 16 bits of an IEEE float32. Conversion from float rounds to
// nearest, ties to even, as TensorFlow and TPUs do (Eigen's
// float_to_bfloat16_rtne, TPU_EMULATOR.md B30/B31): NaN becomes the canonical
// quiet NaN of its sign and float32 subnormals flush to a zero of their sign.
#pragma once

#include <cstdint>
#include <cstring>

namespace ag {

struct bfloat16 {
  uint16_t bits = 0;

  constexpr bfloat16() = default;
  explicit bfloat16(float f) : bits(round_bits(f)) {}
  explicit operator float() const {
    uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  }

  static bfloat16 from_bits(uint16_t b) {
    bfloat16 r;
    r.bits = b;
    return r;
  }

  static uint16_t round_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
    if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) != 0) {
      return static_cast<uint16_t>(sign | 0x7fc0u);  // canonical quiet NaN, payload dropped
    }
    // |x| < FLT_MIN: rounding would keep a bf16 subnormal (or round the
    // largest ones up to 0x0080); Eigen, and so TF, flush them instead.
    if ((u & 0x7f800000u) == 0) return sign;
    uint32_t lsb = (u >> 16) & 1u;
    u += 0x7fffu + lsb;  // round to nearest, ties to even
    return static_cast<uint16_t>(u >> 16);
  }

  friend bool operator==(bfloat16 a, bfloat16 b) { return static_cast<float>(a) == static_cast<float>(b); }
};

}  // namespace ag
