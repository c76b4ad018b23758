// The generated program's main: ARGS_JSON in, --results lines out, exit
// codes, and the traceback of an exception escaping module-level code.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/api/program.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/traceback.h"
#include "tests/unit/error_text.h"

using namespace ag;

namespace {

std::string arg_error(const std::string& text) {
  return test::error_text([&] { parse_call_arguments(text); });
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A temporary file path, removed at scope exit.
struct TempPath {
  std::string path;
  TempPath() {
    char buf[] = "/tmp/agc_program_test_XXXXXX";
    int fd = mkstemp(buf);
    REQUIRE(fd >= 0);
    close(fd);
    path = buf;
  }
  ~TempPath() { std::remove(path.c_str()); }
};

// A module as generated code would describe it: `add` and `fail` globals.
Value g_add, g_fail, g_count;
const char* kModuleSource =
    "def add(a, b):\n"
    "    return a + b\n"
    "def fail(x):\n"
    "    raise ValueError('no ' + str(x))\n"
    "count = 0\n"
    "fail(3)\n";
bool g_module_raises = false;

void run_module() {
  Frame frame("m.py", "<module>");
  frame.at(1);
  g_add = Value::callable("add", [](std::vector<Value> args, Kwargs kwargs) {
    Value b = args.size() > 1 ? args[1] : kwargs.at(0).second;
    return args[0] + b;
  });
  frame.at(3);
  g_fail = Value::callable("fail", [](std::vector<Value> args, Kwargs) -> Value {
    Frame f("m.py", "fail");
    f.at(4);
    throw ValueError("no " + str(args[0]));
  });
  frame.at(5);
  g_count = 0;
  if (g_module_raises) {
    frame.at(6);
    g_fail({3}, {});
  }
}

ModuleInfo module_info() {
  return {"m", "m.py", kModuleSource, run_module, {{"add", &g_add}, {"fail", &g_fail}, {"count", &g_count}}};
}

int run_main(std::vector<std::string> args) {
  std::vector<char*> argv;
  std::string prog = "m";
  argv.push_back(prog.data());
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return program_main(static_cast<int>(argv.size()) - 1, argv.data(), module_info());
}

// Runs program_main with stderr captured into `err`.
int run_main_capturing_stderr(std::vector<std::string> args, std::string& err) {
  TempPath errfile;
  std::fflush(stderr);
  int saved = dup(2);
  std::FILE* f = std::fopen(errfile.path.c_str(), "w");
  dup2(fileno(f), 2);
  int status = run_main(std::move(args));
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::fclose(f);
  err = read_text(errfile.path);
  return status;
}

}  // namespace

TEST_CASE("ARGS_JSON: plain JSON values are Python values (3 an int, 3.0 a float, arrays lists)") {
  CallArguments c = parse_call_arguments(R"([3, 3.0, "s", null, true, [1, [2]], {"k": 1}])");
  REQUIRE(c.args.size() == 7);
  CHECK(c.args[0].is_int());
  CHECK(c.args[1].is_float());
  CHECK(repr(c.args[2]) == "'s'");
  CHECK(c.args[3].is_none());
  CHECK(c.args[4].is_bool());
  CHECK(repr(c.args[5]) == "[1, [2]]");
  CHECK(repr(c.args[6]) == "{'k': 1}");
  CHECK(c.kwargs.empty());
}

TEST_CASE("ARGS_JSON: tensors with and without a dtype, as tf.constant makes them") {
  CallArguments c = parse_call_arguments(
      R"([{"tensor": [[1, 2], [3, 4]], "dtype": "float32"}, {"tensor": [1, 2]}, {"tensor": 2.5}, {"dtype": "int64", "tensor": 7}])");
  REQUIRE(c.args.size() == 4);
  CHECK(str(c.args[0]) == "tf.Tensor(\n[[1. 2.]\n [3. 4.]], shape=(2, 2), dtype=float32)");
  CHECK(str(c.args[1]) == "tf.Tensor([1 2], shape=(2,), dtype=int32)");
  CHECK(str(c.args[2]) == "tf.Tensor(2.5, shape=(), dtype=float32)");
  CHECK(str(c.args[3]) == "tf.Tensor(7, shape=(), dtype=int64)");
}

TEST_CASE("ARGS_JSON: {args, kwargs}") {
  CallArguments c = parse_call_arguments(R"({"args": [1], "kwargs": {"b": {"tensor": [1.5]}, "c": null}})");
  REQUIRE(c.args.size() == 1);
  REQUIRE(c.kwargs.size() == 2);
  CHECK(c.kwargs[0].first == "b");
  CHECK(str(c.kwargs[0].second) == "tf.Tensor([1.5], shape=(1,), dtype=float32)");
  CHECK(c.kwargs[1].second.is_none());
  CHECK(parse_call_arguments(R"({"kwargs": {"x": 1}})").args.empty());
  CHECK(parse_call_arguments("{}").args.empty());
}

TEST_CASE("ARGS_JSON: every malformed argument is a ValueError saying what is wrong") {
  CHECK(arg_error("[1,") == "ValueError: not valid JSON: expected a JSON value but found end of input at offset 3");
  CHECK(arg_error("3") ==
        "ValueError: expected a JSON array of arguments or {\"args\": [...], \"kwargs\": {...}}, not integer");
  CHECK(arg_error(R"({"arg": []})") ==
        "ValueError: an arguments object has only \"args\" and \"kwargs\" members, not \"arg\"");
  CHECK(arg_error(R"({"args": 1})") == "ValueError: \"args\" must be a JSON array, not integer");
  CHECK(arg_error(R"({"kwargs": []})") == "ValueError: \"kwargs\" must be a JSON object, not array");
  CHECK(arg_error(R"({"kwargs": {"a": 1, "a": 2}})") == "ValueError: keyword argument \"a\" given twice");
  CHECK(arg_error(R"([{"tensor": [1], "dtype": "float33"}])").find("unknown dtype \"float33\"") != std::string::npos);
  CHECK(arg_error(R"([{"tensor": [1], "dtype": 1}])") ==
        "ValueError: a tensor's \"dtype\" must be a string such as \"float32\"");
  CHECK(arg_error(R"([{"tensor": [1], "shape": [1]}])") ==
        "ValueError: a tensor object has only \"tensor\" and \"dtype\" members, not \"shape\"");
  // A ragged tensor is tf.constant's own error.
  CHECK(arg_error(R"([{"tensor": [[1], [2, 3]]}])").find("Error") != std::string::npos);
}

TEST_CASE("results: Python values and tensors as JSON") {
  CHECK(result_line(Value()) == R"({"result": null})");
  CHECK(result_line(Value::tuple({1, 2.5, "a", true})) == R"({"result": [1, 2.5, "a", true]})");
  CHECK(result_line(Value(0.1)) == R"({"result": 0.1})");
  CHECK(result_line(Value(1.0)) == R"({"result": 1.0})");
  CHECK(value_to_json(Value::dict({{1, "a"}, {"k", Value::list({})}, {Value(), 1.5}, {false, 0}})) ==
        R"({"1": "a", "k": [], "null": 1.5, "false": 0})");
  CHECK(value_to_json(tf::constant(Value::list({Value::list({0.1, 2}), Value::list({3, 4})}))) ==
        R"({"tensor": [[0.1, 2.0], [3.0, 4.0]], "dtype": "float32", "shape": [2, 2]})");
  CHECK(value_to_json(tf::constant(Value(7))) == R"({"tensor": 7, "dtype": "int32", "shape": []})");
  CHECK(value_to_json(tf::constant(Value::list({true, false}))) ==
        R"({"tensor": [true, false], "dtype": "bool", "shape": [2]})");
  CHECK(value_to_json(tf::constant(Value::list({}), DType::Float32)) == R"({"tensor": [], "dtype": "float32", "shape": [0]})");
  CHECK(value_to_json(tf::constant(Value(0.1), DType::Float64)) ==
        R"({"tensor": 0.1, "dtype": "float64", "shape": []})");
  CHECK(value_to_json(tf::constant(Value("a\"b"))) == R"({"tensor": "a\"b", "dtype": "string", "shape": []})");
  CHECK(error_line("ValueError", "bad \"x\"") == R"({"error": {"type": "ValueError", "message": "bad \"x\""}})");
}

