// BatchFunction on a virtual clock: per-call checks (B18-B22), batch
// formation (B23), splitting (B24), padding (B25), concatenation (B26),
// output split (B27), errors (B28) and the per-call record (B46), each with
// TPU_EMULATOR.md's own vectors.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/batching/batch_function.h"
#include "tests/unit/error_text.h"

using namespace ag;
using namespace ag::batching;
using ag::test::error_text;

namespace {

Tensor f32(const Shape& shape, std::vector<float> v) { return Tensor::from_vector<float>(shape, v); }

std::vector<float> values(const Tensor& t) {
  const float* d = t.data<float>();
  return std::vector<float>(d, d + t.num_elements());
}

/// The options of a float32 -> float32 function of one input.
BatchFunctionOptions opts(int64_t max_batch_size, int64_t timeout_us) {
  BatchFunctionOptions o;
  o.max_batch_size = max_batch_size;
  o.batch_timeout_micros = timeout_us;
  o.max_enqueued_batches = 100;
  o.output_dtypes = {DType::Float32};
  return o;
}

/// A function that remembers every batch it ran and returns its input.
struct Recorder {
  std::vector<std::vector<Tensor>> batches;
  BatchFunction::Fn fn() {
    return [this](const std::vector<Tensor>& in) {
      batches.push_back(in);
      return std::vector<Tensor>{in[0]};
    };
  }
  std::vector<int64_t> batch_rows() const {
    std::vector<int64_t> r;
    for (const auto& b : batches) r.push_back(b[0].shape().dim(0));
    return r;
  }
};

/// `rows` rows of `width` floats: first, first + 1, ...
Tensor rows_from(float first, int64_t rows, int64_t width = 1) {
  std::vector<float> v;
  for (int64_t i = 0; i < rows * width; ++i) v.push_back(first + static_cast<float>(i));
  return f32(Shape{rows, width}, v);
}

}  // namespace

TEST_CASE("input checks list every input with its shape (B18)") {
  auto clock = std::make_shared<VirtualClock>();
  BatchFunctionOptions o = opts(8, 100);
  o.input_names = {"x", "producer:1"};
  Recorder r;
  BatchFunction f(o, r.fn(), clock);
  CHECK(error_text([&] { f.call({Tensor::scalar<float>(1), f32({2}, {1, 2})}); }) ==
        "InvalidArgumentError: Batching input tensors must have at least one dimension.\n"
        "Below are the input tensors: \n - x has shape []\n - producer:1 has shape [2]\n");
  CHECK(error_text([&] { f.call({f32({1, 3, 2}, std::vector<float>(6, 0)), f32({2, 2}, {1, 2, 3, 4})}); }) ==
        "InvalidArgumentError: Batching input tensors supplied in a given op invocation must have equal "
        "0th-dimension size.\nBelow are the input tensors: \n - x has shape [1,3,2]\n - producer:1 has shape [2,2]\n");
  // Tensors are checked in order: a scalar after a mismatch reports the mismatch.
  CHECK(error_text([&] { f.call({f32({1}, {1}), f32({2}, {1, 2})}); }).find("equal 0th-dimension size") !=
        std::string::npos);
  CHECK(r.batches.empty());

  BatchFunctionOptions res = opts(8, 100);
  res.input_is_resource = {false, true};
  BatchFunction g(res, r.fn(), clock);
  CHECK(error_text([&] { g.call({f32({1}, {1}), f32({1}, {2})}); }) ==
        "InvalidArgumentError: BatchFunction cannot take resource inputs but input 1 is a resource.");
}

TEST_CASE("an empty request returns [0] tensors at once without running the function (B19)") {
  BatchFunctionOptions o = opts(8, 1000);
  o.output_dtypes = {DType::Float32, DType::Int32};
  Recorder r;
  BatchFunction f(o, r.fn(), std::make_shared<VirtualClock>());
  auto call = f.call({Tensor(DType::Float32, Shape{0, 3, 2})});
  REQUIRE(call->done());
  std::vector<Tensor> out = call->result();
  REQUIRE(out.size() == 2);
  CHECK(out[0].shape() == Shape{0});
  CHECK(out[0].dtype() == DType::Float32);
  CHECK(out[1].shape() == Shape{0});
  CHECK(out[1].dtype() == DType::Int32);
  CHECK(r.batches.empty());
}

