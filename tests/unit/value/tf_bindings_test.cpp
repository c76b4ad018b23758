// The tf.* bindings (runtime/api/tf_bindings*.cpp): TF's Python signatures,
// binding errors, eager results and traced node names.
#include <doctest/doctest.h>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/value/tensor_spec_value.h"
#include "tests/unit/error_text.h"
#include "tests/unit/value/support.h"

using namespace ag;
using namespace ag::test;
namespace api = ag::tf::api;

TEST_CASE("binding errors read as Python's") {
  CHECK(error_text([] { api::reduce_sum({}, {}); }) ==
        "TypeError: reduce_sum() missing 1 required positional argument: 'input_tensor'");
  CHECK(error_text([] { api::reduce_sum({1}, {{"axes", 0}}); }) ==
        "TypeError: reduce_sum() got an unexpected keyword argument 'axes'");
  CHECK(error_text([] { api::add({1, 2, "n", 4}, {}); }) ==
        "TypeError: add() takes from 2 to 3 positional arguments but 4 were given");
  CHECK(error_text([] { api::add({1}, {{"x", 2}}); }) == "TypeError: add() got multiple values for argument 'x'");
  CHECK(error_text([] { api::cast({1}, {}); }) == "TypeError: cast() missing 1 required positional argument: 'dtype'");
  CHECK(error_text([] { api::cast({1, 5}, {}); }) == "TypeError: Cannot convert value 5 to a TensorFlow DType.");
}

TEST_CASE("tensors from values, eagerly and while tracing") {
  CHECK(str(api::constant({L({1, 2})}, {{"dtype", api::float32()}})) ==
        "tf.Tensor([1. 2.], shape=(2,), dtype=float32)");
  CHECK(str(api::constant({7}, {{"shape", L({2, 2})}})) == "tf.Tensor(\n[[7 7]\n [7 7]], shape=(2, 2), dtype=int32)");
  CHECK(str(api::constant({L({1, 2, 3, 4})}, {{"shape", L({2, 2})}})) ==
        "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)");
  CHECK(str(api::convert_to_tensor({3}, {{"dtype_hint", api::float32()}})) ==
        "tf.Tensor(3.0, shape=(), dtype=float32)");
  CHECK(str(api::cast({2.7, "int32"}, {})) == "tf.Tensor(2, shape=(), dtype=int32)");
  CHECK(str(api::identity({5}, {{"name", "i"}})) == "tf.Tensor(5, shape=(), dtype=int32)");
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float32, Shape{2}}, "x"));
  CHECK(node_of(api::constant({1.0}, {}))->name == "Const");
  CHECK(node_of(api::cast({x, api::int64()}, {}))->name == "Cast");
  CHECK(node_of(api::identity({x}, {}))->name == "Identity");
}

TEST_CASE("elementwise math") {
  CHECK(str(api::add({tf::constant(1), 2}, {})) == "tf.Tensor(3, shape=(), dtype=int32)");
  CHECK(str(api::subtract({}, {{"x", 5}, {"y", 2}})) == "tf.Tensor(3, shape=(), dtype=int32)");
  CHECK(str(api::maximum({L({1, 5}), L({4, 2})}, {})) == "tf.Tensor([4 5], shape=(2,), dtype=int32)");
  CHECK(str(api::relu({L({-1.0, 2.0})}, {})) == "tf.Tensor([0. 2.], shape=(2,), dtype=float32)");
  CHECK(str(api::round({L({0.5, 1.5, 2.5})}, {})) == "tf.Tensor([0. 2. 2.], shape=(3,), dtype=float32)");
  CHECK(str(api::round({L({3})}, {})) == "tf.Tensor([3], shape=(1,), dtype=int32)");
  CHECK(str(api::sign({L({-2.0, 0.0, 3.0})}, {})) == "tf.Tensor([-1.  0.  1.], shape=(3,), dtype=float32)");
  CHECK(str(api::where({L({true, false}), L({1, 2}), L({3, 4})}, {})) == "tf.Tensor([1 4], shape=(2,), dtype=int32)");
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float32, Shape{2}}, "x"));
  CHECK(node_of(api::multiply({x, 2.0}, {}))->name == "Mul");
  CHECK(node_of(api::sigmoid({x}, {}))->name == "Sigmoid");
  CHECK(node_of(api::relu({x}, {}))->name == "Relu");
  CHECK(node_of(api::floor({x}, {}))->name == "Floor");
  CHECK(node_of(api::less({x, 1.0}, {}))->name == "Less");
}

