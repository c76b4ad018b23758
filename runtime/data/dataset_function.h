// A Python function as a dataset transformation runs it (TF's
// StructuredFunctionWrapper): traced once, when the transformation is made,
// on placeholders named args_0, args_1, ... for the input's components (so a
// Python side effect in it happens once, and print shows symbolic tensors),
// compiled, then run on each element's components through the executor.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/data/element_spec.h"
#include "runtime/exec/compile.h"
#include "runtime/graph/graph.h"

namespace ag::data {

class DatasetFunction {
 public:
  /// Traces `fn` called with one argument per entry of `args` (each a nested
  /// structure of placeholders). `what` names the transformation in errors.
  DatasetFunction(const Value& fn, const std::vector<ElementSpec>& args, std::string what);

  /// The structure of what the function returns.
  const ElementSpec& output_spec() const { return output_; }
  /// Runs it on the flat components of its arguments; `out` gets the flat results.
  void run(std::span<const Tensor> in, std::vector<Tensor>& out) const;

  /// True when the traced graph also runs on a batch of elements: every op
  /// in it elementwise (same scalar function per element), its outputs of
  /// the element's shape with the batch dimension first (TF's map
  /// vectorization). Then run_batch on elements stacked along a new first
  /// dimension gives, row for row, what run gives element by element.
  bool batchable() const { return batched_ != nullptr; }
  void run_batch(std::span<const Tensor> in, std::vector<Tensor>& out) const;

 private:
  std::shared_ptr<Graph> graph_;
  Executable executable_;
  ElementSpec output_;
  std::shared_ptr<Graph> batched_;  // the graph on batched placeholders, or null
  Executable batched_executable_;
};

/// The arguments a transformation passes an element as: a tuple's items one
/// by one (TF unpacks tuples), anything else as one argument.
std::vector<ElementSpec> element_arguments(const ElementSpec& element);

}  // namespace ag::data