TEST_CASE("results: a value JSON cannot hold is json.dumps' TypeError") {
  CHECK(test::error_text([] { value_to_json(Value::callable("f", nullptr)); }) ==
        "TypeError: Object of type function is not JSON serializable");
  CHECK(test::error_text([] { value_to_json(Value::dict({{Value::tuple({1}), 1}})); }) ==
        "TypeError: keys must be str, int, float, bool or None, not tuple");
  Value l = Value::list({});
  l.items().push_back(l);
  CHECK(test::error_text([&] { value_to_json(l); }) == "ValueError: Circular reference detected");
  l.items().clear();  // break the cycle so the list is freed
}

TEST_CASE("ARGS_JSON round-trips: a result written as JSON reads back as the same tensor") {
  Value t = tf::constant(Value::list({0.1, 1e-8, 3.4028235e38, -2.5}), DType::Float32);
  std::string j = value_to_json(t);
  CallArguments c = parse_call_arguments("[" + j.substr(0, j.find(", \"shape\"")) + "}]");
  REQUIRE(c.args.size() == 1);
  CHECK(value_to_json(c.args[0]) == j);
}

TEST_CASE("program_main calls FUNC once per ARGS_JSON and writes one line per outcome") {
  g_module_raises = false;
  TempPath out;
  int status = run_main({"add", "[1, 2]", R"({"args": [{"tensor": [1.5, 2]}], "kwargs": {"b": 1}})", "[\"a\", 1]",
                         "--results", out.path});
  CHECK(status == 0);
  CHECK(read_text(out.path) ==
        "{\"result\": 3}\n"
        "{\"result\": {\"tensor\": [2.5, 3.0], \"dtype\": \"float32\", \"shape\": [2]}}\n"
        "{\"error\": {\"type\": \"TypeError\", \"message\": \"can only concatenate str (not \\\"int\\\") to str\"}}\n");
  status = run_main({"fail", "[1]", "[2]", "--results=" + out.path});
  CHECK(status == 0);
  CHECK(read_text(out.path) ==
        "{\"error\": {\"type\": \"ValueError\", \"message\": \"no 1\"}}\n"
        "{\"error\": {\"type\": \"ValueError\", \"message\": \"no 2\"}}\n");
  CHECK(take_traceback().empty());  // outcomes leave no frames behind
  status = run_main({"count", "[]", "--results", out.path});
  CHECK(status == 0);
  CHECK(read_text(out.path) == "{\"error\": {\"type\": \"TypeError\", \"message\": \"'int' object is not callable\"}}\n");
}

