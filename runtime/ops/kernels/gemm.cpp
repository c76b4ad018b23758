// GEMM through Eigen's matrix product; parallel_for's pooled worker thread.
#include "runtime/ops/kernels/gemm.h"

#include <Eigen/Core>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace ag::kernels {
namespace {

// How long a thread waiting for the other spins before it blocks: the wake-up
// of a blocked thread costs 10-30 us in this VM (a futex and an IPI), which is
// a fifth of an RNN step's split product; the work between two parallel
// kernels of a loop takes a few microseconds, so a worker that spins this
// long after a task is still awake for the next one. Spinning costs at most
// this much CPU per parallel kernel when no work follows.
constexpr std::chrono::microseconds kSpin{100};

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/// Spins until ready() or kSpin has passed; returns ready().
template <class Ready>
bool spin_until(Ready ready) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() >= until) return ready();
  }
}

// One worker thread shared by every kernel: with the caller it makes the two
// threads kernels may use. Started on first use, detached: it lives as long
// as the process. After each task it spins for kSpin before it sleeps, and
// post() signals it only when it sleeps.
class Worker {
 public:
  static Worker& get() {
    static Worker* w = new Worker();  // never destroyed: no shutdown-order issues
    return *w;
  }
  void post(std::function<void()> f) {
    bool wake;
    {
      std::lock_guard<std::mutex> l(mu_);
      tasks_.push_back(std::move(f));
      queued_.fetch_add(1, std::memory_order_release);
      wake = sleeping_;
    }
    if (wake) cv_.notify_one();
  }
  bool on_worker() const { return std::this_thread::get_id() == id_; }

