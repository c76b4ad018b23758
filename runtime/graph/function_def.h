// A traced Graph as TensorFlow's FunctionDef and back: what a SavedModel's
// function library holds. The writer names every node input as TF's
// FunctionDef does ("MatMul:product:0", an argument by its name) from the
// ops' declared TF argument lists (ops/tf_op_signature.h), adds the type and
// number attrs TF's NodeDefs carry (T, N, ...), and turns agc's variable ops
// (which name their variable by attr) into TF's: a resource argument per
// variable, fed to ReadVariableOp/AssignVariableOp. The reader does the
// reverse, binding the resource arguments to variables the caller gives,
// and names every op agc does not have at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/graph/graph.h"

namespace tensorflow {
class FunctionDef;
}  // namespace tensorflow

namespace ag {

/// A FunctionDef written from a graph, and the variables (by id) its
/// resource arguments stand for, in argument order after the graph's inputs.
struct ExportedFunction {
  std::shared_ptr<tensorflow::FunctionDef> def;
  std::vector<int64_t> variables;
};

/// `g` as FunctionDef `name`. UnimplementedError naming the op when a node's
/// op has no declared TF arguments or holds subgraphs (control flow and
/// function calls are not written yet).
ExportedFunction export_function_def(const Graph& g, const std::string& name);

/// FunctionDef `def` as a graph whose inputs are its non-resource arguments;
/// `variables` (ids) bind its resource arguments in order. NotFoundError
/// listing every op type agc does not have; InvalidArgumentError for an
/// input that names no argument or node output.
std::shared_ptr<Graph> import_function_def(const tensorflow::FunctionDef& def, const std::vector<int64_t>& variables);

}  // namespace ag
