// The Mersenne Twister MT19937 (Matsumoto and Nishimura), as the reference
// code and its users seed and read it: NumPy's legacy RandomState
// (api/np_random.cpp) and CPython's random module (api/py_random.cpp) share
// it. An integer seed sets the state as init_genrand does, a sequence of
// 32-bit words as init_by_array; next_double is genrand_res53.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ag {

class MT19937 {
 public:
  static constexpr int kN = 624;

  void seed(uint32_t s) {
    key_[0] = s;
    for (int i = 1; i < kN; ++i) key_[i] = 1812433253u * (key_[i - 1] ^ (key_[i - 1] >> 30)) + static_cast<uint32_t>(i);
    pos_ = kN;
  }

  void seed_by_array(const std::vector<uint32_t>& init) {
    seed(19650218u);
    int i = 1;
    size_t j = 0;
    size_t n = init.size();
    for (int k = std::max<int>(kN, static_cast<int>(n)); k > 0; --k) {
      key_[i] = (key_[i] ^ ((key_[i - 1] ^ (key_[i - 1] >> 30)) * 1664525u)) + init[j] + static_cast<uint32_t>(j);
      ++i;
      ++j;
      if (i >= kN) {
        key_[0] = key_[kN - 1];
        i = 1;
      }
      if (j >= n) j = 0;
    }
    for (int k = kN - 1; k > 0; --k) {
      key_[i] = (key_[i] ^ ((key_[i - 1] ^ (key_[i - 1] >> 30)) * 1566083941u)) - static_cast<uint32_t>(i);
      ++i;
      if (i >= kN) {
        key_[0] = key_[kN - 1];
        i = 1;
      }
    }
    key_[0] = 0x80000000u;
    pos_ = kN;
  }

  uint32_t next32() {
    if (pos_ == kN) generate();
    uint32_t y = key_[pos_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
  }

  uint64_t next64() {
    uint64_t hi = next32();
    return hi << 32 | next32();
  }

  /// 53 random bits as a double in [0, 1).
  double next_double() {
    int32_t a = static_cast<int32_t>(next32() >> 5), b = static_cast<int32_t>(next32() >> 6);
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }

 private:
  void generate() {
    constexpr int kM = 397;
    constexpr uint32_t kMatrixA = 0x9908b0dfu, kUpper = 0x80000000u, kLower = 0x7fffffffu;
    auto twist = [&](int i, int next, int far) {
      uint32_t y = (key_[i] & kUpper) | (key_[next] & kLower);
      key_[i] = key_[far] ^ (y >> 1) ^ ((0u - (y & 1u)) & kMatrixA);
    };
    int i = 0;
    for (; i < kN - kM; ++i) twist(i, i + 1, i + kM);
    for (; i < kN - 1; ++i) twist(i, i + 1, i + kM - kN);
    twist(kN - 1, 0, kM - 1);
    pos_ = 0;
  }

  uint32_t key_[kN] = {};
  int pos_ = kN;
};

}  // namespace ag
