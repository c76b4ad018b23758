// A shape rule failing as a node is added (graph/shape_error.h), and the
// values known while tracing that shape rules read (graph/evaluate.h).
#include <doctest/doctest.h>

#include "runtime/graph/evaluate.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/tracing.h"

using namespace ag;

namespace {

std::string value_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ValueError& e) {
    return e.what();
  }
  return "<no ValueError>";
}

Tensor ints(std::vector<int32_t> v) { return Tensor::from_vector<int32_t>({static_cast<int64_t>(v.size())}, v); }

}  // namespace

TEST_CASE("a shape rule failing as a node is traced is TF's ValueError: message, NodeDef, input shapes") {
  Graph g("f");
  TraceScope tracing(g);
  Output x = g.placeholder({DType::Float32, Shape{kUnknownDim, 3}}, "x");
  Output y = g.placeholder({DType::Float32, Shape{4, 2}}, "y");
  CHECK(value_error_of([&] {
          g.add_node(op::MatMul, {x, y}, Attrs{{"transpose_a", false}, {"transpose_b", false}});
        }) == "Dimensions must be equal, but are 3 and 4 for '{{node MatMul}} = MatMul[T=DT_FLOAT, "
              "transpose_a=false, transpose_b=false](x, y)' with input shapes: [?,3], [4,2].");
  // The name is taken even though the node is not added (as TF's).
  CHECK(g.add_node(op::Identity, {x}, {}, "MatMul")->name == "MatMul_1");
  // Explicit control inputs and the device are part of the summary; values
  // the rule read are listed.
  Node* first = g.add_node(op::PrintV2, {g.constant(Tensor::scalar<std::string>(""), "s")},
                           Attrs{{"output_stream", std::string("file:///dev/null")}});
  g.scope().control = {first};
  g.scope().device = "/device:CPU:0";
  Output b = g.constant(ints({5}), "b"), e = g.constant(ints({6}), "e"), s = g.constant(ints({1}), "s");
  Output v = g.placeholder({DType::Int32, Shape{3}}, "v");
  CHECK(value_error_of([&] {
          g.add_node(op::StridedSlice, {v, b, e, s}, Attrs{{"shrink_axis_mask", int64_t{1}}}, "strided_slice");
        }) == "slice index 5 of dimension 0 out of bounds. for '{{node strided_slice}} = StridedSlice[Index=DT_INT32, "
              "T=DT_INT32, shrink_axis_mask=1, _device=\"/device:CPU:0\"](v, b, e, s_1, ^PrintV2)' with input "
              "shapes: [3], [1], [1], [1] and with computed input tensors: input[1] = <5>, input[2] = <6>, "
              "input[3] = <1>.");
  // A graph not being traced (a pass rewriting it) keeps the rule's own error.
  Graph other("g");
  Output a = other.placeholder({DType::Float32, Shape{2}}, "a");
  Output b3 = other.placeholder({DType::Float32, Shape{3}}, "b");
  CHECK_THROWS_WITH_AS(other.add_node(op::AddV2, {a, b3}), "Incompatible shapes: [2] vs. [3]", InvalidArgumentError);
}

TEST_CASE("a type attr the node holds itself (as a NodeDef read back does) is listed once") {
  Graph g("f");
  TraceScope tracing(g);
  Output x = g.placeholder({DType::Float32, Shape{2, 3}}, "x");
  Output y = g.placeholder({DType::Float32, Shape{4, 2}}, "y");
  CHECK(value_error_of([&] {
          g.add_node(op::MatMul, {x, y}, Attrs{{"T", DType::Float32}, {"transpose_a", false}, {"transpose_b", false}});
        }) == "Dimensions must be equal, but are 3 and 4 for '{{node MatMul}} = MatMul[T=DT_FLOAT, "
              "transpose_a=false, transpose_b=false](x, y)' with input shapes: [2,3], [4,2].");
}

TEST_CASE("partial shapes: a Pack of scalars, a Shape, small constant subgraphs") {
  Graph g("f");
  TraceScope tracing(g);
  Output x = g.placeholder({DType::Float32, Shape{kUnknownDim, 3}}, "x");
  Output shape = g.add_node(op::Shape, {x}, Attrs{{"out_type", DType::Int32}})->output(0);
  CHECK(partial_shape_value(shape)->debug_string() == "[?,3]");
  // tf.shape of a known shape is a constant; slicing it is evaluated.
  Output known = g.constant(ints({4, 3}), "Shape");
  Output four = g.add_node(op::StridedSlice, {known, g.constant(ints({0})), g.constant(ints({1})), g.constant(ints({1}))},
                           Attrs{{"shrink_axis_mask", int64_t{1}}})->output(0);
  CHECK(constant_value_of(four)->scalar_value<int32_t>() == 4);
  Output n = g.add_node(op::StridedSlice, {shape, g.constant(ints({0})), g.constant(ints({1})), g.constant(ints({1}))},
                        Attrs{{"shrink_axis_mask", int64_t{1}}})->output(0);
  CHECK_FALSE(constant_value_of(n).has_value());
  Output one = g.constant(Tensor::scalar<int32_t>(1));
  Output packed = g.add_node(op::Pack, {one, n, four}, Attrs{{"axis", int64_t{0}}, {"N", int64_t{3}}})->output(0);
  CHECK(partial_shape_value(packed)->debug_string() == "[1,?,4]");
  Node* fill = g.add_node(op::Fill, {packed, g.constant(Tensor::scalar<float>(0))});
  CHECK(fill->outputs[0].shape.debug_string() == "[1,?,4]");
  // A Reshape infers its one unknown dim from a fully known input.
  Output y = g.placeholder({DType::Float32, Shape{6}}, "y");
  Output two = g.constant(Tensor::scalar<int32_t>(2));
  Output dims = g.add_node(op::Pack, {n, two}, Attrs{{"axis", int64_t{0}}, {"N", int64_t{2}}})->output(0);
  CHECK(g.add_node(op::Reshape, {y, dims})->outputs[0].shape.debug_string() == "[3,2]");
  // A GatherV2 at constant positions of a Shape, and a ConcatV2 of such
  // vectors, keep the dims they know: a Reshape to [x's dim 0, 3, 2] is [?,3,2].
  Output zero = g.constant(Tensor::scalar<int32_t>(0));
  Output first_dims = g.add_node(op::GatherV2, {shape, g.constant(ints({0, -1})), zero}, Attrs{{"batch_dims", int64_t{0}}})
                          ->output(0);
  CHECK(partial_shape_value(first_dims)->debug_string() == "[?,3]");
  Output joined =
      g.add_node(op::ConcatV2, {first_dims, g.constant(ints({2})), zero}, Attrs{{"N", int64_t{2}}})->output(0);
  CHECK(partial_shape_value(joined)->debug_string() == "[?,3,2]");
  Output z = g.placeholder({DType::Float32, Shape::unknown_rank()}, "z");
  CHECK(g.add_node(op::Reshape, {z, joined})->outputs[0].shape.debug_string() == "[?,3,2]");
  // A stateful node is never run while tracing.
  Output random = g.add_node(op::RandomUniform, {g.constant(ints({}))},
                             Attrs{{"dtype", DType::Float32}, {"seed", int64_t{0}}, {"seed2", int64_t{0}}})
                      ->output(0);
  CHECK_FALSE(constant_value_of(random).has_value());
  CHECK(lift_to_eager(random).has_value());
  CHECK_FALSE(lift_to_eager(n).has_value());  // it reads an argument
}
