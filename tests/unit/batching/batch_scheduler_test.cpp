// B29: queues of one scheduler share its workers round-robin; a worker runs
// one batch at a time and takes an eligible batch at the earliest virtual
// instant it can.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/batching/batch_function.h"

using namespace ag;
using namespace ag::batching;

namespace {

BatchFunctionOptions one_row_batches() {
  BatchFunctionOptions o;
  o.max_batch_size = 1;  // every request is a full batch, eligible at once
  o.batch_timeout_micros = 1000;
  o.max_enqueued_batches = 100;
  o.output_dtypes = {DType::Float32};
  return o;
}

Tensor row(float v) { return Tensor::from_vector<float>(Shape{1}, {v}); }

}  // namespace

TEST_CASE("one worker takes eligible batches from the queues round-robin") {
  auto clock = std::make_shared<VirtualClock>();
  auto scheduler = std::make_shared<BatchScheduler>(clock, 1);
  std::vector<std::string> order;
  auto logging = [&](std::string name) {
    return [&order, name](const std::vector<Tensor>& in) {
      order.push_back(name + std::to_string(static_cast<int>(in[0].data<float>()[0])));
      return std::vector<Tensor>{in[0]};
    };
  };
  BatchFunction p(one_row_batches(), logging("p"), clock, scheduler);
  BatchFunction q(one_row_batches(), logging("q"), clock, scheduler);
  p.set_cost_hook([](const BatchCost&) { return 100.0; });
  q.set_cost_hook([](const BatchCost&) { return 100.0; });
  p.call({row(1)});  // the idle worker takes it at once; busy until 100
  p.call({row(2)});
  p.call({row(3)});
  q.call({row(1)});
  q.call({row(2)});
  CHECK(order == std::vector<std::string>{"p1"});
  // q's queue joined after p's, with the round-robin position back on p (as
  // TF's iterator wraps to the first queue), so p goes first, then they alternate.
  clock->advance(100);
  CHECK(order == std::vector<std::string>{"p1", "p2"});
  clock->advance(300);
  CHECK(order == std::vector<std::string>{"p1", "p2", "q1", "p3", "q2"});
}

TEST_CASE("num_batch_threads workers run that many batches of a queue at once") {
  auto clock = std::make_shared<VirtualClock>();
  BatchFunctionOptions o = one_row_batches();
  o.num_batch_threads = 2;
  BatchFunction f(o, [](const std::vector<Tensor>& in) { return std::vector<Tensor>{in[0]}; }, clock);
  f.set_cost_hook([](const BatchCost&) { return 50.0; });
  auto a = f.call({row(1)});
  auto b = f.call({row(2)});
  auto c = f.call({row(3)});
  clock->advance(50);
  CHECK(a->done());
  CHECK(b->done());
  CHECK(!c->done());  // waited for a worker: dispatched at 50
  clock->advance(50);
  CHECK(c->done());
  CHECK(a->record().queue_wait_us == 0);
  CHECK(b->record().queue_wait_us == 0);
  CHECK(c->record().queue_wait_us == 50);
}

TEST_CASE("an open batch that times out while every worker is busy runs when one frees up") {
  auto clock = std::make_shared<VirtualClock>();
  BatchFunctionOptions o = one_row_batches();
  o.max_batch_size = 4;
  o.batch_timeout_micros = 10;
  std::vector<int64_t> rows;
  BatchFunction f(o,
                  [&](const std::vector<Tensor>& in) {
                    rows.push_back(in[0].shape().dim(0));
                    return std::vector<Tensor>{in[0]};
                  },
                  clock);
  f.set_cost_hook([](const BatchCost&) { return 100.0; });
  auto a = f.call({Tensor::zeros(DType::Float32, Shape{4})});  // full: runs 0..100
  auto b = f.call({Tensor::zeros(DType::Float32, Shape{1})});  // times out at 10
  clock->advance(60);
  auto c = f.call({Tensor::zeros(DType::Float32, Shape{2})});  // joins b's open batch
  clock->advance(40);
  CHECK(rows == std::vector<int64_t>{4, 3});
  CHECK(!b->done());  // its batch runs 100..200
  clock->advance(100);
  REQUIRE(b->done());
  CHECK(b->record().queue_wait_us == 100);
  CHECK(c->record().queue_wait_us == 40);
}

TEST_CASE("a virtual clock refuses to go back") {
  VirtualClock clock;
  clock.advance(5);
  CHECK(clock.now_us() == 5);
  CHECK_THROWS_AS(clock.advance_to(4), InvalidArgumentError);
}
