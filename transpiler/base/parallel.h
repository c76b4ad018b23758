// Independent work items spread over the cores, each thread on a big stack
// (big_stack.h): a module's functions convert and print independently.
#pragma once

#include <cstddef>
#include <functional>

namespace agc {

/// Calls fn(i) for every i in [0, n), on up to `max_threads` threads (the
/// calling one included; fewer when the cores or the items are few: at least
/// `min_per_thread` items each). Stops handing out items once one call threw,
/// and rethrows that exception.
void parallel_for(size_t n, size_t max_threads, size_t min_per_thread, const std::function<void(size_t)>& fn);

}  // namespace agc
