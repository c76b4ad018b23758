// DType values: tf.float32 & co., tensor/variable/TensorArray/TensorSpec .dtype.
#include <doctest/doctest.h>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/value/tensor_spec_value.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/tensor_array.h"
#include "tests/unit/error_text.h"
#include "tests/unit/value/support.h"

using namespace ag;
using namespace ag::test;

TEST_CASE("DType values print as TF's, are interned and have .name") {
  const Value& f = tf::api::float32();
  CHECK(str(f) == "<dtype: 'float32'>");
  CHECK(repr(f) == "tf.float32");
  CHECK(str(tf::api::bool_()) == "<dtype: 'bool'>");
  CHECK(str(tf::api::float16()) == "<dtype: 'float16'>");
  CHECK(str(f.getattr("name")) == "float32");
  CHECK(truthy(f.getattr("is_floating")));
  CHECK(!truthy(tf::api::int32().getattr("is_floating")));
  CHECK(f.is(dtype_value(DType::Float32)));
  CHECK(truthy(f == dtype_value(DType::Float32)));
  CHECK(!truthy(f == tf::api::int32()));
  // TF's DType.__repr__ is "tf." + name; __str__ is "<dtype: 'name'>".
  CHECK(repr(Value::list({tf::api::int64(), tf::api::string()})) == "[tf.int64, tf.string]");
  CHECK(repr(tf::api::float16()) == "tf.float16");
  CHECK(tf::api::newaxis().is_none());
}

TEST_CASE("dtype_of reads DType values and names") {
  CHECK(dtype_of(tf::api::int32()) == DType::Int32);
  CHECK(dtype_of(Value("float32")) == DType::Float32);
  CHECK(dtype_of(Value("double")) == DType::Float64);
  CHECK(!dtype_of(Value(3)).has_value());
  CHECK(!dtype_of(tf::api::float16()).has_value());
  CHECK(error_text([] { (void)require_dtype(Value(3)); }) == "TypeError: Cannot convert value 3 to a TensorFlow DType.");
  CHECK(error_text([] { (void)require_dtype(tf::api::float16()); }) ==
        "UnimplementedError: agc does not support the dtype float16");
  CHECK(str(tf::api::as_dtype({Value("int8")}, {})) == "<dtype: 'int8'>");
  CHECK(tf::api::as_dtype({builtin_value("float", py::float_)}, {}).is(tf::api::float32()));
}

TEST_CASE(".dtype of tensors, variables, TensorArrays and TensorSpecs is a DType value") {
  Value t = tf::constant(Value::list({1, 2}));
  CHECK(t.getattr("dtype").is(tf::api::int32()));
  CHECK(str(t.getattr("dtype")) == "<dtype: 'int32'>");
  Value v = tf::Variable(Value(1.5));
  CHECK(v.getattr("dtype").is(tf::api::float32()));
  Value ta = tensor_array::create(DType::Int64, Value(2));
  CHECK(ta.getattr("dtype").is(tf::api::int64()));
  Value spec = make_tensor_spec(Shape{2}, DType::String, "a");
  CHECK(spec.getattr("dtype").is(tf::api::string()));
  REQUIRE(tensor_spec_of(spec).has_value());
  CHECK(tensor_spec_of(spec)->dtype == DType::String);
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float64, Shape{2}}, "x"));
  CHECK(x.getattr("dtype").is(tf::api::float64()));
}
