// Combining hashes (boost's hash_combine constant): the signature cache and
// common-subexpression elimination both hash structured keys.
#pragma once

#include <cstddef>

namespace ag {

inline size_t hash_mix(size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

}  // namespace ag