TEST_CASE("program_main: a wrong FUNC or ARGS_JSON is an error before the module runs") {
  g_module_raises = false;
  std::string err;
  CHECK(run_main_capturing_stderr({"nope", "[]"}, err) == 1);
  CHECK(err == "m: error: 'nope' is not a module-level name of m.py (it defines: add, fail, count)\n");
  CHECK(run_main_capturing_stderr({"add", "[1, 2]", "[1,"}, err) == 1);
  CHECK(err == "m: error: ARGS_JSON 2 ('[1,'): not valid JSON: expected a JSON value but found end of input at offset 3\n");
  CHECK(run_main_capturing_stderr({"add", "[1]", "--results"}, err) == 2);
  CHECK(err == "m: error: --results needs a FILE\n");
  CHECK(run_main_capturing_stderr({"--bogus"}, err) == 2);
  CHECK(run_main_capturing_stderr({"add", "[1]", "--results", "/nonexistent/dir/x"}, err) == 1);
  CHECK(err.find("cannot write '/nonexistent/dir/x'") != std::string::npos);
}

TEST_CASE("program_main: an exception escaping module code prints Python's traceback and exits 1") {
  g_module_raises = true;
  std::string err;
  CHECK(run_main_capturing_stderr({}, err) == 1);
  CHECK(err ==
        "Traceback (most recent call last):\n"
        "  File \"m.py\", line 6, in <module>\n"
        "    fail(3)\n"
        "  File \"m.py\", line 4, in fail\n"
        "    raise ValueError('no ' + str(x))\n"
        "ValueError: no 3\n");
  g_module_raises = false;
  CHECK(run_main_capturing_stderr({}, err) == 0);
  CHECK(err.empty());
}
