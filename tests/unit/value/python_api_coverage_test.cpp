// Every name of builtins.def and tf_functions.def links and, called with
// arguments no Python signature accepts, raises a typed Python error (never
// crashes).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_table_macros.h"
#include "tests/unit/value/support.h"

using namespace ag;

namespace {

struct Entry {
  std::string name;
  PyFn fn;
};

std::vector<Entry> functions() {
  std::vector<Entry> out;
#define AG_BUILTIN(python_name, cpp_name) out.push_back({#python_name, &py::cpp_name});
#include "runtime/api/builtins.def"
#undef AG_BUILTIN
#define AG_TF_FUNCTION(cpp_name, paths) out.push_back({"tf." + std::string(AG_TF_FIRST paths), &tf::api::cpp_name});
#define AG_TF_UNARY(cpp_name, paths, ...) AG_TF_FUNCTION(cpp_name, paths)
#define AG_TF_BINARY(cpp_name, paths, ...) AG_TF_FUNCTION(cpp_name, paths)
#define AG_TF_FN(cpp_name, paths, ...) AG_TF_FUNCTION(cpp_name, paths)
#include "runtime/api/tf_functions.def"
#undef AG_TF_FUNCTION
  return out;
}

struct ValueEntry {
  std::string name;
  const Value& (*get)();
};

std::vector<ValueEntry> values() {
  std::vector<ValueEntry> out;
#define AG_TF_CLASS(cpp_name, paths, ...) out.push_back({"tf." + std::string(AG_TF_FIRST paths), &tf::api::cpp_name});
#define AG_TF_VALUE(cpp_name, paths, ...) out.push_back({"tf." + std::string(AG_TF_FIRST paths), &tf::api::cpp_name});
#include "runtime/api/tf_functions.def"
  return out;
}

// The error `f` raises: "TypeError", ... ("<none>" when it returns).
template <class F>
std::string error_type(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.type_name();
  }
  return "<none>";
}

bool python_error(const std::string& t) {
  return t == "TypeError" || t == "ValueError" || t == "InvalidArgumentError" || t == "UnimplementedError";
}

}  // namespace

TEST_CASE("every builtin and tf.* function rejects an unknown keyword argument") {
  Value junk = Value::object("Junk");
  for (const Entry& e : functions()) {
    if (e.name == "tf.group") continue;  // None eagerly, as in TF: see below
    std::string t = error_type([&] { e.fn({junk}, {{"__bogus__", 1}}); });
    INFO(e.name << " raised " << t);
    CHECK(python_error(t));
  }
}

TEST_CASE("every tf.* function rejects arguments of the wrong type") {
  Value junk = Value::object("Junk");
  for (const Entry& e : functions()) {
    // print-like functions (tf.print, tf.autograph.trace) print any value; the Python builtins are covered
    // one by one in builtins_test.cpp.
    // tf.group is None eagerly whatever its arguments, as in TF (its trace
    // checks are in tf_bindings_test.cpp).
    // tf.nest.flatten and assert_same_structure take any value, as TF's do
    // (what is not a list, tuple or dict is a leaf).
    if (e.name.rfind("tf.", 0) != 0 || e.name == "tf.print" || e.name == "tf.autograph.trace" || e.name == "tf.group") {
      continue;
    }
    if (e.name == "tf.nest.flatten" || e.name == "tf.nest.assert_same_structure") continue;
    std::string t = error_type([&] { e.fn({junk, junk}, {}); });
    // Graph-only functions refuse eager execution first, as TF's do.
    if (e.name == "tf.compat.v1.placeholder" || e.name == "tf.gradients") {
      CHECK(t == "RuntimeError");
      continue;
    }
    INFO(e.name << " raised " << t);
    // TF's map_fn, scan and folds name a non-callable fn by fn.__name__ in
    // their TypeError, so an object without one is Python's AttributeError.
    bool names_fn = e.name == "tf.map_fn" || e.name == "tf.scan" || e.name == "tf.foldl" || e.name == "tf.foldr";
    CHECK((python_error(t) || (names_fn && t == "AttributeError")));
  }
}

TEST_CASE("every tf.* value exists; the class values reject wrong arguments") {
  for (const ValueEntry& e : values()) {
    const Value& v = e.get();
    if (!v.is_callable()) continue;
    std::string t = error_type([&] { v({}, {{"__bogus__", 1}}); });
    INFO(e.name << " raised " << t);
    CHECK(python_error(t));
  }
}
