// libFuzzer target: the JSON argument decoder of the programs agc builds
// (`prog FUNC ARGS_JSON`, runtime/api/program.h). Each input is an ARGS_JSON:
//   - json::parse either reads it or raises JsonError; what it reads, written
//     back (json::write), reads again and writes the same bytes;
//   - parse_call_arguments either converts it or raises an agc error (a
//     ValueError naming what is wrong); converted arguments always serialize
//     (value_to_json, the --results line);
//   - every tensor in that output, read back from its elements and dtype,
//     serializes to the same text (float32 and bfloat16 in shortest digits
//     that read back as the same value).
#include <cstdint>
#include <string>

#include "runtime/api/json.h"
#include "runtime/api/program.h"
#include "tests/fuzz/libfuzzer/fuzz_target.h"

namespace {

using ag::json::Json;

/// Checks the tensors (objects with a "tensor" and a "shape" member) in `j`.
void check_tensors(const Json& j) {
  if (j.is_array()) {
    for (const Json& item : j.as_array()) check_tensors(item);
    return;
  }
  if (!j.is_object()) return;
  const Json* elements = nullptr;
  const Json* dtype = nullptr;
  const Json* shape = nullptr;
  for (const auto& [key, v] : j.as_object()) {
    if (key == "tensor") elements = &v;
    if (key == "dtype") dtype = &v;
    if (key == "shape") shape = &v;
  }
  if (elements == nullptr || dtype == nullptr || shape == nullptr || !shape->is_array()) {
    for (const auto& member : j.as_object()) check_tensors(member.second);
    return;
  }
  // Nested elements cannot say a zero-size tensor's other dims.
  for (const Json& d : shape->as_array()) {
    if (d.is_int() && d.as_int() == 0) return;
  }
  const std::string written = ag::json::write(j);
  std::string again;
  ag::fuzz::expect_clean("reading back " + written, [&] {
    again = ag::value_to_json(ag::json_value(Json(ag::json::Object{{"tensor", *elements}, {"dtype", *dtype}})));
  });
  if (again != written) ag::fuzz::fail("a tensor does not survive a round trip: " + written + " came back as " + again);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = ag::fuzz::as_text(data, size);
  try {
    const std::string written = ag::json::write(ag::json::parse(text));
    std::string rewritten;
    try {
      rewritten = ag::json::write(ag::json::parse(written));
    } catch (const ag::json::JsonError& e) {
      ag::fuzz::fail("json::write wrote what json::parse rejects: " + written + " (" + e.what() + ")");
    }
    if (rewritten != written) ag::fuzz::fail("json::write is not stable: " + written + " then " + rewritten);
  } catch (const ag::json::JsonError& e) {
    if (std::string_view(e.what()).empty()) ag::fuzz::fail("a JsonError with an empty message");
  }

  ag::CallArguments call;
  if (!ag::fuzz::expect_clean("parse_call_arguments", [&] { call = ag::parse_call_arguments(text); })) return 0;
  std::vector<std::pair<ag::Value, ag::Value>> kwargs;
  for (auto& [name, v] : call.kwargs) kwargs.emplace_back(ag::Value(name), v);
  std::string out;
  try {
    out = ag::value_to_json(ag::Value::list({ag::Value::list(call.args), ag::Value::dict(std::move(kwargs))}));
  } catch (const std::exception& e) {
    ag::fuzz::fail(std::string("arguments that parse do not serialize: ") + e.what());
  }
  check_tensors(ag::json::parse(out));
  return 0;
}
