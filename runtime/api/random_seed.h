// TF's random_seed.get_seed: the (seed, seed2) pair an op with seed `op_seed`
// runs with, from the global seed tf.random.set_seed set (runtime/api/
// tf_api_random.cpp states the rules). Internal to runtime/api: the random
// ops and Dataset.shuffle share it.
#pragma once

#include <cstdint>
#include <utility>

#include "runtime/value/value.h"

namespace ag::tf {

/// (0, 0) when neither seed is set: the op draws nondeterministic seeds.
std::pair<int64_t, int64_t> get_seed(const Value& op_seed);

}  // namespace ag::tf
