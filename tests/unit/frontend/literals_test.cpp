#include <doctest/doctest.h>

#include "transpiler/frontend/literals.h"

using namespace agc::frontend;

TEST_CASE("string prefixes") {
  auto p = parse_string_prefix("rb'''");
  CHECK(p.raw);
  CHECK(p.bytes);
  CHECK(!p.fstring);
  CHECK(p.quote_len == 3);
  CHECK(parse_string_prefix("F\"").fstring);
  CHECK(parse_string_prefix("u'").unicode);
}

TEST_CASE("escape sequences decode as Python's") {
  CHECK(decode_escapes("a\\n\\t\\\\\\'\\x41\\101\\u00e9\\U0001F600", false).value == "a\n\t\\'AA\xc3\xa9\xf0\x9f\x98\x80");
  CHECK(decode_escapes("line\\\ncontinues", false).value == "linecontinues");
  CHECK(decode_escapes("\\d", false).value == "\\d");
  CHECK(decode_escapes("\\u00e9", true).value == "\\u00e9");
  CHECK(decode_escapes("\\xff", true).value == "\xff");
}

TEST_CASE("bad escapes report where they are") {
  auto d = decode_escapes("ab\\x4", false);
  CHECK(d.error == "truncated \\xXX escape");
  CHECK(d.error_at == 2);
  CHECK(decode_escapes("\\N{DASH}", false).error.find("not supported") != std::string::npos);
  CHECK(decode_escapes("\\ud800", false).error.find("surrogate") != std::string::npos);
  CHECK(!decode_escapes("caf\xc3\xa9", true).error.empty());
}

TEST_CASE("numbers parse to the values Python gives them") {
  CHECK(parse_number("1_000_000").value.text == "1000000");
  CHECK(parse_number("0").value.text == "0");
  CHECK(parse_number("000").value.text == "0");
  CHECK(parse_number("0xff").value.text == "255");
  CHECK(parse_number("0b1111").value.text == "15");
  CHECK(parse_number("0o777").value.text == "511");
  CHECK(parse_number("99999999999999999999999").value.text == "99999999999999999999999");
  CHECK(parse_number("2.5").value.number == 2.5);
  CHECK(parse_number("1e3").value.number == 1000.0);
  CHECK(parse_number("4j").value.kind == agc::ast::ConstantValue::Kind::Complex);
  CHECK(!parse_number("10L").error.empty());
  CHECK(!parse_number("0777").error.empty());
  CHECK(!parse_number("0b102").error.empty());
}
