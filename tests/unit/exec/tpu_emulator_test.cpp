// The TPU emulator behind TPUPartitionedCall (runtime/exec/tpu_emulator.cpp):
// one compile per argument signature (B11), TPU-incompatible ops and string
// tensors (B10), compile-time constants (B12), the HBM check with and
// without the bfloat16 optimization (B47, B33), and each call's cost (B45).
#include <doctest/doctest.h>

#include "runtime/core/error.h"
#include "runtime/core/variable.h"
#include "runtime/exec/plan.h"
#include "runtime/exec/tpu_emulator.h"
#include "runtime/graph/control_flow.h"
#include "tests/unit/error_text.h"

using namespace ag;
using ag::test::error_text;

namespace {

/// A graph calling, on the TPU, `build(body, args)` over arguments `specs`.
template <class Build>
std::shared_ptr<Graph> tpu_graph(const std::vector<TensorSpec>& specs, Build build, bool bf16 = false) {
  auto g = std::make_shared<Graph>("f");
  std::vector<Output> args;
  for (size_t i = 0; i < specs.size(); ++i) args.push_back(g->placeholder(specs[i], "arg" + std::to_string(i)));
  auto body = std::make_shared<Graph>("tpu_func", g.get());
  std::vector<Output> bargs;
  for (size_t i = 0; i < specs.size(); ++i) bargs.push_back(body->placeholder(specs[i], "arg" + std::to_string(i)));
  body->outputs() = {build(*body, bargs)};
  Node* call = add_device_call(*g, args, g->add_node(op::TPUOrdinalSelector, {})->output(0), body, "tpu_func");
  call->attrs.set("_bfloat16_optimization", bf16);
  g->outputs() = {call->output(0)};
  return g;
}

Tensor ones(const Shape& s) {
  Tensor t(DType::Float32, s);
  for (int64_t i = 0; i < t.num_elements(); ++i) t.data<float>()[i] = 1;
  return t;
}

}  // namespace

TEST_CASE("B11: one compile per distinct argument shape, cached after") {
  auto g = tpu_graph({{DType::Float32, Shape{kUnknownDim, 4}}},
                     [](Graph& b, const std::vector<Output>& a) { return b.add_node(op::Mul, {a[0], a[0]})->output(0); });
  Plan plan = compile_plan(*g);
  const int64_t before = tpu::tpu_stats().compile_count;
  for (int64_t batch : {1, 2, 3, 1, 2}) {
    std::vector<Tensor> args{ones(Shape{batch, 4})};
    CHECK(plan.run(args)[0].shape() == (Shape{batch, 4}));
  }
  CHECK(tpu::tpu_stats().compile_count - before == 3);
}

TEST_CASE("B11 with batching: allowed_batch_sizes [2, 4, 8] bound the compiles at 3") {
  // BatchFunction(TPUPartitionedCall(x * x)): requests of 1..7 rows run padded to 2, 4 or 8.
  Graph g("f");
  Output x = g.placeholder({DType::Float32, Shape{kUnknownDim, 4}}, "x");
  auto batched = std::make_shared<Graph>("batched", &g);
  Output bx = batched->placeholder({DType::Float32, Shape{kUnknownDim, 4}}, "x");
  auto body = std::make_shared<Graph>("tpu_func", batched.get());
  Output tx = body->placeholder({DType::Float32, Shape{kUnknownDim, 4}}, "x");
  body->outputs() = {body->add_node(op::Mul, {tx, tx})->output(0)};
  Node* call = add_device_call(*batched, {bx}, batched->add_node(op::TPUOrdinalSelector, {})->output(0), body, "tpu_func");
  batched->outputs() = {call->output(0)};
  Attrs options{{"num_batch_threads", int64_t{1}},
                {"max_batch_size", int64_t{8}},
                {"batch_timeout_micros", int64_t{0}},
                {"allowed_batch_sizes", std::vector<int64_t>{2, 4, 8}},
                {"enable_large_batch_splitting", true}};
  g.outputs() = {add_batch_function(g, {x}, {}, batched, "batched", options)->output(0)};
  Plan plan = compile_plan(g);
  const int64_t before = tpu::tpu_stats().compile_count;
  for (int64_t rows : {1, 2, 3, 5, 7, 8, 4}) {
    std::vector<Tensor> args{ones(Shape{rows, 4})};
    CHECK(plan.run(args)[0].shape() == (Shape{rows, 4}));
  }
  CHECK(tpu::tpu_stats().compile_count - before == 3);
}

