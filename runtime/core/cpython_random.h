// CPython's random.Random over MT19937 (core/mt19937.h): seeded from an int
// as CPython seeds it (its absolute value as 32-bit words, least significant
// first, through init_by_array), getrandbits, and integers by rejection
// (_randbelow_with_getrandbits). Python's random module (api/py_random.cpp)
// builds on it, and so does TF's eager op-seed stream (api/tf_api_random.cpp:
// context.internal_operation_seed() is random.Random(global_seed).randint).
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/core/mt19937.h"

namespace ag {

class CPythonRandom {
 public:
  MT19937 mt;

  /// random.seed(a) for an int a (|a| as CPython takes it).
  void seed(int64_t a) {
    uint64_t v = a < 0 ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
    std::vector<uint32_t> key;
    do {
      key.push_back(static_cast<uint32_t>(v));
      v >>= 32;
    } while (v != 0);
    mt.seed_by_array(key);
  }

  uint64_t getrandbits(int k) {
    if (k <= 32) return mt.next32() >> (32 - k);
    // Little-endian 32-bit words, the last one shifted down to what is left.
    uint64_t r = 0;
    for (int shift = 0; k > 0; shift += 32, k -= 32) {
      uint64_t w = mt.next32();
      if (k < 32) w >>= (32 - k);
      r |= w << shift;
    }
    return r;
  }

  /// A uniform int in [0, n): getrandbits(n.bit_length()) until below n.
  int64_t below(int64_t n) {
    if (n <= 0) return 0;
    const int k = 64 - __builtin_clzll(static_cast<uint64_t>(n));
    uint64_t r = getrandbits(k);
    while (r >= static_cast<uint64_t>(n)) r = getrandbits(k);
    return static_cast<int64_t>(r);
  }
};

}  // namespace ag
