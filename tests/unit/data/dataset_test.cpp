// The dataset kinds through their C++ factories: elements, cardinality and
// element specs, and map's function traced once.
#include <doctest/doctest.h>

#include "runtime/data/datasets.h"
#include "tests/unit/data/support.h"
#include "runtime/function/function_value.h"
#include "runtime/api/python_api.h"
#include "runtime/graph/tracing.h"

using namespace ag;
using namespace ag::data;
using ag::data::test::ints;


TEST_CASE("range, batch, unbatch, repeat, take and skip give TF's elements and cardinalities") {
  DatasetPtr r = range_dataset(0, 7, 1, DType::Int64);
  CHECK(ints(r) == std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6});
  CHECK(ints(range_dataset(5, 0, -2, DType::Int64)) == std::vector<int64_t>{5, 3, 1});
  CHECK(range_dataset(0, 10, 3, DType::Int64)->cardinality() == 4);
  CHECK_THROWS_AS(range_dataset(0, 1, 0, DType::Int64), InvalidArgumentError);

  DatasetPtr b = batch_dataset(r, 3, false);
  CHECK(b->element_spec().repr() == "TensorSpec(shape=(None,), dtype=tf.int64, name=None)");
  CHECK(b->cardinality() == 3);
  CHECK(batch_dataset(r, 3, true)->cardinality() == 2);
  CHECK(ints(batch_dataset(r, 3, true)) == std::vector<int64_t>{0, 1, 2, 3, 4, 5});
  CHECK(ints(unbatch_dataset(b)) == ints(r));

  CHECK(ints(repeat_dataset(take_dataset(r, 2), 3)) == std::vector<int64_t>{0, 1, 0, 1, 0, 1});
  CHECK(repeat_dataset(r, -1)->cardinality() == kInfiniteCardinality);
  CHECK(ints(take_dataset(repeat_dataset(r, -1), 9)) == std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 0, 1});
  CHECK(ints(skip_dataset(r, 5)) == std::vector<int64_t>{5, 6});
  CHECK(skip_dataset(r, -1)->cardinality() == 0);
  // An empty input repeated forever ends instead of spinning.
  CHECK(ints(repeat_dataset(take_dataset(r, 0), -1)).empty());
}

TEST_CASE("padded_batch pads each component to the batch's longest or the given shape") {
  std::vector<Tensor> rows{Tensor::from_vector<int64_t>({1}, {1}), Tensor::from_vector<int64_t>({3}, {2, 3, 4})};
  DatasetPtr a = tensor_dataset({rows[0]}, ElementSpec::tensor({DType::Int64, Shape{kUnknownDim}}));
  DatasetPtr b = tensor_dataset({rows[1]}, ElementSpec::tensor({DType::Int64, Shape{kUnknownDim}}));
  DatasetPtr both = concatenate_dataset(a, b);
  DatasetPtr p = padded_batch_dataset(both, 2, {Shape{kUnknownDim}}, {Tensor::scalar<int64_t>(-1)}, false);
  CHECK(p->element_spec().repr() == "TensorSpec(shape=(None, None), dtype=tf.int64, name=None)");
  CHECK(ints(p) == std::vector<int64_t>{1, -1, -1, 2, 3, 4});
  DatasetPtr wide = padded_batch_dataset(both, 2, {Shape{4}}, {Tensor::scalar<int64_t>(0)}, false);
  CHECK(ints(wide) == std::vector<int64_t>{1, 0, 0, 0, 2, 3, 4, 0});
  DatasetPtr narrow = padded_batch_dataset(both, 2, {Shape{2}}, {Tensor::scalar<int64_t>(0)}, false);
  CHECK_THROWS_WITH_AS(ints(narrow), "Attempted to pad to a smaller size than the input element.",
                       InvalidArgumentError);
}

