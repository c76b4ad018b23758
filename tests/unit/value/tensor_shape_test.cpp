// tf.TensorShape (runtime/value/tensor_shape_value.h) as TF 2 behaves: what
// tensor.shape, variable.shape and spec.shape are, its text, indexing,
// iteration, equality, methods and properties, its errors, and its conversion
// to a tensor.
#include <doctest/doctest.h>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/function/function.h"
#include "runtime/value/tensor_spec_value.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/tensor_shape_value.h"
#include "tests/unit/error_text.h"
#include "tests/unit/value/support.h"

using namespace ag;
using ag::test::call;
using ag::test::error_text;

namespace {

Value shape_of(std::initializer_list<int64_t> dims) { return tensor_shape(Shape(dims)); }

}  // namespace

TEST_CASE("TensorShape: str, repr, len, indexing, iteration, rank and dims") {
  Value s = shape_of({2, -1, 3});
  CHECK(str(s) == "(2, None, 3)");
  CHECK(repr(s) == "TensorShape([2, None, 3])");
  CHECK(str(shape_of({5})) == "(5,)");
  CHECK(repr(shape_of({})) == "TensorShape([])");
  Value unknown = tensor_shape(Shape::unknown_rank());
  CHECK(str(unknown) == "<unknown>");
  CHECK(repr(unknown) == "TensorShape(None)");
  CHECK(s.type_name() == "TensorShape");
  CHECK(len(s) == 3);
  CHECK(getitem(s, Value(0)).as_int() == 2);
  CHECK(getitem(s, Value(1)).is_none());
  CHECK(getitem(s, Value(-1)).as_int() == 3);
  CHECK(error_text([&] { (void)getitem(s, Value(3)); }) == "IndexError: list index out of range");
  CHECK(error_text([&] { (void)getitem(s, Value("a")); }) ==
        "TypeError: list indices must be integers or slices, not str");
  CHECK(repr(getslice(s, SliceSpec{Value(1), Value(), Value()})) == "TensorShape([None, 3])");
  CHECK(repr(getslice(s, SliceSpec{Value(), Value(), Value(-1)})) == "TensorShape([3, None, 2])");
  CHECK(getitem(unknown, Value(0)).is_none());
  CHECK(repr(getslice(unknown, SliceSpec{Value(1), Value(3), Value()})) == "TensorShape([None, None])");
  CHECK(repr(getslice(unknown, SliceSpec{Value(1), Value(), Value()})) == "TensorShape(None)");
  CHECK(repr(Value::tuple(iterate(s))) == "(2, None, 3)");
  CHECK(contains(s, Value(3)));
  CHECK(error_text([&] { (void)len(unknown); }) == "ValueError: Cannot take the length of shape with unknown rank.");
  CHECK(error_text([&] { (void)iterate(unknown); }) == "ValueError: Cannot iterate over a shape with unknown rank.");
  CHECK(s.getattr("rank").as_int() == 3);
  CHECK(s.getattr("ndims").as_int() == 3);
  CHECK(repr(s.getattr("dims")) == "[2, None, 3]");
  CHECK(unknown.getattr("rank").is_none());
  CHECK(unknown.getattr("dims").is_none());
  CHECK(truthy(s));
  CHECK(truthy(shape_of({})));  // a known rank, even 0
  CHECK_FALSE(truthy(unknown));
}

TEST_CASE("TensorShape: equality with shapes, lists and tuples; the methods") {
  Value s = shape_of({2, -1});
  CHECK(truthy(s == shape_of({2, -1})));
  CHECK(truthy(s == Value::list({2, Value()})));
  CHECK(truthy(Value::tuple({2, Value()}) == s));
  CHECK(truthy(s != shape_of({2, 3})));
  CHECK(truthy(s != Value("x")));
  CHECK(truthy(tensor_shape(Shape::unknown_rank()) == tensor_shape(Shape::unknown_rank())));
  CHECK(truthy(s != tensor_shape(Shape::unknown_rank())));
  CHECK(repr(call(s, "as_list")) == "[2, None]");
  CHECK(error_text([&] { (void)call(tensor_shape(Shape::unknown_rank()), "as_list"); }) ==
        "ValueError: as_list() is not defined on an unknown TensorShape.");
  CHECK_FALSE(call(s, "is_fully_defined").as_bool());
  CHECK(call(shape_of({2, 3}), "is_fully_defined").as_bool());
  CHECK(call(s, "num_elements").is_none());
  CHECK(call(shape_of({2, 3}), "num_elements").as_int() == 6);
  CHECK(repr(call(s, "concatenate", {Value::list({4})})) == "TensorShape([2, None, 4])");
  CHECK(repr(call(s, "concatenate", {Value()})) == "TensorShape(None)");
  CHECK(call(s, "is_compatible_with", {shape_of({2, 7})}).as_bool());
  CHECK_FALSE(call(s, "is_compatible_with", {shape_of({3, 7})}).as_bool());
  CHECK(repr(call(s, "merge_with", {shape_of({-1, 7})})) == "TensorShape([2, 7])");
  CHECK(error_text([&] { (void)call(s, "merge_with", {shape_of({3, 7})}); }) ==
        "ValueError: Shapes (2, None) and (3, 7) are not compatible");
}

