// TF's GuardedPhiloxRandom (tensorflow/core/util/guarded_philox_random.h):
// the generator a seeded random op's kernel owns. attrs seed and seed2 fix
// it (both 0 draws a nondeterministic seed); each call reserves a span of
// blocks and later calls continue past it, so repeated runs give new numbers
// while (seed, seed2) fixes the sequence. Shared by the seeded random op files.
#pragma once

#include <cstdint>
#include <mutex>
#include <random>

#include "runtime/ops/kernels/philox.h"
#include "runtime/ops/attrs.h"

namespace ag::kernels {

class GuardedPhilox {
 public:
  explicit GuardedPhilox(const Attrs& a) {
    uint64_t seed = static_cast<uint64_t>(a.get_or<int64_t>("seed", 0));
    uint64_t seed2 = static_cast<uint64_t>(a.get_or<int64_t>("seed2", 0));
    if (seed == 0 && seed2 == 0) {
      std::random_device rd;
      seed = (uint64_t{rd()} << 32) | rd();
      seed2 = (uint64_t{rd()} << 32) | rd();
    }
    gen_ = Philox4x32(seed, seed2);
  }
  /// TF's ReserveRandomOutputs(count, 256): the generator as it is now; the
  /// shared one skips past what this call may use.
  Philox4x32 reserve(int64_t outputs) { return reserve_blocks(static_cast<uint64_t>(outputs) * 256u); }
  /// TF's ReserveSamples128: the generator as it is now, the shared one `blocks` further.
  Philox4x32 reserve_blocks(uint64_t blocks) {
    std::lock_guard<std::mutex> lock(mu_);
    Philox4x32 local = gen_;
    gen_.skip(blocks);
    return local;
  }

 private:
  std::mutex mu_;
  Philox4x32 gen_;
};

}  // namespace ag::kernels