TEST_CASE("a request larger than max_batch_size is refused (B20)") {
  Recorder r;
  BatchFunctionOptions o = opts(4, 100);
  o.enable_large_batch_splitting = true;
  BatchFunction f(o, r.fn(), std::make_shared<VirtualClock>());
  CHECK(error_text([&] { f.call({rows_from(0, 5)}); }) ==
        "InvalidArgumentError: Task size 5 is larger than maximum input batch size 4");
}

TEST_CASE("queue full without splitting: the open batch overflows and no batch slot is free (B21)") {
  BatchFunctionOptions o = opts(4, 10'000'000);
  o.max_enqueued_batches = 1;
  Recorder r;
  BatchFunction f(o, r.fn(), std::make_shared<VirtualClock>());
  f.call({rows_from(0, 3)});
  CHECK(error_text([&] { f.call({rows_from(0, 2)}); }) ==
        "UnavailableError: The batch scheduling queue to which this task was submitted is full; currently 1 batches "
        "enqueued and max_enqueued_batches is 1");
  // A request that still fits the open batch is taken.
  CHECK(error_text([&] { f.call({rows_from(0, 1)}); }) == "<no error>");
}

TEST_CASE("queue full with splitting: the request exceeds the scheduling capacity (B22)") {
  BatchFunctionOptions o = opts(16, 10'000'000);
  o.allowed_batch_sizes = {4, 8};
  o.enable_large_batch_splitting = true;
  o.max_enqueued_batches = 2;
  Recorder r;
  BatchFunction f(o, r.fn(), std::make_shared<VirtualClock>());
  f.call({rows_from(0, 6)});
  CHECK(error_text([&] { f.call({rows_from(0, 11)}); }) ==
        "UnavailableError: The batch scheduling queue to which this task was submitted is full; task size is 11 but "
        "scheduling capacity is only 10 (num_enqueued_batches=1, max_enqueued_batches=2, open_batch_size=6, "
        "max_execution_batch_size=8)");
  CHECK(error_text([&] { f.call({rows_from(0, 10)}); }) == "<no error>");
}

TEST_CASE("batches taken by a worker no longer count toward max_enqueued_batches (B21, B29)") {
  auto clock = std::make_shared<VirtualClock>();
  BatchFunctionOptions o = opts(1, 0);
  o.max_enqueued_batches = 1;
  Recorder r;
  BatchFunction f(o, r.fn(), clock);
  f.set_cost_hook([](const BatchCost&) { return 100.0; });
  auto a = f.call({rows_from(1, 1)});  // full: taken at once, its worker busy until 100
  auto b = f.call({rows_from(2, 1)});  // waits, full, in the only batch slot
  CHECK(error_text([&] { f.call({rows_from(3, 1)}); }) ==
        "UnavailableError: The batch scheduling queue to which this task was submitted is full; currently 1 batches "
        "enqueued and max_enqueued_batches is 1");
  clock->advance(100);
  CHECK(a->done());
  CHECK(!b->done());
  CHECK(error_text([&] { f.call({rows_from(3, 1)}); }) == "<no error>");
}

TEST_CASE("requests join the open batch until one does not fit; the open batch runs at its timeout (B23)") {
  auto clock = std::make_shared<VirtualClock>();
  Recorder r;
  BatchFunction f(opts(8, 1000), r.fn(), clock);
  auto a = f.call({rows_from(0, 3)});
  auto b = f.call({rows_from(3, 3)});
  CHECK(r.batches.empty());
  auto c = f.call({rows_from(6, 3)});  // closes {a, b}: eligible at once
  CHECK(r.batch_rows() == std::vector<int64_t>{6});
  CHECK(a->done());
  CHECK(b->done());
  CHECK(values(b->result()[0]) == std::vector<float>{3, 4, 5});
  clock->advance(999);
  CHECK(!c->done());
  clock->advance(1);
  CHECK(c->done());
  CHECK(r.batch_rows() == std::vector<int64_t>{6, 3});
  CHECK(values(c->result()[0]) == std::vector<float>{6, 7, 8});
  CHECK(a->record().queue_wait_us == 0);
  CHECK(c->record().queue_wait_us == 1000);
}

TEST_CASE("a full open batch is eligible at once, a timeout of 0 at arrival (B23)") {
  auto clock = std::make_shared<VirtualClock>();
  Recorder r;
  BatchFunction full(opts(4, 1'000'000), r.fn(), clock);
  CHECK(full.call({rows_from(0, 4)})->done());
  BatchFunction zero(opts(4, 0), r.fn(), clock);
  CHECK(zero.call({rows_from(0, 1)})->done());
}

