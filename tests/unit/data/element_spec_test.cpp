// Element structures: TF's flat order (dict entries by sorted key), packing
// back in insertion order, and how element_spec prints.
#include <doctest/doctest.h>

#include "runtime/data/element_spec.h"

using namespace ag;
using namespace ag::data;

TEST_CASE("dict components flatten by sorted key and pack back in insertion order") {
  Value element = Value::dict({{Value("x"), Value(1.5)}, {Value("a"), Value::list({Value(1), Value(2)})}});
  std::vector<Tensor> components;
  ElementSpec spec = structure_of(element, components, "test");
  REQUIRE(components.size() == 2);
  CHECK(components[0].dtype() == DType::Int32);  // 'a' first
  CHECK(components[1].dtype() == DType::Float32);
  CHECK(spec.repr() ==
        "{'x': TensorSpec(shape=(), dtype=tf.float32, name=None), 'a': TensorSpec(shape=(2,), dtype=tf.int32, "
        "name=None)}");
  Value packed = pack(spec, components);
  CHECK(repr(packed.as_dict().entries[0].first) == "'x'");
  CHECK(packed.as_dict().entries[1].second.as_tensor().dtype() == DType::Int32);
}

TEST_CASE("tuples nest, a one-tuple prints with its comma, lists are one component") {
  std::vector<Tensor> components;
  ElementSpec spec = structure_of(Value::tuple({Value::tuple({Value(1)}), Value::list({Value(1.0), Value(2.0)})}),
                                  components, "test");
  CHECK(components.size() == 2);
  CHECK(spec.repr() ==
        "((TensorSpec(shape=(), dtype=tf.int32, name=None),), TensorSpec(shape=(2,), dtype=tf.float32, name=None))");
  CHECK_THROWS_AS(structure_of(Value(), components, "test"), TypeError);
}
