// tf.nest's rows: flatten in sorted key order, map_structure over several
// structures, pack_sequence_as, and nest_util's error texts.
#include <doctest/doctest.h>

#include <string>

#include "runtime/api/python_api.h"
#include "runtime/core/error.h"

using namespace ag;
namespace tf_api = ag::tf::api;

namespace {

Value sample() {
  return Value::dict({{Value("b"), Value::list({Value(1), Value(2)})}, {Value("a"), Value::tuple({Value(3), Value(4)})}});
}

}  // namespace

TEST_CASE("tf.nest.flatten and pack_sequence_as: dict values by sorted key, rebuilt in the dict's order") {
  CHECK(str(tf_api::nest_flatten({sample()}, {})) == "[3, 4, 1, 2]");
  Value packed = tf_api::nest_pack_sequence_as({sample(), Value::list({Value(5), Value(6), Value(7), Value(8)})}, {});
  CHECK(str(packed) == "{'b': [7, 8], 'a': (5, 6)}");
  CHECK_THROWS_WITH_AS(tf_api::nest_pack_sequence_as({Value::list({Value(1), Value(2)}), Value::list({Value(1)})}, {}),
                       "Could not pack sequence. Structure had 2 atoms, but flat_sequence had 1 items.  Structure: [1, "
                       "2], flat_sequence: [1].",
                       ValueError);
  CHECK_THROWS_AS(tf_api::nest_pack_sequence_as({Value::list({Value(1)}), Value(1)}, {}), TypeError);
  CHECK(tf_api::nest_pack_sequence_as({Value(0), Value::list({Value(9)})}, {}).as_int() == 9);
}

TEST_CASE("tf.nest.map_structure zips structures and checks them first") {
  Value add = Value::callable("add", [](std::vector<Value> a, Kwargs) { return a[0] + a[1]; });
  Value x = Value::tuple({Value(1), Value::list({Value(2)})});
  Value y = Value::tuple({Value(10), Value::list({Value(20)})});
  CHECK(str(tf_api::nest_map_structure({add, x, y}, {})) == "(11, [22])");
  Value z = Value::list({Value(10), Value::list({Value(20)})});
  CHECK_THROWS_AS(tf_api::nest_map_structure({add, x, z}, {}), TypeError);
  CHECK(str(tf_api::nest_map_structure({add, x, z}, {{"check_types", Value(false)}})) == "(11, [22])");
  CHECK_THROWS_WITH_AS(tf_api::nest_map_structure({add, x}, {{"bogus", Value(1)}}),
                       "Only valid keyword arguments are `check_types` and `expand_composites`, not: `bogus`",
                       ValueError);
  CHECK(tf_api::nest_is_nested({x}, {}).as_bool());
  CHECK_FALSE(tf_api::nest_is_nested({Value(1)}, {}).as_bool());
}