TEST_CASE("a split request's pieces ride several batches; it returns when the last one finished (B24)") {
  auto clock = std::make_shared<VirtualClock>();
  BatchFunctionOptions o = opts(16, 500);
  o.allowed_batch_sizes = {2, 4};  // M = 4
  o.enable_large_batch_splitting = true;
  std::vector<std::vector<float>> seen;
  BatchFunction f(o,
                  [&](const std::vector<Tensor>& in) {
                    seen.push_back(values(in[0]));
                    Tensor out(DType::Float32, in[0].shape());
                    for (int64_t i = 0; i < out.num_elements(); ++i) out.data<float>()[i] = in[0].data<float>()[i] * 10;
                    return std::vector<Tensor>{out};
                  },
                  clock);
  auto first = f.call({rows_from(100, 1)});
  auto big = f.call({rows_from(0, 10)});  // open room 3, M 4: pieces [3, 4, 3]
  REQUIRE(seen.size() == 2);
  CHECK(seen[0] == std::vector<float>{100, 0, 1, 2});
  CHECK(seen[1] == std::vector<float>{3, 4, 5, 6});
  CHECK(first->done());
  CHECK(!big->done());
  clock->advance(500);
  REQUIRE(big->done());
  // The last piece {7, 8, 9} padded to 4 with a copy of its first row.
  CHECK(seen[2] == std::vector<float>{7, 8, 9, 7});
  std::vector<Tensor> out = big->result();
  CHECK(out[0].shape() == Shape{10, 1});
  CHECK(values(out[0]) == std::vector<float>{0, 10, 20, 30, 40, 50, 60, 70, 80, 90});
  CHECK(values(first->result()[0]) == std::vector<float>{1000});
  BatchCallRecord rec = big->record();
  CHECK(rec.padded_batch == 12);
  CHECK(rec.queue_wait_us == 500);
}

TEST_CASE("an error in any piece fails the whole split request, not its batch-mates in other batches (B24, B28)") {
  auto clock = std::make_shared<VirtualClock>();
  BatchFunctionOptions o = opts(16, 500);
  o.allowed_batch_sizes = {4};
  o.enable_large_batch_splitting = true;
  BatchFunction f(o,
                  [&](const std::vector<Tensor>& in) {
                    if (in[0].data<float>()[0] == 3) throw InvalidArgumentError("bad piece");
                    return std::vector<Tensor>{in[0]};
                  },
                  clock);
  auto first = f.call({rows_from(100, 1)});
  auto big = f.call({rows_from(0, 10)});
  clock->advance(500);
  REQUIRE(big->done());
  CHECK(error_text([&] { big->result(); }) == "InvalidArgumentError: bad piece");
  CHECK(values(first->result()[0]) == std::vector<float>{100});
}

TEST_CASE("padding repeats row 0 of the first task after all real rows (B25)") {
  auto clock = std::make_shared<VirtualClock>();
  BatchFunctionOptions o = opts(8, 5000);
  o.allowed_batch_sizes = {2, 4, 8};
  Recorder r;
  BatchFunction f(o, r.fn(), clock);
  auto a = f.call({f32({1, 2}, {1, 2})});
  clock->advance_to(1000);
  auto b = f.call({f32({2, 2}, {3, 4, 5, 6})});
  clock->advance_to(4999);
  CHECK(r.batches.empty());
  clock->advance_to(5000);
  REQUIRE(r.batches.size() == 1);
  CHECK(r.batches[0][0].shape() == Shape{4, 2});
  CHECK(values(r.batches[0][0]) == std::vector<float>{1, 2, 3, 4, 5, 6, 1, 2});
  CHECK(values(a->result()[0]) == std::vector<float>{1, 2});
  CHECK(values(b->result()[0]) == std::vector<float>{3, 4, 5, 6});
  CHECK(a->record().padded_batch == 4);
  CHECK(a->record().queue_wait_us == 5000);
  CHECK(b->record().queue_wait_us == 4000);
}

