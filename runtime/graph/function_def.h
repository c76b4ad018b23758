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
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/graph/graph.h"

namespace tensorflow {
class FunctionDef;
class FunctionDefLibrary;
class GraphDef;
}  // namespace tensorflow

namespace ag {

/// A graph written as a FunctionDef, with every function it calls.
struct ExportedFunction {
  std::shared_ptr<tensorflow::FunctionDefLibrary> library;
  const tensorflow::FunctionDef* def = nullptr;  // the graph's own, in `library`
  /// The variables (ids) its resource arguments stand for, in argument order
  /// after the graph's inputs.
  std::vector<int64_t> variables;
};

/// Writes traced graphs into one FunctionDefLibrary. A call node's function
/// is written once under its concrete name (the node's "f"); an If's
/// branches and a While's cond and body become functions of their own named
/// after the node ("cond_true_3"), in TF's form: both branches take every
/// input of the If, and a While's loop variables are TF's while_v2 ones
/// (counter, iteration limit, loop variables, captures, resources).
class FunctionDefWriter {
 public:
  /// `for_viewing`: for a picture of the graph rather than for TensorFlow to
  /// run: every node records "_output_shapes" (TF's as_graph_def(add_shapes=
  /// True)), and an op TF does not have (a fused kernel of an optimized
  /// graph) is written under agc's name, its tensors in order, its subgraphs
  /// as functions its attrs "body", "body_1", ... name, where a SavedModel
  /// refuses it.
  explicit FunctionDefWriter(bool for_viewing = false);
  ~FunctionDefWriter();
  FunctionDefWriter(const FunctionDefWriter&) = delete;
  FunctionDefWriter& operator=(const FunctionDefWriter&) = delete;

  /// Writes `g` as function `name` unless a function of that name is
  /// written already; returns the variables its resource arguments stand
  /// for. UnimplementedError naming the op when a node's op has no declared
  /// TF arguments.
  /// `output_names` name its results (default "output_0", "output_1", ...;
  /// a signature's are its output keys).
  std::vector<int64_t> write(const Graph& g, const std::string& name, const std::vector<std::string>& output_names = {});
  const std::shared_ptr<tensorflow::FunctionDefLibrary>& library() const { return library_; }
  /// Writes `g` as the top level of a GraphDef (see export_graph_def), the
  /// functions it calls into its library.
  void write_graph_def(const Graph& g, tensorflow::GraphDef* out);

 private:
  struct Layout;
  class Builder;
  std::string fresh(const std::string& base);
  void write_layout(const Graph& g, const std::string& name, const Layout& l);

  std::shared_ptr<tensorflow::FunctionDefLibrary> library_;
  std::map<std::string, std::vector<int64_t>> written_;
  int next_id_ = 1;
  bool for_viewing_ = false;
};

/// Reads the functions of a FunctionDefLibrary (agc's or TensorFlow's) as
/// graphs: a call, If or While node gets the graphs of the functions it
/// names (and records their names: a call's "f", an If's or While's
/// "branches"); resource arguments bind to variables the caller gives, and a
/// resource a node passes on binds the callee's.
class FunctionDefReader {
 public:
  explicit FunctionDefReader(std::shared_ptr<const tensorflow::FunctionDefLibrary> library);

  /// Function `name` as a graph whose inputs are its non-resource arguments
  /// (nested in `parent` when given); `variables` (ids) bind its resource
  /// arguments in order. NotFoundError for a function not in the library
  /// and, listing every op type agc lacks in it and the functions it calls,
  /// for ops agc does not have; InvalidArgumentError for an input that
  /// names no argument or node output.
  std::shared_ptr<Graph> read(const std::string& name, const std::vector<int64_t>& variables,
                              Graph* parent = nullptr) const;
  const tensorflow::FunctionDef* find(const std::string& name) const;

 private:
  void check_ops(const std::string& name) const;

  std::shared_ptr<const tensorflow::FunctionDefLibrary> library_;
  std::map<std::string, const tensorflow::FunctionDef*> by_name_;
};

/// `g`, a tf.function's graph, as TensorFlow's GraphDef, the form
/// `concrete_fn.graph.as_graph_def(add_shapes=True)` gives: a Placeholder per
/// argument (and, of dtype resource, per variable it reads), its nodes with
/// GraphDef's input names ("add", "split:1", "^c"), and in the library the
/// functions its If, While and call nodes name. (A GraphDef names no
/// results: a traced graph returns through its Identity nodes.)
/// Written for viewing (FunctionDefWriter's `for_viewing`).
void export_graph_def(const Graph& g, tensorflow::GraphDef* out);
/// export_graph_def in protobuf text format: a .pbtxt that TensorBoard's
/// graph view and Netron open.
std::string graph_def_text(const Graph& g);

/// `g` as FunctionDef `name` (FunctionDefWriter on a library of its own).
ExportedFunction export_function_def(const Graph& g, const std::string& name);

/// A single FunctionDef read as FunctionDefReader reads it.
std::shared_ptr<Graph> import_function_def(const tensorflow::FunctionDef& def, const std::vector<int64_t>& variables);

}  // namespace ag
