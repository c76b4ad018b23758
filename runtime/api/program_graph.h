// The graph mode of a program agc builds (`agc graph FILE FUNC ARGS_JSON`,
// which runs `prog --graph=dot FUNC ARGS_JSON`): FUNC traced on the arguments
// as `FUNC.get_concrete_function(*args, **kwargs)` traces it, and the
// concrete function's graph, as traced or as optimized for the CPU, written
// as Graphviz DOT (graph/dot.h) or as TensorFlow's GraphDef in protobuf text
// format (graph/function_def.h's graph_def_text).
#pragma once

#include <string>

#include "runtime/api/program.h"

namespace ag {

struct GraphRequest {
  std::string format;      // "dot" or "pbtxt"
  bool optimized = false;  // the graph calls run (graph/optimize), not the one traced
};

/// True for the formats a program writes itself ("dot", "pbtxt").
bool graph_format_known(const std::string& format);

/// The graph text of `target`, the module-level value named `name`, traced
/// on `call`. A tf.function traces as get_concrete_function does (Python
/// output of the trace included); a Python function is wrapped as
/// tf.function(f) first; an object whose __call__ is one of these draws
/// that; a ConcreteFunction draws the trace it is (and takes no arguments).
/// TypeError for any other value; what tracing raises propagates.
std::string function_graph_text(const Value& target, const std::string& name, CallArguments call,
                                const GraphRequest& request);

}  // namespace ag