TEST_CASE("tasks whose inner dims differ fail together at concatenation (B26)") {
  auto clock = std::make_shared<VirtualClock>();
  Recorder r;
  BatchFunction f(opts(8, 100), r.fn(), clock);
  auto a = f.call({Tensor::zeros(DType::Float32, Shape{1, 3, 2})});
  auto b = f.call({Tensor::zeros(DType::Float32, Shape{2, 4, 2})});
  clock->advance(100);
  const std::string want =
      "InvalidArgumentError: Dimensions of inputs should match: shape[0] = [1,3,2] vs. shape[1] = [2,4,2]";
  CHECK(error_text([&] { a->result(); }) == want);
  CHECK(error_text([&] { b->result(); }) == want);
  CHECK(r.batches.empty());

  auto c = f.call({Tensor::zeros(DType::Float32, Shape{1, 3})});
  auto d = f.call({Tensor::zeros(DType::Float32, Shape{1, 3, 2})});
  clock->advance(100);
  CHECK(error_text([&] { d->result(); }) ==
        "InvalidArgumentError: Ranks of all input tensors should match: shape[0] = [1,3] vs. shape[1] = [1,3,2]");
}

TEST_CASE("the function sees the batch and the last task's captured tensors (B26)") {
  auto clock = std::make_shared<VirtualClock>();
  std::vector<size_t> arity;
  BatchFunction f(opts(8, 100),
                  [&](const std::vector<Tensor>& in) {
                    arity.push_back(in.size());
                    Tensor out(DType::Float32, in[0].shape());
                    float add = in[1].scalar_value<float>();
                    for (int64_t i = 0; i < out.num_elements(); ++i) out.data<float>()[i] = in[0].data<float>()[i] + add;
                    return std::vector<Tensor>{out};
                  },
                  clock);
  auto a = f.call({rows_from(1, 1)}, {Tensor::scalar<float>(10)});
  auto b = f.call({rows_from(2, 1)}, {Tensor::scalar<float>(100)});
  clock->advance(100);
  CHECK(arity == std::vector<size_t>{2});
  CHECK(values(a->result()[0]) == std::vector<float>{101});
  CHECK(values(b->result()[0]) == std::vector<float>{102});
}

namespace {

/// A[b] (m x k) times B[b] (k x n) for every b: a real batched matmul.
Tensor batch_matmul(const Tensor& a, const Tensor& b) {
  const int64_t batch = a.shape().dim(0), m = a.shape().dim(1), k = a.shape().dim(2), n = b.shape().dim(2);
  Tensor out = Tensor::zeros(DType::Float32, Shape{batch, m, n});
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float s = 0;
        for (int64_t q = 0; q < k; ++q) s += a.data<float>()[(p * m + i) * k + q] * b.data<float>()[(p * k + q) * n + j];
        out.data<float>()[(p * m + i) * n + j] = s;
      }
  return out;
}

}  // namespace

TEST_CASE("the tutorial's batched matmul: [3,3,4] split back into [1,3,4] and [2,3,4] (B27)") {
  auto clock = std::make_shared<VirtualClock>();
  BatchFunctionOptions o = opts(4, 1000);
  o.input_names = {"a", "b"};
  std::vector<Shape> batched_shapes;
  BatchFunction f(o,
                  [&](const std::vector<Tensor>& in) {
                    Tensor out = batch_matmul(in[0], in[1]);
                    batched_shapes.push_back(out.shape());
                    return std::vector<Tensor>{out};
                  },
                  clock);
  Tensor a1 = rows_from(1, 1, 6).reshaped(Shape{1, 3, 2}), b1 = rows_from(-3, 1, 8).reshaped(Shape{1, 2, 4});
  Tensor a2 = rows_from(0.5f, 2, 6).reshaped(Shape{2, 3, 2}), b2 = rows_from(2, 2, 8).reshaped(Shape{2, 2, 4});
  auto c1 = f.call({a1, b1});
  auto c2 = f.call({a2, b2});
  clock->advance(1000);
  CHECK(batched_shapes == std::vector<Shape>{Shape{3, 3, 4}});
  std::vector<Tensor> r1 = c1->result(), r2 = c2->result();
  CHECK(r1[0].shape() == Shape{1, 3, 4});
  CHECK(r2[0].shape() == Shape{2, 3, 4});
  CHECK(values(r1[0]) == values(batch_matmul(a1, b1)));
  CHECK(values(r2[0]) == values(batch_matmul(a2, b2)));
  CHECK(values(r1[0])[0] == 1 * -3 + 2 * 1);  // row 0 of A1 times column 0 of B1
}