TEST_CASE("shapes, arrays and reductions") {
  Value m = tf::constant(L({L({1, 2}), L({3, 4})}));
  CHECK(str(api::reduce_sum({m}, {{"axis", 1}})) == "tf.Tensor([3 7], shape=(2,), dtype=int32)");
  CHECK(str(api::reduce_max({m}, {{"keepdims", true}})) == "tf.Tensor([[4]], shape=(1, 1), dtype=int32)");
  CHECK(str(api::expand_dims({L({1, 2}), 0}, {})) == "tf.Tensor([[1 2]], shape=(1, 2), dtype=int32)");
  CHECK(str(api::squeeze({L({L({1}), L({2})})}, {})) == "tf.Tensor([1 2], shape=(2,), dtype=int32)");
  Value halves = api::split({L({1, 2, 3, 4}), 2}, {});
  REQUIRE(len(halves) == 2);
  CHECK(str(halves.items()[1]) == "tf.Tensor([3 4], shape=(2,), dtype=int32)");
  CHECK(len(api::split({L({1, 2, 3, 4}), L({1, 3})}, {})) == 2);
  CHECK(str(api::tile({L({1, 2}), L({2})}, {})) == "tf.Tensor([1 2 1 2], shape=(4,), dtype=int32)");
  CHECK(str(api::pad({L({1, 2}), L({L({1, 1})})}, {})) == "tf.Tensor([0 1 2 0], shape=(4,), dtype=int32)");
  CHECK(str(api::pad({L({1, 2}), L({L({1, 0})})}, {{"constant_values", 9}})) ==
        "tf.Tensor([9 1 2], shape=(3,), dtype=int32)");
  CHECK(str(api::gather({L({5, 6, 7}), L({2, 0})}, {})) == "tf.Tensor([7 5], shape=(2,), dtype=int32)");
  CHECK(str(api::gather_nd({m, L({L({1, 0})})}, {})) == "tf.Tensor([3], shape=(1,), dtype=int32)");
  CHECK(str(api::one_hot({L({0, 2}), 3}, {})) ==
        "tf.Tensor(\n[[1. 0. 0.]\n [0. 0. 1.]], shape=(2, 3), dtype=float32)");
  CHECK(str(api::cumsum({L({1, 2, 3})}, {})) == "tf.Tensor([1 3 6], shape=(3,), dtype=int32)");
  CHECK(str(api::argmin({L({3, 1, 2})}, {})) == "tf.Tensor(1, shape=(), dtype=int64)");
  CHECK(str(api::argmax({L({3, 1, 2})}, {{"output_type", api::int32()}})) == "tf.Tensor(0, shape=(), dtype=int32)");
  CHECK(str(api::ones({L({2})}, {{"dtype", api::int32()}})) == "tf.Tensor([1 1], shape=(2,), dtype=int32)");
  CHECK(str(api::zeros_like({L({1, 2})}, {{"dtype", api::float32()}})) ==
        "tf.Tensor([0. 0.], shape=(2,), dtype=float32)");
  CHECK(str(api::range({1, 4}, {})) == "tf.Tensor([1 2 3], shape=(3,), dtype=int32)");
  CHECK(str(api::shape({m}, {})) == "tf.Tensor([2 2], shape=(2,), dtype=int32)");
  CHECK(str(api::stack({L({1, 2})}, {})) == "tf.Tensor([1 2], shape=(2,), dtype=int32)");
  CHECK(str(api::concat({L({L({1}), L({2})}), 0}, {})) == "tf.Tensor([1 2], shape=(2,), dtype=int32)");
  CHECK(str(api::transpose({m}, {})) == "tf.Tensor(\n[[1 3]\n [2 4]], shape=(2, 2), dtype=int32)");
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float32, Shape{2, 3}}, "x"));
  CHECK(node_of(api::reduce_mean({x}, {{"axis", 0}}))->name == "Mean");
  CHECK(node_of(api::expand_dims({x, -1}, {}))->name == "ExpandDims");
  CHECK(node_of(api::tile({x, L({1, 2})}, {}))->name == "Tile");
  CHECK(node_of(api::reshape({x, L({6})}, {}))->name == "Reshape");
  CHECK(node_of(api::gather({x, L({0})}, {}))->name == "GatherV2");
  CHECK(node_of(api::one_hot({L({0}), 3}, {}))->name == "one_hot");
  CHECK(node_of(api::split({x, 3}, {{"axis", 1}}).items()[0])->name == "split");
}

