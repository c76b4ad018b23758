#include <doctest/doctest.h>

#include <limits>

#include "transpiler/emit/cpp_text.h"

using namespace agc::emit;

TEST_CASE("Python names that C++ or the generated code reserves get a trailing underscore") {
  CHECK(cpp_ident("x") == "x");
  CHECK(cpp_ident("double") == "double_");
  CHECK(cpp_ident("double_") == "double__");
  CHECK(cpp_ident("std") == "std_");
  CHECK(cpp_ident("ag_cell") == "ag_cell_");
  CHECK(cpp_ident("caf\xc3\xa9") == "u_cafxc3xa9_");
}

TEST_CASE("string literals round-trip any bytes") {
  CHECK(cpp_string("a\"b\n") == "\"a\\\"b\\n\"");
  CHECK(cpp_string("?") == "\"\\?\"");  // no trigraph can form
  CHECK(cpp_string(std::string("\x01" "a", 2)) == "\"\\x01\" \"a\"");
  CHECK(cpp_string(std::string("\x01g", 2)) == "\"\\x01g\"");
}

TEST_CASE("number literals keep their value") {
  CHECK(cpp_double(0.1) == "0.1");
  CHECK(cpp_double(2) == "2.0");
  CHECK(cpp_double(1e300) == "1e+300");
  CHECK(cpp_double(std::numeric_limits<double>::infinity()) == "std::numeric_limits<double>::infinity()");
  CHECK(cpp_int("7") == "7");
  CHECK(cpp_int("4294967296") == "int64_t{4294967296}");
  CHECK(cpp_int("99999999999999999999") == "");
}
