// What the C++ emitter knows about names it does not define: the tf.* API
// (runtime/api/tf_functions.def), the NumPy module (np_functions.def), Python's
// standard modules agc compiles (py_modules.def), Python's builtins (runtime/api/builtins.def)
// and the exception classes `raise`/`except` map to C++ types
// (runtime/core/exceptions.def): the runtime's own tables, so the transpiler
// and libagrt cannot disagree. A name outside these is a diagnostic at the
// user's line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agc::emit {

struct TfApiEntry {
  enum class Kind { Function, Value };
  Kind kind;
  /// The C++ name in ag::tf::api.
  const char* cpp_name;
};

/// A tf.* path ("reduce_sum", "math.reduce_sum", "keras.layers.Dense"), or nullopt.
std::optional<TfApiEntry> find_tf_api(std::string_view path);
/// An np.* path ("zeros", "random.seed") of runtime/api/np_functions.def
/// (cpp_name in ag::np::api), or nullopt.
std::optional<TfApiEntry> find_np_api(std::string_view path);

/// A path of a Python standard module agc compiles ("math.sqrt", "time.time")
/// of runtime/api/py_modules.def (cpp_name in ag::pymod::api), or nullopt;
/// and whether `name` is such a module.
std::optional<TfApiEntry> find_py_api(std::string_view path);
bool is_py_module(std::string_view name);
/// Whether agc compiles the top-level module `name`: tensorflow, numpy or a
/// standard module of py_modules.def (an import of any other fails the file).
bool is_known_module(std::string_view name);

/// Every path of a library's table, for suggestions: `library` is
/// "tensorflow" (paths after "tf."), "numpy" (after "np.") or a standard
/// module ("math": its paths without "math.").
std::vector<std::string_view> table_paths(std::string_view library);
/// The Python signature text of a table's function row ("reduce_sum(input_tensor,
/// axis=None, keepdims=False, name=None)"), or "" for a value row or no row.
std::string_view table_signature(std::string_view library, std::string_view path);

/// A Python builtin's C++ name in ag::py ("int" -> "int_"), or nullptr.
const char* find_builtin(std::string_view name);

/// The C++ type of a Python exception class name as `except` names it
/// ("ValueError", "Exception", "tf.errors.InvalidArgumentError" as the
/// dotted path after the module alias, e.g. "errors.InvalidArgumentError"),
/// or nullptr. `tf_path` selects the tf.errors table.
const char* find_exception_type(std::string_view name, bool tf_path);

}  // namespace agc::emit
