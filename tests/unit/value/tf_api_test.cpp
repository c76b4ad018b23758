// ag::tf: tf.constant's dtype inference and errors, and the op wrappers
// (eager values and traced node names).
#include <doctest/doctest.h>

#include "tests/unit/value/support.h"


#include <cstdio>

#include "runtime/api/tf_api.h"
#include "runtime/graph/graph.h"
#include "runtime/ops/registry.h"

using namespace ag;
using namespace ag::test;

TEST_CASE("tf.constant infers TF's dtypes from nested lists") {
  CHECK(str(tf::constant(L({1, 2}))) == "tf.Tensor([1 2], shape=(2,), dtype=int32)");
  CHECK(str(tf::constant(L({1, 2.5}))) == "tf.Tensor([1.  2.5], shape=(2,), dtype=float32)");
  CHECK(str(tf::constant(Value(true))) == "tf.Tensor(True, shape=(), dtype=bool)");
  CHECK(str(tf::constant(Value("aa"))) == "tf.Tensor(b'aa', shape=(), dtype=string)");
  CHECK(str(tf::constant(L({L({1, 2}), L({3, 4})}))) == "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)");
  CHECK(str(tf::constant(L({}))) == "tf.Tensor([], shape=(0,), dtype=float32)");
  CHECK(str(tf::constant(Value(int64_t{1} << 40))) == "tf.Tensor(1099511627776, shape=(), dtype=int64)");
  CHECK(str(tf::constant(Value::tuple({1, 2}), DType::Float64)) ==
        "tf.Tensor([1. 2.], shape=(2,), dtype=float64)");
  CHECK(error_of<ValueError>([] { (void)tf::constant(L({L({1, 2}), L({3})})); }) ==
        "Can't convert non-rectangular Python sequence to Tensor.");
  CHECK(error_of<ValueError>([] { (void)tf::constant(L({1, L({2})})); }) ==
        "Can't convert non-rectangular Python sequence to Tensor.");
  CHECK(error_of<TypeError>([] { (void)tf::constant(Value(1.5), DType::Int32); }) ==
        "Cannot convert 1.5 to EagerTensor of dtype int32");
  CHECK(error_of<TypeError>([] { (void)tf::constant(L({1, 2}), DType::Bool); }) ==
        "Cannot convert [1, 2] to EagerTensor of dtype bool");
  CHECK(error_of<TypeError>([] { (void)tf::constant(Value(int64_t{1} << 40), DType::Int32); }) ==
        "Cannot convert 1099511627776 to EagerTensor of dtype int32");
  CHECK(error_of<ValueError>([] { (void)tf::constant(Value()); }) ==
        "Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.");
  Graph g("f");
  TraceScope scope(g);
  Value c = tf::constant(L({1.0, 2.0}));
  CHECK(str(c) == "Tensor(\"Const:0\", shape=(2,), dtype=float32)");
  CHECK(error_of<TypeError>([] { (void)tf::constant(Value(1.5), DType::Int32); }) ==
        "Expected int32, but got 1.5 of type 'float'.");
}

TEST_CASE("convert_to_tensor: dtype, hint, tensors as they are") {
  Value t = tf::convert_to_tensor(Value(3), std::nullopt, DType::Float32);
  CHECK(t.as_tensor().dtype() == DType::Float32);
  CHECK(tf::convert_to_tensor(Value(3.5), std::nullopt, DType::Int32).as_tensor().dtype() == DType::Float32);
  Value i = tf::constant(Value(1));
  CHECK(error_of<ValueError>([&] { (void)tf::convert_to_tensor(i, DType::Float32); }) ==
        "Tensor conversion requested dtype float32 for Tensor with dtype int32: <tf.Tensor: shape=(), dtype=int32, "
        "numpy=1>");
}

TEST_CASE("elementwise wrappers take literals and name nodes as TF") {
  if (!have({"AddV2", "Mul", "Sub", "Maximum", "Sqrt", "Cast", "Equal", "LogicalAnd", "SelectV2"})) return;
  CHECK(str(tf::add(Value(1), Value(2))) == "tf.Tensor(3, shape=(), dtype=int32)");
  CHECK(str(tf::add(tf::constant(L({1.5})), Value(1))) == "tf.Tensor([2.5], shape=(1,), dtype=float32)");
  CHECK(str(tf::multiply(Value(2), tf::constant(L({1.5})))) == "tf.Tensor([3.], shape=(1,), dtype=float32)");
  CHECK(str(tf::maximum(tf::constant(L({1, 5})), Value(3))) == "tf.Tensor([3 5], shape=(2,), dtype=int32)");
  CHECK(str(tf::sqrt(Value(4.0))) == "tf.Tensor(2.0, shape=(), dtype=float32)");
  CHECK(str(tf::cast(Value(L({1, 2})), DType::Float32)) == "tf.Tensor([1. 2.], shape=(2,), dtype=float32)");
  CHECK(str(tf::divide(Value(1), tf::constant(Value(2.0)))) == "tf.Tensor(0.5, shape=(), dtype=float32)");
  CHECK(str(tf::where(tf::constant(L({true, false})), Value(L({1, 2})), Value(L({3, 4})))) ==
        "tf.Tensor([1 4], shape=(2,), dtype=int32)");
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float32, Shape{2}}, "x"));
  CHECK(node_of(tf::add(x, Value(1)))->name == "Add");
  CHECK(node_of(tf::add(x, Value(1)))->op->name == "AddV2");
  CHECK(node_of(tf::multiply(x, x))->name == "Mul");
  CHECK(node_of(tf::subtract(x, x))->name == "Sub");
  CHECK(node_of(tf::sqrt(x))->name == "Sqrt");
  CHECK(node_of(tf::cast(x, DType::Int32))->name == "Cast");
  CHECK(tf::cast(x, DType::Float32).is(x));
  CHECK(node_of(tf::equal(x, Value(1)))->name == "Equal");
  CHECK(node_of(tf::truediv(x, Value(2)))->name == "truediv");
}

