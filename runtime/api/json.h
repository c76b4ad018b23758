// A small strict JSON reader and writer for the program's command line
// (ARGS_JSON) and its --results lines. Strict: RFC 8259 syntax, one value and
// nothing after it, no comments or trailing commas; a problem is a JsonError
// naming the byte offset. Two departures, both Python's json module's: the
// reader and writer accept NaN, Infinity and -Infinity (json.dumps writes
// them), and numbers written without '.', 'e' or 'E' are ints (3 is an int,
// 3.0 a float, as json.loads reads them).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ag::json {

class JsonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Json;
using Array = std::vector<Json>;
/// Members in document order (duplicate keys are kept as given; readers of
/// an object decide what a duplicate means).
using Object = std::vector<std::pair<std::string, Json>>;

struct Json {
  // Arrays and objects are boxed so that Json is a complete type inside them.
  using Storage =
      std::variant<std::nullptr_t, bool, int64_t, double, std::string, std::shared_ptr<Array>, std::shared_ptr<Object>>;
  Storage v = nullptr;

  Json() = default;
  Json(std::nullptr_t) {}                                                // NOLINT
  Json(bool b) : v(b) {}                                                 // NOLINT
  Json(int i) : v(static_cast<int64_t>(i)) {}                            // NOLINT
  Json(int64_t i) : v(i) {}                                              // NOLINT
  Json(double d) : v(d) {}                                               // NOLINT
  Json(std::string s) : v(std::move(s)) {}                               // NOLINT
  Json(const char* s) : v(std::string(s)) {}                             // NOLINT
  Json(Array a) : v(std::make_shared<Array>(std::move(a))) {}            // NOLINT
  Json(Object o) : v(std::make_shared<Object>(std::move(o))) {}          // NOLINT

  bool is_null() const { return std::holds_alternative<std::nullptr_t>(v); }
  bool is_bool() const { return std::holds_alternative<bool>(v); }
  bool is_int() const { return std::holds_alternative<int64_t>(v); }
  bool is_float() const { return std::holds_alternative<double>(v); }
  bool is_string() const { return std::holds_alternative<std::string>(v); }
  bool is_array() const { return std::holds_alternative<std::shared_ptr<Array>>(v); }
  bool is_object() const { return std::holds_alternative<std::shared_ptr<Object>>(v); }

  bool as_bool() const { return std::get<bool>(v); }
  int64_t as_int() const { return std::get<int64_t>(v); }
  double as_float() const { return std::get<double>(v); }
  const std::string& as_string() const { return std::get<std::string>(v); }
  const Array& as_array() const { return *std::get<std::shared_ptr<Array>>(v); }
  const Object& as_object() const { return *std::get<std::shared_ptr<Object>>(v); }

  /// "null", "boolean", "integer", "number", "string", "array", "object".
  const char* kind_name() const;
};

/// Parses one JSON document. JsonError "expected ',' or ']' at offset 7" etc.;
/// integers outside int64 are an error (never a silent rounding).
Json parse(std::string_view text);

/// Compact JSON with Python json.dumps' separators (", " and ": "), so a line
/// reads like Python's: [1, 2.5, "a"], {"result": null}. Strings are written
/// as UTF-8 with control characters, '"' and '\' escaped; a byte that is not
/// valid UTF-8 is written as \u00XX (its Latin-1 reading), so the output is
/// always valid JSON. Floats use the shortest digits that read back as the
/// same double (Python's repr: 0.1, 1e+16, 2.0).
std::string write(const Json& value);
/// Appends `s` as a JSON string literal (with quotes) to `out`.
void write_string(std::string& out, std::string_view s);

}  // namespace ag::json
