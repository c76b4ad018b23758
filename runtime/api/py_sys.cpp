#include "runtime/api/py_sys.h"

#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <mutex>

#include "runtime/api/named_tuple.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"
#include "runtime/ops/logging_ops.h"
#include "runtime/value/exception_value.h"
#include "runtime/value/object_model.h"

namespace ag::pymod {
namespace {

struct StreamState : NativeState {
  const char* name;  // "stdout" or "stderr"
  explicit StreamState(const char* n) : name(n) {}
};

const Value& stream_class() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    Param self{"self", std::nullopt};
    auto stream = [](const Value& v) { return native_state<StreamState>(v)->name; };
    attrs.push_back(native_method("TextIOWrapper.write", "write", {self, {"s", std::nullopt}},
                                  [stream](const std::vector<Value>& a) {
                                    if (!a[1].is_str()) {
                                      throw TypeError("write() argument must be str, not " + a[1].type_name());
                                    }
                                    write_standard_stream(stream(a[0]), a[1].as_str());
                                    return Value(static_cast<int64_t>(len(a[1])));
                                  }));
    attrs.push_back(native_method("TextIOWrapper.flush", "flush", {self}, [stream](const std::vector<Value>& a) {
      std::fflush(stream(a[0])[3] == 'o' ? stdout : stderr);
      return Value();
    }));
    attrs.push_back(native_method("TextIOWrapper.__repr__", "__repr__", {self}, [stream](const std::vector<Value>& a) {
      return Value(std::string("<_io.TextIOWrapper name='<") + stream(a[0]) + ">' mode='w' encoding='utf-8'>");
    }));
    return make_class("TextIOWrapper", {}, std::move(attrs));
  }();
  return cls;
}

std::mutex g_argv_mu;
Value g_argv = Value::list({});

}  // namespace

const char* standard_stream(const Value& v) {
  if (const StreamState* s = native_state<StreamState>(v)) return s->name;
  if (v.is_str() && (v.as_str() == "sys.stdout" || v.as_str() == "sys.stderr")) {
    return v.as_str() == "sys.stdout" ? "stdout" : "stderr";
  }
  return nullptr;
}

void write_standard_stream(const char* stream, const std::string& text) {
  std::cout << std::flush;  // what went through iostreams (ag::print) comes first
  default_print_sink(stream, text);
}

void set_argv(const std::string& file, const std::vector<std::string>& args) {
  std::vector<Value> items{Value(file)};
  for (const std::string& a : args) items.emplace_back(a);
  std::lock_guard<std::mutex> lock(g_argv_mu);
  g_argv = Value::list(std::move(items));
}

int exit_status(const Value& code) {
  if (code.is_none()) return 0;
  if (code.is_int()) return static_cast<int>(code.as_int());
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", str(code).c_str());
  std::fflush(stderr);
  return 1;
}

namespace impl {

Value sys_exit(const tf::TfCall& c) {
  // exit() and exit(None) differ in the SystemExit's args, as in CPython.
  const std::vector<Value>& status = c["status"].items();
  if (status.size() > 1) throw TypeError("exit expected at most 1 argument, got " + std::to_string(status.size()));
  raise_value(make_exception("SystemExit", status));
}

}  // namespace impl

namespace api {

const Value& sys_argv() {
  std::lock_guard<std::mutex> lock(g_argv_mu);
  return g_argv;
}
const Value& sys_stdout() {
  static const Value v = native_object(stream_class(), std::make_shared<StreamState>("stdout"));
  return v;
}
const Value& sys_stderr() {
  static const Value v = native_object(stream_class(), std::make_shared<StreamState>("stderr"));
  return v;
}
const Value& sys_platform() {
  static const Value v("linux");
  return v;
}
const Value& sys_maxsize() {
  static const Value v(std::numeric_limits<int64_t>::max());
  return v;
}
const Value& sys_version() {
  // The Python agc's semantics follow (its builtins' texts are CPython 3.11's;
  // 3.11.2 is Debian bookworm's, the one its tests are checked against).
  static const Value v("3.11.2 (agc)");
  return v;
}
const Value& sys_version_info() {
  // CPython's struct sequence: a tuple with named fields whose type prints
  // as sys.version_info.
  static const Value v = tf::named_tuple("sys.version_info", {"major", "minor", "micro", "releaselevel", "serial"},
                                         {Value(int64_t{3}), Value(int64_t{11}), Value(int64_t{2}), Value("final"),
                                          Value(int64_t{0})});
  return v;
}

}  // namespace api
}  // namespace ag::pymod
