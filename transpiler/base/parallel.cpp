#include "transpiler/base/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

#include "transpiler/base/big_stack.h"

namespace agc {

void parallel_for(size_t n, size_t max_threads, size_t min_per_thread, const std::function<void(size_t)>& fn) {
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto work = [&] {
    for (size_t i; !failed && (i = next++) < n;) {
      try {
        fn(i);
      } catch (...) {
        if (!failed.exchange(true)) failure = std::current_exception();
      }
    }
  };
  size_t threads = std::min<size_t>({std::max(1u, std::thread::hardware_concurrency()), std::max<size_t>(1, max_threads),
                                     std::max<size_t>(1, n / std::max<size_t>(1, min_per_thread))});
  std::vector<BigStackThread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace agc
