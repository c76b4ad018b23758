// TPU_EMULATOR.md B30/B31: bfloat16's layout and float32 -> bfloat16 rounding,
// bit pattern in and out, for every vector the spec gives.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "runtime/core/bfloat16.h"

namespace {

uint16_t to_bf16_bits(uint32_t f32_bits) {
  float f;
  std::memcpy(&f, &f32_bits, sizeof f);
  return ag::bfloat16(f).bits;
}

uint32_t to_f32_bits(uint16_t bf16_bits) {
  const float f = static_cast<float>(ag::bfloat16::from_bits(bf16_bits));
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

}  // namespace

TEST_CASE("float32 to bfloat16 follows every vector of B31") {
  struct Vector {
    uint32_t in;
    uint16_t out;
  };
  const Vector vectors[] = {
      {0x3F800000u, 0x3F80u},  // 1.0
      {0x3F808000u, 0x3F80u},  // 1 + 2^-8: a tie, to the even 0x3F80
      {0x3F818000u, 0x3F82u},  // a tie from an odd bf16, up to even
      {0x3F808001u, 0x3F81u},  // just above the tie
      {0x7F7FFFFFu, 0x7F80u},  // FLT_MAX overflows to +inf
      {0x7F800000u, 0x7F80u},  // +inf
      {0x7F800001u, 0x7FC0u},  // signalling NaN -> canonical quiet NaN
      {0xFF800001u, 0xFFC0u},  // negative NaN keeps its sign
      {0x007FFFFFu, 0x0000u},  // largest subnormal flushes (RTNE alone would give 0x0080)
      {0x00800000u, 0x0080u},  // FLT_MIN is kept
      {0x80000001u, 0x8000u},  // smallest negative subnormal -> -0
  };
  for (const Vector& v : vectors) {
    CAPTURE(v.in);
    CHECK(to_bf16_bits(v.in) == v.out);
  }
}

TEST_CASE("every NaN payload becomes the canonical quiet NaN of its sign") {
  CHECK(to_bf16_bits(0x7FFFFFFFu) == 0x7FC0u);
  CHECK(to_bf16_bits(0x7FC00000u) == 0x7FC0u);
  CHECK(to_bf16_bits(0xFFFFFFFFu) == 0xFFC0u);
  CHECK(to_bf16_bits(0x7F810000u) == 0x7FC0u);
}

TEST_CASE("subnormals of either sign flush to a zero of that sign and zeros stay") {
  CHECK(to_bf16_bits(0x00000001u) == 0x0000u);
  CHECK(to_bf16_bits(0x00400000u) == 0x0000u);
  CHECK(to_bf16_bits(0x807FFFFFu) == 0x8000u);
  CHECK(to_bf16_bits(0x00000000u) == 0x0000u);
  CHECK(to_bf16_bits(0x80000000u) == 0x8000u);
  // Just above FLT_MIN still rounds normally.
  CHECK(to_bf16_bits(0x00808000u) == 0x0080u);
  CHECK(to_bf16_bits(0x80818000u) == 0x8082u);
  // Negative overflow goes to -inf.
  CHECK(to_bf16_bits(0xFF7FFFFFu) == 0xFF80u);
}

TEST_CASE("bfloat16 to float32 appends sixteen zero bits (B30)") {
  for (uint32_t b = 0; b <= 0xFFFFu; ++b) {
    const uint32_t f = to_f32_bits(static_cast<uint16_t>(b));
    REQUIRE(f == (b << 16));
  }
  CHECK(std::isinf(static_cast<float>(ag::bfloat16::from_bits(0x7F80u))));
  CHECK(static_cast<float>(ag::bfloat16::from_bits(0xFF80u)) == -std::numeric_limits<float>::infinity());
  CHECK(std::isnan(static_cast<float>(ag::bfloat16::from_bits(0x7FC1u))));
}

TEST_CASE("every normal bfloat16 converts back to itself exactly") {
  for (uint32_t b = 0; b <= 0xFFFFu; ++b) {
    const uint32_t exponent = (b >> 7) & 0xFFu;
    if (exponent == 0 || exponent == 0xFFu) continue;  // subnormals flush; inf/NaN checked above
    REQUIRE(to_bf16_bits(b << 16) == b);
  }
}
