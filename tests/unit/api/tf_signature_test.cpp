// Signatures as text (runtime/api/tf_signature.h): parsing TF's Python
// signatures and binding calls to them with Python's TypeError texts.
#include <doctest/doctest.h>

#include <stdexcept>

#include "runtime/api/tf_signature.h"
#include "runtime/value/dtype_value.h"
#include "tests/unit/error_text.h"

using namespace ag;
using ag::api::bind;
using ag::api::parse_signature;
using ag::api::Signature;
using ag::test::error_text;

TEST_CASE("a signature's parameters and their Python default values") {
  Signature s = parse_signature(
      "f(x, a=None, b=True, c=False, d=-1, e=1.5, s='CONSTANT', n='\\n', t=tf.float32, u=tf.dtypes.int64, "
      "o=sys.stderr)");
  CHECK(s.name == "f");
  REQUIRE(s.params.size() == 11);
  CHECK(s.params[0].name == "x");
  CHECK(!s.params[0].default_value);
  CHECK(s.params[1].default_value->is_none());
  CHECK(s.params[2].default_value->is_bool());
  CHECK(s.params[2].default_value->as_bool());
  CHECK(!s.params[3].default_value->as_bool());
  CHECK(s.params[4].default_value->as_int() == -1);
  CHECK(s.params[5].default_value->as_float() == 1.5);
  CHECK(s.params[6].default_value->as_str() == "CONSTANT");
  CHECK(s.params[7].default_value->as_str() == "\n");
  CHECK(require_dtype(*s.params[8].default_value) == DType::Float32);
  CHECK(require_dtype(*s.params[9].default_value) == DType::Int64);
  CHECK(s.params[10].default_value->as_str() == "sys.stderr");
  CHECK(!s.varargs);
  CHECK(!s.varkw);
  CHECK(s.find("e") == 5u);
  CHECK(!s.find("z"));
  CHECK(parse_signature("g()").params.empty());
  // Exponents, signed (tf.math.l2_normalize's epsilon=1e-12).
  Signature e = parse_signature("h(eps=1e-12, big=2.5e+3, m=-1e-3)");
  CHECK(e.params[0].default_value->as_float() == 1e-12);
  CHECK(e.params[1].default_value->as_float() == 2500.0);
  CHECK(e.params[2].default_value->as_float() == -1e-3);
}

TEST_CASE("*args and **kwargs in a signature") {
  Signature s = parse_signature("einsum(equation, *inputs, **kwargs)");
  CHECK(s.varargs == 1u);
  CHECK(s.varkw == 2u);
  Signature p = parse_signature("print_v2(*inputs, sep=' ', name=None)");
  CHECK(p.varargs == 0u);
  CHECK(p.params.size() == 3);
}

TEST_CASE("text outside the supported subset is a mistake in the table") {
  for (const char* bad : {"f(x=1, y)", "f(x", "f(x) y", "f(**k, x=1)", "f(x=[1])", "f(x='a)", "f(*a, *b)", "(x)",
                          "f(x=tf.float99)", "f(x=os.sep)", "f(*a, k)"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_signature(bad), std::invalid_argument);
  }
  CHECK(parse_signature("f(a, b=1, *c, d=2)").params.size() == 4);
}

TEST_CASE("binding fills defaults and reads as Python's errors") {
  Signature s = parse_signature("reduce_sum(input_tensor, axis=None, keepdims=False, name=None)");
  std::vector<Value> a = bind(s, {Value(1)}, {{"keepdims", Value(true)}});
  REQUIRE(a.size() == 4);
  CHECK(a[0].as_int() == 1);
  CHECK(a[1].is_none());
  CHECK(a[2].as_bool());
  CHECK(error_text([&] { bind(s, {}, {}); }) ==
        "TypeError: reduce_sum() missing 1 required positional argument: 'input_tensor'");
  CHECK(error_text([&] { bind(s, {Value(1)}, {{"axes", Value(0)}}); }) ==
        "TypeError: reduce_sum() got an unexpected keyword argument 'axes'");
  CHECK(error_text([&] { bind(s, {Value(1), Value(2), Value(3), Value(4), Value(5)}, {}); }) ==
        "TypeError: reduce_sum() takes from 1 to 4 positional arguments but 5 were given");
  CHECK(error_text([&] { bind(s, {Value(1)}, {{"input_tensor", Value(2)}}); }) ==
        "TypeError: reduce_sum() got multiple values for argument 'input_tensor'");
}

TEST_CASE("binding *args, keyword-only parameters and **kwargs") {
  Signature p = parse_signature("print_v2(*inputs, sep=' ', name=None)");
  std::vector<Value> a = bind(p, {Value(1), Value("x")}, {{"sep", Value("-")}});
  REQUIRE(a.size() == 3);
  REQUIRE(a[0].is_tuple());
  CHECK(a[0].items().size() == 2);
  CHECK(a[1].as_str() == "-");
  CHECK(bind(p, {}, {})[0].items().empty());
  CHECK(error_text([&] { bind(p, {}, {{"bogus", Value(1)}}); }) ==
        "TypeError: print_v2() got an unexpected keyword argument 'bogus'");

  Signature e = parse_signature("einsum(equation, *inputs, **kwargs)");
  std::vector<Value> b = bind(e, {Value("ij->ji"), Value(1)}, {{"optimize", Value("greedy")}});
  CHECK(b[0].as_str() == "ij->ji");
  CHECK(b[1].items().size() == 1);
  REQUIRE(b[2].is_dict());
  CHECK(b[2].as_dict().size() == 1);
  CHECK(b[2].as_dict().at(Value("optimize")).as_str() == "greedy");
  CHECK(error_text([&] { bind(e, {}, {}); }) == "TypeError: einsum() missing 1 required positional argument: 'equation'");
}
