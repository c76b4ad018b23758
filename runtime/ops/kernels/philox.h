// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3")
// with TensorFlow's seeding and its conversions to uniform and normal floats
// (tensorflow/core/lib/random/{philox_random,random_distributions}.h), so
// seeded random ops give TF's numbers.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "runtime/core/bfloat16.h"

namespace ag::kernels {

class Philox4x32 {
 public:
  using Block = std::array<uint32_t, 4>;

  Philox4x32() = default;
  /// TF's PhiloxRandom(seed, seed2): the key from seed, counter words 2-3 from seed2.
  Philox4x32(uint64_t seed_lo, uint64_t seed_hi) {
    key_ = {static_cast<uint32_t>(seed_lo), static_cast<uint32_t>(seed_lo >> 32)};
    counter_ = {0, 0, static_cast<uint32_t>(seed_hi), static_cast<uint32_t>(seed_hi >> 32)};
  }
  Philox4x32(Block counter, std::array<uint32_t, 2> key) : counter_(counter), key_(key) {}

  const Block& counter() const { return counter_; }
  const std::array<uint32_t, 2>& key() const { return key_; }

  /// Advances the 128-bit counter by `count` blocks.
  void skip(uint64_t count) {
    uint32_t lo = static_cast<uint32_t>(count);
    uint32_t hi = static_cast<uint32_t>(count >> 32);
    counter_[0] += lo;
    if (counter_[0] < lo) ++hi;
    counter_[1] += hi;
    if (counter_[1] < hi && ++counter_[2] == 0) ++counter_[3];
  }

  /// The next 4 words: ten rounds on the counter, then the counter moves on by one.
  Block next() {
    Block c = counter_;
    std::array<uint32_t, 2> k = key_;
    for (int r = 0; r < 10; ++r) {
      if (r > 0) {
        k[0] += 0x9E3779B9u;
        k[1] += 0xBB67AE85u;
      }
      uint64_t p0 = uint64_t{0xD2511F53u} * c[0];
      uint64_t p1 = uint64_t{0xCD9E8D57u} * c[2];
      c = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<uint32_t>(p1),
           static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<uint32_t>(p0)};
    }
    if (++counter_[0] == 0 && ++counter_[1] == 0 && ++counter_[2] == 0) ++counter_[3];
    return c;
  }

 private:
  Block counter_{};
  std::array<uint32_t, 2> key_{};
};

/// A float in [0, 1) from the low 23 bits (a float in [1, 2) minus 1).
inline float uint32_to_float(uint32_t x) {
  uint32_t bits = (127u << 23) | (x & 0x7fffffu);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f - 1.0f;
}

/// A double in [0, 1) from 52 bits: 20 of x0 and all of x1.
inline double uint64_to_double(uint32_t x0, uint32_t x1) {
  uint64_t bits = (uint64_t{1023} << 52) | (uint64_t{x0 & 0xfffffu} << 32) | x1;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d - 1.0;
}

/// A bfloat16 in [0, 1) from the low 7 bits.
inline bfloat16 uint16_to_bfloat16(uint16_t x) {
  bfloat16 one_to_two = bfloat16::from_bits(static_cast<uint16_t>((127u << 7) | (x & 0x7fu)));
  return bfloat16(static_cast<float>(one_to_two) - 1.0f);
}

/// Box-Muller: two standard normals from two words, in float as TF computes them.
inline void box_muller_float(uint32_t x0, uint32_t x1, float* f0, float* f1) {
  float u1 = uint32_to_float(x0);
  if (u1 < 1.0e-7f) u1 = 1.0e-7f;
  const float v1 = static_cast<float>(2.0f * M_PI * uint32_to_float(x1));
  const float u2 = std::sqrt(-2.0f * std::log(u1));
  ::sincosf(v1, f0, f1);
  *f0 *= u2;
  *f1 *= u2;
}

/// Box-Muller in double from four words.
inline void box_muller_double(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t x3, double* d0, double* d1) {
  double u1 = uint64_to_double(x0, x1);
  if (u1 < 1.0e-7) u1 = 1.0e-7;
  const double v1 = 2 * M_PI * uint64_to_double(x2, x3);
  const double u2 = std::sqrt(-2.0 * std::log(u1));
  ::sincos(v1, d0, d1);
  *d0 *= u2;
  *d1 *= u2;
}

}  // namespace ag::kernels
