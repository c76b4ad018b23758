// Python operators with tensor operands: TF ops through apply_op, eager or
// traced, with TF's node names, literal dtype adoption and error texts.
#include <doctest/doctest.h>

#include "tests/unit/value/support.h"

#include "runtime/graph/graph.h"
#include "runtime/ops/registry.h"
#include "runtime/value/value.h"

using namespace ag;
using namespace ag::test;

namespace {



Value f32(std::vector<float> v) { return Value(Tensor::from_vector<float>({static_cast<int64_t>(v.size())}, v)); }
Value i32(std::vector<int32_t> v) {
  return Value(Tensor::from_vector<int32_t>({static_cast<int64_t>(v.size())}, v));
}


}  // namespace

TEST_CASE("eager tensor + Python literal adopts the tensor's dtype") {
  if (!have({"AddV2", "Mul", "Sub"})) return;
  Value r = f32({1.5f, 2.f}) + Value(4);
  REQUIRE(r.is_tensor());
  CHECK_FALSE(r.as_tensor().symbolic());
  CHECK(str(r) == "tf.Tensor([5.5 6. ], shape=(2,), dtype=float32)");
  CHECK(str(Value(4) * i32({1, 2})) == "tf.Tensor([4 8], shape=(2,), dtype=int32)");
  CHECK(str(Value(10) - i32({1, 2})) == "tf.Tensor([9 8], shape=(2,), dtype=int32)");
  CHECK(str(f32({1.f}) * Value(true)) == "tf.Tensor([1.], shape=(1,), dtype=float32)");
}

TEST_CASE("a float literal with an int tensor is TF's error") {
  if (!have({"AddV2", "Mul"})) return;
  // x * 1.5 and 1.5 * x: convert_to_tensor(1.5, dtype=int32) fails.
  CHECK(error_of<TypeError>([] { (void)(i32({1}) * Value(1.5)); }) ==
        "Cannot convert 1.5 to EagerTensor of dtype int32");
  CHECK(error_of<TypeError>([] { (void)(Value(1.5) * i32({1})); }) ==
        "Cannot convert 1.5 to EagerTensor of dtype int32");
  // x + 1.5: y converts with int32 only as a hint, then AddV2 sees int32 and float.
  CHECK(error_of<InvalidArgumentError>([] { (void)(i32({1}) + Value(1.5)); }) ==
        "cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor but is a float tensor");
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Int32, Shape{}}, "x"));
  CHECK(error_of<TypeError>([&] { (void)(x * Value(1.5)); }) ==
        "Expected int32 passed to parameter 'y' of op 'Mul', got 1.5 of type 'float' instead. Error: Expected "
        "int32, but got 1.5 of type 'float'.");
  CHECK(error_of<TypeError>([&] { (void)(x + Value(1.5)); }) ==
        "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'.");
}

TEST_CASE("two tensors of different dtypes: the op's error") {
  if (!have({"AddV2", "RealDiv"})) return;
  CHECK(error_of<InvalidArgumentError>([] { (void)(f32({1.f}) + i32({1})); }) ==
        "cannot compute AddV2 as input #1(zero-based) was expected to be a float tensor but is a int32 tensor");
  CHECK(error_of<TypeError>([] { (void)(f32({1.f}) / i32({1})); }) ==
        "`x` and `y` must have the same dtype, got tf.float32 != tf.int32.");
}

TEST_CASE("int tensors divide as TF's truediv: cast to float64") {
  if (!have({"RealDiv", "Cast"})) return;
  Value r = i32({1, 3}) / Value(2);
  CHECK(str(r) == "tf.Tensor([0.5 1.5], shape=(2,), dtype=float64)");
  CHECK(str(f32({3.f}) / Value(2)) == "tf.Tensor([1.5], shape=(1,), dtype=float32)");
}

TEST_CASE("floor division and modulo of tensors") {
  if (!have({"FloorDiv", "FloorMod", "Pow", "Neg"})) return;
  CHECK(str(floordiv(i32({-7, 7}), Value(2))) == "tf.Tensor([-4  3], shape=(2,), dtype=int32)");
  CHECK(str(i32({-7, 7}) % Value(2)) == "tf.Tensor([1 1], shape=(2,), dtype=int32)");
  CHECK(str(pow(i32({2, 3}), Value(2))) == "tf.Tensor([4 9], shape=(2,), dtype=int32)");
  CHECK(str(-i32({2})) == "tf.Tensor([-2], shape=(1,), dtype=int32)");
}

