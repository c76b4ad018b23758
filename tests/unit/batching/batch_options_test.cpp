// B16 (the op's construction) and B17 (the queue's creation at first
// execution): TF's checks of BatchFunction's batching attributes.
#include <doctest/doctest.h>

#include "runtime/batching/batch_function.h"
#include "tests/unit/error_text.h"

using namespace ag;
using namespace ag::batching;
using ag::test::error_text;

namespace {

std::vector<Tensor> identity(const std::vector<Tensor>& in) { return in; }

BatchFunctionOptions opts(int64_t max_batch_size, std::vector<int64_t> allowed, bool split) {
  BatchFunctionOptions o;
  o.max_batch_size = max_batch_size;
  o.allowed_batch_sizes = std::move(allowed);
  o.enable_large_batch_splitting = split;
  o.batch_timeout_micros = 10;
  o.output_dtypes = {DType::Float32};
  return o;
}

std::string construct(const BatchFunctionOptions& o) {
  return error_text([&] { BatchFunction f(o, identity, std::make_shared<VirtualClock>()); });
}

/// The error of the first call (the queue is created then), or "<no error>".
std::string first_call(const BatchFunctionOptions& o) {
  BatchFunction f(o, identity, std::make_shared<VirtualClock>());
  return error_text([&] { f.call({Tensor::from_vector<float>({1}, {1})}); });
}

}  // namespace

TEST_CASE("allowed_batch_sizes must increase and, without splitting, end at max_batch_size (B16)") {
  CHECK(construct(opts(8, {2, 4, 8}, false)) == "<no error>");
  CHECK(construct(opts(8, {}, false)) == "<no error>");
  CHECK(construct(opts(8, {2, 2, 8}, false)) ==
        "InvalidArgumentError: allowed_batch_sizes entries must be monotonically increasing");
  CHECK(construct(opts(8, {4, 2, 8}, true)) ==
        "InvalidArgumentError: allowed_batch_sizes entries must be monotonically increasing");
  CHECK(construct(opts(8, {2, 4}, false)) ==
        "InvalidArgumentError: final entry in allowed_batch_sizes must equal max_batch_size when "
        "enable_large_batch_splitting is False");
  // With splitting on, a last entry below max_batch_size is how large requests are cut.
  CHECK(construct(opts(16, {4, 8}, true)) == "<no error>");
}

TEST_CASE("the queue's options are checked at the first execution, not at construction (B17)") {
  BatchFunctionOptions zero = opts(0, {}, false);
  CHECK(construct(zero) == "<no error>");
  CHECK(first_call(zero) == "InvalidArgumentError: input_batch_size_limit must be positive; was 0");

  BatchFunctionOptions timeout = opts(4, {}, false);
  timeout.batch_timeout_micros = -5;
  CHECK(first_call(timeout) == "InvalidArgumentError: batch_timeout_micros must be non-negative; was -5");

  BatchFunctionOptions no_batches = opts(4, {}, true);
  no_batches.max_enqueued_batches = 0;
  CHECK(first_call(no_batches) == "InvalidArgumentError: max_enqueued_batches must be positive; was 0");
  // Without splitting TF rewrites 0 to 1 rather than break old models.
  no_batches.enable_large_batch_splitting = false;
  CHECK(first_call(no_batches) == "<no error>");
  CHECK(queue_options_for(no_batches).max_enqueued_batches == 1);

  // With splitting on, an allowed size above max_batch_size makes M > L; TF
  // appends its arguments (true, L, M) to the text without separators.
  CHECK(construct(opts(4, {2, 8}, true)) == "<no error>");
  CHECK(first_call(opts(4, {2, 8}, true)) ==
        "InvalidArgumentError: When enable_large_batch_splitting is true, input_batch_size_limit must be greater "
        "than or equal to max_execution_batch_size.148");
}

TEST_CASE("a refused queue is not created: every call fails the same way") {
  BatchFunction f(opts(0, {}, false), identity, std::make_shared<VirtualClock>());
  for (int i = 0; i < 2; ++i) {
    CHECK(error_text([&] { f.call({Tensor::from_vector<float>({1}, {1})}); }) ==
          "InvalidArgumentError: input_batch_size_limit must be positive; was 0");
  }
  CHECK(f.scheduler() == nullptr);
}

TEST_CASE("M is the last allowed size only when splitting is on") {
  CHECK(queue_options_for(opts(16, {4, 8}, true)).max_execution_batch_size == 8);
  CHECK(queue_options_for(opts(16, {}, true)).max_execution_batch_size == 16);
  CHECK(queue_options_for(opts(8, {2, 8}, false)).max_execution_batch_size == 8);
}

TEST_CASE("num_batch_threads <= 0 (TF's adaptive scheduler) runs one worker") {
  BatchFunctionOptions o = opts(4, {}, false);
  o.num_batch_threads = 0;
  BatchFunction f(o, identity, std::make_shared<VirtualClock>());
  f.call({Tensor::from_vector<float>({1}, {1})});
  CHECK(f.scheduler()->num_workers() == 1);
}

TEST_CASE("padded size: the smallest allowed size that holds the batch") {
  CHECK(padded_batch_size(3, {2, 4, 8}) == 4);
  CHECK(padded_batch_size(4, {2, 4, 8}) == 4);
  CHECK(padded_batch_size(1, {}) == 1);
  // Larger than every allowed size: unpadded (TF logs it, the batch still runs).
  CHECK(padded_batch_size(9, {2, 4, 8}) == 9);
}