TEST_CASE("outputs must have rank >= 1 and the batch's padded row count (B27)") {
  auto clock = std::make_shared<VirtualClock>();
  BatchFunction scalar(opts(4, 0), [](const std::vector<Tensor>&) { return std::vector<Tensor>{Tensor::scalar<float>(1)}; },
                       clock);
  CHECK(error_text([&] { scalar.call({rows_from(0, 2)})->result(); }) ==
        "FailedPreconditionError: Batched output tensor has 0 dimensions");
  BatchFunctionOptions o = opts(4, 0);
  o.allowed_batch_sizes = {4};
  BatchFunction rows(o, [](const std::vector<Tensor>& in) { return std::vector<Tensor>{rows_from(0, in[0].shape().dim(0) - 1)}; },
                     clock);
  CHECK(error_text([&] { rows.call({rows_from(0, 2)})->result(); }) ==
        "FailedPreconditionError: Batched output tensor's 0th dimension does not equal the sum of the 0th dimension "
        "sizes of the input tensors");
  // The padded size is what the output must have: 4 rows for a batch of 2.
  BatchFunction padded(o, [](const std::vector<Tensor>& in) { return std::vector<Tensor>{in[0]}; }, clock);
  CHECK(padded.call({rows_from(0, 2)})->result()[0].shape() == Shape{2, 1});
}

TEST_CASE("a function error reaches every task of its batch (B28)") {
  auto clock = std::make_shared<VirtualClock>();
  int runs = 0;
  BatchFunction f(opts(8, 100),
                  [&](const std::vector<Tensor>&) -> std::vector<Tensor> {
                    ++runs;
                    throw InvalidArgumentError("Incompatible shapes: [3] vs. [4]");
                  },
                  clock);
  auto a = f.call({rows_from(0, 1)});
  auto b = f.call({rows_from(0, 2)});
  clock->advance(100);
  CHECK(runs == 1);
  CHECK(error_text([&] { a->result(); }) == "InvalidArgumentError: Incompatible shapes: [3] vs. [4]");
  CHECK(error_text([&] { b->result(); }) == "InvalidArgumentError: Incompatible shapes: [3] vs. [4]");
  // The queue goes on: the next batch runs.
  auto c = f.call({rows_from(0, 1)});
  clock->advance(100);
  CHECK(runs == 2);
}

TEST_CASE("the per-call record: device time from the cost hook, bytes, padded size, queue wait (B46)") {
  auto clock = std::make_shared<VirtualClock>();
  BatchFunctionOptions o = opts(8, 300);
  o.allowed_batch_sizes = {4, 8};
  Recorder r;
  BatchFunction f(o, r.fn(), clock);
  f.set_cost_hook([](const BatchCost& c) { return 2.5 * static_cast<double>(c.padded_batch); });
  auto a = f.call({rows_from(0, 1, 3)});
  clock->advance(100);
  auto b = f.call({rows_from(0, 2, 3)});
  clock->advance(200);  // the batch starts at 300 and takes ceil(10) us of device time
  CHECK(r.batches.size() == 1);
  CHECK(!a->done());
  clock->advance(9);
  CHECK(!a->done());
  clock->advance(1);
  REQUIRE(a->done());
  CHECK(b->done());
  BatchCallRecord ra = a->record(), rb = b->record();
  CHECK(ra.device_time_us == 10.0);
  CHECK(ra.padded_batch == 4);
  CHECK(ra.h2d_bytes == 4 * 3 * 4);
  CHECK(ra.d2h_bytes == 4 * 3 * 4);
  CHECK(ra.queue_wait_us == 300);
  CHECK(rb.queue_wait_us == 200);
  CHECK(rb.device_time_us == 10.0);
  // Without a hook the device time is 0 and results arrive at dispatch.
  BatchFunction g(o, r.fn(), clock);
  auto c = g.call({rows_from(0, 8, 3)});
  CHECK(c->done());
  CHECK(c->record().device_time_us == 0);
}

TEST_CASE("destroying a BatchFunction runs what still waits") {
  auto clock = std::make_shared<VirtualClock>();
  std::shared_ptr<BatchCall> a;
  Recorder r;
  {
    BatchFunction f(opts(8, 1'000'000), r.fn(), clock);
    a = f.call({rows_from(5, 1)});
    CHECK(!a->done());
  }
  REQUIRE(a->done());
  CHECK(values(a->result()[0]) == std::vector<float>{5});
}
