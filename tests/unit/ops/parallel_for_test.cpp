// kernels::parallel_for, the two threads big kernels run on (the caller and
// one pooled worker that spins briefly between tasks, then sleeps): every
// index runs once and its writes are visible when the call returns, whether
// the worker was spinning or asleep; exceptions reach the caller; callers on
// several threads and nested calls neither deadlock nor race. And
// kernels::parallel_blocks: its blocks tile the result exactly. Also in
// unit_ops_threads, which scripts/sanitize.sh runs under ThreadSanitizer.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

#include "runtime/ops/kernels/gemm.h"

namespace ag {
namespace {

/// parallel_for over n indices in `parts`, each writing its own slot (plain
/// writes: TSan checks they happen before the caller reads them).
bool covers_once(int64_t n, int parts) {
  std::vector<int> hits(static_cast<size_t>(n), 0);
  kernels::parallel_for(n, parts, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) ++hits[static_cast<size_t>(i)];
  });
  for (int h : hits) {
    if (h != 1) return false;
  }
  return true;
}

TEST_CASE("parallel_for runs every index once, with the worker awake or asleep") {
  for (int call = 0; call < 2000; ++call) {
    const int64_t n = 1 + call % 37;
    const int parts = 1 + call % 5;
    REQUIRE_MESSAGE(covers_once(n, parts), "n=" << n << " parts=" << parts);
  }
  // Long enough apart that the worker stops spinning and sleeps in between.
  for (int call = 0; call < 5; ++call) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    REQUIRE(covers_once(64, 2));
  }
  CHECK(covers_once(0, 2));  // nothing to do: body not called
}

TEST_CASE("parallel_for rethrows a part's exception after every part is done, and stays usable") {
  for (int call = 0; call < 200; ++call) {
    std::atomic<int> ran{0};
    CHECK_THROWS_WITH_AS(kernels::parallel_for(4, 4,
                                               [&](int64_t begin, int64_t) {
                                                 ++ran;
                                                 if (begin == call % 4) throw std::runtime_error("part failed");
                                               }),
                         "part failed", std::runtime_error);
    CHECK(ran.load() == 4);  // the others still ran: none was abandoned mid-way
  }
  CHECK(covers_once(100, 2));
}

TEST_CASE("parallel_for from several threads at once, and nested in a part") {
  std::vector<std::thread> callers;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&, t] {
      for (int call = 0; call < 300; ++call) {
        if (!covers_once(1 + (call + t) % 50, 2)) ++failures;
      }
    });
  }
  for (auto& c : callers) c.join();
  CHECK(failures.load() == 0);

  // A part that itself calls parallel_for (a kernel inside a kernel): on the
  // worker it runs inline, on the caller it may use the worker; either way
  // every inner index runs once.
  std::vector<int> hits(8 * 16, 0);
  kernels::parallel_for(8, 4, [&](int64_t begin, int64_t end) {
    for (int64_t outer = begin; outer < end; ++outer) {
      kernels::parallel_for(16, 2, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) ++hits[static_cast<size_t>(outer * 16 + i)];
      });
    }
  });
  for (int h : hits) CHECK(h == 1);
}

TEST_CASE("parallel_blocks tiles an m x n result exactly once, in blocks no narrower than it must") {
  const int64_t sides[] = {1, 2, 15, 16, 31, 32, 33, 64, 100, 257, 1024};
  for (int64_t m : sides) {
    for (int64_t n : sides) {
      for (double macs : {1.0, 2.5e5, 4.2e6, 1e9}) {
        std::vector<int> hits(static_cast<size_t>(m * n), 0);
        std::atomic<int> blocks{0}, narrow{0};
        kernels::parallel_blocks(m, n, macs, 2, [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
          ++blocks;
          // A side is split only while its halves stay >= 16.
          if ((r1 - r0 < 16 && r1 - r0 != m) || (c1 - c0 < 16 && c1 - c0 != n)) ++narrow;
          for (int64_t r = r0; r < r1; ++r) {
            for (int64_t c = c0; c < c1; ++c) ++hits[static_cast<size_t>(r * n + c)];
          }
        });
        bool once = true;
        for (int h : hits) once = once && h == 1;
        CHECK_MESSAGE(once, m << "x" << n << " macs " << macs);
        CHECK_MESSAGE(narrow.load() == 0, m << "x" << n << " macs " << macs);
        CHECK(blocks.load() <= 8);
        if (kernels::threads_for(macs) == 1) CHECK(blocks.load() == 1);  // one thread: one block
      }
    }
  }
  // threads = 1 keeps a big product in one block on the caller.
  int blocks = 0;
  kernels::parallel_blocks(1024, 1024, 1e9, 1, [&](int64_t, int64_t, int64_t, int64_t) { ++blocks; });
  CHECK(blocks == 1);
}

}  // namespace
}  // namespace ag
