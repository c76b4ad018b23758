// main() of a program agc builds. The generated module describes itself with
// a ModuleInfo; program_main runs its module-level code and, when asked, calls
// one of its functions on JSON arguments (agc run FILE FUNC ARGS_JSON...):
//
//   prog                                  run the module (print output as Python's)
//   prog FUNC ARGS_JSON... [--results F]  run the module, then FUNC once per ARGS_JSON
//
// An ARGS_JSON is a JSON array of positional arguments or
// {"args": [...], "kwargs": {...}}; numbers, booleans, null, strings and arrays
// are Python values (3 is an int, 3.0 a float), {"tensor": nested, "dtype":
// "float32"} a tensor (dtype optional, inferred as tf.constant would). Each
// call's outcome is one JSON line in F ({"result": v} with tensors as
// {"tensor": ..., "dtype": ..., "shape": [...]}, or {"error": {"type", "message"}}),
// or, without --results, printed after the program's output as print() would.
// An exception escaping module-level code prints a Python traceback (the
// user's files and lines, traceback.h) and exits 1.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/api/json.h"
#include "runtime/core/tensor.h"
#include "runtime/value/value.h"

namespace ag {

struct ModuleInfo {
  /// The module's name ("model") and its file as given to agc ("samples/model.py").
  const char* name;
  const char* file;
  /// The Python source text, for the traceback's source lines.
  const char* source;
  /// Runs the module-level code once.
  void (*run)();
  /// The module's global names and where generated code keeps them.
  std::vector<std::pair<const char*, Value*>> globals;
};

/// Exit status: 0 when the module ran (errors raised by FUNC calls are
/// outcomes); 1 when an exception escaped module-level code (traceback on
/// stderr) or the arguments are wrong (FUNC not a global of the module, an
/// ARGS_JSON that does not parse, --results not writable); 2 on a malformed
/// command line (an unknown option, --results without a file name).
/// Without --results each call's outcome is printed to stdout right after
/// the output of that call, as `print(FUNC(*args, **kwargs))` would print it;
/// an error as `ValueError: message` (the last line of Python's traceback).
int program_main(int argc, char** argv, const ModuleInfo& module);

/// The Python source of `file` when it is the running program's module
/// (for a traceback's source lines), else nullptr.
const char* source_of(const char* file);

/// One call's arguments, from an ARGS_JSON.
struct CallArguments {
  std::vector<Value> args;
  Kwargs kwargs;
};
/// Parses and converts an ARGS_JSON. ValueError saying what is wrong (the
/// JSON error and its offset, a tensor's bad dtype, ...).
CallArguments parse_call_arguments(std::string_view args_json);
/// A JSON value as ARGS_JSON reads it: arrays as lists, objects as dicts,
/// {"tensor": nested, "dtype": name} as a tensor.
Value json_value(const json::Json& j);
/// A tensor's elements as nested JSON arrays (float32 in the shortest digits
/// that read back as the same float32).
json::Json tensor_elements_json(const Tensor& t);
/// A value as JSON, as the `result` of a --results line: None null, bools,
/// ints, floats (repr digits; NaN/Infinity as Python's json writes them), str,
/// lists and tuples as arrays, dicts as objects (keys as json.dumps converts
/// them), tensors and variables as {"tensor": nested, "dtype": name, "shape":
/// [dims]} with float32 elements in the shortest digits that read back as the
/// same float32. TypeError (json.dumps' words) for other kinds.
std::string value_to_json(const Value& v);
/// The --results lines: {"result": <value_to_json>} and
/// {"error": {"type": "ValueError", "message": "..."}}.
std::string result_line(const Value& v);
std::string error_line(const std::string& type_name, const std::string& message);

}  // namespace ag
