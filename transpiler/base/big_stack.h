// Threads with a large stack. Parsing, lowering, the passes and the printer
// recurse over the tree; agc bounds nesting (see python_limits.h and
// frontend/lower.h), but a sanitizer build's frames are many times larger than
// a release build's, and 8 MiB (the usual main-thread stack) is not enough
// there. The stack is reserved address space; only pages in use cost memory.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <type_traits>

namespace agc {

inline constexpr size_t kBigStackBytes = size_t{1} << 30;

/// A joinable thread running `fn` on a kBigStackBytes stack. Whatever `fn`
/// throws is rethrown by join().
class BigStackThread {
 public:
  explicit BigStackThread(std::function<void()> fn);
  BigStackThread(const BigStackThread&) = delete;
  BigStackThread& operator=(const BigStackThread&) = delete;
  BigStackThread(BigStackThread&& o) noexcept;
  ~BigStackThread();  // joins if join() was not called

  void join();

 private:
  struct State;
  static void* run(void* state);
  State* state_;
};

/// Runs `fn` to completion on a big-stack thread; rethrows what it threw.
template <class Fn>
auto run_on_big_stack(Fn&& fn) -> decltype(fn()) {
  using R = decltype(fn());
  if constexpr (std::is_void_v<R>) {
    BigStackThread t([&] { fn(); });
    t.join();
  } else {
    R result{};
    BigStackThread t([&] { result = fn(); });
    t.join();
    return result;
  }
}

}  // namespace agc