TEST_CASE("B10: a string op fails the first execution with TF's message") {
  auto g = tpu_graph({{DType::String, Shape{2}}},
                     [](Graph& b, const std::vector<Output>& a) {
                       return b.add_node(op::StringToNumber, {a[0]}, Attrs{{"out_type", DType::Float32}})->output(0);
                     });
  Plan plan = compile_plan(*g);
  Tensor s(DType::String, Shape{2});
  s.data<std::string>()[0] = "1";
  s.data<std::string>()[1] = "2";
  std::vector<Tensor> args{s};
  CHECK(error_text([&] { plan.run(args); }) ==
        "InvalidArgumentError: 'tf.StringToNumber' op isn't compilable for TPU device. enable soft_device_placement "
        "option to run on CPU");
}

TEST_CASE("B12: a shape from an argument's value is not a compile-time constant; its static shape is") {
  auto bad = tpu_graph({{DType::Float32, Shape{6}}, {DType::Int32, Shape{2}}},
                       [](Graph& b, const std::vector<Output>& a) {
                         return b.add_node(op::Reshape, {a[0], a[1]}, {}, "Reshape")->output(0);
                       });
  Plan bad_plan = compile_plan(*bad);
  std::vector<Tensor> args{ones(Shape{6}), Tensor::from_vector<int32_t>({2}, {2, 3})};
  CHECK(error_text([&] { bad_plan.run(args); }) ==
        "InvalidArgumentError: Input 1 to node `Reshape` with op Reshape must be a compile-time constant.\n\nXLA "
        "compilation requires that operator arguments that represent shapes or dimensions be evaluated to concrete "
        "values at compile time. This error means that a shape or dimension argument could not be evaluated at "
        "compile time, usually because the value of the argument depends on a parameter to the computation, on a "
        "variable, or on a stateful operation such as a random number generator.");
  // Shape(x) of an argument is constant: shapes are static on the TPU.
  auto good = tpu_graph({{DType::Float32, Shape{kUnknownDim}}}, [](Graph& b, const std::vector<Output>& a) {
    Output shape = b.add_node(op::Shape, {a[0]}, Attrs{{"out_type", DType::Int32}})->output(0);
    return b.add_node(op::Reshape, {a[0], shape}, {}, "Reshape")->output(0);
  });
  Plan good_plan = compile_plan(*good);
  std::vector<Tensor> x{ones(Shape{5})};
  CHECK(good_plan.run(x)[0].shape() == Shape{5});
}

TEST_CASE("B47 with B33: an f32 variable past 16 GiB fails; stored as bfloat16 it fits") {
  // f32[65536, 65537] tiles to 65536 x 65664 x 4 bytes; as bfloat16, half.
  auto big = Variable::create_uninitialized(DType::Float32, Shape{65536, 65537}, "embedding");
  for (bool bf16 : {false, true}) {
    auto g = tpu_graph(
        {{DType::Int32, Shape{}}},
        [&](Graph& b, const std::vector<Output>&) {
          return b.add_node(op::ReadVariableOp, {}, Attrs{{"var", big->id()}, {"dtype", DType::Float32}})->output(0);
        },
        bf16);
    Plan plan = compile_plan(*g);
    std::vector<Tensor> args{Tensor::scalar<int32_t>(0)};
    std::string e = error_text([&] { plan.run(args); });
    if (bf16) {
      CHECK(e.rfind("FailedPreconditionError: ", 0) == 0);  // compiled; the read finds no value
    } else {
      CHECK(e == "ResourceExhaustedError: TPU HBM capacity exceeded: 17213423616 bytes needed, 17179869184 bytes "
                 "available");
    }
  }
}

TEST_CASE("B45, section 8: a call's transfers and device time") {
  auto g = tpu_graph({{DType::Float32, Shape{8, 10}}},
                     [](Graph& b, const std::vector<Output>& a) { return b.add_node(op::Mul, {a[0], a[0]})->output(0); });
  Plan plan = compile_plan(*g);
  std::vector<Tensor> args{ones(Shape{8, 10})};
  plan.run(args);
  tpu::TpuStats s = tpu::tpu_stats();
  CHECK(s.last_call.h2d_bytes == 512);  // f32[8,10] flattened to rank 1 (IO shape optimization)
  CHECK(s.last_call.d2h_bytes == 512);
  CHECK(s.last_call.device_seconds > 0);
  // XLA sharding over 2 cores halves the device time (ideal SPMD).
  auto sharded = tpu_graph({{DType::Float32, Shape{8, 10}}},
                           [](Graph& b, const std::vector<Output>& a) { return b.add_node(op::Mul, {a[0], a[0]})->output(0); });
  sharded->outputs()[0].node->attrs.set("_num_cores_per_replica", int64_t{2});
  Plan sharded_plan = compile_plan(*sharded);
  sharded_plan.run(args);
  CHECK(tpu::tpu_stats().last_call.device_seconds == doctest::Approx(s.last_call.device_seconds / 2));
}
