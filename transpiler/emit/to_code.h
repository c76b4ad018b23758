// to_code: a module's converted functions as Python text, each printed the way
// `print(tf.autograph.to_code(f))` prints it (the function, then a blank line).
#pragma once

#include <string>
#include <vector>

#include "transpiler/ast/ast.h"
#include "transpiler/base/diagnostic.h"
#include "transpiler/passes/pipeline.h"

namespace agc::emit {

struct ToCodeRequest {
  passes::ConversionOptions options;
  /// Functions to print, by name or Class.name; empty means all.
  std::vector<std::string> functions;
  /// Called after each pass that changed a function.
  passes::PassObserver observer;
};

/// The converted code of the requested functions. Problems (including a
/// requested function that does not exist) go to `sink`; the result is then empty.
std::string to_code(const ast::Module& m, const ToCodeRequest& request, DiagnosticSink& sink);

}  // namespace agc::emit