TEST_CASE("&, |, ^ and ~ on integer tensors are bitwise; on bool tensors logical") {
  CHECK(str(i32({12, -1}) & Value(10)) == "tf.Tensor([ 8 10], shape=(2,), dtype=int32)");
  CHECK(str(i32({12, -1}) | i32({3, 0})) == "tf.Tensor([15 -1], shape=(2,), dtype=int32)");
  CHECK(str(Value(5) ^ i32({1, 6})) == "tf.Tensor([4 3], shape=(2,), dtype=int32)");
  CHECK(str(~i32({0, -6})) == "tf.Tensor([-1  5], shape=(2,), dtype=int32)");
  Value t(Tensor::from_vector<bool>({2}, {true, false}));
  CHECK(str(t ^ Value(true)) == "tf.Tensor([False  True], shape=(2,), dtype=bool)");
  CHECK(str(~t) == "tf.Tensor([False  True], shape=(2,), dtype=bool)");
}

TEST_CASE("comparisons of tensors are bool tensors; == None is False") {
  if (!have({"Less", "Greater", "Equal"})) return;
  CHECK(str(i32({1, 5}) < Value(3)) == "tf.Tensor([ True False], shape=(2,), dtype=bool)");
  // 3 < t is t.__gt__(3).
  CHECK(str(Value(3) < i32({1, 5})) == "tf.Tensor([False  True], shape=(2,), dtype=bool)");
  CHECK(str(i32({1, 5}) == Value(5)) == "tf.Tensor([False  True], shape=(2,), dtype=bool)");
  CHECK(py_equal(i32({1}) == Value(), Value(false)));
  CHECK(py_equal(i32({1}) != Value(), Value(true)));
}

TEST_CASE("while tracing: symbolic results, TF's node names, Python ints stay Python") {
  if (!have({"AddV2", "Mul", "Sub", "RealDiv", "Less", "Neg", "Cast"})) return;
  Graph g("f");
  TraceScope scope(g);
  Value a(g.placeholder({DType::Int32, Shape{}}, "a"));
  Value s1 = a + a;
  Value s2 = a + Value(1);
  REQUIRE(s1.as_tensor().symbolic());
  CHECK(node_of(s1)->name == "add");
  CHECK(node_of(s1)->op->name == "AddV2");
  CHECK(node_of(s2)->name == "add_1");
  CHECK(str(s1) == "Tensor(\"add:0\", shape=(), dtype=int32)");
  // The literal became a Const of the tensor's dtype.
  const Node* lit = node_of(s2)->inputs[1].node;
  CHECK(lit->op->name == "Const");
  CHECK(lit->outputs[0].dtype == DType::Int32);
  CHECK(node_of(a * Value(2))->name == "mul");
  CHECK(node_of(a - Value(2))->name == "sub");
  CHECK(node_of(a / Value(2))->name == "truediv");
  CHECK(node_of(a / Value(2))->op->name == "RealDiv");
  CHECK(node_of(a / Value(2))->outputs[0].dtype == DType::Float64);
  CHECK(node_of(a < Value(2))->name == "Less");
  CHECK(node_of(-a)->name == "Neg");
  Value py = Value(3) + Value(4);
  CHECK(py.is_int());
  CHECK(py.as_int() == 7);
}

