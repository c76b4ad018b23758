// tf.nest over Values (runtime/value/nest.h), with TF's texts.
#include <doctest/doctest.h>

#include "runtime/value/nest.h"

using namespace ag;

namespace {

Value dict(std::vector<std::pair<Value, Value>> entries) { return Value::dict(std::move(entries)); }

std::string joined(const std::vector<Value>& leaves) {
  std::string s;
  for (const Value& v : leaves) s += repr(v) + " ";
  return s;
}

}  // namespace

TEST_CASE("nest flattens dicts in sorted key order and rebuilds them in their own") {
  Value s = Value::tuple({Value(1), Value::list({dict({{Value("b"), Value(2)}, {Value("a"), Value(3)}}), Value(4)})});
  CHECK(joined(nest::flatten(s)) == "1 3 2 4 ");
  int next = 10;
  Value mapped = nest::map_structure(s, [&](const Value&) { return Value(next++); });
  CHECK(repr(mapped) == "(10, [{'b': 12, 'a': 11}, 13])");
  CHECK(joined(nest::flatten(Value())) == "None ");
  CHECK_THROWS_WITH_AS(nest::flatten(dict({{Value(1), Value(1)}, {Value("a"), Value(2)}})),
                       "nest only supports dicts with sortable keys.", TypeError);
}

TEST_CASE("nest's structure mismatches read as TF's assert_same_structure") {
  auto message = [](const Value& a, const Value& b) {
    std::optional<nest::Mismatch> m = nest::structure_mismatch(a, b);
    return m ? std::string(m->type_error ? "TypeError: " : "ValueError: ") + m->message : std::string("same");
  };
  CHECK(message(Value::list({Value(1), Value(2)}), Value::list({Value(3), Value(4)})) == "same");
  CHECK(message(dict({{Value("a"), Value(1)}}), dict({{Value("a"), Value(1)}, {Value("b"), Value(2)}})) ==
        "ValueError: The two structures don't have the same nested structure.\n\n"
        "First structure: type=dict str={'a': 1}\n\n"
        "Second structure: type=dict str={'a': 1, 'b': 2}\n\n"
        "More specifically: The two dictionaries don't have the same set of keys. First structure has keys "
        "type=list str=['a'], while second structure has keys type=list str=['a', 'b']\n"
        "Entire first structure:\n{'a': .}\nEntire second structure:\n{'a': ., 'b': .}");
  CHECK(message(Value::list({Value(1)}), Value::tuple({Value(1)})) ==
        "TypeError: The two structures don't have the same nested structure.\n\n"
        "First structure: type=list str=[1]\n\nSecond structure: type=tuple str=(1,)\n\n"
        "More specifically: The two namedtuples don't have the same sequence type. First structure type=list "
        "str=[1] has type list, while second structure type=tuple str=(1,) has type tuple\n"
        "Entire first structure:\n[.]\nEntire second structure:\n(.,)");
  CHECK(message(Value::list({Value(1), Value::list({Value(2)})}), Value::list({Value(1), Value(2), Value(3)}))
            .find("More specifically: Substructure \"type=list str=[2]\" is a sequence, while substructure "
                  "\"type=int str=2\" is not\n") != std::string::npos);
  CHECK(message(Value::list({Value(1)}), Value::list({Value(1), Value(2)}))
            .find("More specifically: The two structures don't have the same number of elements. First structure: "
                  "type=list str=[1]. Second structure: type=list str=[1, 2]\n") != std::string::npos);
}