TEST_CASE("tf.TensorShape constructs and is a class; .shape of tensors, variables and specs is one") {
  const Value& cls = tf::api::TensorShape();
  CHECK(repr(cls({Value::list({1, Value()})}, {})) == "TensorShape([1, None])");
  CHECK(repr(cls({Value()}, {})) == "TensorShape(None)");
  CHECK(repr(cls({shape_of({4})}, {})) == "TensorShape([4])");
  CHECK(is_instance(shape_of({1}), cls));
  Value t = tf::zeros(Value::list({2, 3}));
  Value shape = t.getattr("shape");
  CHECK(repr(shape) == "TensorShape([2, 3])");
  CHECK(truthy(shape == Value::tuple({2, 3})));
  CHECK(repr(call(t, "get_shape")) == "TensorShape([2, 3])");
  CHECK(repr(tf::Variable(t).getattr("shape")) == "TensorShape([2, 3])");
  CHECK(repr(make_tensor_spec(Shape{-1, 3}, DType::Float32).getattr("shape")) == "TensorShape([None, 3])");
  CHECK(repr(make_tensor_spec(Shape::unknown_rank(), DType::Float32).getattr("shape")) == "TensorShape(None)");
  CHECK(tensor_spec_of(make_tensor_spec(Shape{-1, 3}, DType::Int32))->shape == (Shape{-1, 3}));
  // A symbolic tensor's shape, unknown rank included.
  Graph g("f");
  TraceScope scope(g);
  Value p(g.placeholder({DType::Float32, Shape::unknown_rank()}, "p"));
  CHECK(repr(p.getattr("shape")) == "TensorShape(None)");
}

TEST_CASE("a TensorShape converts to an int32 tensor when fully defined, as TF's conversion does") {
  CHECK(str(Value(to_tensor(shape_of({2, 3})))) == "tf.Tensor([2 3], shape=(2,), dtype=int32)");
  CHECK(str(tf::reshape(tf::range(Value(6)), shape_of({3, 2}))) ==
        "tf.Tensor(\n[[0 1]\n [2 3]\n [4 5]], shape=(3, 2), dtype=int32)");
  CHECK(str(tf::zeros(shape_of({2}))) == "tf.Tensor([0. 0.], shape=(2,), dtype=float32)");
  CHECK(error_text([&] { (void)to_tensor(shape_of({-1, 3})); }) ==
        "ValueError: Cannot convert a partially known TensorShape (None, 3) to a Tensor.");
  CHECK(shape_from_value(shape_of({-1, 3})) == (Shape{-1, 3}));
}

TEST_CASE("a tf.function returning a TensorShape returns its dims as an int32 tensor, as TF converts outputs") {
  Function f("f", {{"x", {}}}, [](const std::vector<Value>& a) { return a[0].getattr("shape"); });
  CHECK(repr(f({tf::zeros(Value::list({2, 3}))})) ==
        "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 3], dtype=int32)>");
  FunctionOptions partial;
  partial.input_signature = std::vector<Value>{make_tensor_spec(Shape{-1, 3}, DType::Float32)};
  Function g("g", {{"x", {}}}, [](const std::vector<Value>& a) { return a[0].getattr("shape"); }, partial);
  CHECK(error_text([&] { (void)g({tf::zeros(Value::list({2, 3}))}); }) ==
        "ValueError: Cannot convert a partially known TensorShape (None, 3) to a Tensor.");
}