TEST_CASE("bool of a tensor") {
  CHECK(truthy(Value(Tensor::scalar<int32_t>(3))));
  CHECK_FALSE(truthy(Value(Tensor::scalar<float>(0.f))));
  CHECK(truthy(i32({1})));
  CHECK(error_of<ValueError>([] { (void)truthy(i32({1, 2})); }) ==
        "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
  Graph g("f");
  Value a(g.placeholder({DType::Bool, Shape{}}, "a"));
  std::string msg = error_of<OperatorNotAllowedInGraphError>([&] { (void)truthy(a); });
  CHECK(msg.rfind("Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt the following "
                  "resolutions to the problem: If you are running in Graph mode, use Eager execution mode or "
                  "decorate this function with @tf.function.",
                  0) == 0);
  // It is a TypeError too, as in TF.
  CHECK_THROWS_AS((void)truthy(a), TypeError);
  CHECK_THROWS_AS((void)iterate(a), OperatorNotAllowedInGraphError);
  CHECK(error_of<TypeError>([&] { (void)len(a); }) ==
        "len is not well defined for a symbolic Tensor (a:0). Please call `x.shape` rather than `len(x)` for shape "
        "information.");
  CHECK_THROWS_WITH_AS((void)hash(a), "Tensor is unhashable. Instead, use tensor.ref() as the key.", TypeError);
}

TEST_CASE("tensor indexing is StridedSlice") {
  if (!have({"StridedSlice"})) return;
  Value t = i32({10, 20, 30, 40});
  CHECK(str(getitem(t, Value(-1))) == "tf.Tensor(40, shape=(), dtype=int32)");
  CHECK(str(getslice(t, {Value(1), Value(), Value()})) == "tf.Tensor([20 30 40], shape=(3,), dtype=int32)");
  CHECK(str(getslice(t, {Value(), Value(), Value(-2)})) == "tf.Tensor([40 20], shape=(2,), dtype=int32)");
  CHECK(len(t) == 4);
  std::vector<Value> items = iterate(t);
  REQUIRE(items.size() == 4);
  CHECK(str(items[2]) == "tf.Tensor(30, shape=(), dtype=int32)");
  Value m(Tensor::from_vector<int32_t>({2, 2}, {1, 2, 3, 4}));
  CHECK(str(getitem(m, {SliceSpec{}, Value(1)})) == "tf.Tensor([2 4], shape=(2,), dtype=int32)");
  // A scalar tensor index: begin and end are stacks of per-dim scalars.
  if (!have({"Pack", "AddV2"})) return;
  CHECK(str(getitem(m, Value::tuple({Value(Tensor::scalar<int32_t>(1)), Value(0)}))) ==
        "tf.Tensor(3, shape=(), dtype=int32)");
  CHECK(str(getitem(t, Value(Tensor::scalar<int64_t>(-2)))) == "tf.Tensor(30, shape=(), dtype=int32)");
  CHECK_THROWS_AS((void)getitem(t, Value(Tensor::scalar<float>(1.f))), TypeError);
  Graph g("f");
  TraceScope scope(g);
  Value a(g.placeholder({DType::Float32, Shape{3}}, "a"));
  CHECK(node_of(getitem(a, Value(0)))->name == "strided_slice");
  CHECK(node_of(getitem(a, Value(0)))->outputs[0].shape == Shape{});
  Value i(g.placeholder({DType::Int32, Shape{}}, "i"));
  Value r = getitem(a, i);
  CHECK(node_of(r)->op->name == "StridedSlice");
  CHECK(node_of(r)->inputs[1].node->op->name == "Pack");
  CHECK(r.as_tensor().shape() == Shape{});
  // x[t] with a tensor t: the dims after the subscript keep their sizes, as
  // TF infers them (a dynamic_rnn's x[t] @ w needs [batch, features] known).
  Value x(g.placeholder({DType::Float32, Shape{100, 32, 256}}, "x"));
  CHECK(getitem(x, i).as_tensor().shape() == (Shape{32, 256}));
  CHECK(getitem(x, {SliceSpec{}, i}).as_tensor().shape() == (Shape{-1, 256}));
  // Ellipsis stands for the dims not named; with a tensor index after it too.
  CHECK(getitem(x, Value::tuple({Value::ellipsis(), Value(0)})).as_tensor().shape() == (Shape{100, 32}));
  CHECK(getitem(x, Value::tuple({i, Value::ellipsis()})).as_tensor().shape() == (Shape{32, 256}));
  CHECK(getitem(x, Value::tuple({Value::ellipsis(), i})).as_tensor().shape() == (Shape{100, 32}));
}

TEST_CASE("Ellipsis: x[...], x[..., k], newaxis after it, one per subscript, and on lists") {
  if (!have({"StridedSlice"})) return;
  Value m(Tensor::from_vector<int32_t>({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}));
  CHECK(str(getitem(m, Value::tuple({Value::ellipsis(), Value(1)}))) ==
        "tf.Tensor(\n[[2 4]\n [6 8]], shape=(2, 2), dtype=int32)");
  CHECK(getitem(m, Value::ellipsis()).as_tensor().shape() == (Shape{2, 2, 2}));
  CHECK(str(getitem(m, Value::tuple({Value(0), Value::ellipsis(), Value(0)}))) ==
        "tf.Tensor([1 3], shape=(2,), dtype=int32)");
  CHECK(getitem(m, std::vector<IndexPart>{Value::ellipsis(), Value(), SliceSpec{Value(), Value(), Value(2)}})
            .as_tensor()
            .shape() == (Shape{2, 2, 1, 1}));
  CHECK(error_of<InvalidArgumentError>([&] {
          (void)getitem(m, Value::tuple({Value::ellipsis(), Value(0), Value::ellipsis()}));
        }) == "Multiple ellipses in slice spec not allowed");
  CHECK(error_of<TypeError>([&] { (void)getitem(Value::list({1, 2}), Value::ellipsis()); }) ==
        "list indices must be integers or slices, not ellipsis");
  CHECK(repr(Value::ellipsis()) == "Ellipsis");
  CHECK(str(Value::ellipsis()) == "Ellipsis");
  CHECK(Value::ellipsis().is(Value::ellipsis()));
  CHECK(Value::ellipsis().type_name() == "ellipsis");
  CHECK_FALSE(Value::object("ellipsis").is_ellipsis());  // only the one object is Ellipsis
}
