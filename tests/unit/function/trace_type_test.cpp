#include <doctest/doctest.h>

#include "runtime/api/ragged_tensor.h"
#include "runtime/api/sparse_tensor.h"
#include "runtime/value/tensor_spec_value.h"
#include "runtime/function/trace_type.h"
#include "runtime/value/set_value.h"

using namespace ag;

TEST_CASE("Python literals are keyed by value: 1, 1.0 and True collide as in Python") {
  CHECK(TraceType::of(Value(1)) == TraceType::of(Value(1.0)));
  CHECK(TraceType::of(Value(1)) == TraceType::of(Value(true)));
  CHECK(TraceType::of(Value(1)).hash() == TraceType::of(Value(true)).hash());
  CHECK_FALSE(TraceType::of(Value(1)) == TraceType::of(Value(2)));
  CHECK_FALSE(TraceType::of(Value("a")) == TraceType::of(Value("b")));
}

TEST_CASE("tensors are keyed by dtype and shape; unknown dims are supertypes") {
  Value a(Tensor::from_vector<int32_t>({2}, {1, 2}));
  Value b(Tensor::from_vector<int32_t>({2}, {3, 4}));
  Value c(Tensor::from_vector<int32_t>({3}, {1, 2, 3}));
  CHECK(TraceType::of(a) == TraceType::of(b));
  CHECK_FALSE(TraceType::of(a) == TraceType::of(c));
  TraceType none = TraceType::of(make_tensor_spec(Shape{kUnknownDim}, DType::Int32));
  CHECK(TraceType::of(a).is_subtype_of(none));
  CHECK(TraceType::of(c).is_subtype_of(none));
  CHECK_FALSE(none.is_subtype_of(TraceType::of(a)));
  CHECK_FALSE(TraceType::of(Value(Tensor::scalar<float>(1))).is_subtype_of(none));
  auto sup = TraceType::of(a).common_supertype(TraceType::of(c));
  REQUIRE(sup);
  CHECK(*sup == none);
}

TEST_CASE("containers are keyed element-wise and objects by identity") {
  Value l1 = Value::list({Value(1), Value(Tensor::scalar<float>(2))});
  Value l2 = Value::list({Value(1), Value(Tensor::scalar<float>(5))});
  Value t1 = Value::tuple({Value(1), Value(Tensor::scalar<float>(2))});
  CHECK(TraceType::of(l1) == TraceType::of(l2));
  CHECK_FALSE(TraceType::of(l1) == TraceType::of(t1));
  Value d1 = Value::dict({{Value("a"), Value(1)}});
  Value d2 = Value::dict({{Value("a"), Value(2)}});
  CHECK_FALSE(TraceType::of(d1) == TraceType::of(d2));
  Value o1 = Value::object("Model"), o2 = Value::object("Model");
  CHECK(TraceType::of(o1) == TraceType::of(o1));
  CHECK_FALSE(TraceType::of(o1) == TraceType::of(o2));
}

TEST_CASE("TensorSpec prints as TF prints it") {
  CHECK(tensor_spec_repr({DType::Int32, Shape{kUnknownDim}}, "") == "TensorSpec(shape=(None,), dtype=tf.int32, name=None)");
  CHECK(tensor_spec_repr({DType::String, Shape{}}, "a") == "TensorSpec(shape=(), dtype=tf.string, name='a')");
  Value s = make_tensor_spec(Shape::unknown_rank(), DType::Float32);
  CHECK(tensor_spec_of(s)->shape.str() == "<unknown>");
}

TEST_CASE("a frozenset is keyed by value; a set cannot be keyed (TF 2.15's trace_type TypeError)") {
  Value a = set_value::make({Value(1), Value(2)}, true);
  Value b = set_value::make({Value(2), Value(1)}, true);
  CHECK(TraceType::of(a) == TraceType::of(b));
  CHECK_FALSE(TraceType::of(a) == TraceType::of(set_value::make({Value(3)}, true)));
  // tensorflow/core/function/trace_type/trace_type_builder.py: a set takes no
  // weak reference and is no hashable Literal.
  CHECK_THROWS_WITH_AS(TraceType::of(set_value::make({Value(1)})),
                       "Could not generate a generic TraceType for {1}.Please verify that it is immutable/hashable. "
                       "Otheriwse, consider implementing the Tracing Protocol for it.",
                       TypeError);
}

namespace {

Value ragged_of(std::vector<int32_t> values, std::vector<int64_t> splits) {
  int64_t n = static_cast<int64_t>(values.size());
  int64_t s = static_cast<int64_t>(splits.size());
  return make_ragged({TensorHandle(Tensor::from_vector<int32_t>(Shape{n}, values)),
                      {TensorHandle(Tensor::from_vector<int64_t>(Shape{s}, splits))}});
}

}  // namespace

TEST_CASE("composites are keyed by their TypeSpec: same spec collides, rows and dtype differ") {
  Value a = ragged_of({1, 2, 3}, {0, 2, 3});     // [[1, 2], [3]]
  Value b = ragged_of({4, 5, 6, 7}, {0, 1, 4});  // [[4], [5, 6, 7]]
  Value c = ragged_of({1}, {0, 1});              // [[1]]
  TraceType ta = TraceType::of(a);
  CHECK(ta.kind() == TraceType::Kind::Composite);
  CHECK(ta == TraceType::of(b));
  CHECK(ta.hash() == TraceType::of(b).hash());
  CHECK_FALSE(ta == TraceType::of(c));
  Value spec = make_ragged_spec(Shape{kUnknownDim, kUnknownDim}, DType::Int32, 1, DType::Int64);
  CHECK(ta.is_subtype_of(TraceType::of(spec)));
  CHECK(TraceType::of(c).is_subtype_of(TraceType::of(spec)));
  CHECK_FALSE(TraceType::of(spec).is_subtype_of(ta));
  Value other_dtype = make_ragged_spec(Shape{kUnknownDim, kUnknownDim}, DType::Float32, 1, DType::Int64);
  CHECK_FALSE(ta.is_subtype_of(TraceType::of(other_dtype)));
  auto sup = ta.common_supertype(TraceType::of(c));
  REQUIRE(sup);
  CHECK(*sup == TraceType::of(spec));
  CHECK_FALSE(ta.common_supertype(TraceType::of(other_dtype)));
}

TEST_CASE("TypeSpecs print as TF's TypeSpec.__repr__") {
  Value spec = make_ragged_spec(Shape{2, kUnknownDim}, DType::Int32, 1, DType::Int64);
  CHECK(repr(spec) == "RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)");
  CHECK(repr(make_sparse_spec(Shape{kUnknownDim, 4}, DType::Float32)) == "SparseTensorSpec(TensorShape([None, 4]), tf.float32)");
  CHECK(repr(make_sparse_spec(Shape::unknown_rank(), DType::Int64)) == "SparseTensorSpec(TensorShape(None), tf.int64)");
}