TEST_CASE("array wrappers") {
  if (!have({"Reshape", "Transpose", "ConcatV2", "Pack", "Shape", "Fill", "Range", "Identity"})) return;
  Value m = tf::constant(L({L({1, 2, 3}), L({4, 5, 6})}));
  CHECK(str(tf::reshape(m, L({3, 2}))) == "tf.Tensor(\n[[1 2]\n [3 4]\n [5 6]], shape=(3, 2), dtype=int32)");
  CHECK(str(tf::transpose(m)) == "tf.Tensor(\n[[1 4]\n [2 5]\n [3 6]], shape=(3, 2), dtype=int32)");
  CHECK(str(tf::concat(L({L({1}), L({2, 3})}), Value(0))) == "tf.Tensor([1 2 3], shape=(3,), dtype=int32)");
  CHECK(str(tf::stack(L({Value(1), Value(2)}))) == "tf.Tensor([1 2], shape=(2,), dtype=int32)");
  CHECK(str(tf::shape(m)) == "tf.Tensor([2 3], shape=(2,), dtype=int32)");
  CHECK(str(tf::range(Value(3))) == "tf.Tensor([0 1 2], shape=(3,), dtype=int32)");
  CHECK(str(tf::range(Value(0), Value(1), Value(0.5))) == "tf.Tensor([0.  0.5], shape=(2,), dtype=float32)");
  // A tensor limit of another dtype is cast to `dtype`, as math_ops.range does.
  CHECK(str(tf::range(Value(1), tf::constant(3), Value(1), DType::Int64)) == "tf.Tensor([1 2], shape=(2,), dtype=int64)");
  CHECK(str(tf::ones(L({2}))) == "tf.Tensor([1. 1.], shape=(2,), dtype=float32)");
  CHECK(str(tf::zeros(Value(2), DType::Int32)) == "tf.Tensor([0 0], shape=(2,), dtype=int32)");
  CHECK(str(tf::fill(L({2}), Value(7))) == "tf.Tensor([7 7], shape=(2,), dtype=int32)");
  CHECK(str(tf::identity(Value(2))) == "tf.Tensor(2, shape=(), dtype=int32)");
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float32, Shape::unknown_dims(2)}, "x"));
  CHECK(node_of(tf::reshape(x, L({-1})))->name == "Reshape");
  CHECK(node_of(tf::transpose(x))->name == "transpose");
  CHECK(node_of(tf::shape(x))->name == "Shape");
  CHECK(node_of(tf::shape(x))->op->name == "Shape");
  CHECK(node_of(tf::ones(L({2})))->name == "ones");
  CHECK(node_of(tf::range(Value(3)))->name == "Range");
  CHECK(node_of(tf::concat(L({x, x}), Value(0)))->name == "concat");
  CHECK(node_of(tf::stack(L({x, x})))->name == "stack");
}

TEST_CASE("reductions, matmul, argmax") {
  if (!have({"Sum", "Mean", "Max", "ArgMax", "MatMul"})) return;
  Value m = tf::constant(L({L({1.0, 2.0}), L({3.0, 4.0})}));
  CHECK(str(tf::reduce_sum(m)) == "tf.Tensor(10.0, shape=(), dtype=float32)");
  CHECK(str(tf::reduce_sum(m, Value(0))) == "tf.Tensor([4. 6.], shape=(2,), dtype=float32)");
  CHECK(str(tf::reduce_mean(m, Value(1), true)) == "tf.Tensor(\n[[1.5]\n [3.5]], shape=(2, 1), dtype=float32)");
  CHECK(str(tf::reduce_max(m)) == "tf.Tensor(4.0, shape=(), dtype=float32)");
  CHECK(str(tf::argmax(tf::constant(L({1, 9, 3})))) == "tf.Tensor(1, shape=(), dtype=int64)");
  CHECK(str(tf::matmul(m, m)) == "tf.Tensor(\n[[ 7. 10.]\n [15. 22.]], shape=(2, 2), dtype=float32)");
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float32, Shape{2, 2}}, "x"));
  CHECK(node_of(tf::reduce_sum(x))->name == "Sum");
  CHECK(node_of(tf::matmul(x, x))->name == "MatMul");
  CHECK(node_of(tf::argmax(x))->name == "ArgMax");
}

TEST_CASE("tf.print formats tensors as TF and Python values with str()") {
  if (!have({"StringFormat", "PrintV2"})) return;
  Value t = tf::constant(L({0.224704742, 0.895507693, 0.0302000046, 1.5}));
  std::string out =
      output_of(1, [&] { tf::print({Value("x:"), t, Value(3), Value::list({1, "a"})}, " ", "\n", 3, "stdout"); });
  CHECK(out == "x: [0.224704742 0.895507693 0.0302000046 1.5] 3 [1, 'a']\n");
  CHECK(output_of(1, [&] { print({Value("a"), Value(1.0), Value()}); }) == "a 1.0 None\n");
}

TEST_CASE("tf.print is StringFormat + PrintV2 while tracing") {
  if (!have({"StringFormat", "PrintV2"})) return;
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float32, Shape{2}}, "x"));
  tf::print({Value("x:"), x});
  const Node* fmt = g.find("StringFormat");
  REQUIRE(fmt != nullptr);
  CHECK(fmt->attrs.get<std::string>("template") == "x: {}");
  REQUIRE(g.find("PrintV2") != nullptr);
  CHECK(g.find("PrintV2")->inputs[0].node == fmt);
}
