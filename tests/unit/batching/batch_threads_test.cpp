// Real clock, real threads: many callers block on their own results while the
// scheduler's worker threads run batches (run under ThreadSanitizer by
// scripts/sanitize.sh).
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "runtime/batching/batch_function.h"

using namespace ag;
using namespace ag::batching;

TEST_CASE("many threads calling one BatchFunction each get their own rows back") {
  BatchFunctionOptions o;
  o.num_batch_threads = 2;
  o.max_batch_size = 8;
  o.allowed_batch_sizes = {2, 4};  // splitting on: requests of 5..8 rows are cut
  o.enable_large_batch_splitting = true;
  o.batch_timeout_micros = 500;
  o.max_enqueued_batches = 1000;
  o.output_dtypes = {DType::Int64};
  std::atomic<int> batches{0};
  BatchFunction f(o,
                  [&](const std::vector<Tensor>& in) {
                    ++batches;
                    Tensor out(DType::Int64, in[0].shape());
                    for (int64_t i = 0; i < out.num_elements(); ++i) out.data<int64_t>()[i] = in[0].data<int64_t>()[i] * 3 + 1;
                    return std::vector<Tensor>{out};
                  },
                  std::make_shared<RealClock>());
  constexpr int kThreads = 12, kCalls = 20;
  std::atomic<int> wrong{0}, timed_out{0}, failed{0};
  std::vector<std::thread> threads;
  const auto start = std::chrono::steady_clock::now();
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int c = 0; c < kCalls; ++c) {
        const int64_t rows = 1 + (t * 7 + c * 3) % 8;
        const int64_t id = (t * 1000 + c) * 10;
        std::vector<int64_t> v;
        for (int64_t r = 0; r < rows; ++r) v.push_back(id + r);
        try {
          auto call = f.call({Tensor::from_vector<int64_t>(Shape{rows}, v)});
          if (!call->wait_for(std::chrono::seconds(20))) {
            ++timed_out;
            return;
          }
          Tensor out = call->result()[0];
          bool ok = out.shape() == Shape{rows};
          for (int64_t r = 0; ok && r < rows; ++r) ok = out.data<int64_t>()[r] == (id + r) * 3 + 1;
          if (!ok) ++wrong;
        } catch (const Error&) {
          ++failed;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(timed_out == 0);
  CHECK(failed == 0);
  CHECK(wrong == 0);
  CHECK(batches > 0);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(30));
}

TEST_CASE("callers block in run() until a worker thread delivers") {
  BatchFunctionOptions o;
  o.max_batch_size = 4;
  o.batch_timeout_micros = 2000;
  o.output_dtypes = {DType::Float32};
  BatchFunction f(o, [](const std::vector<Tensor>& in) { return std::vector<Tensor>{in[0]}; },
                  std::make_shared<RealClock>());
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::vector<Tensor> out = f.run({Tensor::from_vector<float>(Shape{1}, {static_cast<float>(t)})});
      if (out[0].data<float>()[0] == static_cast<float>(t)) ++ok;
    });
  }
  for (auto& th : threads) th.join();
  CHECK(ok == 4);
}

TEST_CASE("on the real clock a lone request waits out the batch timeout, not longer than needed") {
  BatchFunctionOptions o;
  o.max_batch_size = 4;
  o.batch_timeout_micros = 100000;
  o.output_dtypes = {DType::Float32};
  BatchFunction f(o, [](const std::vector<Tensor>& in) { return std::vector<Tensor>{in[0]}; },
                  std::make_shared<RealClock>());
  const auto start = std::chrono::steady_clock::now();
  auto call = f.call({Tensor::from_vector<float>(Shape{1}, {1})});
  REQUIRE(call->wait_for(std::chrono::seconds(20)));
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::microseconds(100000));
  CHECK(call->record().queue_wait_us >= 100000);
  // A full batch does not wait for the timeout.
  auto full = f.call({Tensor::zeros(DType::Float32, Shape{4})});
  REQUIRE(full->wait_for(std::chrono::seconds(20)));
  CHECK(full->record().queue_wait_us < 100000);
}
