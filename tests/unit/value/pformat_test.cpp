// pprint.pformat of Values (runtime/value/pformat.h), as Python prints.
#include <doctest/doctest.h>

#include "runtime/value/pformat.h"

using namespace ag;

TEST_CASE("pformat is pprint.pformat: dicts sorted, what does not fit in 80 columns one item per line") {
  CHECK(pformat(Value("a")) == "'a'");
  CHECK(pformat(Value::dict({{Value("b"), Value(1)}, {Value("a"), Value::tuple({Value(2)})}})) == "{'a': (2,), 'b': 1}");
  std::vector<Value> items;
  for (int i = 0; i < 14; ++i) items.emplace_back("{}");
  std::string expected = "['{}',";
  for (int i = 1; i < 13; ++i) expected += "\n '{}',";
  expected += "\n '{}']";
  CHECK(pformat(Value::list(items)) == expected);
  items.pop_back();
  CHECK(pformat(Value::list(items)).find('\n') == std::string::npos);  // 78 columns fit
  std::vector<Value> long_items(30, Value(1234567));
  Value nested = Value::dict({{Value("key"), Value::list(long_items)}});
  std::string p = pformat(nested);
  CHECK(p.substr(0, 17) == "{'key': [1234567,");
  CHECK(p.find("\n         1234567,") != std::string::npos);  // under the list's first item
}
