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

#include <utility>
#include <vector>

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

int program_main(int argc, char** argv, const ModuleInfo& module);

}  // namespace ag
