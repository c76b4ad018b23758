// The strict JSON reader and writer behind ARGS_JSON and --results lines.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "runtime/api/json.h"

using namespace ag::json;

namespace {

// The reader's error text for `text` ("<no error>" when it parses).
std::string parse_error(const std::string& text) {
  try {
    parse(text);
  } catch (const JsonError& e) {
    return e.what();
  }
  return "<no error>";
}

std::string round_trip(const std::string& text) { return write(parse(text)); }

}  // namespace

TEST_CASE("numbers without a fraction or exponent are ints, others floats, as json.loads reads them") {
  CHECK(parse("3").is_int());
  CHECK(parse("3").as_int() == 3);
  CHECK(parse("-0").is_int());
  CHECK(parse("3.0").is_float());
  CHECK(parse("3e0").is_float());
  CHECK(parse("-2.5E-3").as_float() == doctest::Approx(-0.0025));
  CHECK(parse("9223372036854775807").as_int() == INT64_MAX);
  CHECK(parse("-9223372036854775808").as_int() == INT64_MIN);
}

TEST_CASE("documents round-trip through the writer with Python's separators and float digits") {
  CHECK(round_trip("[1,2.5,\"a\",null,true,false]") == "[1, 2.5, \"a\", null, true, false]");
  CHECK(round_trip(" { \"a\" : [ ] , \"b\":{}} ") == "{\"a\": [], \"b\": {}}");
  CHECK(round_trip("0.1") == "0.1");
  CHECK(round_trip("2.0") == "2.0");
  CHECK(round_trip("1e16") == "1e+16");
  CHECK(round_trip("1e-7") == "1e-07");
  CHECK(round_trip("0.30000000000000004") == "0.30000000000000004");
  CHECK(round_trip("[NaN, Infinity, -Infinity]") == "[NaN, Infinity, -Infinity]");
  CHECK(std::isnan(parse("NaN").as_float()));
  CHECK(round_trip("{\"k\": 1, \"k\": 2}") == "{\"k\": 1, \"k\": 2}");
}

TEST_CASE("strings: escapes read, and written back as JSON that is always valid") {
  CHECK(parse(R"("a\"b\\c\/d\n\t")").as_string() == "a\"b\\c/d\n\t");
  CHECK(parse(R"("\u00e9")").as_string() == "\xc3\xa9");
  CHECK(parse(R"("\ud83d\ude00")").as_string() == "\xf0\x9f\x98\x80");
  CHECK(round_trip(R"("caf\u00e9 \ud83d\ude00")") == "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"");
  std::string out;
  write_string(out, std::string("a\x01\x7f\n\"", 5));
  CHECK(out == "\"a\\u0001\\u007f\\n\\\"\"");
  out.clear();
  write_string(out, "caf\xe9");  // Latin-1 bytes: not UTF-8
  CHECK(out == "\"caf\\u00e9\"");
  out.clear();
  write_string(out, "\xc0\xaf");  // overlong '/'
  CHECK(out == "\"\\u00c0\\u00af\"");
}

TEST_CASE("strings read back as the bytes they were written from (found by json_args_fuzz)") {
  // A byte that is not UTF-8 inside a string was kept, then written as
  // \u00ab, which reads back as another character ("\xc2\xab").
  CHECK(parse_error("[\"\xabtensor\"]") == "invalid UTF-8 byte 0xab in a string at offset 2");
  CHECK(parse_error("\"\xed\xa0\x80\"") == "invalid UTF-8 byte 0xed in a string at offset 1");  // a raw surrogate
  CHECK(parse_error("\"\xc0\xaf\"") == "invalid UTF-8 byte 0xc0 in a string at offset 1");      // overlong
  CHECK(parse_error("\"\xe2\x82\"") == "invalid UTF-8 byte 0xe2 in a string at offset 1");      // cut short
  // A lone surrogate escape is kept (as Python's json.loads keeps it) and
  // written as the same escape, as json.dumps writes it.
  CHECK(round_trip(R"("a\ud800b\udfff")") == R"("a\ud800b\udfff")");
  CHECK(round_trip(round_trip(R"(["\udc00", "\ud83d\ude00"])")) == "[\"\\udc00\", \"\xf0\x9f\x98\x80\"]");
}

TEST_CASE("malformed documents are errors naming what is wrong and where") {
  CHECK(parse_error("[1, 2") == "expected ',' or ']' but found end of input at offset 5");
  CHECK(parse_error("[1 2]") == "expected ',' or ']' but found '2' at offset 3");
  CHECK(parse_error("[1,]") == "expected a JSON value but found ']' at offset 3");
  CHECK(parse_error("{\"a\" 1}") == "expected ':' but found '1' at offset 5");
  CHECK(parse_error("{a: 1}") == "expected a string key but found 'a' at offset 1");
  CHECK(parse_error("") == "expected a JSON value but found end of input at offset 0");
  CHECK(parse_error("[1] x") == "unexpected text after the JSON value at offset 4");
  CHECK(parse_error("01") == "leading zeros are not allowed in JSON numbers at offset 1");
  CHECK(parse_error("1.") == "expected a digit after '.' at offset 2");
  CHECK(parse_error("-") == "expected a digit but found end of input at offset 1");
  CHECK(parse_error("'a'") == "expected a JSON value but found ''' at offset 0");
  CHECK(parse_error("\"abc") == "unterminated string at offset 4");
  CHECK(parse_error("\"a\nb\"") == "control character in string (write it as an escape) at offset 2");
  CHECK(parse_error(R"("\x")") == "invalid escape '\\x' at offset 2");
  CHECK(parse_error(R"("\u12G4")") == "invalid \\u escape at offset 5");
  CHECK(parse_error("99999999999999999999") == "integer 99999999999999999999 does not fit in 64 bits at offset 0");
  CHECK(parse_error("tru") == "expected a JSON value but found 't' at offset 0");
  CHECK(parse_error("\x80") == "expected a JSON value but found byte 0x80 at offset 0");
}

TEST_CASE("deep nesting is refused, not a stack overflow") {
  std::string deep(100000, '[');
  CHECK(parse_error(deep).find("nested deeper than 512 levels") != std::string::npos);
  std::string ok = std::string(500, '[') + std::string(500, ']');
  CHECK(write(parse(ok)).size() == 1000);
}

TEST_CASE("an object keeps duplicate keys in document order, for its reader to judge") {
  // The arguments decoder refuses {"kwargs": {"x": 1, "x": 2}} ("keyword
  // argument "x" given twice"); a reader that kept only the last would pass 2.
  Json j = parse(R"({"x": 1, "y": 2, "x": 3})");
  const Object& o = j.as_object();
  REQUIRE(o.size() == 3);
  CHECK(o[0].first == "x");
  CHECK(o[0].second.as_int() == 1);
  CHECK(o[2].first == "x");
  CHECK(o[2].second.as_int() == 3);
  CHECK(write(j) == R"({"x": 1, "y": 2, "x": 3})");
}