TEST_CASE("linear algebra and nn") {
  Value m = tf::constant(L({L({1.0, 2.0}), L({3.0, 4.0})}));
  CHECK(str(api::matmul({m, m}, {{"transpose_b", true}})) ==
        "tf.Tensor(\n[[ 5. 11.]\n [11. 25.]], shape=(2, 2), dtype=float32)");
  CHECK(str(api::einsum({"ij->ji", m}, {})) == "tf.Tensor(\n[[1. 3.]\n [2. 4.]], shape=(2, 2), dtype=float32)");
  CHECK(str(api::tensordot({m, m, 1}, {})) == "tf.Tensor(\n[[ 7. 10.]\n [15. 22.]], shape=(2, 2), dtype=float32)");
  CHECK(str(api::softmax({L({0.0, 0.0})}, {})) == "tf.Tensor([0.5 0.5], shape=(2,), dtype=float32)");
  CHECK(str(api::softmax({L({L({0.0, 0.0}), L({0.0, 0.0})})}, {{"axis", 0}})) ==
        "tf.Tensor(\n[[0.5 0.5]\n [0.5 0.5]], shape=(2, 2), dtype=float32)");
  Value img = tf::ones(L({1, 4, 4, 1}));
  Value k = tf::ones(L({2, 2, 1, 1}));
  CHECK(repr(api::conv2d({img, k, 1, "VALID"}, {}).getattr("shape")) == "TensorShape([1, 3, 3, 1])");
  CHECK(repr(api::conv2d({img, k}, {{"strides", 2}, {"padding", "SAME"}}).getattr("shape")) ==
        "TensorShape([1, 2, 2, 1])");
  CHECK(repr(api::max_pool2d({img, 2, 2, "VALID"}, {}).getattr("shape")) == "TensorShape([1, 2, 2, 1])");
  CHECK(str(api::bias_add({L({L({1.0, 2.0})}), L({1.0, 1.0})}, {})) ==
        "tf.Tensor([[2. 3.]], shape=(1, 2), dtype=float32)");
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float32, Shape{1, 4, 4, 1}}, "x"));
  CHECK(node_of(api::conv2d({x, k, L({1, 1}), "SAME"}, {}))->name == "Conv2D");
  CHECK(node_of(api::avg_pool2d({x, 2, 2, "VALID"}, {}))->name == "AvgPool2D");
  CHECK(node_of(api::log_softmax({x}, {}))->name == "LogSoftmax");
}

TEST_CASE("strings and random") {
  CHECK(str(api::as_string({L({1, 2})}, {})) == "tf.Tensor([b'1' b'2'], shape=(2,), dtype=string)");
  CHECK(str(api::string_to_number({"2.5"}, {})) == "tf.Tensor(2.5, shape=(), dtype=float32)");
  CHECK(str(api::string_length({"abc"}, {})) == "tf.Tensor(3, shape=(), dtype=int32)");
  CHECK(str(api::string_join({L({"a", "b"})}, {{"separator", "-"}})) == "tf.Tensor(b'a-b', shape=(), dtype=string)");
  api::random_set_seed({1}, {});
  Value u1 = api::random_uniform({L({2})}, {{"seed", 3}});
  api::random_set_seed({1}, {});
  Value u2 = api::random_uniform({L({2})}, {{"seed", 3}});
  CHECK(str(u1) == str(u2));
  CHECK(repr(api::random_normal({L({3})}, {{"dtype", api::float64()}}).getattr("dtype")) == "tf.float64");
}

TEST_CASE("class values construct: Variable, TensorArray, TensorSpec") {
  Value v = api::Variable()({L({1, 2})}, {{"name", "w"}});
  CHECK(repr(v).rfind("<tf.Variable 'w:0' shape=(2,) dtype=int32", 0) == 0);
  CHECK(api::Variable()({1}, {{"dtype", api::float32()}}).getattr("dtype").is(api::float32()));
  CHECK(error_text([] { api::Variable()({}, {}); }) == "ValueError: initial_value must be specified.");
  Value ta = api::TensorArray()({api::int32()}, {{"size", 0}, {"dynamic_size", true}});
  ta = ta.getattr("write")({0, 5}, {});
  CHECK(str(ta.getattr("stack")({}, {})) == "tf.Tensor([5], shape=(1,), dtype=int32)");
  Value spec = api::TensorSpec()({L({Value(), 3})}, {{"dtype", api::int64()}, {"name", "x"}});
  CHECK(tensor_spec_repr(*tensor_spec_of(spec), tensor_spec_name(spec)) ==
        "TensorSpec(shape=(None, 3), dtype=tf.int64, name='x')");
  CHECK(spec.getattr("dtype").is(api::int64()));
  CHECK(error_text([] { api::Tensor()({}, {}); }).rfind("TypeError", 0) == 0);
}

TEST_CASE("tf.print binds output_stream, sep, end, summarize") {
  CHECK(error_text([] { api::print({1}, {{"output_stream", "file"}}); }).rfind("ValueError: Unsupported output stream", 0) ==
        0);
  CHECK(error_text([] { api::print({1}, {{"bogus", 1}}); }) ==
        "TypeError: print_v2() got an unexpected keyword argument 'bogus'");
  CHECK(error_text([] { api::config_run_functions_eagerly({}, {}); }) ==
        "TypeError: run_functions_eagerly() missing 1 required positional argument: 'run_eagerly'");
}

TEST_CASE("tf.group is None; a trace checks its inputs as TF does") {
  Value junk = Value::object("Junk");
  // Eagerly TF returns None before looking at the arguments.
  CHECK(api::group({junk}, {{"bogus", 1}}).is_none());
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float32, Shape{2}}, "x"));
  CHECK(api::group({x, L({x})}, {{"name", "g"}}).is_none());
  CHECK(error_text([&] { api::group({x}, {{"bogus", 1}}); }) == "ValueError: Unknown keyword arguments: bogus");
  CHECK(error_text([&] { api::group({L({x, 3})}, {}); }) ==
        "TypeError: 'inputs' should be zero or more (nested) Tensors. Received '3' with type '<class 'int'>'.");
}