TEST_CASE("map traces its function once and runs the graph per element; filter keeps the true ones") {
  int traces = 0;
  Value fn = Value::callable("f", [&](std::vector<Value> args, Kwargs) {
    ++traces;
    CHECK(args.at(0).as_tensor().symbolic());
    return args[0] * Value(10);
  });
  DatasetPtr r = range_dataset(0, 4, 1, DType::Int64);
  auto traced = std::make_shared<DatasetFunction>(fn, element_arguments(r->element_spec()), "map");
  DatasetPtr m = map_dataset(r, traced, false);
  CHECK(traces == 1);
  CHECK(ints(m) == std::vector<int64_t>{0, 10, 20, 30});
  CHECK(ints(m) == std::vector<int64_t>{0, 10, 20, 30});
  CHECK(traces == 1);
  Value odd = Value::callable("odd", [](std::vector<Value> args, Kwargs) { return args.at(0) % Value(2) == Value(1); });
  auto pred = std::make_shared<DatasetFunction>(odd, element_arguments(r->element_spec()), "filter");
  CHECK(ints(filter_dataset(r, pred)) == std::vector<int64_t>{1, 3});
  CHECK(filter_dataset(r, pred)->cardinality() == kUnknownCardinality);
  CHECK_THROWS_AS(filter_dataset(r, traced), ValueError);  // an int64 predicate
}

TEST_CASE("cache replays the first complete pass") {
  int traces = 0;
  Value fn = Value::callable("f", [&](std::vector<Value> args, Kwargs) {
    ++traces;
    return args.at(0) + Value(1);
  });
  DatasetPtr r = range_dataset(0, 3, 1, DType::Int64);
  DatasetPtr c = cache_dataset(map_dataset(r, std::make_shared<DatasetFunction>(fn, element_arguments(r->element_spec()), "map"), false));
  CHECK(ints(take_dataset(c, 2)) == std::vector<int64_t>{1, 2});  // unfinished: not kept
  CHECK(ints(c) == std::vector<int64_t>{1, 2, 3});
  CHECK(ints(c) == std::vector<int64_t>{1, 2, 3});
}

TEST_CASE("an elementwise map runs once per batch with the same values; others element by element") {
  DatasetPtr r = range_dataset(0, 10, 1, DType::Int64);
  Value affine = Value::callable("affine", [](std::vector<Value> args, Kwargs) { return args.at(0) * Value(3) + Value(1); });
  auto fn = std::make_shared<DatasetFunction>(affine, element_arguments(r->element_spec()), "map");
  CHECK(fn->batchable());
  DatasetPtr batched = batch_dataset(map_dataset(shuffle_dataset(r, 4, 87654321, 7, false), fn, false), 4, false);
  // A shuffle that does not reshuffle: both pipelines see one order.
  std::vector<int64_t> by_batch = ints(batched);
  std::vector<int64_t> by_element = ints(map_dataset(shuffle_dataset(r, 4, 87654321, 7, false), fn, false));
  CHECK(by_batch == by_element);
  CHECK(by_batch.size() == 10);

  // A reduction is not elementwise: the batch is made element by element.
  Value total = Value::callable("total", [](std::vector<Value> args, Kwargs) {
    return ag::tf::api::reduce_sum({args.at(0)}, {});
  });
  DatasetPtr vectors = batch_dataset(r, 3, true);
  auto sum = std::make_shared<DatasetFunction>(total, element_arguments(vectors->element_spec()), "map");
  CHECK_FALSE(sum->batchable());
  CHECK(ints(batch_dataset(map_dataset(vectors, sum, false), 2, false)) == std::vector<int64_t>{3, 12, 21});

  // A constant that would broadcast against the batch dimension is refused.
  Value outer = Value::callable("outer", [](std::vector<Value> args, Kwargs) {
    return args.at(0) + Value(Tensor::from_vector<int64_t>({2, 1}, {0, 100}));
  });
  auto o = std::make_shared<DatasetFunction>(outer, element_arguments(r->element_spec()), "map");
  CHECK_FALSE(o->batchable());
  CHECK(ints(batch_dataset(map_dataset(take_dataset(r, 2), o, false), 2, false)) ==
        std::vector<int64_t>{0, 100, 1, 101});
}
