// TF's random distributions over a Philox4x32 stream (tensorflow/core/lib/
// random/random_distributions.h with random_op_cpu.h's FillPhiloxRandom), so
// the stateful, stateless and Generator ops draw TF's numbers from the same
// generator state:
//  - fixed-sample distributions (uniform, normal, ints) take one Philox block
//    per group of outputs, groups in order;
//  - truncated normal takes a variable number of single words per group of 4
//    (2 for double), each group starting 256 words * group size further on.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "runtime/core/bfloat16.h"
#include "runtime/ops/kernels/philox.h"

namespace ag::kernels {

/// TF's SingleSampleAdapter: the words of a Philox stream one at a time.
class SingleSample {
 public:
  explicit SingleSample(Philox4x32* gen) : gen_(gen) {}
  uint32_t operator()() {
    if (used_ == 4) {
      block_ = gen_->next();
      used_ = 0;
    }
    return block_[used_++];
  }

 private:
  Philox4x32* gen_;
  Philox4x32::Block block_{};
  size_t used_ = 4;
};

/// Fills n outputs, `per` per generator block, from fn(block, out, count).
template <class T, class Fn>
void fill_blocks(Philox4x32 gen, T* out, int64_t n, int per, Fn fn) {
  int64_t i = 0;
  for (; i + per <= n; i += per) fn(gen.next(), out + i, per);
  if (i < n) fn(gen.next(), out + i, static_cast<int>(n - i));
}

/// UniformDistribution<PhiloxRandom, T> for float, double and bfloat16.
template <class T>
void uniform_fill(Philox4x32 gen, T* out, int64_t n) {
  if constexpr (std::is_same_v<T, float>) {
    fill_blocks(gen, out, n, 4, [](const Philox4x32::Block& b, T* o, int m) {
      for (int j = 0; j < m; ++j) o[j] = uint32_to_float(b[static_cast<size_t>(j)]);
    });
  } else if constexpr (std::is_same_v<T, double>) {
    fill_blocks(gen, out, n, 2, [](const Philox4x32::Block& b, T* o, int m) {
      for (int j = 0; j < m; ++j) o[j] = uint64_to_double(b[2 * static_cast<size_t>(j)], b[2 * static_cast<size_t>(j) + 1]);
    });
  } else {
    fill_blocks(gen, out, n, 4, [](const Philox4x32::Block& b, T* o, int m) {
      for (int j = 0; j < m; ++j) o[j] = uint16_to_bfloat16(static_cast<uint16_t>(b[static_cast<size_t>(j)]));
    });
  }
}

/// NormalDistribution<PhiloxRandom, T>: Box-Muller, 4 floats or 2 doubles a block.
template <class T>
void normal_fill(Philox4x32 gen, T* out, int64_t n) {
  if constexpr (std::is_same_v<T, double>) {
    fill_blocks(gen, out, n, 2, [](const Philox4x32::Block& b, T* o, int m) {
      double d[2];
      box_muller_double(b[0], b[1], b[2], b[3], &d[0], &d[1]);
      for (int j = 0; j < m; ++j) o[j] = d[j];
    });
  } else {
    fill_blocks(gen, out, n, 4, [](const Philox4x32::Block& b, T* o, int m) {
      float f[4];
      box_muller_float(b[0], b[1], &f[0], &f[1]);
      box_muller_float(b[2], b[3], &f[2], &f[3]);
      for (int j = 0; j < m; ++j) o[j] = static_cast<T>(f[j]);
    });
  }
}

/// UniformDistribution<PhiloxRandom, int32/int64>(lo, hi): lo + bits % (hi - lo).
template <class T>
void uniform_int_fill(Philox4x32 gen, T* out, int64_t n, T lo, T hi) {
  using U = std::make_unsigned_t<T>;
  U range = static_cast<U>(static_cast<U>(hi) - static_cast<U>(lo));
  if constexpr (sizeof(T) == 4) {
    fill_blocks(gen, out, n, 4, [lo, range](const Philox4x32::Block& b, T* o, int m) {
      for (int j = 0; j < m; ++j) o[j] = static_cast<T>(static_cast<U>(lo) + b[static_cast<size_t>(j)] % range);
    });
  } else {
    fill_blocks(gen, out, n, 2, [lo, range](const Philox4x32::Block& b, T* o, int m) {
      for (int j = 0; j < m; ++j) {
        uint64_t bits = b[2 * static_cast<size_t>(j)] | (uint64_t{b[2 * static_cast<size_t>(j) + 1]} << 32);
        o[j] = static_cast<T>(static_cast<U>(lo) + bits % range);
      }
    });
  }
}

/// UniformFullIntDistribution: every bit pattern (one word, or two low first).
template <class T>
void full_int_fill(Philox4x32 gen, T* out, int64_t n) {
  if constexpr (sizeof(T) == 4) {
    fill_blocks(gen, out, n, 4, [](const Philox4x32::Block& b, T* o, int m) {
      for (int j = 0; j < m; ++j) o[j] = static_cast<T>(b[static_cast<size_t>(j)]);
    });
  } else {
    fill_blocks(gen, out, n, 2, [](const Philox4x32::Block& b, T* o, int m) {
      for (int j = 0; j < m; ++j) {
        o[j] = static_cast<T>(b[2 * static_cast<size_t>(j)] | (uint64_t{b[2 * static_cast<size_t>(j) + 1]} << 32));
      }
    });
  }
}

/// TruncatedNormalDistribution<SingleSampleAdapter<PhiloxRandom>, T>: normals
/// with |x| < 2, drawn in Box-Muller pairs and rejected one by one. Groups of
/// 4 (float, bfloat16) or 2 (double) outputs; group g starts its words at
/// block g * group * 256 / 4 (FillPhiloxRandomTask's reserved samples).
template <class T>
void truncated_normal_fill(Philox4x32 base, T* out, int64_t n) {
  constexpr int kGroup = std::is_same_v<T, double> ? 2 : 4;
  constexpr uint64_t kSkipPerGroup = kGroup * 256 / 4;
  for (int64_t g = 0; g * kGroup < n; ++g) {
    Philox4x32 gen = base;
    gen.skip(static_cast<uint64_t>(g) * kSkipPerGroup);
    SingleSample single(&gen);
    int64_t count = std::min<int64_t>(kGroup, n - g * kGroup);
    T* o = out + g * kGroup;
    int index = 0;
    // The group is always completed (its values past `count` are dropped).
    while (index < kGroup) {
      if constexpr (std::is_same_v<T, double>) {
        uint32_t x0 = single(), x1 = single(), x2 = single(), x3 = single();
        double d[2];
        box_muller_double(x0, x1, x2, x3, &d[0], &d[1]);
        for (double v : d) {
          if (index < kGroup && std::abs(v) < 2.0) {
            if (index < count) o[index] = v;
            ++index;
          }
        }
      } else {
        uint32_t x0 = single(), x1 = single();
        float f[2];
        box_muller_float(x0, x1, &f[0], &f[1]);
        for (float v : f) {
          if (index < kGroup && std::abs(v) < 2.0f) {
            if (index < count) o[index] = static_cast<T>(v);
            ++index;
          }
        }
      }
    }
  }
}

/// TF's RandomSampleBuffer over UniformDistribution<PhiloxRandom, double>
/// (kNormal false) or NormalDistribution<PhiloxRandom, double> (true), also
/// the gamma and Poisson kernels' UNIFORM macro: one block gives 2 doubles,
/// handed out last first. Samplers that use a variable number of words per
/// output (gamma, Poisson) draw them so.
template <bool kNormal>
class DoubleSampleBuffer {
 public:
  double operator()(Philox4x32& gen) {
    if (remaining_ == 0) {
      Philox4x32::Block b = gen.next();
      if constexpr (kNormal) {
        box_muller_double(b[0], b[1], b[2], b[3], &v_[0], &v_[1]);
      } else {
        v_[0] = uint64_to_double(b[0], b[1]);
        v_[1] = uint64_to_double(b[2], b[3]);
      }
      remaining_ = 2;
    }
    return v_[--remaining_];
  }

 private:
  double v_[2] = {0, 0};
  int remaining_ = 0;
};
using UniformDoubleBuffer = DoubleSampleBuffer<false>;
using NormalDoubleBuffer = DoubleSampleBuffer<true>;

/// The blocks a variable-sample kernel reserves per output (TF's
/// kReservedSamplesPerOutput in the gamma and Poisson kernels: output i
/// starts its words at block 256 * i of the call's generator).
inline constexpr uint64_t kReservedBlocksPerOutput = 256;

/// TF's SimplePhilox::RandDouble: a double in [0, 1) from two single words.
inline double rand_double(SingleSample& single) {
  uint32_t x0 = single();
  uint32_t x1 = single();
  return uint64_to_double(x0, x1);
}

}  // namespace ag::kernels