 private:
  Worker() {
    std::thread t([this] { loop(); });
    id_ = t.get_id();
    t.detach();
  }
  void loop() {
    for (;;) {
      spin_until([this] { return queued_.load(std::memory_order_acquire) > 0; });
      std::function<void()> f;
      {
        std::unique_lock<std::mutex> l(mu_);
        if (tasks_.empty()) {
          sleeping_ = true;
          cv_.wait(l, [this] { return !tasks_.empty(); });
          sleeping_ = false;
        }
        f = std::move(tasks_.front());
        tasks_.pop_front();
        queued_.fetch_sub(1, std::memory_order_relaxed);
      }
      f();
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;  // under mu_
  std::atomic<int> queued_{0};               // tasks_.size(), for spinning without the lock
  bool sleeping_ = false;                    // under mu_: the worker waits on cv_
  std::thread::id id_;
};

template <class T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using ConstMap = Eigen::Map<const RowMat<T>, 0, Eigen::OuterStride<>>;
template <class T>
using MutMap = Eigen::Map<RowMat<T>, 0, Eigen::OuterStride<>>;

// One single-threaded product over rows [0, m) of C: C = op(A)·op(B), or
// C += op(A)·op(B) when `add` (Eigen then accumulates into C, no temporary).
template <class T>
void gemm_serial(const T* a, const T* b, T* c, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc,
                 bool ta, bool tb, bool add) {
  MutMap<T> C(c, m, n, Eigen::OuterStride<>(ldc));
  if (k == 0) {
    if (!add) C.setZero();
    return;
  }
  ConstMap<T> A(a, ta ? k : m, ta ? m : k, Eigen::OuterStride<>(lda));
  ConstMap<T> B(b, tb ? n : k, tb ? k : n, Eigen::OuterStride<>(ldb));
  auto assign = [&](auto&& product) {
    if (add) C.noalias() += product;
    else C.noalias() = product;
  };
  if (m == 1 && !ta) {
    // Vector-matrix: Eigen's GEMV path.
    auto row = C.row(0);
    auto product = [&](auto&& p) {
      if (add) row.noalias() += p;
      else row.noalias() = p;
    };
    if (tb) product(A.row(0) * B.transpose());
    else product(A.row(0) * B);
    return;
  }
  if (!ta && !tb) assign(A * B);
  else if (!ta && tb) assign(A * B.transpose());
  else if (ta && !tb) assign(A.transpose() * B);
  else assign(A.transpose() * B.transpose());
}

template <class T>
void gemm_impl(const T* a, const T* b, T* c, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc,
               bool ta, bool tb, int threads, bool add = false) {
  if (m == 0 || n == 0) return;
  const double macs = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  parallel_blocks(m, n, macs, threads, [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    const T* a0 = ta ? a + r0 : a + r0 * lda;
    const T* b0 = tb ? b + c0 * ldb : b + c0;
    gemm_serial(a0, b0, c + r0 * ldc + c0, r1 - r0, c1 - c0, k, lda, ldb, ldc, ta, tb, add);
  });
}

}  // namespace

// 2.5e5 multiply-adds take ~15 us on one thread here; split in two they take
// 0.6x of that (a product from 32x64x64 up is 0.52-0.65x, measured with the
// worker awake; a sleeping worker costs nothing extra: the caller then takes
// both parts).
namespace {
std::atomic<int> intra_op_limit{0};
bool single_threaded() { return intra_op_limit.load(std::memory_order_relaxed) == 1; }
}  // namespace

void set_intra_op_threads(int n) { intra_op_limit.store(n, std::memory_order_relaxed); }
int intra_op_threads() { return intra_op_limit.load(std::memory_order_relaxed); }

int threads_for(double flops) { return flops >= 2.5e5 && !single_threaded() ? 2 : 1; }

// The smallest side of a block: narrower blocks make Eigen's kernel less
// efficient (it works in 8x4 / 4x8 register tiles, 4-float SSE packets).
constexpr int64_t kMinBlockSide = 16;
// Blocks per thread for big results: a thread the OS deschedules then holds up
// one block while the other takes the rest from parallel_for's shared counter.
// Small results get one block per thread: every split repacks operands.
constexpr int kBlocksPerThread = 4;
constexpr double kMacsPerBlock = 4.0e6;

BlockGrid block_grid(int64_t m, int64_t n, double macs, int threads) {
  BlockGrid g;
  const int use = std::min(threads, threads_for(macs));
  if (use <= 1) return g;
  const int64_t target =
      std::clamp<int64_t>(static_cast<int64_t>(macs / kMacsPerBlock), use, int64_t{use} * kBlocksPerThread);
  // Halve the longer side of a block while it stays >= kMinBlockSide.
  while (g.blocks() < target) {
    const int64_t rows = m / g.row_parts, cols = n / g.col_parts;
    if (rows >= cols && rows >= 2 * kMinBlockSide) g.row_parts *= 2;
    else if (cols >= 2 * kMinBlockSide) g.col_parts *= 2;
    else if (rows >= 2 * kMinBlockSide) g.row_parts *= 2;
    else break;
  }
  return g;
}

void parallel_for(int64_t n, int parts, const std::function<void(int64_t, int64_t)>& body) {
  if (n <= 0) return;
  if (parts <= 1 || n == 1 || single_threaded() || Worker::get().on_worker()) {
    body(0, n);
    return;
  }
  parts = static_cast<int>(std::min<int64_t>(parts, n));
  // Both threads take parts from one counter until none is left, and the
  // caller returns once every part is done: it never waits for the worker to
  // start. A worker scheduled late finds the counter past the end and touches
  // only this shared state (hence the shared_ptr); it reads `body` only for a
  // part it took, i.e. while the caller still waits.
  struct Shared {
    std::atomic<int> next{0};
    std::atomic<int> done{0};
    std::mutex mu;
    std::condition_variable cv;
    std::exception_ptr error;  // under mu
  };
  auto shared = std::make_shared<Shared>();
  const std::function<void(int64_t, int64_t)>* fn = &body;
  auto run = [n, parts, fn](Shared& s) {
    for (int p; (p = s.next.fetch_add(1)) < parts;) {
      try {
        (*fn)(n * p / parts, n * (p + 1) / parts);
      } catch (...) {
        std::lock_guard<std::mutex> l(s.mu);
        if (!s.error) s.error = std::current_exception();
      }
      if (s.done.fetch_add(1, std::memory_order_acq_rel) + 1 == parts) {
        std::lock_guard<std::mutex> l(s.mu);  // so the notify cannot fall between the caller's check and its wait
        s.cv.notify_one();
      }
    }
  };
  Worker::get().post([shared, run] { run(*shared); });
  run(*shared);
  auto all_done = [&] { return shared->done.load(std::memory_order_acquire) == parts; };
  if (!spin_until(all_done)) {
    std::unique_lock<std::mutex> l(shared->mu);
    shared->cv.wait(l, all_done);
  }
  // The error leaves the shared state before it is rethrown: a worker that
  // releases the state last then does not also release the exception object
  // while this thread still handles it.
  std::exception_ptr error;
  {
    std::lock_guard<std::mutex> l(shared->mu);
    error = std::move(shared->error);
  }
  if (error) std::rethrow_exception(error);
}

void gemm(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
          int64_t ldc, bool ta, bool tb, int threads) {
  gemm_impl(a, b, c, m, n, k, lda, ldb, ldc, ta, tb, threads);
}
void gemm(const double* a, const double* b, double* c, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
          int64_t ldc, bool ta, bool tb, int threads) {
  gemm_impl(a, b, c, m, n, k, lda, ldb, ldc, ta, tb, threads);
}
void gemm_add(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
              int64_t ldc, bool ta, bool tb, int threads) {
  gemm_impl(a, b, c, m, n, k, lda, ldb, ldc, ta, tb, threads, true);
}
void gemm_add(const double* a, const double* b, double* c, int64_t m, int64_t n, int64_t k, int64_t lda,
              int64_t ldb, int64_t ldc, bool ta, bool tb, int threads) {
  gemm_impl(a, b, c, m, n, k, lda, ldb, ldc, ta, tb, threads, true);
}
// Integers multiply as unsigned: the same bits as two's complement, with
// wrap-around instead of signed overflow (undefined behaviour).
void gemm(const int32_t* a, const int32_t* b, int32_t* c, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
          int64_t ldc, bool ta, bool tb, int threads) {
  gemm_impl(reinterpret_cast<const uint32_t*>(a), reinterpret_cast<const uint32_t*>(b), reinterpret_cast<uint32_t*>(c),
            m, n, k, lda, ldb, ldc, ta, tb, threads);
}
void gemm(const int64_t* a, const int64_t* b, int64_t* c, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
          int64_t ldc, bool ta, bool tb, int threads) {
  gemm_impl(reinterpret_cast<const uint64_t*>(a), reinterpret_cast<const uint64_t*>(b), reinterpret_cast<uint64_t*>(c),
            m, n, k, lda, ldb, ldc, ta, tb, threads);
}

void gemm(const bfloat16* a, const bfloat16* b, bfloat16* c, int64_t m, int64_t n, int64_t k, int64_t lda,
          int64_t ldb, int64_t ldc, bool ta, bool tb, int threads) {
  if (m == 0 || n == 0) return;
  // Widen the operands densely (rows as stored), multiply in float, round once.
  int64_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  std::vector<float> fa(static_cast<size_t>(ar * ac)), fb(static_cast<size_t>(br * bc)), fc(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < ar; ++i)
    for (int64_t j = 0; j < ac; ++j) fa[static_cast<size_t>(i * ac + j)] = static_cast<float>(a[i * lda + j]);
  for (int64_t i = 0; i < br; ++i)
    for (int64_t j = 0; j < bc; ++j) fb[static_cast<size_t>(i * bc + j)] = static_cast<float>(b[i * ldb + j]);
  gemm_impl(fa.data(), fb.data(), fc.data(), m, n, k, ac, bc, n, ta, tb, threads);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = bfloat16(fc[static_cast<size_t>(i * n + j)]);
}

}  // namespace ag::kernels
