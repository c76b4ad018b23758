#include "transpiler/emit/tf_api_table.h"

#include <algorithm>
#include <span>
#include <vector>

#include "runtime/api/tf_table_macros.h"

namespace agc::emit {
namespace {

// The tf.* rows of runtime/api/tf_functions.def: each row's paths, then one
// entry per row naming them.
#define AG_TF_PATHS(cpp_name, paths) constexpr const char* k_##cpp_name##_paths[] = {AG_TF_UNPAREN paths};
#define AG_TF_UNARY(cpp_name, paths, ...) AG_TF_PATHS(cpp_name, paths)
#define AG_TF_BINARY(cpp_name, paths, ...) AG_TF_PATHS(cpp_name, paths)
#define AG_TF_FN(cpp_name, paths, ...) AG_TF_PATHS(cpp_name, paths)
#define AG_TF_CLASS(cpp_name, paths, ...) AG_TF_PATHS(cpp_name, paths)
#define AG_TF_VALUE(cpp_name, paths, ...) AG_TF_PATHS(cpp_name, paths)
#include "runtime/api/tf_functions.def"
struct TfRow {
  TfApiEntry entry;
  std::span<const char* const> paths;
  /// A function row's Python signature ("" for a value).
  const char* signature;
};

constexpr TfApiEntry::Kind kFunction = TfApiEntry::Kind::Function;
constexpr TfApiEntry::Kind kValue = TfApiEntry::Kind::Value;
constexpr TfRow kTfRows[] = {
#define AG_TF_UNARY(cpp_name, paths, signature, ...) {{kFunction, #cpp_name}, k_##cpp_name##_paths, signature},
#define AG_TF_BINARY(cpp_name, paths, signature, ...) {{kFunction, #cpp_name}, k_##cpp_name##_paths, signature},
#define AG_TF_FN(cpp_name, paths, signature, ...) {{kFunction, #cpp_name}, k_##cpp_name##_paths, signature},
#define AG_TF_CLASS(cpp_name, paths, signature, ...) {{kValue, #cpp_name}, k_##cpp_name##_paths, signature},
#define AG_TF_VALUE(cpp_name, ...) {{kValue, #cpp_name}, k_##cpp_name##_paths, ""},
#include "runtime/api/tf_functions.def"
#undef AG_TF_PATHS
};

// The np.* rows of runtime/api/np_functions.def, the same way.
#define AG_NP_FN(cpp_name, paths, ...) constexpr const char* k_np_##cpp_name##_paths[] = {AG_TF_UNPAREN paths};
#define AG_NP_VALUE(cpp_name, paths, ...) constexpr const char* k_np_##cpp_name##_paths[] = {AG_TF_UNPAREN paths};
#include "runtime/api/np_functions.def"
constexpr TfRow kNpRows[] = {
#define AG_NP_FN(cpp_name, paths, signature, ...) {{kFunction, #cpp_name}, k_np_##cpp_name##_paths, signature},
#define AG_NP_VALUE(cpp_name, ...) {{kValue, #cpp_name}, k_np_##cpp_name##_paths, ""},
#include "runtime/api/np_functions.def"
};

// The standard modules' rows of runtime/api/py_modules.def ("math.sqrt"),
// and the modules they belong to.
#define AG_PY_FN(cpp_name, paths, ...) constexpr const char* k_py_##cpp_name##_paths[] = {AG_TF_UNPAREN paths};
#define AG_PY_VALUE(cpp_name, paths, ...) constexpr const char* k_py_##cpp_name##_paths[] = {AG_TF_UNPAREN paths};
#include "runtime/api/py_modules.def"
constexpr TfRow kPyRows[] = {
#define AG_PY_FN(cpp_name, paths, signature, ...) {{kFunction, #cpp_name}, k_py_##cpp_name##_paths, signature},
#define AG_PY_VALUE(cpp_name, ...) {{kValue, #cpp_name}, k_py_##cpp_name##_paths, ""},
#include "runtime/api/py_modules.def"
};
constexpr const char* kPyModules[] = {
#define AG_PY_MODULE(name) name,
#include "runtime/api/py_modules.def"
};

struct Builtin {
  const char* python_name;
  const char* cpp_name;
};

constexpr Builtin kBuiltins[] = {
#define AG_BUILTIN(python_name, cpp_name) {#python_name, #cpp_name},
#include "runtime/api/builtins.def"
#undef AG_BUILTIN
};

// Python's exception classes and TF's tf.errors classes (runtime/core/
// exceptions.def): ag::<Name>; Exception and BaseException catch every ag::Error.
constexpr Builtin kExceptions[] = {
#define AG_EXCEPTION_ROOT(Name, Base) {#Name, "ag::Error"},
#define AG_EXCEPTION(Name, Base) {#Name, "ag::" #Name},
#define AG_TF_ERROR(Name, Base, code)
#include "runtime/core/exceptions.def"
#undef AG_EXCEPTION_ROOT
#undef AG_EXCEPTION
#undef AG_TF_ERROR
};
constexpr Builtin kTfErrors[] = {
#define AG_EXCEPTION_ROOT(Name, Base)
#define AG_EXCEPTION(Name, Base)
#define AG_TF_ERROR(Name, Base, code) {"errors." #Name, "ag::" #Name},
#include "runtime/core/exceptions.def"
#undef AG_EXCEPTION_ROOT
#undef AG_EXCEPTION
#undef AG_TF_ERROR
};

}  // namespace

namespace {

std::optional<TfApiEntry> find_in(std::span<const TfRow> rows, std::string_view path) {
  for (const TfRow& r : rows) {
    for (const char* p : r.paths) {
      if (path == p) return r.entry;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<TfApiEntry> find_tf_api(std::string_view path) { return find_in(kTfRows, path); }
std::optional<TfApiEntry> find_np_api(std::string_view path) { return find_in(kNpRows, path); }
std::optional<TfApiEntry> find_py_api(std::string_view path) { return find_in(kPyRows, path); }

namespace {

/// The rows of `library` and the prefix its paths carry ("math." for math's).
std::pair<std::span<const TfRow>, std::string> library_rows(std::string_view library) {
  if (library == "tensorflow") return {kTfRows, ""};
  if (library == "numpy") return {kNpRows, ""};
  return {kPyRows, std::string(library) + "."};
}

}  // namespace

std::vector<std::string_view> table_paths(std::string_view library) {
  auto [rows, prefix] = library_rows(library);
  std::vector<std::string_view> out;
  for (const TfRow& r : rows) {
    for (std::string_view p : r.paths) {
      if (p.starts_with(prefix)) out.push_back(p.substr(prefix.size()));
    }
  }
  return out;
}

std::string_view table_signature(std::string_view library, std::string_view path) {
  auto [rows, prefix] = library_rows(library);
  for (const TfRow& r : rows) {
    for (std::string_view p : r.paths) {
      if (p.starts_with(prefix) && p.substr(prefix.size()) == path) return r.signature;
    }
  }
  return "";
}
bool is_py_module(std::string_view name) {
  return std::find(std::begin(kPyModules), std::end(kPyModules), name) != std::end(kPyModules);
}

bool is_known_module(std::string_view name) {
  return name == "tensorflow" || name == "numpy" || is_py_module(name);
}

const char* find_builtin(std::string_view name) {
  for (const Builtin& b : kBuiltins) {
    if (name == b.python_name) return b.cpp_name;
  }
  return nullptr;
}

const char* find_exception_type(std::string_view name, bool tf_path) {
  for (const Builtin& e : tf_path ? std::span<const Builtin>(kTfErrors) : std::span<const Builtin>(kExceptions)) {
    if (name == e.python_name) return e.cpp_name;
  }
  return nullptr;
}

}  // namespace agc::emit
