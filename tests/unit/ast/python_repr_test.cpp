#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "transpiler/ast/python_repr.h"

using namespace agc::ast;

TEST_CASE("str repr picks quotes and escapes like CPython") {
  CHECK(repr_str("abc") == "'abc'");
  CHECK(repr_str("it's") == "\"it's\"");
  CHECK(repr_str("say \"hi\"") == "'say \"hi\"'");
  CHECK(repr_str("both ' and \"") == "'both \\' and \"'");
  CHECK(repr_str("a\\b") == "'a\\\\b'");
  CHECK(repr_str("tab\tnl\ncr\r") == "'tab\\tnl\\ncr\\r'");
  CHECK(repr_str(std::string("\x00\x1f\x7f", 3)) == "'\\x00\\x1f\\x7f'");
}

TEST_CASE("str repr keeps printable non-ASCII and escapes invisible characters") {
  CHECK(repr_str("caf\xc3\xa9") == "'caf\xc3\xa9'");
  CHECK(repr_str("\xed\x95\x9c\xea\xb8\x80") == "'\xed\x95\x9c\xea\xb8\x80'");  // 한글
  CHECK(repr_str("\xc2\xa0") == "'\\xa0'");                                      // no-break space
  CHECK(repr_str("\xe2\x80\x8b") == "'\\u200b'");                                // zero-width space
  CHECK(repr_str("\xf3\xa0\x80\x81") == "'\\U000e0001'");                        // language tag
}

TEST_CASE("bytes repr escapes everything outside printable ASCII") {
  CHECK(repr_bytes("ab") == "b'ab'");
  CHECK(repr_bytes(std::string("\x00\xff", 2)) == "b'\\x00\\xff'");
  CHECK(repr_bytes("it's") == "b\"it's\"");
}

TEST_CASE("float repr uses the shortest round-trip digits and Python's exponent switch") {
  CHECK(repr_float(1.0) == "1.0");
  CHECK(repr_float(0.1) == "0.1");
  CHECK(repr_float(2.5) == "2.5");
  CHECK(repr_float(1e16) == "1e+16");
  CHECK(repr_float(1e15) == "1000000000000000.0");
  CHECK(repr_float(0.0001) == "0.0001");
  CHECK(repr_float(0.00001) == "1e-05");
  CHECK(repr_float(1.5e-7) == "1.5e-07");
  CHECK(repr_float(123456.789) == "123456.789");
  CHECK(repr_float(-0.0) == "-0.0");
  CHECK(repr_float(1.7976931348623157e308) == "1.7976931348623157e+308");
  CHECK(repr_float(std::numeric_limits<double>::infinity()) == "inf");
}

TEST_CASE("imaginary repr drops the .0 of whole numbers") {
  CHECK(repr_imag(2.0) == "2j");
  CHECK(repr_imag(2.5) == "2.5j");
  CHECK(repr_imag(0.0) == "0j");
  CHECK(repr_imag(1e20) == "1e+20j");
}

TEST_CASE("constants print as astunparse writes them") {
  using agc::ast::ConstantValue;
  CHECK(repr_constant(ConstantValue::none()) == "None");
  CHECK(repr_constant(ConstantValue::of_bool(true)) == "True");
  CHECK(repr_constant(ConstantValue::of_int("123456789012345678901234567890")) == "123456789012345678901234567890");
  CHECK(repr_constant(ConstantValue::ellipsis()) == "...");
  CHECK(repr_constant(ConstantValue::of_float(std::numeric_limits<double>::infinity())) == "1e309");
  auto u = ConstantValue::of_str("x");
  u.u_prefix = true;
  CHECK(repr_constant(u) == "u'x'");
}
